"""The verbs of permits.street_opening.services, and who may and may not act."""

import io
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile

from permits import services
from permits.models import Notice, Organization, Parcel, Permit, Status
from permits.street_opening import services as so
from permits.street_opening.models import ApplicantRevocation, StreetOpening
from permits.workflow import IllegalTransition
from tests.factories import ParcelFactory, UserFactory
from tests.permits.street_opening.conftest import (
    CHICAGO,
    DECEMBER_1,
    annual_bond,
    emergency,
    file_certificate,
    file_december_emergency,
    repaved_in_2023,
    street_improvement,
    valid_data,
)
from tests.upload_samples import PDF

pytestmark = pytest.mark.django_db


def codes(error):
    return {v.code for v in error.value.violations}


# Applying --------------------------------------------------------------------------------------------------------


def test_contractor_applies_and_the_permit_is_submitted_with_the_scheduled_fee(application):
    application.refresh_from_db()
    assert application.status == Status.SUBMITTED
    assert application.number.startswith("SO-2026-")
    assert application.fee_amount == Decimal("50.00")
    detail = application.street_opening
    assert detail.surface == "bituminous" and detail.utility_interruption is True
    assert detail.statement_signed_at is not None
    [ticket] = detail.tickets.all()
    assert ticket.legal_start == date(2026, 5, 7) and ticket.verification_label == "entered by applicant"


def test_every_broken_rule_is_reported_at_once_and_nothing_is_stored(spring, street, contractor):
    data = valid_data(
        street,
        insurance_per_person=Decimal(499999),
        statement_signed_by="",
        start_date=date(2026, 11, 16),
        end_date=date(2026, 11, 20),
        method="",
    )
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor, data=data)
    assert {"insurance_too_low", "signature_required", "frozen_ground", "required"} <= codes(error)
    assert not Permit.objects.exists() and not StreetOpening.objects.exists()


def test_resident_may_apply_without_an_organization(spring, street, resident, clerk):
    annual_bond(None, clerk, principal_user=resident, surety="S", amount=1000)
    permit = so.apply_for_street_opening(applicant=resident, data=valid_data(street))
    assert permit.organization is None and permit.status == Status.SUBMITTED


def test_outsider_cannot_apply_for_a_company_it_is_not_on(spring, street, outsider, contractor_org):
    with pytest.raises(PermissionDenied):
        so.apply_for_street_opening(applicant=outsider, organization=contractor_org, data=valid_data(street))


def test_303_4h_2_revoked_company_cannot_apply_until_the_anniversary(
    spring, street, contractor, contractor_org, bond, dpw_director
):
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    revocation = so.revoke_applicant(permit=permit, by=dpw_director, reason="Settled patch not corrected")
    assert revocation.until == date(2027, 5, 4)
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    assert codes(error) == {"applicant_revoked"}
    spring.move_to(datetime(2027, 5, 4, 9, 0, tzinfo=CHICAGO))
    later = valid_data(
        street,
        start_date=date(2027, 5, 11),
        end_date=date(2027, 5, 12),
        insurance_expires=date(2028, 1, 1),
        annual_bond=False,
        diggers_hotline_requested_at=datetime(2027, 5, 4, 8, 0, tzinfo=CHICAGO),
    )
    assert so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=later)


def test_revoke_applicant_twice_for_the_same_permit_keeps_one_revocation(application, dpw_director):
    so.revoke_applicant(permit=application, by=dpw_director, reason="x")
    so.revoke_applicant(permit=application, by=dpw_director, reason="x")
    assert ApplicantRevocation.objects.count() == 1


def test_revoke_applicant_by_the_system_is_allowed(application):
    assert so.revoke_applicant(permit=application, by=None, reason="Defect notice deadline passed").revoked_by is None


@pytest.mark.parametrize("persona", ["inspector", "contractor", "resident", "police_chief"])
def test_who_may_not_revoke(application, persona, request):
    with pytest.raises(PermissionDenied):
        so.revoke_applicant(permit=application, by=request.getfixturevalue(persona), reason="x")


@pytest.mark.usefixtures("contractor_owns_a_utility")  # § 303-5H: only a utility claims an emergency
@pytest.mark.parametrize(
    "began_on, late",
    [(date(2026, 4, 30), True), (date(2026, 5, 1), False)],
    ids=["began-thursday-due-friday-late", "began-friday-due-monday-on-time"],
)
def test_303_5h_emergency_filed_monday_is_flagged_to_the_clerk_only_when_late(
    spring, street, contractor, contractor_org, bond, clerk, began_on, late
):
    # Filed Monday May 4, the next business day after a Friday start, two after a Thursday one.
    data = valid_data(
        street,
        emergency=True,
        emergency_began_on=began_on,
        start_date=began_on,
        end_date=date(2026, 5, 5),
        diggers_hotline_ticket="",
    )
    mail.outbox.clear()
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    assert (permit.street_opening.late_filing_flagged_at is not None) == late
    assert Notice.objects.filter(to=clerk.email, template="street_opening_late_emergency").count() == int(late)


# Review, approval, issue -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["clerk", "dpw_director"])
def test_clerk_or_dpw_may_start_the_review(application, persona, request):
    assert so.begin_review(permit=application, by=request.getfixturevalue(persona)).status == Status.UNDER_REVIEW


@pytest.mark.parametrize("persona", ["contractor", "inspector", "board_member", "building_inspector"])
def test_others_may_not_start_the_review(application, persona, request):
    with pytest.raises(PermissionDenied):
        so.begin_review(permit=application, by=request.getfixturevalue(persona))


def test_303_4d_dpw_approval_sets_conditions_and_30_day_validity(approved):
    approved.refresh_from_db()
    assert approved.status == Status.APPROVED
    assert approved.approved_on == date(2026, 5, 4) and approved.expires_on == date(2026, 6, 3)
    assert approved.street_opening.dpw_conditions == "One lane open each way"


@pytest.mark.parametrize("persona", ["inspector", "contractor", "board_member", "president", "police_chief"])
def test_303_4a_only_the_dpw_or_the_clerk_approves(under_review, persona, request):
    with pytest.raises(PermissionDenied):
        so.approve_street_opening(permit=under_review, by=request.getfixturevalue(persona))


@pytest.mark.parametrize("persona", ["clerk", "dpw_director"])
def test_303_4a_either_the_dpw_or_the_clerk_grants_the_permit_alone(under_review, persona, clerk, request):
    """§ 303-4A: "a permit therefor from the Director of Public Works or Village Clerk-Treasurer": one of them
    approves and issues; the other is not needed."""
    granter = request.getfixturevalue(persona)
    assert so.approve_street_opening(permit=under_review, by=granter).status == Status.APPROVED
    services.record_payment(permit=under_review, amount=under_review.balance_due, method="cash", by=clerk)
    under_review.refresh_from_db()
    assert so.issue_street_opening(permit=under_review, by=granter).status == Status.ISSUED
    actors = set(under_review.events.filter(to_status__in=["approved", "issued"]).values_list("actor", flat=True))
    assert actors == {granter.pk}


def test_303_1c_2_the_clerk_may_not_approve_underground_plans(under_review, clerk):
    with pytest.raises(PermissionDenied, match="303-1C"):
        so.approve_street_opening(permit=under_review, by=clerk, approve_plans=True)


def test_approval_is_refused_with_every_reason_at_once(spring, street, contractor, contractor_org, clerk, dpw_director):
    data = valid_data(street, diggers_hotline_ticket="", annual_bond=False, insurance_expires=date(2026, 5, 20))
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    so.begin_review(permit=permit, by=clerk)
    with pytest.raises(so.RulesBroken) as error:
        so.approve_street_opening(permit=permit, by=dpw_director)
    assert codes(error) == {"ticket_missing", "bond_missing", "insurance_lapses", "certificate_missing"}
    permit.refresh_from_db()
    assert permit.status == Status.UNDER_REVIEW


def test_303_4h_3_per_permit_bond_uploaded_allows_approval(
    spring, street, contractor, contractor_org, clerk, dpw_director, board_bond_amounts
):
    permit = so.apply_for_street_opening(
        applicant=contractor, organization=contractor_org, data=valid_data(street, annual_bond=False)
    )
    file_certificate(permit, contractor)
    services.upload_document(
        permit=permit,
        kind="bond",
        by=contractor,
        upload=SimpleUploadedFile("bond.pdf", PDF, content_type="application/pdf"),
    )
    so.begin_review(permit=permit, by=clerk)
    with pytest.raises(so.RulesBroken) as unrecorded:  # the bond's amount is not on record yet
        so.approve_street_opening(permit=permit, by=dpw_director)
    assert "guarantee_bond_below_amount" in {v.code for v in unrecorded.value.violations}
    so.record_guarantee_bond_amount(permit=permit, by=clerk, amount="5000")
    assert so.approve_street_opening(permit=permit, by=dpw_director).status == Status.APPROVED


@pytest.mark.usefixtures("contractor_owns_a_utility")  # § 303-5H: only a utility claims an emergency
def test_303_5a_winter_emergency_needs_a_determination_before_approval(
    street, contractor, contractor_org, clerk, dpw_director, board_member, bond
):
    from tests.board_world import designate

    designate("303-5A", user=board_member, starts_on=date(2026, 11, 1))
    import time_machine

    with time_machine.travel(DECEMBER_1, tick=False):
        permit = file_december_emergency(street, contractor, contractor_org)
        so.begin_review(permit=permit, by=clerk)
        with pytest.raises(so.RulesBroken) as error:
            so.approve_street_opening(permit=permit, by=dpw_director)
        assert codes(error) == {"emergency_not_determined"}
        with pytest.raises(PermissionDenied):
            so.record_emergency_determination(permit=permit, by=clerk, reason="Leak")
        determination = so.record_emergency_determination(permit=permit, by=board_member, reason="Gas leak")
        assert determination.determined_by == board_member and determination.reason == "Gas leak"
        permit.street_opening.refresh_from_db()
        assert so.approve_street_opening(permit=permit, by=dpw_director).status == Status.APPROVED


def test_303_5i_repaved_street_needs_an_exception_before_approval(
    application, clerk, dpw_director, president, contractor, street
):
    repaved_in_2023(street, clerk)
    so.begin_review(permit=application, by=clerk)
    with pytest.raises(so.RulesBroken) as error:
        so.approve_street_opening(permit=application, by=dpw_director)
    assert codes(error) == {"moratorium"}
    with pytest.raises(PermissionDenied):
        so.grant_moratorium_exception(permit=application, by=contractor, reason="Need it")
    with pytest.raises(PermissionDenied, match="303-5I"):
        so.grant_moratorium_exception(permit=application, by=president, reason="Only sewer outlet for 118 Henni")
    from tests.board_world import designate

    designate("303-5I", user=president, starts_on=date(2020, 1, 1))
    so.grant_moratorium_exception(permit=application, by=president, reason="Only sewer outlet for 118 Henni")
    application.street_opening.refresh_from_db()
    assert so.approve_street_opening(permit=application, by=dpw_director).status == Status.APPROVED


def test_303_1c_underground_plans_must_be_filed_and_approved(
    spring, street, contractor, contractor_org, bond, clerk, dpw_director
):
    data = valid_data(street, underground_utility=True, underground_depth_feet=Decimal("3.5"))
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    file_certificate(permit, contractor)
    so.begin_review(permit=permit, by=clerk)
    with pytest.raises(so.RulesBroken) as error:
        so.approve_street_opening(permit=permit, by=dpw_director, approve_plans=True)
    assert codes(error) == {"plans_missing"}
    services.upload_document(
        permit=permit,
        kind="plans",
        by=contractor,
        upload=SimpleUploadedFile("plans.pdf", PDF, content_type="application/pdf"),
    )
    with pytest.raises(so.RulesBroken) as error:
        so.approve_street_opening(permit=permit, by=dpw_director, approve_plans=False)
    assert codes(error) == {"plans_not_approved"}
    so.approve_street_opening(permit=permit, by=dpw_director, approve_plans=True)
    assert StreetOpening.objects.get(permit=permit).plans_approved_by == dpw_director


def test_303_1c_1_shallow_underground_construction_is_refused_at_application(spring, street, contractor):
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(
            applicant=contractor,
            data=valid_data(street, underground_utility=True, underground_depth_feet=Decimal("2.99")),
        )
    assert "too_shallow" in codes(error)


def test_clerk_issues_only_when_the_balance_is_zero(approved, clerk):
    with pytest.raises(so.RulesBroken) as error:
        so.issue_street_opening(permit=approved, by=clerk)
    assert codes(error) == {"fee_unpaid"}
    services.record_payment(permit=approved, amount=Decimal("50.00"), method="cash", by=clerk)
    approved.refresh_from_db()
    assert so.issue_street_opening(permit=approved, by=clerk).status == Status.ISSUED


@pytest.mark.parametrize("persona", ["contractor", "inspector", "board_member", "president"])
def test_303_4a_only_the_clerk_or_the_dpw_issues(approved, clerk, persona, request):
    services.record_payment(permit=approved, amount=Decimal("50.00"), method="cash", by=clerk)
    approved.refresh_from_db()
    with pytest.raises(PermissionDenied):
        so.issue_street_opening(permit=approved, by=request.getfixturevalue(persona))


def test_issuing_twice_is_refused(issued, clerk):
    with pytest.raises(IllegalTransition):
        so.issue_street_opening(permit=issued, by=clerk)


# Tickets ------------------------------------------------------------------------------------------------------------


def test_inspector_verifies_a_ticket_once(application, inspector):
    ticket = application.street_opening.tickets.get()
    so.verify_ticket(ticket=ticket, by=inspector)
    first = ticket.verified_at
    so.verify_ticket(ticket=ticket, by=inspector)
    ticket.refresh_from_db()
    assert ticket.verified_by == inspector and ticket.verified_at == first
    assert ticket.verification_label == "verified by an inspector"


@pytest.mark.parametrize("persona", ["contractor", "clerk", "resident"])
def test_others_may_not_verify_tickets(application, persona, request):
    with pytest.raises(PermissionDenied):
        so.verify_ticket(ticket=application.street_opening.tickets.get(), by=request.getfixturevalue(persona))


@pytest.mark.usefixtures("contractor_owns_a_utility")  # § 303-5H: only a utility claims an emergency
def test_182_0175_emergency_adds_its_ticket_after_filing(spring, street, contractor, contractor_org, bond):
    data = valid_data(
        street,
        emergency=True,
        emergency_began_on=date(2026, 5, 4),
        start_date=date(2026, 5, 4),
        diggers_hotline_ticket="",
    )
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=data)
    ticket = so.add_diggers_ticket(
        permit=permit, by=contractor, number="20269990001", requested_at=datetime(2026, 5, 4, 6, 0, tzinfo=CHICAGO)
    )
    assert ticket.contractor == "Brandt Excavating LLC"


def test_outsider_cannot_add_a_ticket(application, outsider):
    with pytest.raises(PermissionDenied):
        so.add_diggers_ticket(
            permit=application,
            by=outsider,
            number="1",
            requested_at=datetime(2026, 5, 4, 6, 0, tzinfo=CHICAGO),
            contractor="Other Co",
        )


# Renewal ------------------------------------------------------------------------------------------------------------


def ask_renewal(permit, by):
    """§ 303-4E: the permittee's written request, which the clerk or the DPW then grants."""
    from permits.street_opening import lifecycle

    return lifecycle.request_renewal(
        permit=permit, by=by, work_begun_on=date(2026, 5, 11), reason="Rain delays", today=date(2026, 5, 12)
    )


def test_303_4e_renewal_adds_30_days_and_the_renewal_fee(issued, clerk, contractor):
    ask_renewal(issued, contractor)
    renewal = so.renew_street_opening(permit=issued, by=clerk, work_begun_on=date(2026, 5, 11))
    issued.refresh_from_db()
    assert renewal.new_expires_on == date(2026, 7, 3) and issued.expires_on == date(2026, 6, 3)  # fee not yet paid
    assert issued.fee_amount == Decimal("75.00") and issued.balance_due == Decimal("25.00")
    services.record_payment(permit=issued, amount=Decimal("25.00"), method="cash", by=clerk)
    issued.refresh_from_db()
    assert issued.expires_on == date(2026, 7, 3)


def test_303_4e_no_renewal_before_work_has_begun(issued, dpw_director):
    with pytest.raises(so.RulesBroken) as error:
        so.renew_street_opening(permit=issued, by=dpw_director)
    assert codes(error) == {"work_not_begun"}


def test_303_4g_renewal_refused_when_insurance_ends_before_the_renewed_period(issued, clerk, contractor):
    ask_renewal(issued, contractor)
    StreetOpening.objects.filter(permit=issued).update(insurance_expires=date(2026, 7, 2))
    issued.refresh_from_db()
    with pytest.raises(so.RulesBroken) as error:
        so.renew_street_opening(permit=issued, by=clerk, work_begun_on=date(2026, 5, 11))
    assert codes(error) == {"insurance_lapses"}


@pytest.mark.parametrize("persona", ["contractor", "inspector", "board_member"])
def test_who_may_not_renew(issued, persona, request):
    with pytest.raises(PermissionDenied):
        so.renew_street_opening(permit=issued, by=request.getfixturevalue(persona), work_begun_on=date(2026, 5, 11))


def test_permittee_requests_a_renewal_and_the_clerk_is_told(issued, contractor_staff, clerk):
    so.request_renewal(permit=issued, by=contractor_staff, work_begun_on=date(2026, 5, 4), reason="Rain delays")
    assert Notice.objects.filter(to=clerk.email, template="street_opening_renewal_request").exists()
    assert StreetOpening.objects.get(permit=issued).work_begun_on == date(2026, 5, 4)


# § 303-5I: Board decisions and notices --------------------------------------------------------------------------


def test_303_5i_board_decision_less_than_30_days_ahead_is_refused(street, clerk):
    with pytest.raises(so.RulesBroken):
        so.record_street_improvement(
            street=street, by=clerk, description="Repave", decided_on=date(2026, 5, 4), work_begins_on=date(2026, 6, 2)
        )
    assert so.record_street_improvement(
        street=street, by=clerk, description="Repave", decided_on=date(2026, 5, 4), work_begins_on=date(2026, 6, 3)
    )


def test_303_5i_notices_go_to_utilities_and_abutting_owners_once(spring, street, clerk, contractor):
    utility = Organization.objects.create(name="Rock River Gas", kind=Organization.Kind.UTILITY)
    staff = UserFactory(username="gasman")
    utility.memberships.create(user=staff, is_manager=True)
    ParcelFactory(street=street, owner_email="olga@example.com")
    ParcelFactory(street=street, owner_email="")
    ParcelFactory()  # another street: not abutting
    improvement = so.record_street_improvement(
        street=street, by=clerk, description="Repave", decided_on=date(2026, 5, 4), work_begins_on=date(2026, 6, 15)
    )
    with pytest.raises(PermissionDenied):
        so.send_improvement_notices(improvement=improvement, by=contractor)
    sent = so.send_improvement_notices(improvement=improvement, by=clerk)
    assert sorted(sent.emailed) == ["gasman@example.com", "olga@example.com"]
    assert len(sent.to_mail) == 1 and isinstance(sent.to_mail[0], Parcel)
    notice = Notice.objects.get(to="olga@example.com")
    assert "within 30 days of this notice" in notice.subject
    # The owner without email gets a letter, waiting for the clerk to mail it (it is not recorded as given).
    letter = Notice.objects.get(channel=Notice.Channel.MAIL)
    assert letter.template == "street_opening_repaving_notice" and letter.mailed_on is None
    again = so.send_improvement_notices(improvement=improvement, by=clerk)
    assert again.emailed == [] and Notice.objects.count() == 3


def test_303_5i_application_on_a_street_to_be_repaved_is_warned(spring, street, contractor, clerk):
    street_improvement(street, clerk, decided_on=date(2026, 4, 1), work_begins_on=date(2026, 5, 15))
    checked = so.check_application(
        valid_data(street),
        applicant=contractor,
        organization=None,
        today=date(2026, 5, 4),
        now=datetime(2026, 5, 4, 10, tzinfo=CHICAGO),
    )
    assert "repaving_planned" in {w.code for w in checked.warnings}


# § 303-5H: emergencies reported with no application ------------------------------------------------------------


def test_303_5h_unfiled_emergency_is_flagged_once_after_the_next_business_day(spring, street, clerk):
    emergency(street, clerk)
    assert so.flag_unfiled_emergencies(today=date(2026, 5, 1)) == (0, 0)  # Friday: still due today
    assert so.flag_unfiled_emergencies(today=date(2026, 5, 4)) == (1, 1)
    assert so.flag_unfiled_emergencies(today=date(2026, 5, 4)) == (0, 0)
    assert Notice.objects.filter(template="street_opening_emergency_unfiled").count() == 1


@pytest.mark.usefixtures("contractor_owns_a_utility")  # § 303-5H: only a utility claims an emergency
def test_303_5h_emergency_application_links_the_report(spring, street, clerk, contractor, contractor_org, bond):
    report = so.report_emergency(
        by=clerk, street=street, location_description="Henni", began_on=date(2026, 5, 4), organization=contractor_org
    )
    permit = so.apply_for_street_opening(
        applicant=contractor,
        organization=contractor_org,
        data=valid_data(street, emergency=True, emergency_began_on=date(2026, 5, 4), start_date=date(2026, 5, 4)),
    )
    report.refresh_from_db()
    assert report.permit == permit
    assert so.flag_unfiled_emergencies(today=date(2026, 5, 6)) == (0, 0)


# Jobs' services -------------------------------------------------------------------------------------------------------


def test_303_4d_expire_after_the_last_valid_day_only(approved):
    assert so.expire_lapsed_street_openings(today=date(2026, 6, 3)) == (0, 0)
    assert so.expire_lapsed_street_openings(today=date(2026, 6, 4)) == (1, 1)
    approved.refresh_from_db()
    assert approved.status == Status.EXPIRED
    assert approved.events.last().actor is None


def test_reminder_5_days_before_expiry_once_and_again_after_a_renewal(issued, clerk, contractor):
    assert so.remind_expiring_street_openings(today=date(2026, 5, 28)) == (0, 0)  # 6 days before
    assert so.remind_expiring_street_openings(today=date(2026, 5, 29)) == (1, 1)
    assert so.remind_expiring_street_openings(today=date(2026, 5, 30)) == (0, 0)
    ask_renewal(issued, contractor)
    so.renew_street_opening(permit=issued, by=clerk, work_begun_on=date(2026, 5, 11))
    services.record_payment(permit=issued, amount=issued.balance_due_as_stored(), method="cash", by=clerk)
    assert so.remind_expiring_street_openings(today=date(2026, 6, 28)) == (1, 1)


def test_303_4h_2_revocations_are_lifted_on_the_anniversary(application, dpw_director):
    so.revoke_applicant(permit=application, by=dpw_director, reason="x", today=date(2026, 5, 4))
    assert so.lift_ended_revocations(today=date(2027, 5, 3)) == (0, 0)
    assert so.lift_ended_revocations(today=date(2027, 5, 4)) == (1, 1)
    assert so.lift_ended_revocations(today=date(2027, 5, 4)) == (0, 0)


@pytest.mark.slow
def test_demo_loader_is_idempotent(db):
    from django.core.management import call_command

    call_command("load_demo", stdout=io.StringIO())
    count = Permit.objects.filter(kind="street_opening").count()
    assert count == 4 + 2  # this type's four, and the street map's two on Highland Avenue (permits/streetmap/demo.py)
    from permits.street_opening.demo import load

    load()
    assert Permit.objects.filter(kind="street_opening").count() == count
    statuses = set(Permit.objects.filter(kind="street_opening").values_list("status", flat=True))
    # the field-work demo may take the issued one on to "work under way" with an inspection
    assert {"submitted", "under_review", "approved"} <= statuses and statuses & {"issued", "active"}


def test_village_work_needs_no_permit_message_is_on_the_apply_page(client, contractor):
    client.force_login(contractor)
    assert "§ 303-4C" in client.get("/street-openings/apply/").content.decode()


_ = timedelta


def test_182_0175_one_ticket_per_contractor(application, contractor):
    with pytest.raises(so.RulesBroken) as error:
        so.add_diggers_ticket(
            permit=application,
            by=contractor,
            number="20260000001",
            requested_at=datetime(2026, 5, 4, 6, 0, tzinfo=CHICAGO),
        )
    assert codes(error) == {"ticket_duplicate"}
    assert so.add_diggers_ticket(
        permit=application,
        by=contractor,
        number="20260000002",
        contractor="Sub Boring",
        requested_at=datetime(2026, 5, 4, 6, 0, tzinfo=CHICAGO),
    )


def test_303_4f_2_no_fee_in_the_schedule_refuses_cleanly_and_stores_nothing(spring, street, contractor):
    from permits.models import FeeItem

    FeeItem.objects.filter(code="street_opening").delete()
    with pytest.raises(so.RulesBroken) as error:
        so.apply_for_street_opening(applicant=contractor, data=valid_data(street, annual_bond=False))
    assert codes(error) == {"fee_not_configured"}
    assert not Permit.objects.exists() and not StreetOpening.objects.exists()


def test_303_4a_work_starting_yesterday_is_refused(spring, street, contractor, contractor_org, bond):
    with pytest.raises(so.RulesBroken) as broken:
        so.apply_for_street_opening(
            applicant=contractor, organization=contractor_org, data=valid_data(street, start_date=date(2026, 5, 3))
        )
    assert "start_in_past" in codes(broken) and "§ 303-4A" in str(broken.value)
    assert not Permit.objects.exists()
