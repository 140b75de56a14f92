"""Who may open each page: a test per page and persona (200, 302 to the login page, 403 or 404)."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from permits.models import Status
from permits.services import record_payment, upload_document
from tests.permits.conftest import ALL_PERSONAS, STAFF_PERSONAS, permit_in
from tests.upload_samples import PDF

pytestmark = pytest.mark.django_db


PERSONAS = ["anonymous", *ALL_PERSONAS]
STAFF = set(STAFF_PERSONAS)
ORG = {"contractor", "contractor_staff"}  # the permit below belongs to contractor_org
LOGIN = "login"  # 302 to the login page
ADMIN_LOGIN = "admin-login"


@pytest.fixture
def world(contractor, contractor_org, clerk, resident):
    permit = permit_in(Status.APPROVED, applicant=contractor, organization=contractor_org, fee_amount=Decimal("25.00"))
    Token.objects.get_or_create(user=contractor)
    doc = upload_document(
        permit=permit,
        kind="insurance",
        upload=SimpleUploadedFile("c.pdf", PDF),
        by=contractor,
    )
    payment = record_payment(permit=permit, amount=Decimal("10.00"), method="cash", by=clerk)
    return {"permit": permit, "doc": doc, "payment": payment, "org": contractor_org}


def expected_for(page: str, who: str):
    anonymous = who == "anonymous"
    if page == "home" or page == "public_status":
        return 200
    if page in {"admin_index", "admin_permits"}:
        return ADMIN_LOGIN if anonymous or who not in STAFF else 200
    if page in {"api_list"}:
        return 401 if anonymous else 200
    if page == "api_detail":
        return 401 if anonymous else 200 if (who in ORG or who in STAFF) else 404
    if anonymous:
        return LOGIN
    if page in {"apply", "my_applications"}:
        return 200
    if page == "office":
        return 200 if who in STAFF else 403
    if page in {"detail", "document", "receipt"}:
        return 200 if (who in ORG or who in STAFF) else 404
    if page == "upload":
        return 302 if (who in ORG or who in STAFF) else 404
    if page == "organization":
        return 200 if who in ORG else 404
    raise AssertionError(page)


def url_of(page: str, world) -> tuple[str, str]:
    permit = world["permit"]
    return {
        "home": ("get", reverse("home")),
        "apply": ("get", reverse("permits:apply")),
        "my_applications": ("get", reverse("permits:my_applications")),
        "office": ("get", reverse("permits:office")),
        "detail": ("get", permit.get_absolute_url()),
        "upload": ("post", reverse("permits:upload", args=[permit.number])),
        "document": ("get", world["doc"].get_absolute_url()),
        "receipt": (
            "get",
            reverse("permits:receipt_pdf", args=[world["payment"].receipt_number]),
        ),
        "public_status": ("get", permit.get_public_url()),
        "organization": (
            "get",
            reverse("permits:organization", args=[world["org"].pk]),
        ),
        "admin_index": ("get", reverse("admin:index")),
        "admin_permits": ("get", reverse("admin:permits_permit_changelist")),
        "api_list": ("get", "/api/v1/permits/"),
        "api_detail": ("get", f"/api/v1/permits/{permit.number}/"),
    }[page]


PAGES = [
    "home",
    "apply",
    "my_applications",
    "office",
    "detail",
    "upload",
    "document",
    "receipt",
    "public_status",
    "organization",
    "admin_index",
    "admin_permits",
    "api_list",
    "api_detail",
]


@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("page_name", PAGES)
def test_access_matrix(page_name, who, world, client, persona):
    if who != "anonymous":
        client.force_login(persona(who))
    method, url = url_of(page_name, world)
    if method == "post":
        response = client.post(url, {"kind": "photo", "upload": SimpleUploadedFile("p.pdf", PDF)})
    else:
        response = client.get(url)
    expected = expected_for(page_name, who)
    if expected == LOGIN:
        assert response.status_code == 302, response.status_code
        assert response["Location"].startswith(reverse("account_login") + "?next=")
    elif expected == ADMIN_LOGIN:
        assert response.status_code == 302, response.status_code
        assert response["Location"].startswith(reverse("admin:login") + "?next=")
    else:
        assert response.status_code == expected


@pytest.mark.parametrize("who", PERSONAS)
def test_api_token(who, client, persona):
    if who == "anonymous":
        response = client.post("/api/v1/auth/token/", {"username": "nobody", "password": "x"})
        assert response.status_code == 400
        assert response.json()["errors"][0]["message"]
        return
    user = persona(who)
    response = client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": "correct-horse-battery"},
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert client.get("/api/v1/permits/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200


def test_public_status_page_of_a_draft_is_404(client, resident):
    draft = permit_in(Status.DRAFT, applicant=resident)
    assert client.get(draft.get_public_url()).status_code == 404


def test_public_status_page_shows_no_personal_details(client, world):
    html = client.get(world["permit"].get_public_url()).content.decode()
    assert world["permit"].number in html
    assert world["permit"].applicant.email not in html


def test_resident_sees_only_their_own_and_their_organizations_applications(
    client, resident, contractor, contractor_org, outsider
):
    own = permit_in(Status.SUBMITTED, applicant=resident)
    org_permit = permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)
    someone_elses = permit_in(Status.SUBMITTED, applicant=outsider)
    client.force_login(resident)
    html = client.get(reverse("permits:my_applications")).content.decode()
    assert own.number in html and org_permit.number not in html and someone_elses.number not in html
    api = client.get("/api/v1/permits/").json()
    assert [p["number"] for p in api["results"]] == [own.number]

    from permits.models import Membership

    Membership.objects.create(user=resident, organization=contractor_org)
    html = client.get(reverse("permits:my_applications")).content.decode()
    assert own.number in html and org_permit.number in html and someone_elses.number not in html
    api = client.get("/api/v1/permits/").json()
    assert {p["number"] for p in api["results"]} == {own.number, org_permit.number}


def test_staff_office_lists_every_submitted_application(client, clerk, resident, outsider):
    a = permit_in(Status.SUBMITTED, applicant=resident)
    b = permit_in(Status.UNDER_REVIEW, applicant=outsider)
    draft = permit_in(Status.DRAFT, applicant=outsider)
    client.force_login(clerk)
    html = client.get(reverse("permits:office")).content.decode()
    assert a.number in html and b.number in html and draft.number not in html
    html = client.get(reverse("permits:office") + "?status=under_review").content.decode()
    assert a.number not in html and b.number in html


def test_permit_visible_once_when_applicant_is_also_org_member(client, contractor, contractor_org):
    permit = permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)
    client.force_login(contractor)
    html = client.get(reverse("permits:my_applications")).content.decode()
    assert html.count(f'href="{permit.get_absolute_url()}"') == 1
    assert client.get("/api/v1/permits/").json()["count"] == 1


@pytest.fixture
def demo(db):
    from permits.demo import load_demo

    return load_demo(password="demo-password-123")


@pytest.mark.parametrize(
    ("username", "landing"),
    [
        ("clerk", "/admin/"),
        # Every staff role but the clerk lands on its own work list (the clerk's is the admin index)
        ("dpw", "/office/today/"),
        ("inspector", "/office/today/"),
        ("building", "/office/today/"),
        ("police", "/office/today/"),
        ("board", "/office/today/"),
        ("president", "/office/today/"),
        ("resident", "/permits/"),
        ("contractor", "/permits/"),
        ("utility", "/permits/"),
    ],
)
def test_each_demo_account_logs_in_and_lands_on_its_start_page(demo, client, username, landing):
    response = client.post(
        reverse("account_login"),
        {"login": username, "password": "demo-password-123"},
        follow=True,
    )
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == landing
    assert response.wsgi_request.user.username == username


def test_demo_account_logs_in_by_email_too(demo, client):
    response = client.post(
        reverse("account_login"),
        {"login": "resident@theresa.example", "password": "demo-password-123"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/permits/"


def test_wrong_password_does_not_log_in(demo, client):
    response = client.post(reverse("account_login"), {"login": "clerk", "password": "wrong-password"})
    assert response.status_code == 200
    assert not response.wsgi_request.user.is_authenticated


def test_balance_is_not_multiplied_by_the_organizations_staff(
    client, contractor, contractor_staff, contractor_org, clerk
):
    permit = permit_in(Status.APPROVED, applicant=contractor, organization=contractor_org)
    from permits.models import Permit

    Permit.objects.filter(pk=permit.pk).update(fee_amount=Decimal("100.00"))
    record_payment(permit=permit, amount=Decimal("10.00"), method="cash", by=clerk)
    from permits.selectors import permits_visible_to

    for user in (contractor, contractor_staff, clerk):
        seen = permits_visible_to(user).get(pk=permit.pk)
        assert seen.amount_paid == Decimal("10.00")
        assert seen.balance_due == Decimal("90.00")
    client.force_login(contractor)
    html = client.get(reverse("permits:my_applications")).content.decode()
    assert "$90.00" in html


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/street-openings/",
        "/api/v1/sidewalk-permits/",
        "/api/v1/street-privilege-permits/",
        "/api/v1/street-use-permits/",
    ],
)
def test_each_permit_types_api_gives_an_anonymous_caller_401_json(url):
    response = APIClient().get(url)
    assert response.status_code == 401 and "errors" in response.json()
