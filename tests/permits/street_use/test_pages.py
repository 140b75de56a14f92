"""Street use pages: each role's access, and lack of it; bad input named by field and rule with nothing stored; the
events list's query count constant in its rows."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from permits.models import Notice, Permit, Status
from permits.street_use import services
from permits.street_use.models import PetitionSignature
from tests.permits.street_use.conftest import FRIDAY, address_of, at, grant_and_issue, valid_data

pytestmark = pytest.mark.django_db


def _form(street, segment, **overrides):
    data = valid_data(street, segment, **overrides)
    post = {k: v for k, v in data.items() if k not in ("street", "segments", "starts_at", "ends_at")}
    post["street"] = street.pk
    post["segments"] = [segment.pk]
    post["starts_at"] = data["starts_at"].strftime("%Y-%m-%dT%H:%M")
    post["ends_at"] = data["ends_at"].strftime("%Y-%m-%dT%H:%M")
    return post


def test_apply_needs_a_sign_in(client, db):
    response = client.get(reverse("permits:street_use_apply"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_303_15b_resident_applies_online_and_sees_the_count(client, spring, street, segment, roster, resident):
    client.force_login(resident)
    assert client.get(reverse("permits:street_use_apply")).status_code == 200
    response = client.post(reverse("permits:street_use_apply"), _form(street, segment))
    permit = Permit.objects.get()
    assert response.status_code == 302 and response["Location"] == permit.get_absolute_url()
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "0 of 0" not in page and "none of the 10 addresses along the portion has declared" in page
    assert "Not yet declared: 10 addresses" in page
    assert reverse("permits:street_use_petition", args=[permit.public_token]) in page


def test_303_15d_5_the_form_names_the_field_and_the_rule_and_stores_nothing(client, spring, street, segment, resident):
    client.force_login(resident)
    response = client.post(
        reverse("permits:street_use_apply"),
        _form(street, segment, ends_at=at(FRIDAY.replace(day=18), 1), applicant_phone=""),
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "§ 303-15D(5)" in page and "§ 303-15B(1)" in page and 'href="#id_ends_at"' in page
    assert not Permit.objects.exists()


def test_303_15d_4_every_missing_item_is_named_once_and_the_denial_said_once(client, spring, resident):
    client.force_login(resident)
    page = client.post(reverse("permits:street_use_apply"), {"proposed_use": ""}).content.decode()
    assert page.count("Give ") >= 12  # each missing item named, with its clause
    assert "Give the applicant&#x27;s name (§ 303-15B(1), § 303-15D(4))" in page
    assert page.count("is denied") == 1
    assert not Permit.objects.exists()


def test_the_form_starts_with_the_accounts_name_and_telephone(client, db, contractor, contractor_org):
    contractor.first_name, contractor.last_name = "Carl", "Brandt"
    contractor.save()
    contractor_org.phone = "920-555-0142"
    contractor_org.save()
    client.force_login(contractor)
    form = client.get(reverse("permits:street_use_apply")).context["form"]
    assert form["applicant_name"].value() == "Carl Brandt"
    assert form["applicant_phone"].value() == "920-555-0142"


def test_an_account_without_a_telephone_leaves_the_field_empty(client, db, resident):
    resident.first_name, resident.last_name = "Rita", "Anderson"
    resident.save()
    client.force_login(resident)
    form = client.get(reverse("permits:street_use_apply")).context["form"]
    assert form["applicant_name"].value() == "Rita Anderson"
    assert not form["applicant_phone"].value()


def test_303_15b_a_chapter_245_event_is_told_it_needs_nothing(client, spring, street, segment, resident):
    client.force_login(resident)
    response = client.post(reverse("permits:street_use_apply"), _form(street, segment, chapter_245_permit="P-7"))
    assert response.status_code == 400 and "needs no street use permit" in response.content.decode()
    assert not Permit.objects.exists()


def test_another_resident_cannot_see_the_permit(client, application, outsider):
    client.force_login(outsider)
    assert client.get(application.get_absolute_url()).status_code == 404


def test_303_15f_neighbour_consents_from_the_public_page_with_the_emailed_code(client, application, parcels, clerk):
    address = address_of(application, parcels[0])
    services.bind_household_email(permit=application, address=address, email="jo0@example.com", by=clerk)
    url = reverse("permits:street_use_petition", args=[application.public_token])
    assert client.get(url).status_code == 200
    bad = client.post(url, {"address": address.pk, "name": "", "adults": 2, "email": "nope"})
    assert bad.status_code == 400 and not Notice.objects.filter(template="street_use_consent_code").exists()
    response = client.post(
        url, {"address": address.pk, "name": "Jo Neighbour0", "adults": 2, "email": "jo0@example.com"}
    )
    assert response.status_code == 302
    code = re.search(r"Your code: (\d{6})", Notice.objects.get(template="street_use_consent_code").body).group(1)
    consent = response["Location"]
    assert "Jo Neighbour0" in client.get(consent).content.decode()
    assert PetitionSignature.objects.count() == 0  # nothing recorded until the code is entered
    wrong = client.post(consent, {"code": "000000" if code != "000000" else "111111"})
    assert wrong.status_code == 400 and "not the code we sent" in wrong.content.decode()
    assert client.post(consent, {"code": code}).status_code == 302
    assert PetitionSignature.objects.get().address == address
    assert client.post(consent, {"code": code}).status_code == 400  # one-time


def test_303_15f_the_page_answers_the_same_for_an_email_not_on_file(client, application, parcels):
    url = reverse("permits:street_use_petition", args=[application.public_token])
    address = address_of(application, parcels[0])
    response = client.post(url, {"address": address.pk, "name": "Someone", "adults": 1, "email": "x@example.com"})
    assert response.status_code == 302 and "/street-use/consent/" in response["Location"]
    assert not Notice.objects.filter(template="street_use_consent_code").exists()


def test_303_15f_the_petition_page_does_not_show_who_lives_where(client, application, parcels, clerk):
    address = address_of(application, parcels[0])
    services.bind_household_email(permit=application, address=address, email="jo0@example.com", by=clerk)
    page = client.get(reverse("permits:street_use_petition", args=[application.public_token])).content.decode()
    assert "jo0@example.com" not in page


@pytest.mark.parametrize("persona", ["resident", "outsider", "president", "police_chief", "board_member"])
def test_the_clerks_page_is_the_clerks(client, application, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_use_manage", args=[application.number])).status_code in (403, 404)
    url = reverse("permits:street_use_act", args=[application.number, "verify"])
    assert client.post(url).status_code in (403, 404)


def test_303_15f_clerk_declares_uploads_a_sworn_page_enters_accepts_and_verifies(client, application, roster, clerk):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.upload_samples import PNG

    client.force_login(clerk)
    page = client.get(reverse("permits:street_use_manage", args=[application.number]))
    assert page.status_code == 200 and "Not declared: holds the count back" in page.content.decode()
    ids = re.findall(r' id="([^"]+)"', page.content.decode())
    assert len(ids) == len(set(ids))  # several forms on one page, no id twice

    def act(action, data):
        return client.post(reverse("permits:street_use_act", args=[application.number, action]), data)

    for address in services.addresses_of(application.street_use):
        declared = {"declare-address": address.pk, "declare-adults": 2, "declare-source": "page 1"}
        assert act("declare", declared).status_code == 302
    upload = {"page-circulator_name": "Rita Anderson", "page-sworn_on": "2026-05-04"}
    refused = act("page", upload | {"page-file": SimpleUploadedFile("p.png", PNG)})
    assert refused.status_code == 400  # the sworn verification is required
    assert 'href="#id_page-sworn"' in refused.content.decode()
    assert act("page", upload | {"page-sworn": "on", "page-file": SimpleUploadedFile("p.png", PNG)}).status_code == 302
    sheet = application.street_use.pages.get()
    for parcel, name in roster[:15]:
        line = {"paper-page": sheet.pk, "paper-address": address_of(application, parcel).pk, "paper-signer_name": name}
        act("paper", line | {"paper-signed_on": "2026-05-04"})
    assert services.petition_count(application.street_use).counted == 0  # not before the page is accepted
    act("accept", {"accept-page": sheet.pk})
    assert services.petition_count(application.street_use).counted == 15
    act("verify", {})
    application.refresh_from_db()
    assert application.status == Status.UNDER_REVIEW


def test_303_15f_verifying_14_of_20_shows_why(client, application, roster, clerk):
    from tests.permits.street_use.conftest import sign

    sign(application, roster[:14], clerk)
    client.force_login(clerk)
    response = client.post(reverse("permits:street_use_act", args=[application.number, "verify"]), follow=True)
    assert "14 of the 15" in response.content.decode()
    application.refresh_from_db()
    assert application.status == Status.SUBMITTED


@pytest.mark.parametrize("persona", ["president", "police_chief", "police_officer"])
def test_303_15h_terminate_from_the_phone_page(client, application, roster, clerk, spring, persona, request):
    permit = grant_and_issue(application, roster, clerk)
    spring.move_to(at(FRIDAY, 20))
    client.force_login(request.getfixturevalue(persona))
    url = reverse("permits:street_use_terminate", args=[permit.number])
    assert client.get(url).status_code == 200
    assert client.post(url, {"reason": ""}).status_code == 400
    response = client.post(url, {"reason": "Crowd blocking the fire lane"})
    assert response.status_code == 302
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "Terminated (§ 303-15H)" in page and "Crowd blocking the fire lane" in page


@pytest.mark.parametrize("persona", ["clerk", "resident", "board_member", "dpw_director"])
def test_303_15h_others_cannot_open_the_terminate_page(client, application, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_use_terminate", args=[application.number])).status_code == 403


def test_the_permit_pdf_once_issued(client, application, roster, clerk, resident):
    client.force_login(resident)
    url = reverse("permits:street_use_pdf", args=[application.number])
    assert client.get(url).status_code == 404
    grant_and_issue(application, roster, clerk)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


@pytest.mark.parametrize("persona", ["resident", "outsider", "dpw_director"])
def test_the_events_list_is_for_the_president_the_police_and_the_clerk(client, persona, request, db):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_use_in_progress")).status_code == 403


def test_the_events_list_query_count_is_constant(
    client, spring, street, segment, roster, clerk, resident, president, django_assert_max_num_queries
):
    for _ in range(3):
        permit = services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))
        grant_and_issue(permit, roster, clerk)
    client.force_login(president)
    url = reverse("permits:street_use_in_progress")
    with django_assert_max_num_queries(12) as few:
        response = client.get(url)
    assert response.status_code == 200 and response.content.decode().count("card card-body") == 3
    for _ in range(3):
        permit = services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))
        grant_and_issue(permit, roster, clerk)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url)
    assert response.content.decode().count("card card-body") == 6


def test_303_15f_the_clerk_names_the_petitions_area(client, spring, street, segment, roster, resident, clerk):
    permit = services.apply_for_street_use(applicant=resident, data=valid_data(street))  # no blocks chosen
    petition = reverse("permits:street_use_petition", args=[permit.public_token])
    assert "has not yet named the blocks" in client.get(petition).content.decode()
    assert services.petition_count(permit.street_use).addresses == 0
    client.force_login(clerk)
    client.post(reverse("permits:street_use_act", args=[permit.number, "area"]), {"segments": [segment.pk]})
    assert services.petition_count(permit.street_use).addresses == 10
    client.logout()
    assert "Email me a code" in client.get(petition).content.decode()


def test_the_events_list_is_capped_and_indexed(client, president, db):
    """The events not over are found through an index on ends_at, and the page count is capped."""
    from permits.paging import CappedPaginator
    from permits.street_use.models import StreetUse

    client.force_login(president)
    response = client.get(reverse("permits:street_use_in_progress"), {"page": 100000})
    assert isinstance(response.context["page"].paginator, CappedPaginator)
    assert any(i.fields == ["ends_at"] for i in StreetUse._meta.indexes)


def test_303_15f_one_connection_asks_ten_codes_an_hour(client, application):
    from permits.street_use.views import CODE_REQUESTS_PER_HOUR

    url = reverse("permits:street_use_petition", args=[application.public_token])
    for _ in range(CODE_REQUESTS_PER_HOUR):
        assert client.post(url, {"name": ""}, REMOTE_ADDR="198.51.100.7").status_code == 400
    assert client.post(url, {"name": ""}, REMOTE_ADDR="198.51.100.7").status_code == 429
    assert client.post(url, {"name": ""}, REMOTE_ADDR="198.51.100.8").status_code == 400  # another connection


def test_303_15e_the_clerk_records_the_fee_on_the_street_use_page_then_issues(client, application, roster, clerk):
    permit = grant_and_issue(application, roster, clerk, issue=False)
    assert permit.status == Status.APPROVED and permit.balance_due > 0
    client.force_login(clerk)
    manage = reverse("permits:street_use_manage", args=[permit.number])
    assert "Record the fee payment (§ 303-15E)" in client.get(manage).content.decode()
    pay = reverse("permits:street_use_act", args=[permit.number, "payment"])
    client.post(pay, {"pay-amount": str(permit.balance_due), "pay-method": "cash", "pay-reference": ""})
    permit.refresh_from_db()
    assert permit.balance_due == 0 and permit.payments.count() == 1
    client.post(reverse("permits:street_use_act", args=[permit.number, "issue"]))
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED


def test_303_15e_a_payment_of_nothing_is_refused_naming_the_amount_and_stores_nothing(
    client, application, roster, clerk
):
    permit = grant_and_issue(application, roster, clerk, issue=False)
    client.force_login(clerk)
    pay = reverse("permits:street_use_act", args=[permit.number, "payment"])
    response = client.post(pay, {"pay-amount": "0", "pay-method": "cash"})
    assert response.status_code == 400 and "The amount must be more than $0.00." in response.content.decode()
    assert not permit.payments.exists()


@pytest.mark.parametrize("persona", ["resident", "dpw_director", "police_chief"])
def test_303_15e_only_the_clerk_records_a_street_use_payment(client, application, roster, clerk, persona, request):
    permit = grant_and_issue(application, roster, clerk, issue=False)
    client.force_login(request.getfixturevalue(persona))
    pay = reverse("permits:street_use_act", args=[permit.number, "payment"])
    response = client.post(pay, {"pay-amount": str(permit.balance_due), "pay-method": "cash"})
    assert response.status_code in (403, 404) and not permit.payments.exists()
