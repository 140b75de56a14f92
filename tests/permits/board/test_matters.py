"""The matter modules (each part's board_matters.py, found by permits.kinds.discover): what each lists as waiting for
the Board, and how the recorded motion on it flows back to the subject through services.decide_item."""

from datetime import date, datetime, timedelta

import pytest
import time_machine

from permits.board import services
from permits.board.matters import matter_for, matters
from permits.errors import RulesBroken
from permits.street_opening import services as so
from permits.street_opening.models import StreetImprovement
from sidewalks import services as sidewalk_services
from sidewalks.models import SidewalkOrder
from tests.board_world import seat_members
from tests.factories import ParcelFactory, StreetFactory
from tests.permits.ledger import conftest as ledger
from tests.permits.street_opening.conftest import (
    CHICAGO,
    DECEMBER_1,
    annual_bond,
    file_december_emergency,
    repaved_in_2023,
    valid_data,
)
from tests.sidewalks.conftest import order_illegal

pytestmark = pytest.mark.django_db


def _decide(item, clerk, *, ayes, present=7, number="2026-40"):
    terms = seat_members()
    services.record_attendance(meeting=item.meeting, present=terms[:present], by=clerk)
    votes = {t: ("aye" if i < ayes else "nay") for i, t in enumerate(terms[:present])}
    return services.decide_item(item=item, text="So moved", votes=votes, resolution_number=number, by=clerk)


def test_every_listed_matter_names_a_clause_and_a_model():
    from django.apps import apps

    from permits.board.clauses import Clause

    assert {m.clause for m in matters()} >= {
        Clause.SIDEWALK_WAIVER,
        Clause.COLD_POUR_WAIVER,
        Clause.SIDEWALK_ORDER,
        Clause.WINTER_EMERGENCY,
        Clause.MORATORIUM_EXCEPTION,
        Clause.SPECIAL_CHARGE_HEARING,
        Clause.STREET_USE,
    }
    for matter in matters():
        assert matter.clause in Clause.values
        apps.get_model(matter.model)


@pytest.fixture
def proposed_order(dpw_director):
    from permits.models import Parcel

    shop = ParcelFactory(land_use=Parcel.LandUse.COMMERCIAL)
    return order_illegal(shop, dpw_director, today=date(2026, 5, 4))


def test_303_3b_3_a_proposed_order_waits_and_a_carried_motion_adopts_it(proposed_order, clerk):
    matter = matter_for("303-3B(3)", "sidewalks.SidewalkOrder")
    assert proposed_order in list(matter.waiting())
    assert ("Order", proposed_order.number) in matter.facts(proposed_order)
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=proposed_order, clause="303-3B(3)", by=clerk)
    _decide(item, clerk, ayes=4)  # 4 of 7 present: a majority of those present
    proposed_order.refresh_from_db()
    assert (proposed_order.status, proposed_order.resolution_number, proposed_order.adopted_on) == (
        SidewalkOrder.Status.ADOPTED,
        "2026-40",
        date(2026, 6, 2),
    )
    assert proposed_order not in list(matter.waiting())


def test_303_3b_3_a_failed_motion_leaves_the_order_proposed(proposed_order, clerk):
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=proposed_order, clause="303-3B(3)", by=clerk)
    motion = _decide(item, clerk, ayes=3)
    assert not motion.carried
    proposed_order.refresh_from_db()
    assert proposed_order.status == SidewalkOrder.Status.PROPOSED


@pytest.fixture
def winter_emergency(contractor, contractor_org, clerk):
    from permits.models import Organization

    annual_bond(contractor_org, clerk)
    contractor_org.utility_facilities = [Organization.Facility.SEWER]  # § 303-5H: a utility may claim an emergency
    contractor_org.save(update_fields=["utility_facilities"])
    with time_machine.travel(DECEMBER_1, tick=False):
        return file_december_emergency(StreetFactory(name="Henni Street"), contractor, contractor_org)


def test_303_5a_a_winter_emergency_waits_and_a_carried_motion_determines_it(winter_emergency, clerk):
    matter = matter_for("303-5A", "permits.Permit")
    assert [p.pk for p in matter.waiting()] == [winter_emergency.pk]
    meeting = services.schedule_meeting(held_on=date(2026, 12, 1), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=winter_emergency, clause="303-5A", by=clerk)
    motion = _decide(item, clerk, ayes=4)
    determination = winter_emergency.street_opening.emergency_determination
    assert determination.motion == motion and determination.reason == "So moved"
    assert list(matter.waiting()) == []


def test_303_5i_a_repaved_street_opening_waits_and_a_carried_motion_grants_the_exception(
    contractor, contractor_org, clerk
):
    street = StreetFactory(name="Henni Street")
    annual_bond(contractor_org, clerk)
    repaved_in_2023(street, clerk)
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO), tick=False):
        permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    matter = matter_for("303-5I", "permits.Permit")
    assert [p.pk for p in matter.waiting()] == [permit.pk]
    meeting = services.schedule_meeting(held_on=date(2026, 5, 5), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=permit, clause="303-5I", by=clerk)
    _decide(item, clerk, ayes=4)
    assert permit.street_opening.moratorium_exception.motion.carried
    assert list(matter.waiting()) == []


def test_a_subject_refusing_the_result_leaves_no_motion(clerk):
    """§ 303-3D(8)(c): a carried waiver needs a resolution number; without it nothing is stored."""
    from permits.board.models import Motion

    request = sidewalk_services.request_board_waiver(
        kind="width_thickness", parcel=ParcelFactory(), reason="Frontage", by=clerk
    )
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=request, clause="303-3D(8)(c)", by=clerk)
    with pytest.raises(Exception, match="resolution number"):
        _decide(item, clerk, ayes=6, number="")
    assert not Motion.objects.exists()


def test_an_unknown_matter_is_refused(clerk):
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), by=clerk)
    with pytest.raises(RulesBroken, match="No such matter"):
        services.add_matter_to_agenda(meeting=meeting, subject=ParcelFactory(), clause="303-3B(3)", by=clerk)


def test_303_3d_8_c_the_clause_decides_the_rule_never_the_clerk():
    from permits.board import rules

    assert rules.vote_rule_for("303-3D(8)(c)") == "three_fourths_entire"
    assert rules.vote_rule_for("303-3D(9)") == "majority_present"
    assert rules.vote_rule_for("303-3B(3)") == "majority_present"


def test_waiver_request_needs_a_reason_and_the_clerk(clerk, board_member):
    from django.core.exceptions import PermissionDenied, ValidationError

    with pytest.raises(ValidationError, match="303-3D"):
        sidewalk_services.request_board_waiver(kind="cold_weather", parcel=ParcelFactory(), reason=" ", by=clerk)
    with pytest.raises(PermissionDenied):
        sidewalk_services.request_board_waiver(kind="cold_weather", parcel=ParcelFactory(), reason="x", by=board_member)


def _hearing(clerk, hearing_on, published_on, mailed_on):
    return ledger.hearing(clerk, hearing_on, published_on=published_on, mailed_on=mailed_on, today=date(2026, 5, 1))


def test_66_0627_a_noticed_hearing_waits_and_the_meeting_of_its_date_holds_it(clerk):
    with time_machine.travel(datetime(2026, 5, 1, 10, 0, tzinfo=CHICAGO), tick=False):
        hearing = _hearing(clerk, date(2026, 6, 2), date(2026, 5, 13), date(2026, 5, 23))
        matter = matter_for("66.0627", "permits.ChargeHearing")
        assert [h.pk for h in matter.waiting()] == [hearing.pk]
        assert ("Notice", "Timely (Wis. Stat. § 66.0627(3)(b))") in matter.facts(hearing)
    meeting = services.schedule_meeting(held_on=date(2026, 6, 2), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=hearing, clause="66.0627", by=clerk)
    motion = _decide(item, clerk, ayes=4)
    hearing.refresh_from_db()
    assert hearing.motion == motion


def test_66_0627_notice_published_19_days_before_is_named_in_the_facts(clerk):
    hearing = _hearing(clerk, date(2026, 6, 2), date(2026, 5, 14), date(2026, 5, 23))
    facts = dict(matter_for("66.0627", "permits.ChargeHearing").facts(hearing))
    assert "19 days" in facts["Notice"]


def test_66_0627_a_meeting_of_another_date_does_not_hold_the_hearing(clerk):
    from permits.board.models import Motion

    hearing = _hearing(clerk, date(2026, 6, 2), date(2026, 5, 13), date(2026, 5, 23))
    meeting = services.schedule_meeting(held_on=date(2026, 6, 3), by=clerk)
    item = services.add_matter_to_agenda(meeting=meeting, subject=hearing, clause="66.0627", by=clerk)
    with pytest.raises(RulesBroken, match="noticed for June 2, 2026"):
        _decide(item, clerk, ayes=4)
    assert not Motion.objects.exists()


# The § 303-5A and § 303-5I matters select in SQL what the rules decide, so the queue reads a page of them.

SPANS = [
    (date(2026, 4, 1), date(2026, 4, 1)),  # April 1 is closed
    (date(2026, 4, 2), date(2026, 11, 14)),  # the whole open season
    (date(2026, 4, 2), date(2026, 11, 15)),  # ends on November 15: closed
    (date(2026, 11, 14), date(2026, 11, 14)),
    (date(2026, 11, 15), date(2026, 11, 20)),
    (date(2026, 6, 1), date(2027, 6, 1)),  # a year: reaches the winter
    (date(2026, 12, 31), date(2027, 1, 2)),
]


@pytest.mark.parametrize(("start", "end"), SPANS)
def test_303_5a_the_waiting_emergencies_are_the_winter_violations(winter_emergency, start, end):
    from permits.models import Permit
    from permits.street_opening import rules

    Permit.objects.filter(pk=winter_emergency.pk).update(start_date=start, end_date=end)
    expected = bool(
        rules.winter_violations(
            start_date=start, end_date=end, emergency=True, determination_recorded=False, at_approval=True
        )
    )
    waiting = [p.pk for p in matter_for("303-5A", "permits.Permit").waiting()]
    assert (winter_emergency.pk in waiting) is expected


@pytest.mark.parametrize(
    ("repaved_on", "start", "end"),
    [
        (date(2021, 6, 15), date(2026, 6, 14), date(2026, 6, 20)),  # the last day of the five years
        (date(2021, 6, 15), date(2026, 6, 15), date(2026, 6, 20)),  # the anniversary is open
        (date(2021, 6, 16), date(2026, 6, 15), None),
        (date(2026, 6, 20), date(2026, 6, 15), date(2026, 6, 19)),  # repaved after the work
        (date(2026, 6, 20), date(2026, 6, 15), date(2026, 6, 20)),  # the end day is the repaving day
        (date(2020, 2, 29), date(2025, 2, 27), None),  # February 29 plus five years is February 28
        (date(2020, 2, 29), date(2025, 2, 28), None),
        (date(2020, 2, 29), date(2025, 3, 1), None),
    ],
)
def test_303_5i_the_waiting_exceptions_are_the_moratorium_days(
    contractor, contractor_org, clerk, repaved_on, start, end
):
    from permits.models import Permit
    from permits.street_opening import rules

    street = StreetFactory(name="Henni Street")
    annual_bond(contractor_org, clerk)
    with time_machine.travel(datetime(2026, 5, 4, 10, 0, tzinfo=CHICAGO), tick=False):
        permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    Permit.objects.filter(pk=permit.pk).update(start_date=start, end_date=end)
    StreetImprovement.objects.create(
        street=street,
        description="Mill and overlay",
        decided_on=repaved_on - timedelta(days=60),
        work_begins_on=repaved_on - timedelta(days=30),
        repaved_on=repaved_on,
        recorded_by=clerk,
        recorded_at=datetime(2020, 1, 1, tzinfo=CHICAGO),
    )
    expected = rules.is_in_moratorium(repaved_on=repaved_on, day=start) or bool(
        end and rules.is_in_moratorium(repaved_on=repaved_on, day=end)
    )
    waiting = [p.pk for p in matter_for("303-5I", "permits.Permit").waiting()]
    assert (permit.pk in waiting) is expected
