"""Malformed, oversized and hostile input to each form: a clear message naming the field, nothing stored."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from permits.models import Membership, Organization, Payment, Permit, Status
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('x')</script>"
GOOD_SIGNUP = {
    "email": "rita@example.com",
    "first_name": "Rita",
    "last_name": "Anderson",
    "applicant_type": "resident",
    "organization_name": "",
    "phone": "",
    "password1": "a-long-Unusual-passphrase-7",
    "password2": "a-long-Unusual-passphrase-7",
}


def signup(client, **changes):
    return client.post(reverse("account_signup"), {**GOOD_SIGNUP, **changes})


def users():
    return get_user_model().objects.count()


def test_signup_page_shows_our_extra_fields_with_labels(client):
    html = client.get(reverse("account_signup")).content.decode()
    for label in (
        "First name",
        "Last name",
        "I am applying as",
        "A resident or property owner",
        "A contractor",
        "A utility company",
        "Organization name",
        "Phone",
        "Email",
        "Password",
    ):
        assert label in html
    assert 'for="id_first_name"' in html and 'for="id_organization_name"' in html
    assert "form-control" in html  # Bootstrap styling, as on the rest of the site


def test_login_page_labels_the_login_box(client):
    import re

    label = re.compile(r'<label\s+for="id_login"[^>]*>\s*Username or email')
    assert label.search(client.get(reverse("account_login")).content.decode())
    after_error = client.post(reverse("account_login"), {"login": "nobody", "password": "wrong"})
    assert label.search(after_error.content.decode())


def test_resident_signup_sends_a_verification_email(client):
    response = signup(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(email="rita@example.com")
    assert (user.first_name, user.last_name) == ("Rita", "Anderson")
    assert not user.memberships.exists()
    assert len(mail.outbox) == 1 and "/accounts/confirm-email/" in mail.outbox[0].body


def test_contractor_signup_creates_the_company_with_the_user_as_manager(client):
    response = signup(
        client,
        applicant_type="contractor",
        organization_name="  Brandt Excavating LLC ",
        phone="920-555-0142",
        email="carl@example.com",
    )
    assert response.status_code == 302
    org = Organization.objects.get()
    assert org.name == "Brandt Excavating LLC" and org.kind == "contractor" and org.phone == "920-555-0142"
    membership = Membership.objects.get()
    assert membership.user.email == "carl@example.com" and membership.is_manager


def test_signup_with_script_in_names_is_stored_as_text_and_escaped_on_output(client):
    response = signup(client, first_name=SCRIPT, last_name="<b>Bold</b>")
    assert response.status_code == 302
    user = get_user_model().objects.get()
    assert user.first_name == SCRIPT
    user.emailaddress_set.update(verified=True)
    client.force_login(user)
    permit = permit_in(
        Status.SUBMITTED,
        applicant=user,
        location_description=SCRIPT,
        work_description=SCRIPT,
    )
    for url in (
        reverse("permits:my_applications"),
        permit.get_absolute_url(),
        reverse("permits:apply"),
    ):
        html = client.get(url).content.decode()
        assert SCRIPT not in html and "<b>Bold</b>" not in html
    html = client.get(permit.get_absolute_url()).content.decode()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"applicant_type": "admin"}, "applicant_type", "Select a valid choice"),
        ({"applicant_type": ""}, "applicant_type", "This field is required"),
        ({"first_name": ""}, "first_name", "This field is required"),
        ({"first_name": "x" * 151}, "first_name", "at most 150 characters"),
        ({"email": "not-an-email"}, "email", "Enter a valid email address"),
        ({"password2": "something-else-entirely-9"}, "password2", "same password"),
        ({"password1": "short", "password2": "short"}, "password1", "too short"),
        (
            {"applicant_type": "contractor", "organization_name": ""},
            "organization_name",
            "must give the company",
        ),
        (
            {"applicant_type": "utility", "organization_name": "x" * 201},
            "organization_name",
            "at most 200 characters",
        ),
        ({"phone": "9" * 41}, "phone", "at most 40 characters"),
    ],
)
def test_signup_bad_input_names_the_field_and_stores_nothing(client, changes, field, message):
    response = signup(client, **changes)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert message in " ".join(errors[field])
    assert users() == 0 and not Organization.objects.exists()
    assert not mail.outbox


def test_signup_with_a_company_already_registered_is_refused(client, contractor_org):
    response = signup(
        client,
        applicant_type="contractor",
        organization_name=contractor_org.name.upper(),
    )
    assert "already registered" in " ".join(response.context["form"].errors["organization_name"])
    assert users() == 0 and Organization.objects.count() == 1


def test_signup_with_an_email_already_registered_creates_no_account_and_does_not_reveal_it(client, resident):
    # allauth prevents account enumeration: the page looks the same, and the owner of the address is told by email.
    response = signup(client, email=resident.email.upper())
    assert response.status_code == 302
    assert users() == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to[0].lower() == resident.email


def test_signup_with_wrong_types_is_refused(client):
    response = client.post(
        reverse("account_signup"),
        {
            **GOOD_SIGNUP,
            "applicant_type": ["resident", "contractor"],
            "first_name": ["a", "b"],
        },
    )
    assert response.status_code in (200, 302)
    # A list for a single field takes the last value: Django's QueryDict behaviour, never a crash.
    assert users() in (0, 1)


def test_signup_rejects_a_resident_with_an_organization_name_silently_ignored(client):
    response = signup(client, organization_name="Sneaky LLC")
    assert response.status_code == 302
    assert not Organization.objects.exists()


# --- Payments (admin) ---------------------------------------------------------------------------------------


@pytest.fixture
def approved(resident):
    permit = permit_in(Status.APPROVED, applicant=resident)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("75.00"))
    return permit


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"amount": "seventy", "method": "cash"}, "amount", "Enter a number"),
        ({"amount": "75.001", "method": "cash"}, "amount", "2 decimal places"),
        ({"amount": "1e9", "method": "cash"}, "amount", ""),
        ({"amount": "-5", "method": "cash"}, "amount", "more than $0.00"),
        ({"amount": "NaN", "method": "cash"}, "amount", ""),
        ({"amount": "75", "method": "barter"}, "method", "Select a valid choice"),
        (
            {"amount": "75", "method": "check", "reference": ""},
            "reference",
            "check number",
        ),
        (
            {"amount": "75", "method": "cash", "reference": "x" * 61},
            "reference",
            "at most 60 characters",
        ),
        (
            {"amount": "75", "method": "cash", "note": "x" * 201},
            "note",
            "at most 200 characters",
        ),
    ],
)
def test_payment_bad_input(client, clerk, approved, data, field, message):
    client.force_login(clerk)
    response = client.post(reverse("admin:permits_permit_payment", args=[approved.pk]), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert message in " ".join(errors[field])
    assert not Payment.objects.exists()


def test_payment_note_with_script_is_escaped_in_the_admin(client, clerk, approved):
    client.force_login(clerk)
    client.post(
        reverse("admin:permits_permit_payment", args=[approved.pk]),
        {"amount": "75", "method": "card", "reference": SCRIPT, "note": SCRIPT},
    )
    payment = Payment.objects.get()
    assert payment.reference == SCRIPT
    html = client.get(reverse("admin:permits_permit_change", args=[approved.pk])).content.decode()
    assert SCRIPT not in html


# --- Status change (admin) ----------------------------------------------------------------------------------


def test_status_change_to_a_status_not_offered_is_refused(client, clerk, resident):
    permit = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(clerk)
    response = client.post(reverse("admin:permits_permit_status", args=[permit.pk]), {"to": "closed"})
    assert response.status_code == 200
    assert "to" in response.context["form"].errors
    assert Permit.objects.get(pk=permit.pk).status == Status.SUBMITTED


def test_denial_without_a_reason_is_refused(client, clerk, resident):
    permit = permit_in(Status.UNDER_REVIEW, applicant=resident)
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_permit_status", args=[permit.pk]),
        {"to": "denied", "reason": " "},
    )
    assert "reason" in response.context["form"].errors
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW


def test_status_change_with_script_in_reason_is_escaped_for_the_applicant(client, clerk, resident):
    permit = permit_in(Status.UNDER_REVIEW, applicant=resident)
    client.force_login(clerk)
    client.post(
        reverse("admin:permits_permit_status", args=[permit.pk]),
        {"to": "denied", "reason": SCRIPT},
    )
    assert Permit.objects.get(pk=permit.pk).status == Status.DENIED
    client.force_login(resident)
    html = client.get(permit.get_absolute_url()).content.decode()
    assert SCRIPT not in html and "&lt;script&gt;" in html


# --- API ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"username", "password"}),
        ({"username": "resident"}, {"password"}),
        ({"username": ["a"], "password": {"b": 1}}, {"username", "password"}),
        ({"username": True, "password": "x"}, {"username"}),
    ],
)
def test_api_token_bad_input_answers_json_errors(client, resident, body, fields):
    response = client.post("/api/v1/auth/token/", body, content_type="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {e["field"] for e in errors} == fields
    for error in errors:
        assert set(error) == {"field", "code", "citation", "message"} and error["message"]


def test_api_token_malformed_json_answers_json_errors(client):
    response = client.post("/api/v1/auth/token/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]


def test_api_token_wrong_password_answers_json_errors(client, resident):
    response = client.post(
        "/api/v1/auth/token/",
        {"username": "resident", "password": "nope"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "Unable to log in" in response.json()["errors"][0]["message"]


def test_api_unknown_permit_is_json_404(client, resident):
    client.force_login(resident)
    response = client.get("/api/v1/permits/SO-2026-0001/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_api_is_read_only(client, resident):
    permit = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(resident)
    assert client.post("/api/v1/permits/", {"kind": "sidewalk"}).status_code == 405
    url = f"/api/v1/permits/{permit.number}/"
    assert client.patch(url, {"status": "approved"}, content_type="application/json").status_code == 405
    assert client.delete(url).status_code == 405
    assert Permit.objects.get(pk=permit.pk).status == Status.SUBMITTED


# --- Atomic requests ------------------------------------------------------------------------------------------


def test_a_view_that_fails_after_writing_stores_nothing(client, contractor, contractor_org, monkeypatch):
    """ATOMIC_REQUESTS: the membership written before the failure is rolled back with the request."""
    from permits.accounts import invitations

    newcomer = get_user_model().objects.create_user("newcomer", "newcomer@example.com", "x")

    def add_then_fail(**kwargs):
        Membership.objects.create(organization=kwargs["organization"], user=newcomer)
        raise RuntimeError("disk full")

    monkeypatch.setattr(invitations, "invite", add_then_fail)
    client.raise_request_exception = False
    client.force_login(contractor)
    response = client.post(
        reverse("permits:organization", args=[contractor_org.pk]),
        {"email": "newcomer@example.com"},
    )
    assert response.status_code == 500
    assert not Membership.objects.filter(user=newcomer).exists()


def test_verification_email_names_the_village_site_not_example_com(client):
    signup(client)
    body = mail.outbox[0].body
    assert "Village of Theresa permits" in body and "example.com" not in body.replace("rita@example.com", "")


def test_office_filter_with_hostile_status_is_ignored(client, clerk, resident):
    permit = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(clerk)
    response = client.get(reverse("permits:office"), {"status": '"><script>alert(1)</script>', "page": "x<y"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<script>alert(1)" not in html and "alert(1)" not in html
    assert permit.number in html
