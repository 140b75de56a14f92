"""§ 303-3B(2): the owner's 100% share of curb, gutter and sidewalk work is a special assessment, levied as Wis. Stat.
§ 66.0703 requires: the Board's preliminary resolution, the engineer's report, the class 1 notice and mailed copy,
the public hearing and the Board's final resolution. The Village's 50% only on the named project."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from permits.board.matters import matter_for
from permits.ledger import assessments
from permits.ledger import rules as charge_rules
from permits.ledger.models import SpecialCharge
from permits.ledger.services import bill_charge, bill_charges_after_hearings, mark_delinquent_charges
from permits.models import Notice
from sidewalks import services
from sidewalks.models import SidewalkOrder
from tests.board_world import adopt_orders, vote
from tests.sidewalks.conftest import TODAY

PRELIMINARY_ON = date(2026, 7, 6)
REPORT_ON = date(2026, 7, 8)
PUBLISHED_ON = date(2026, 7, 10)
HEARING_ON = date(2026, 7, 27)  # 17 days after publication
MAILED_ON = date(2026, 7, 17)  # 10 days before the hearing


def notice_errors(*, hearing_on=HEARING_ON, published_on=PUBLISHED_ON, mailed_on=MAILED_ON, report=REPORT_ON):
    return charge_rules.assessment_notice_field_errors(
        preliminary_on=PRELIMINARY_ON,
        report_filed_on=report,
        hearing_on=hearing_on,
        published_on=published_on,
        mailed_on=mailed_on,
    )


def test_66_0703_7_hearing_ten_to_forty_days_after_publication():
    assert notice_errors(hearing_on=PUBLISHED_ON + timedelta(days=10), mailed_on=PUBLISHED_ON) == {}
    assert "hearing_on" in notice_errors(hearing_on=PUBLISHED_ON + timedelta(days=9), mailed_on=PUBLISHED_ON)
    assert notice_errors(hearing_on=PUBLISHED_ON + timedelta(days=40)) == {}
    assert "hearing_on" in notice_errors(hearing_on=PUBLISHED_ON + timedelta(days=41))


def test_66_0703_7_copy_mailed_at_least_ten_days_before_the_hearing():
    assert notice_errors(mailed_on=HEARING_ON - timedelta(days=10)) == {}
    errors = notice_errors(mailed_on=HEARING_ON - timedelta(days=9))
    assert set(errors) == {"mailed_on"} and "66.0703(7)(a)" in errors["mailed_on"]


def test_66_0703_5_report_filed_before_the_notice_is_published():
    assert notice_errors(report=PUBLISHED_ON) == {}
    assert "published_on" in notice_errors(report=PUBLISHED_ON + timedelta(days=1))
    assert "published_on" in notice_errors(report=None)


def test_66_0703_8_levied_only_from_the_final_resolution_on():
    facts = dict(
        preliminary_on=PRELIMINARY_ON,
        report_filed_on=REPORT_ON,
        published_on=PUBLISHED_ON,
        mailed_on=MAILED_ON,
        hearing_on=HEARING_ON,
        final_on=HEARING_ON,
    )
    assert charge_rules.levy_errors([], HEARING_ON)
    assert charge_rules.levy_errors([facts], HEARING_ON - timedelta(days=1))
    assert charge_rules.levy_errors([facts], HEARING_ON) == []
    assert charge_rules.levy_errors([facts | {"final_on": None}], HEARING_ON + timedelta(days=5))


@pytest.fixture
def survey(elm, inspector, home):
    s = services.start_survey(street=elm, by=inspector, surveyed_on=TODAY)
    for n, vertical in enumerate(["1", "1", "1", "1", "0.5"], start=1):
        services.record_block(survey=s, parcel=home, block_number=n, vertical_inches=Decimal(vertical), by=inspector)
    return s


@pytest.fixture
def charge(survey, inspector, clerk, dpw_director, home):
    [order] = services.propose_orders(survey=survey, by=inspector, today=TODAY)
    adopt_orders([order], clerk, number="2026-20", held_on=TODAY + timedelta(days=7))
    order.refresh_from_db()
    services.serve_order(order=order, method="personal", served_on=date(2026, 6, 10), proof="Affidavit", by=clerk)
    services.record_village_work(order=order, cost=Decimal("1200"), done_on=date(2026, 7, 1), by=dpw_director)
    return services.charge_order(order=order, by=clerk, today=date(2026, 7, 2))


def _through_notice(charge, clerk, dpw_director):
    proceeding = assessments.open_assessment(title="Elm Street walks 2026", charges=[charge], by=clerk)
    motion = vote(clause="66.0703(4)", ayes=5, held_on=PRELIMINARY_ON, subject=proceeding, number="2026-30")
    matter_for("66.0703(4)", "permits.AssessmentProceeding").decide(subject=proceeding, motion=motion, by=clerk)
    proceeding.refresh_from_db()
    assessments.file_engineers_report(
        proceeding=proceeding, filed_on=REPORT_ON, report="Plans, estimate $1,200, schedule", by=dpw_director
    )
    return assessments.give_hearing_notice(
        proceeding=proceeding, hearing_on=HEARING_ON, published_on=PUBLISHED_ON, mailed_on=MAILED_ON, by=clerk
    )


def test_303_3b_2_the_assessment_is_not_billed_before_the_final_resolution(charge, clerk, dpw_director):
    assert charge.route == "special_assessment_66_0703" and charge.status == "pending"
    with pytest.raises(ValidationError, match="66.0703"):
        bill_charge(charge, by=clerk, today=date(2026, 7, 2))
    _through_notice(charge, clerk, dpw_director)
    bill_charges_after_hearings(today=HEARING_ON + timedelta(days=1))
    mark_delinquent_charges(today=date(2026, 12, 1))
    charge.refresh_from_db()
    assert charge.status == "pending"  # noticed and heard, but no final resolution: nothing is levied


def test_303_3b_2_final_resolution_at_the_hearing_levies_and_bills(charge, clerk, dpw_director):
    proceeding = _through_notice(charge, clerk, dpw_director)
    notice = Notice.objects.get(template="special_assessment_notice")
    assert notice.to == "olga@example.com" and "July 27, 2026" in notice.body and "$1200.00" in notice.body
    motion = vote(clause="66.0703(8)", ayes=5, held_on=HEARING_ON, subject=proceeding, number="2026-41")
    matter_for("66.0703(8)", "permits.AssessmentProceeding").decide(subject=proceeding, motion=motion, by=clerk)
    charge.refresh_from_db()
    proceeding.refresh_from_db()
    assert proceeding.final_motion == motion and charge.status == "billed"


def test_66_0703_8_final_resolution_before_the_noticed_hearing_is_refused(charge, clerk, dpw_director):
    proceeding = _through_notice(charge, clerk, dpw_director)
    motion = vote(
        clause="66.0703(8)", ayes=5, held_on=HEARING_ON - timedelta(days=1), subject=proceeding, number="2026-40"
    )
    with pytest.raises(ValidationError, match="final resolution comes at or after"):
        assessments.levy_assessment(proceeding=proceeding, motion=motion, by=clerk)
    charge.refresh_from_db()
    assert charge.status == "pending"


def test_66_0703_8_a_failed_or_other_clause_motion_levies_nothing(charge, clerk, dpw_director):
    proceeding = _through_notice(charge, clerk, dpw_director)
    failed = vote(clause="66.0703(8)", ayes=2, nays=4, held_on=HEARING_ON, subject=proceeding, number="2026-42")
    with pytest.raises(ValidationError, match="failed"):
        assessments.levy_assessment(proceeding=proceeding, motion=failed, by=clerk)
    other = vote(clause="303-3B(3)", ayes=5, held_on=HEARING_ON, number="2026-43")
    with pytest.raises(ValidationError, match="not § 66.0703"):
        assessments.levy_assessment(proceeding=proceeding, motion=other, by=clerk)


def test_66_0703_7_notice_refused_without_the_engineers_report(charge, clerk):
    proceeding = assessments.open_assessment(title="Elm Street walks 2026", charges=[charge], by=clerk)
    motion = vote(clause="66.0703(4)", ayes=5, held_on=PRELIMINARY_ON, subject=proceeding, number="2026-30")
    assessments.adopt_preliminary_resolution(proceeding=proceeding, motion=motion, by=clerk)
    with pytest.raises(ValidationError) as error:
        assessments.give_hearing_notice(
            proceeding=proceeding, hearing_on=HEARING_ON, published_on=PUBLISHED_ON, mailed_on=MAILED_ON, by=clerk
        )
    assert "published_on" in error.value.message_dict
    assert not Notice.objects.filter(template="special_assessment_notice").exists()


def test_66_0703_5_report_needs_the_preliminary_resolution(charge, clerk, dpw_director):
    proceeding = assessments.open_assessment(title="Elm Street walks 2026", charges=[charge], by=clerk)
    with pytest.raises(ValidationError, match="preliminary resolution"):
        assessments.file_engineers_report(proceeding=proceeding, filed_on=REPORT_ON, report="x", by=dpw_director)


def test_303_3b_2_only_the_clerk_opens_an_assessment(charge, dpw_director, board_member, resident):
    for user in (dpw_director, board_member, resident):
        with pytest.raises(PermissionDenied):
            assessments.open_assessment(title="Elm", charges=[charge], by=user)


def test_303_3b_2_a_billed_special_charge_is_no_assessment(clerk, home):
    from permits.ledger.services import add_charge

    snow = add_charge(
        parcel=home,
        source="snow_ice",
        route="special_charge_66_0627",
        amount="50",
        incurred_on=TODAY,
        description="Snow",
        citation="§ 303-8B",
        by=clerk,
        today=TODAY,
    )
    with pytest.raises(ValidationError, match="not a pending special assessment"):
        assessments.open_assessment(title="Elm", charges=[snow], by=clerk)


def test_303_3b_2_village_half_only_on_the_named_project(charge, clerk):
    assert charge.amount == Decimal("1200.00")  # 100% the owner's
    order = SidewalkOrder.objects.get(charge=charge)
    assert "100% owner's cost (§ 303-3B(2))" in charge.description and order.highland_theresa_project is False
    assert SpecialCharge.objects.get(pk=charge.pk).route == SpecialCharge.Route.SPECIAL_ASSESSMENT_66_0703


def test_303_3b_2_assessment_pages_by_role(
    client, charge, clerk, dpw_director, resident, django_assert_max_num_queries
):
    """The clerk opens and notices; DPW files the engineer's report; a resident sees none of it."""
    from django.urls import reverse

    from permits.ledger.models import AssessmentProceeding

    url = reverse("ledger:assessments")
    client.force_login(resident)
    assert client.get(url).status_code == 403
    client.force_login(clerk)
    with django_assert_max_num_queries(15):
        assert charge.number in client.get(url).content.decode()
    response = client.post(url, {"title": "Elm Street walks 2026", "charges": [charge.number]})
    proceeding = AssessmentProceeding.objects.get()
    assert response.status_code == 302 and list(proceeding.charges.all()) == [charge]
    motion = vote(clause="66.0703(4)", ayes=5, held_on=PRELIMINARY_ON, subject=proceeding, number="2026-30")
    assessments.adopt_preliminary_resolution(proceeding=proceeding, motion=motion, by=clerk)
    page = proceeding.get_absolute_url()
    client.force_login(dpw_director)
    filed = client.post(page, {"step": "report", "filed_on": REPORT_ON.isoformat(), "report": "Plans and estimate"})
    assert filed.status_code == 302
    notice = {
        "step": "notice",
        "hearing_on": HEARING_ON.isoformat(),
        "published_on": PUBLISHED_ON.isoformat(),
        "mailed_on": MAILED_ON.isoformat(),
    }
    assert client.post(page, notice).status_code == 403  # the notice is the Clerk-Treasurer's
    client.force_login(clerk)
    late = client.post(page, notice | {"mailed_on": (HEARING_ON - timedelta(days=9)).isoformat()})
    assert late.status_code == 400 and "requires at least 10" in late.content.decode()
    assert client.post(page, notice).status_code == 302
    proceeding.refresh_from_db()
    assert proceeding.hearing_on == HEARING_ON and proceeding.step == "Noticed for hearing"


def test_66_0703_an_assessment_is_not_heard_as_a_special_charge(charge, clerk):
    from permits.ledger.services import record_hearing

    with pytest.raises(ValidationError, match="66.0703 route"):
        record_hearing(
            hearing_on=HEARING_ON, published_on=PUBLISHED_ON, mailed_on=MAILED_ON, charges=[charge], by=clerk
        )
    charge.refresh_from_db()
    assert charge.status == "pending" and not charge.hearings.exists()


def test_66_0703_both_resolutions_through_the_boards_agenda(charge, clerk, dpw_director):
    """The queue lists the proceeding; the motion recorded on its agenda item adopts each resolution."""
    from permits.board import services as board
    from tests.board_world import seat_members

    def decide(clause, held_on, subject, number, ayes=4):
        meeting = board.schedule_meeting(held_on=held_on, by=clerk)
        item = board.add_matter_to_agenda(meeting=meeting, subject=subject, clause=clause, by=clerk)
        terms = seat_members()
        board.record_attendance(meeting=meeting, present=terms, by=clerk)
        votes = {t: ("aye" if i < ayes else "nay") for i, t in enumerate(terms)}
        return board.decide_item(item=item, text="So moved", votes=votes, resolution_number=number, by=clerk)

    proceeding = assessments.open_assessment(title="Elm Street walks 2026", charges=[charge], by=clerk)
    preliminary = matter_for("66.0703(4)", "permits.AssessmentProceeding")
    assert proceeding in list(preliminary.waiting())
    assert ("Owners", "101 Elm Street: $1,200.00") in preliminary.facts(proceeding)
    decide("66.0703(4)", PRELIMINARY_ON, proceeding, "2026-30", ayes=3)  # 3 of 7 present: failed, still waiting
    assert proceeding in list(preliminary.waiting())
    decide("66.0703(4)", PRELIMINARY_ON + timedelta(days=1), proceeding, "2026-31")
    assert proceeding not in list(preliminary.waiting())
    assessments.file_engineers_report(proceeding=proceeding, filed_on=REPORT_ON, report="Report", by=dpw_director)
    assessments.give_hearing_notice(
        proceeding=proceeding, hearing_on=HEARING_ON, published_on=PUBLISHED_ON, mailed_on=MAILED_ON, by=clerk
    )
    final = matter_for("66.0703(8)", "permits.AssessmentProceeding")
    assert proceeding in list(final.waiting())
    decide("66.0703(8)", HEARING_ON, proceeding, "2026-50")
    charge.refresh_from_db()
    assert charge.status == "billed" and proceeding not in list(final.waiting())


def test_66_0703_4_the_boards_queue_shows_the_proceeding(client, charge, clerk):
    from django.urls import reverse

    assessments.open_assessment(title="Elm Street walks 2026", charges=[charge], by=clerk)
    client.force_login(clerk)
    page = client.get(reverse("board:queue")).content.decode()
    assert "preliminary resolutions" in page and "Elm Street walks 2026" in page
