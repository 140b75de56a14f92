"""The Diggers Hotline ticket before approval, not at filing (Wis. Stat. § 182.0175);
§ 303-5H emergencies for utilities only; § 303-4H(2) revocation binds the company and its people; back-office
edits through the rules, on the timeline."""

from datetime import date, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from permits.models import Membership, Notice, Organization, Permit
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.models import ApplicantRevocation, EmergencyReport
from tests.factories import OrganizationFactory
from tests.permits.street_opening.conftest import CHICAGO, annual_bond, file_certificate, valid_data
from tests.permits.street_opening.test_api import body

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO)  # the `spring` fixture's clock
SMALL_BOND = dict(
    surety="S", amount=25000, recorded_at=NOW
)  # a 2026 annual bond at the Board's amount, recorded at NOW


def codes(error):
    return {v.code for v in error.value.violations}


# --- Item 5: Wis. Stat. § 182.0175 -------------------------------------------------------------------------------


def test_182_0175_application_without_a_ticket_is_accepted_and_told_it_is_needed_before_approval(
    spring, street, contractor, contractor_org, bond
):
    data = valid_data(street, diggers_hotline_ticket="", diggers_hotline_requested_at=None)
    checked = so.check_application(data, applicant=contractor, organization=contractor_org, today=NOW.date(), now=NOW)
    assert checked.errors == []
    [warning] = [w for w in checked.warnings if w.code == "ticket_missing"]
    assert "before the permit is approved" in warning.message and "10 days" in warning.message
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    assert permit.status == "submitted" and not permit.street_opening.tickets.exists()
    assert permit.events.filter(reason__contains="needed before the permit is approved").exists()


def test_182_0175_approval_still_needs_the_ticket(
    spring, street, contractor, contractor_org, bond, clerk, dpw_director
):
    data = valid_data(street, diggers_hotline_ticket="", diggers_hotline_requested_at=None)
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    file_certificate(permit, contractor)
    so.begin_review(permit=permit, by=clerk)
    with pytest.raises(so.RulesBroken) as error:
        so.approve_street_opening(permit=permit, by=dpw_director)
    assert codes(error) == {"ticket_missing"}
    so.add_diggers_ticket(permit=permit, by=contractor, number="20265550001", requested_at=NOW - timedelta(hours=1))
    assert so.approve_street_opening(permit=permit, by=dpw_director).status == "approved"


@pytest.mark.parametrize(
    ("requested_at", "refused"),
    [(NOW + timedelta(minutes=1), True), (NOW, False), (NOW - timedelta(minutes=1), False)],
)
def test_182_0175_a_request_time_in_the_future_is_refused(
    spring, street, contractor, contractor_org, bond, requested_at, refused
):
    data = valid_data(street, diggers_hotline_requested_at=requested_at)
    if refused:
        with pytest.raises(so.RulesBroken) as error:
            so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
        assert codes(error) == {"requested_in_future"}
        assert not Permit.objects.exists()
    else:
        assert so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)


def test_182_0175_a_ticket_added_later_with_a_future_request_time_is_refused(application, contractor):
    with pytest.raises(so.RulesBroken) as error:
        so.add_diggers_ticket(
            permit=application,
            by=contractor,
            number="20265550002",
            requested_at=NOW + timedelta(days=1),
            contractor="Sub Boring Co",
        )
    assert codes(error) == {"requested_in_future"}
    assert application.street_opening.tickets.count() == 1


def test_182_0175_api_refuses_a_future_request_time(spring, street, bond, contractor):
    client = APIClient()
    client.force_authenticate(contractor)
    response = client.post(
        "/api/v1/street-openings/", body(diggers_hotline_requested_at="2026-05-05T09:00:00-05:00"), format="json"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["code"] == "requested_in_future" and error["citation"] == "Wis. Stat. § 182.0175"


def test_182_0175_api_accepts_an_application_without_a_ticket(spring, street, bond, contractor):
    client = APIClient()
    client.force_authenticate(contractor)
    response = client.post(
        "/api/v1/street-openings/", body(diggers_hotline_ticket="", diggers_hotline_requested_at=None), format="json"
    )
    assert response.status_code == 201, response.json()
    assert "ticket_missing" in {w["code"] for w in response.json()["warnings"]}


def test_182_0175_ticket_stale_the_day_after_ten_days_past_its_legal_start():
    legal = date(2026, 5, 7)
    common = dict(
        ticket_number="1",
        requested_at=datetime(2026, 5, 4, 9, tzinfo=CHICAGO),
        legal_start=legal,
        start_date=legal,
        emergency=False,
        at_approval=True,
    )
    assert ordinance.diggers_ticket_stale_after(legal) == date(2026, 5, 17)
    assert ordinance.diggers_ticket_violations(**common, today=date(2026, 5, 17)) == []
    [stale] = ordinance.diggers_ticket_violations(**common, today=date(2026, 5, 18))
    assert stale.code == "ticket_stale_now" and stale.warning and "(Wis. Stat. § 182.0175)" in stale.message


def test_182_0175_stale_ticket_at_approval_is_told_to_the_applicant_and_the_dpw(
    spring, application, clerk, dpw_director, contractor
):
    so.begin_review(permit=application, by=clerk)
    spring.move_to(datetime(2026, 5, 18, 9, tzinfo=CHICAGO))  # legal start May 7 + 10 days = May 17
    application.start_date, application.end_date = date(2026, 5, 20), date(2026, 5, 21)
    application.save(update_fields=["start_date", "end_date"])
    so.approve_street_opening(permit=application, by=dpw_director)  # warn, do not block
    told = set(Notice.objects.filter(template="street_opening_ticket_stale").values_list("to", flat=True))
    assert told == {contractor.email, dpw_director.email}
    assert application.events.filter(reason__contains="ticket check at approval").exists()


def test_182_0175_fresh_ticket_at_approval_sends_no_warning(application, clerk, dpw_director):
    so.begin_review(permit=application, by=clerk)
    so.approve_street_opening(permit=application, by=dpw_director)
    assert not Notice.objects.filter(template="street_opening_ticket_stale").exists()


def test_182_0175_day_before_work_a_stale_ticket_is_told_once(spring, issued, contractor, dpw_director):
    issued.start_date, issued.end_date = date(2026, 5, 19), date(2026, 5, 20)
    issued.save(update_fields=["start_date", "end_date"])
    assert so.warn_stale_tickets_before_work(today=date(2026, 5, 17)) == (0, 0)  # two days before: not yet
    assert so.warn_stale_tickets_before_work(today=date(2026, 5, 18)) == (1, 1)
    assert so.warn_stale_tickets_before_work(today=date(2026, 5, 18)) == (1, 1)  # same day: no second email
    assert Notice.objects.filter(template="street_opening_ticket_stale", to=contractor.email).count() == 1


# --- Item 7: § 303-5H emergencies are for utilities ---------------------------------------------------------------


def _emergency(street, **kw):
    return valid_data(
        street,
        emergency=True,
        emergency_began_on=date(2026, 5, 4),
        start_date=date(2026, 5, 4),
        end_date=date(2026, 5, 5),
        diggers_hotline_ticket="",
        diggers_hotline_requested_at=None,
        **kw,
    )


def test_303_5h_resident_cannot_claim_an_emergency(spring, street, resident):
    _own_bond(resident)
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=resident, data=_emergency(street))
    assert codes(error) == {"emergency_not_utility"}
    assert not Permit.objects.exists()


def test_303_5h_contractor_without_a_recorded_utility_cannot_claim_an_emergency(
    spring, street, contractor, contractor_org, bond
):
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=_emergency(street))
    [v] = error.value.violations
    assert v.code == "emergency_not_utility" and v.citation == "§ 303-5H" and "(§ 303-5H)" in v.message


def test_303_5h_utility_staff_may_claim_an_emergency(spring, street, contractor, contractor_org, bond):
    contractor_org.utility_facilities = [Organization.Facility.GAS_MAIN]
    contractor_org.save()
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=_emergency(street))
    assert permit.street_opening.emergency


def test_303_5h_non_emergency_application_needs_no_utility(spring, street, contractor, contractor_org, bond):
    assert so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))


def test_303_5h_api_refuses_the_emergency_of_a_non_utility(spring, street, bond, contractor):
    client = APIClient()
    client.force_authenticate(contractor)
    data = body(
        emergency=True,
        emergency_began_on="2026-05-04",
        start_date="2026-05-04",
        end_date="2026-05-05",
        diggers_hotline_ticket="",
        diggers_hotline_requested_at=None,
    )
    response = client.post("/api/v1/street-openings/", data, format="json")
    assert response.status_code == 400
    assert {e["code"] for e in response.json()["errors"]} == {"emergency_not_utility"}


def emergency_report_form(organization, street, **fields):
    """An emergency report as the web form and the admin post it: Main at Mill, begun the `spring` Monday."""
    return {
        "organization": organization.pk,
        "street": street.pk,
        "location_description": "Main at Mill",
        "began_on": "2026-05-04",
        **fields,
    }


def test_303_5h_emergency_report_refused_for_a_non_utility_on_the_web(spring, street, contractor, contractor_org):
    from django.test import Client

    web = Client()
    web.force_login(contractor)
    response = web.post("/street-openings/emergency/", emergency_report_form(contractor_org, street))
    assert response.status_code == 400 and "(§ 303-5H)" in response.content.decode()
    assert not EmergencyReport.objects.exists()


def test_303_5h_clerk_records_what_a_utility_owns_in_the_admin(client, clerk, contractor_org):
    client.force_login(clerk)
    url = f"/admin/permits/organization/{contractor_org.pk}/change/"
    response = client.post(
        url,
        {
            "name": contractor_org.name,
            "kind": "utility",
            "phone": "",
            "address": "",
            "utility_facilities": ["gas_main", "conduit"],
            "utility_facilities_note": "Gas mains under Main Street",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    contractor_org.refresh_from_db()
    assert contractor_org.utility_facilities == ["gas_main", "conduit"]
    assert contractor_org.utility_recorded_by == clerk and contractor_org.utility_recorded_at is not None


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "contractor"])
def test_303_5h_only_the_clerk_sets_what_a_utility_owns(client, request, persona, contractor_org):
    client.force_login(request.getfixturevalue(persona))
    response = client.post(
        f"/admin/permits/organization/{contractor_org.pk}/change/",
        {"name": contractor_org.name, "kind": "utility", "utility_facilities": ["gas_main"]},
    )
    assert response.status_code in (302, 403)  # the admin login page, or refused
    contractor_org.refresh_from_db()
    assert contractor_org.utility_facilities == []


# --- Item 6: § 303-4H(2) revocation binds the company and its people ----------------------------------------------


@pytest.fixture
def revoked_company(application, dpw_director):
    so.revoke_applicant(permit=application, by=dpw_director, reason="Settled patch not corrected")
    return application.organization


def _own_bond(user):
    annual_bond(None, user, principal_user=user, **SMALL_BOND)


def test_303_4h_2_member_of_a_revoked_company_cannot_apply_in_their_own_name(
    spring, street, contractor_staff, revoked_company
):
    _own_bond(contractor_staff)
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor_staff, data=valid_data(street))
    assert codes(error) == {"applicant_revoked"}
    assert "Brandt Excavating LLC" in error.value.violations[0].message


def test_303_4h_2_member_of_a_revoked_company_cannot_apply_for_another_organization(
    spring, street, revoked_company, contractor
):
    other = OrganizationFactory(name="Front Company LLC")
    Membership.objects.create(user=contractor, organization=other)
    annual_bond(other, contractor, **SMALL_BOND)
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor, organization=other, data=valid_data(street))
    assert codes(error) == {"applicant_revoked"}


def test_303_4h_2_leaving_the_revoked_company_does_not_lift_the_revocation(
    spring, street, contractor_staff, revoked_company
):
    Membership.objects.filter(user=contractor_staff).delete()
    _own_bond(contractor_staff)
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor_staff, data=valid_data(street))
    assert codes(error) == {"applicant_revoked"}


def test_303_4h_2_revoked_person_cannot_apply_through_a_company(spring, street, resident, clerk, dpw_director):
    _own_bond(resident)
    own = so.apply_for_street_opening(applicant=resident, data=valid_data(street))
    so.revoke_applicant(permit=own, by=dpw_director, reason="Not corrected")
    company = OrganizationFactory(name="New Name Digging")
    Membership.objects.create(user=resident, organization=company)
    annual_bond(company, clerk, **SMALL_BOND)
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=resident, organization=company, data=valid_data(street))
    assert codes(error) == {"applicant_revoked"}


def test_303_4h_2_an_unrelated_person_still_applies(spring, street, revoked_company, outsider):
    _own_bond(outsider)
    assert so.apply_for_street_opening(applicant=outsider, data=valid_data(street))


def test_303_4h_2_bound_people_apply_again_on_the_anniversary(spring, street, contractor_staff, revoked_company):
    revocation = ApplicantRevocation.objects.get()
    assert set(revocation.bound_users.values_list("username", flat=True)) == {"contractor", "contractor_staff"}
    day_before = revocation.until - timedelta(days=1)
    assert so.active_revocation_until(user=contractor_staff, organization=None, today=day_before) == revocation.until
    assert so.active_revocation_until(user=contractor_staff, organization=None, today=revocation.until) is None


# --- Item 8: back-office edits go through the rules ---------------------------------------------------------------


def _admin_post(client, permit, **changes):
    data = {
        "street": permit.street_id,
        "parcel": "",
        "location_description": permit.location_description,
        "work_description": permit.work_description,
        "start_date": permit.start_date.isoformat(),
        "end_date": permit.end_date.isoformat(),
        **changes,
    }
    for prefix in ("events", "payments", "documents", "notices"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    return client.post(f"/admin/permits/permit/{permit.pk}/change/", data)


def test_303_4b_admin_end_before_start_is_a_plain_message_not_a_constraint(client, clerk, application):
    client.force_login(clerk)
    response = _admin_post(client, application, end_date="2026-05-10")
    page = response.content.decode()
    assert response.status_code == 200
    assert "The end date cannot be before the start date (§ 303-4B)" in page
    assert "permit_end_not_before_start" not in page and "Constraint" not in page
    application.refresh_from_db()
    assert application.end_date == date(2026, 5, 13)


def test_303_5a_admin_cannot_move_dates_into_the_winter_ban(client, clerk, application):
    client.force_login(clerk)
    response = _admin_post(client, application, start_date="2026-11-16", end_date="2026-11-18")
    assert response.status_code == 200 and "(§ 303-5A)" in response.content.decode()
    application.refresh_from_db()
    assert application.start_date == date(2026, 5, 11)
    assert not application.events.filter(reason__startswith="Edited in the back office").exists()


def test_303_5a_admin_day_before_the_ban_is_accepted_and_the_ban_day_refused(client, clerk, application):
    client.force_login(clerk)
    # Nov 14 is open, Nov 15 is closed (§ 303-5A read inclusively); the insurance runs to May 1, 2027
    refused = _admin_post(client, application, start_date="2026-11-14", end_date="2026-11-15")
    assert refused.status_code == 200 and "(§ 303-5A)" in refused.content.decode()
    accepted = _admin_post(client, application, start_date="2026-11-13", end_date="2026-11-14")
    assert accepted.status_code == 302


def test_admin_edit_is_recorded_on_the_timeline_with_who_and_what(client, clerk, application):
    client.force_login(clerk)
    response = _admin_post(client, application, start_date="2026-05-12", end_date="2026-05-14")
    assert response.status_code == 302
    event = application.events.get(reason__startswith="Edited in the back office")
    assert event.actor == clerk
    assert "May 11, 2026 → May 12, 2026" in event.reason and "May 13, 2026 → May 14, 2026" in event.reason


def test_182_0175_admin_cannot_move_the_start_before_the_tickets_legal_start(client, clerk, application):
    client.force_login(clerk)
    response = _admin_post(client, application, start_date="2026-05-05")  # legal start May 7
    assert response.status_code == 200 and "(Wis. Stat. § 182.0175)" in response.content.decode()


def test_303_4g_admin_cannot_move_the_end_past_the_insurance(client, clerk, application):
    client.force_login(clerk)
    response = _admin_post(client, application, start_date="2027-04-20", end_date="2027-05-03")
    assert response.status_code == 200 and "(§ 303-4G)" in response.content.decode()


def test_admin_dpw_director_edits_through_the_same_rules(client, dpw_director, application):
    client.force_login(dpw_director)
    response = _admin_post(client, application, start_date="2026-12-01", end_date="2026-12-02")
    assert response.status_code == 200 and "(§ 303-5A)" in response.content.decode()


@pytest.mark.parametrize("persona", ["inspector", "board_member", "contractor"])
def test_admin_roles_without_change_rights_cannot_edit_a_permit(client, request, persona, application):
    client.force_login(request.getfixturevalue(persona))
    response = _admin_post(client, application, start_date="2026-05-12")
    assert response.status_code in (302, 403)
    application.refresh_from_db()
    assert application.start_date == date(2026, 5, 11)
    assert not application.events.filter(reason__startswith="Edited in the back office").exists()


def test_emergency_report_admin_goes_through_the_service(client, clerk, street, contractor_org):
    client.force_login(clerk)
    response = client.post(
        "/admin/permits/emergencyreport/add/", emergency_report_form(contractor_org, street, reported_by_name="Caller")
    )
    assert response.status_code == 200 and "(§ 303-5H)" in response.content.decode()
    assert not EmergencyReport.objects.exists()


def test_182_0175_add_ticket_page_shows_the_future_time_on_its_field(client, application, contractor):
    client.force_login(contractor)
    response = client.post(
        f"/permits/{application.number}/street-opening/tickets/add/",
        {"number": "20265550003", "contractor": "Sub Boring Co", "requested_at": "2026-05-05T08:00"},
    )
    assert response.status_code == 400
    assert "cannot be in the future" in response.context["form"].errors["requested_at"][0]
