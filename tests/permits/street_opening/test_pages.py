"""The web pages: the apply form (same messages as the API, warnings before submission), the permit page, the
Village's actions, the permit PDF."""

from datetime import date, datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.models import Permit, Status
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.forms import StreetOpeningForm
from permits.street_opening.models import StreetOpening
from tests.permits.street_opening.conftest import CHICAGO, annual_bond, other_org_permit, repaved_in_2023

pytestmark = pytest.mark.django_db

APPLY = "/street-openings/apply/"


def form_data(street, org=None, **overrides):
    data = {
        "street": street.pk,
        "location_description": "In front of 118 Henni Street",
        "work_description": "New sewer lateral",
        "method": "Open cut",
        "start_date": "2026-05-11",
        "end_date": "2026-05-13",
        "surface": "bituminous",
        "existing_pavement_inches": "3",
        "insurance_per_person": "500000",
        "insurance_per_accident": "500000",
        "insurance_property_damage": "500000",
        "insurance_expires": "2027-01-31",
        "annual_bond": "1",
        "statement_signed_by": "Carl Brandt",
        "statement_undertakings": list(ordinance.UNDERTAKINGS),
        "diggers_hotline_ticket": "20261234567",
        "diggers_hotline_requested_at": "2026-05-04T09:00",
    }
    if org is not None:
        data["organization"] = org.pk
    data.update(overrides)
    return data


def test_apply_page_requires_login(client):
    assert client.get(APPLY).status_code == 302


def test_contractor_applies_on_the_web(spring, client, contractor, contractor_org, street, bond):
    client.force_login(contractor)
    response = client.post(APPLY, form_data(street, contractor_org))
    permit = Permit.objects.get()
    assert response.status_code == 302 and response.url == permit.get_absolute_url()
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "Street opening" in page and "20261234567" in page and "Entered by applicant" in page


def test_form_shows_the_same_messages_as_the_rules(spring, client, contractor, street, bond):
    client.force_login(contractor)
    response = client.post(
        APPLY, form_data(street, insurance_per_person="499999", start_date="2026-11-16", end_date="2026-11-20")
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Liability insurance must be at least $500,000 per person (§ 303-4G)" in page
    assert "except emergency excavations (§ 303-5A)" in page
    assert not Permit.objects.exists()


def test_form_errors_name_their_fields(spring, contractor, street, bond):
    form = StreetOpeningForm(form_data(street, statement_undertakings=[], method=""), user=contractor)
    assert not form.is_valid()
    assert "§ 303-4H(1)" in form.errors["statement_undertakings"][0]
    assert "§ 303-4B" in form.errors["method"][0]


def test_303_5i_warning_shown_before_submission_and_must_be_acknowledged(
    spring, client, contractor, street, bond, clerk, contractor_org
):
    repaved_in_2023(street, clerk)
    client.force_login(contractor)
    first = client.post(APPLY, form_data(street, contractor_org))
    assert first.status_code == 400
    assert "repaved on June 15, 2023" in first.content.decode() and "(§ 303-5I)" in first.content.decode()
    assert not Permit.objects.exists()
    second = client.post(APPLY, form_data(street, contractor_org, acknowledge_warnings="on"))
    assert second.status_code == 302
    assert Permit.objects.get().status == Status.SUBMITTED


def test_303_5a_winter_emergency_warns_before_submission(client, contractor, contractor_org, street, clerk):
    import time_machine

    annual_bond(contractor_org, clerk, surety="S", amount=1)
    client.force_login(contractor)
    with time_machine.travel(datetime(2026, 12, 1, 10, 0, tzinfo=CHICAGO), tick=False):
        response = client.post(
            APPLY,
            form_data(
                street,
                contractor_org,
                emergency="on",
                emergency_began_on="2026-12-01",
                start_date="2026-12-01",
                end_date="2026-12-02",
                diggers_hotline_ticket="",
                diggers_hotline_requested_at="",
            ),
        )
    assert response.status_code == 400
    assert "must determine it an emergency before the permit is approved (§ 303-5A)" in response.content.decode()


def test_permit_page_of_another_company_is_404(spring, client, contractor, street, bond):
    rival = other_org_permit(street)
    client.force_login(contractor)
    assert client.get(rival.get_absolute_url()).status_code == 404
    assert client.get(reverse("permits:street_opening_add_ticket", args=[rival.number])).status_code == 404


def test_manage_page_is_for_village_staff_only(application, client, contractor, clerk):
    url = reverse("permits:street_opening_manage", args=[application.number])
    client.force_login(contractor)
    assert client.get(url).status_code == 403
    client.force_login(clerk)
    assert "Completeness review" in client.get(url).content.decode()


def test_staff_take_the_permit_to_issued_through_the_pages(application, client, clerk, dpw_director):
    def act(user, action, data=None):
        client.force_login(user)
        return client.post(reverse("permits:street_opening_act", args=[application.number, action]), data or {})

    act(clerk, "review")
    act(dpw_director, "approve", {"conditions": "Flagger at Main"})
    act(clerk, "issue")  # refused: unpaid
    application.refresh_from_db()
    assert application.status == Status.APPROVED
    act(clerk, "payment", {"amount": "50.00", "method": "check", "reference": "1001"})
    act(clerk, "issue")
    application.refresh_from_db()
    assert application.status == Status.ISSUED
    assert application.street_opening.dpw_conditions == "Flagger at Main"


def test_inspector_may_not_start_the_review_from_the_page(application, client, inspector):
    client.force_login(inspector)
    response = client.post(reverse("permits:street_opening_act", args=[application.number, "review"]), follow=True)
    assert "You may not review street opening applications." in response.content.decode()
    application.refresh_from_db()
    assert application.status == Status.SUBMITTED


def test_refused_approval_lists_every_reason_on_the_page(
    spring, client, contractor, contractor_org, street, clerk, dpw_director
):
    from tests.permits.street_opening.conftest import valid_data

    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(street, diggers_hotline_ticket="", annual_bond=False),
    )
    so.begin_review(permit=permit, by=clerk)
    client.force_login(dpw_director)
    page = client.post(reverse("permits:street_opening_act", args=[permit.number, "approve"]), follow=True)
    text = page.content.decode()
    assert "Diggers Hotline ticket is required" in text and "(§ 303-4H(3))" in text


@pytest.mark.slow
def test_permit_pdf_has_number_dates_conditions_notices_and_status_link(issued, client, contractor, settings):
    settings.SITE_URL = "https://permits.theresa.example"
    client.force_login(contractor)
    response = client.get(reverse("permits:street_opening_pdf", args=[issued.number]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    from django.template.loader import render_to_string

    html = render_to_string(
        "pdf/street_opening_permit.html",
        {
            "permit": issued,
            "so": issued.street_opening,
            "tickets": issued.street_opening.tickets.all(),
            "renewals": [],
            "SITE_URL": settings.SITE_URL,
        },
    )
    for text in (
        issued.number,
        "Brandt Excavating LLC",
        "June 3, 2026",
        "One lane open each way",
        "24 hours before excavation",
        "12 hours before",
        f"https://permits.theresa.example{issued.get_public_url()}",
    ):
        assert text in html


def test_pdf_is_not_available_before_issue(approved, client, contractor):
    client.force_login(contractor)
    assert client.get(reverse("permits:street_opening_pdf", args=[approved.number])).status_code == 404


def test_permittee_adds_a_ticket_and_an_inspector_verifies_it(application, client, contractor, inspector):
    client.force_login(contractor)
    response = client.post(
        reverse("permits:street_opening_add_ticket", args=[application.number]),
        {"number": "20265550000", "contractor": "Sub Boring Co", "requested_at": "2026-05-04T08:00"},
    )
    assert response.status_code == 302
    ticket = application.street_opening.tickets.get(number="20265550000")
    client.force_login(contractor)
    client.post(reverse("permits:street_opening_verify_ticket", args=[application.number, ticket.pk]))
    ticket.refresh_from_db()
    assert ticket.verified_at is None  # a contractor cannot verify
    client.force_login(inspector)
    client.post(reverse("permits:street_opening_verify_ticket", args=[application.number, ticket.pk]))
    ticket.refresh_from_db()
    assert ticket.verified_by == inspector


def test_303_4e_permittee_asks_in_writing_the_clerk_grants_and_the_renewal_takes_effect_when_paid(
    issued, client, contractor, clerk
):
    client.force_login(contractor)
    response = client.post(
        reverse("permits:street_opening_request_renewal", args=[issued.number]),
        {"work_begun_on": "2026-05-04", "reason": "Rain"},
    )
    assert response.status_code == 302
    client.force_login(clerk)
    page = client.get(reverse("permits:street_opening_manage", args=[issued.number]))
    assert "Rain" in page.content.decode()
    client.post(reverse("permits:street_opening_decide_renewal", args=[issued.number]), {"decision": "grant"})
    issued.refresh_from_db()
    assert issued.expires_on == date(2026, 6, 3) and issued.fee_amount == Decimal("75.00")  # fee due first
    client.post(
        reverse("permits:street_opening_act", args=[issued.number, "payment"]), {"amount": "25.00", "method": "cash"}
    )
    issued.refresh_from_db()
    assert issued.expires_on == date(2026, 7, 3)


def test_303_4e_a_request_without_its_reason_is_refused_on_the_form(issued, client, contractor):
    client.force_login(contractor)
    response = client.post(
        reverse("permits:street_opening_request_renewal", args=[issued.number]), {"work_begun_on": "2026-05-04"}
    )
    assert response.status_code == 400
    assert not issued.street_opening.renewal_requests.exists()


def test_303_5a_a_board_member_alone_is_not_the_board(application, client, board_member):
    client.force_login(board_member)
    response = client.post(
        reverse("permits:street_opening_act", args=[application.number, "emergency"]),
        {"reason": "Water main break under the street"},
        follow=True,
    )
    assert "designee it named for § 303-5A" in response.content.decode()
    assert not hasattr(StreetOpening.objects.get(pk=application.street_opening.pk), "emergency_determination")


def test_303_5a_the_boards_designee_records_a_determination_from_the_page(application, client, board_member):
    from tests.board_world import designate

    designate("303-5A", user=board_member)
    client.force_login(board_member)
    client.post(
        reverse("permits:street_opening_act", args=[application.number, "emergency"]),
        {"reason": "Water main break under the street"},
    )
    assert application.street_opening.emergency_determination.determined_by == board_member


def test_my_applications_query_count_does_not_grow(
    spring, client, contractor, contractor_org, street, bond, django_assert_max_num_queries
):
    from tests.permits.street_opening.conftest import valid_data

    for _ in range(3):
        so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    client.force_login(contractor)
    client.get("/permits/")
    with django_assert_max_num_queries(12):
        client.get("/permits/")
    for _ in range(8):
        so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    with django_assert_max_num_queries(12):
        assert client.get("/permits/").status_code == 200


def test_permit_page_query_count_does_not_grow_with_tickets(
    application, client, contractor, django_assert_max_num_queries
):
    client.force_login(contractor)
    client.get(application.get_absolute_url())
    with django_assert_max_num_queries(30) as before:
        client.get(application.get_absolute_url())
    count = len(before)
    for n in range(5):
        so.add_diggers_ticket(
            permit=application,
            by=contractor,
            number=f"2026000{n}",
            contractor=f"Sub {n}",
            requested_at=datetime(2026, 5, 4, 8, 0, tzinfo=CHICAGO),
        )
    with django_assert_max_num_queries(count):
        client.get(application.get_absolute_url())


@pytest.mark.usefixtures("contractor_owns_a_utility")  # § 303-5H: only a utility claims an emergency
def test_303_5h_contractor_reports_an_emergency_and_the_clerk_is_told(
    spring, client, contractor, contractor_org, street, clerk
):
    from permits.models import Notice
    from permits.street_opening.models import EmergencyReport

    client.force_login(contractor)
    assert client.get(reverse("permits:street_opening_report_emergency")).status_code == 200
    response = client.post(
        reverse("permits:street_opening_report_emergency"),
        {
            "organization": contractor_org.pk,
            "street": street.pk,
            "location_description": "Henni at Mill",
            "began_on": "2026-05-04",
        },
        follow=True,
    )
    assert "Apply for the permit by Tuesday, May 5, 2026 (§ 303-5H)" in response.content.decode()
    report = EmergencyReport.objects.get()
    assert report.organization == contractor_org and report.recorded_by == contractor
    assert Notice.objects.filter(to=clerk.email, template="street_opening_emergency_reported").exists()


def test_outsider_cannot_report_for_a_company(spring, outsider, contractor_org, street):
    with pytest.raises(PermissionDenied):
        so.report_emergency(
            by=outsider, street=street, location_description="x", began_on=date(2026, 5, 4), organization=contractor_org
        )
