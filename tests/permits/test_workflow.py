"""The status table, who may act, and the timeline every transition writes."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from permits import kinds
from permits.errors import RulesBroken
from permits.models import Permit, PermitEvent, Status
from permits.workflow import (
    AUTHORITY,
    TRANSITIONS,
    IllegalTransition,
    allowed_targets,
    may_transition,
    transition,
)
from tests.factories import PermitFactory
from tests.permits.conftest import STAFF_PERSONAS, permit_in

pytestmark = pytest.mark.django_db

SOURCES = list(Status.values)


@pytest.mark.parametrize("src", SOURCES)
def test_every_allowed_transition_works(src):
    for dst in TRANSITIONS[src]:
        permit = permit_in(src)
        transition(permit, dst, by=None, reason="test")
        permit.refresh_from_db()
        assert permit.status == dst, (src, dst)


@pytest.mark.parametrize("src", SOURCES)
def test_every_disallowed_transition_raises(src):
    permit = permit_in(src)
    for dst in Status.values:
        if dst in TRANSITIONS[src]:
            continue
        with pytest.raises(IllegalTransition):
            transition(permit, dst, by=None)
        permit.refresh_from_db()
        assert permit.status == src, (src, dst)


def test_the_table_covers_every_status_and_final_statuses_lead_nowhere():
    assert set(TRANSITIONS) == set(Status.values)
    assert TRANSITIONS[Status.CLOSED] == TRANSITIONS[Status.DENIED] == TRANSITIONS[Status.WITHDRAWN] == set()


# Who may move a permit INTO each status, written out per persona (independently of workflow.AUTHORITY).
# "contractor" applied for contractor_org; "contractor_staff" is its other staff member; "resident" and "outsider"
# have nothing to do with the permit.
EXPECTED = {
    Status.SUBMITTED: {"contractor", "contractor_staff"},
    Status.WITHDRAWN: {"contractor", "contractor_staff", "clerk"},
    Status.UNDER_REVIEW: {"clerk", "dpw_director", "building_inspector"},
    Status.APPROVED: {"clerk", "dpw_director", "building_inspector", "board_member"},
    Status.DENIED: {"clerk", "dpw_director", "building_inspector", "board_member"},
    Status.ISSUED: {"clerk"},
    Status.ACTIVE: {
        "contractor",
        "contractor_staff",
        "clerk",
        "dpw_director",
        "inspector",
    },
    Status.COMPLETED: {
        "contractor",
        "contractor_staff",
        "clerk",
        "dpw_director",
        "inspector",
        "building_inspector",
    },
    Status.CLOSED: {"clerk", "dpw_director"},
    Status.EXPIRED: set(),  # the system only (the expiry job)
    Status.REVOKED: {
        "clerk",
        "dpw_director",
        "building_inspector",
        "police_chief",
        "board_member",
        "president",
    },
}
SOURCE_OF = {dst: next(src for src, targets in TRANSITIONS.items() if dst in targets) for dst in EXPECTED}
PERSONAS = ["contractor", "contractor_staff", "resident", "outsider", *STAFF_PERSONAS]


def test_expected_authority_matches_the_workflow_table():
    assert set(EXPECTED) == set(AUTHORITY)


@pytest.mark.parametrize("dst", list(EXPECTED))
@pytest.mark.parametrize("who", PERSONAS)
def test_authority_of_each_persona_for_each_status(dst, who, persona, contractor, contractor_org):
    user = persona(who)
    permit = permit_in(SOURCE_OF[dst], applicant=contractor, organization=contractor_org)
    may = who in EXPECTED[dst]
    assert may_transition(user, permit, dst) is may
    if may:
        transition(permit, dst, by=user, reason="because")
        assert Permit.objects.get(pk=permit.pk).status == dst
    else:
        with pytest.raises(IllegalTransition, match="may not"):
            transition(permit, dst, by=user)
        assert Permit.objects.get(pk=permit.pk).status == SOURCE_OF[dst]


def test_a_resident_applicant_may_submit_and_withdraw_their_own_permit(resident, outsider):
    permit = permit_in(Status.DRAFT, applicant=resident)
    assert not may_transition(outsider, permit, Status.SUBMITTED)
    assert allowed_targets(resident, permit) == [Status.SUBMITTED, Status.WITHDRAWN]
    transition(permit, Status.SUBMITTED, by=resident)
    transition(permit, Status.WITHDRAWN, by=resident, reason="Plans changed")
    assert Permit.objects.get(pk=permit.pk).status == Status.WITHDRAWN


def test_anonymous_user_may_not_transition(resident):
    from django.contrib.auth.models import AnonymousUser

    permit = permit_in(Status.DRAFT, applicant=resident)
    assert not may_transition(AnonymousUser(), permit, Status.SUBMITTED)
    with pytest.raises(IllegalTransition):
        transition(permit, Status.SUBMITTED, by=AnonymousUser())


def test_plain_save_that_changes_status_raises():
    permit = permit_in(Status.SUBMITTED)
    permit.status = Status.APPROVED
    with pytest.raises(IllegalTransition, match="cannot be changed by saving"):
        permit.save()
    assert Permit.objects.get(pk=permit.pk).status == Status.SUBMITTED


def test_plain_save_of_a_permit_loaded_from_the_database_raises_too():
    permit = permit_in(Status.SUBMITTED)
    loaded = Permit.objects.get(pk=permit.pk)
    loaded.status = Status.ISSUED
    with pytest.raises(IllegalTransition):
        loaded.save()


def test_plain_save_without_status_change_is_allowed():
    permit = permit_in(Status.SUBMITTED)
    permit.location_description = "Changed"
    permit.save()
    assert Permit.objects.get(pk=permit.pk).location_description == "Changed"


def test_a_permit_cannot_be_created_in_any_status_but_draft():
    with pytest.raises(IllegalTransition):
        PermitFactory(status=Status.APPROVED)
    assert not Permit.objects.exists()


def test_concurrent_approval_second_copy_raises(clerk, dpw_director):
    permit = permit_in(Status.UNDER_REVIEW)
    first = Permit.objects.get(pk=permit.pk)
    second = Permit.objects.get(pk=permit.pk)
    transition(first, Status.APPROVED, by=clerk)
    with pytest.raises(IllegalTransition, match="changed by someone else"):
        transition(second, Status.DENIED, by=dpw_director, reason="no")
    permit.refresh_from_db()
    assert permit.status == Status.APPROVED
    assert permit.events.filter(to_status=Status.DENIED).count() == 0
    assert permit.events.filter(to_status=Status.APPROVED).count() == 1


def test_concurrent_approval_twice_by_two_clerks(clerk, dpw_director):
    permit = permit_in(Status.UNDER_REVIEW)
    a, b = Permit.objects.get(pk=permit.pk), Permit.objects.get(pk=permit.pk)
    transition(a, Status.APPROVED, by=clerk)
    with pytest.raises(IllegalTransition):
        transition(b, Status.APPROVED, by=dpw_director)
    assert permit.events.filter(to_status=Status.APPROVED).count() == 1


def test_each_transition_writes_who_when_from_to_and_why(clerk):
    permit = permit_in(Status.UNDER_REVIEW)
    clerk.first_name, clerk.last_name = "Carol", "Kramer"
    moment = datetime.datetime(2026, 5, 4, 15, 30, tzinfo=datetime.UTC)
    with time_machine.travel(moment, tick=False):
        transition(
            permit,
            Status.APPROVED,
            by=clerk,
            reason="Insurance and bond on file",
            extra={"expires_on": datetime.date(2026, 6, 3)},
        )
    event = permit.events.get(to_status=Status.APPROVED)
    assert event.kind == PermitEvent.Kind.TRANSITION
    assert event.actor == clerk
    assert event.actor_label == "Carol Kramer, Clerk-Treasurer"  # a name and an office, never the login
    assert event.at == moment
    assert event.from_status == Status.UNDER_REVIEW
    assert event.reason == "Insurance and bond on file"
    permit.refresh_from_db()
    assert permit.approved_on == datetime.date(2026, 5, 4)  # 10:30 in Theresa
    assert permit.expires_on == datetime.date(2026, 6, 3)


def test_system_transition_is_labelled_as_the_system_not_as_a_scheduled_job():
    permit = permit_in(Status.APPROVED)
    transition(permit, Status.EXPIRED, by=None, reason="Not issued in time")
    assert permit.events.last().actor_label == "the permit system"
    assert permit.events.last().actor is None


def test_an_applicant_without_a_name_is_not_shown_by_login(django_user_model):
    from permits.state import actor_label

    assert actor_label(django_user_model(username="jdoe77")) == "the applicant"
    assert actor_label(django_user_model(username="jdoe77", first_name="Jane", last_name="Doe")) == "Jane Doe"


def test_every_step_of_the_path_is_on_the_timeline():
    permit = permit_in(Status.CLOSED)
    pairs = list(permit.events.values_list("from_status", "to_status"))
    assert pairs == [
        ("draft", "submitted"),
        ("submitted", "under_review"),
        ("under_review", "approved"),
        ("approved", "issued"),
        ("issued", "completed"),
        ("completed", "closed"),
    ]


def test_submission_stamps_submitted_at(resident):
    permit = permit_in(Status.DRAFT, applicant=resident)
    transition(permit, Status.SUBMITTED, by=resident)
    permit.refresh_from_db()
    assert permit.submitted_at is not None
    assert abs((timezone.now() - permit.submitted_at).total_seconds()) < 60


def test_applicant_sees_the_timeline_on_the_permit_page(client, resident, clerk):
    permit = permit_in(Status.DRAFT, applicant=resident)
    transition(permit, Status.SUBMITTED, by=resident)
    transition(permit, Status.UNDER_REVIEW, by=clerk)
    transition(permit, Status.DENIED, by=clerk, reason="Work is in the frozen-ground season")
    client.force_login(resident)
    html = client.get(permit.get_absolute_url()).content.decode()
    assert "Timeline" in html
    assert "Denied" in html and "(was under review)" in html
    assert "Work is in the frozen-ground season" in html
    assert "Clerk-Treasurer" in html and "(clerk)" not in html
    assert html.index("Submitted") < html.index("Under review") < html.index("Denied</strong>")


def test_saving_a_stale_copy_does_not_undo_a_transition():
    permit = permit_in(Status.SUBMITTED)
    stale = Permit.objects.get(pk=permit.pk)
    transition(permit, Status.UNDER_REVIEW, by=None)
    stale.location_description = "Edited on a page opened before the review started"
    stale.save()
    fresh = Permit.objects.get(pk=permit.pk)
    assert fresh.status == Status.UNDER_REVIEW
    assert fresh.location_description == "Edited on a page opened before the review started"


def test_a_refreshed_copy_can_be_saved_after_someone_else_moved_it():
    permit = permit_in(Status.SUBMITTED)
    other = Permit.objects.get(pk=permit.pk)
    transition(other, Status.UNDER_REVIEW, by=None)
    permit.refresh_from_db()
    permit.work_description = "Refreshed"
    permit.save()
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW


def test_save_with_update_fields_never_writes_the_status():
    permit = permit_in(Status.SUBMITTED)
    stale = Permit.objects.get(pk=permit.pk)
    transition(permit, Status.UNDER_REVIEW, by=None)
    stale.save(update_fields=["status", "location_description"])
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW


def test_saving_a_partly_loaded_permit_saves_what_was_loaded():
    permit = permit_in(Status.SUBMITTED, work_description="Trench")
    partial = Permit.objects.only("pk", "status", "location_description").get(pk=permit.pk)
    partial.location_description = "Corner"
    partial.save()
    fresh = Permit.objects.get(pk=permit.pk)
    assert (fresh.location_description, fresh.work_description, fresh.status) == (
        "Corner",
        "Trench",
        "submitted",
    )


# --- Expired: the system's only, after the type's validity has ended ----------------------------------------------


def expiry(expires_on, today, validity="§ 303-4D"):
    from permits.workflow import expiry_violations

    found = expiry_violations(
        number="SO-2026-0001",
        title="Street opening permit",
        citation="§ 303-4",
        validity=validity,
        expires_on=expires_on,
        today=today,
    )
    return [(v.code, v.citation) for v in found]


def test_303_4d_a_permit_valid_through_june_3_is_not_expired_on_june_3():
    assert expiry(datetime.date(2026, 6, 3), datetime.date(2026, 6, 2)) == [("still_valid", "§ 303-4D")]
    assert expiry(datetime.date(2026, 6, 3), datetime.date(2026, 6, 3)) == [("still_valid", "§ 303-4D")]


def test_303_4d_it_expires_on_june_4():
    assert expiry(datetime.date(2026, 6, 3), datetime.date(2026, 6, 4)) == []


def test_a_permit_with_no_validity_yet_or_of_a_type_without_one_never_expires():
    assert expiry(None, datetime.date(2026, 6, 4)) == [("no_validity_yet", "§ 303-4D")]
    assert expiry(datetime.date(2026, 6, 3), datetime.date(2026, 6, 4), validity="") == [("no_validity", "§ 303-4")]


@pytest.mark.parametrize("who", STAFF_PERSONAS)
@pytest.mark.parametrize("kind", [t.kind for t in kinds.online_types()])
def test_no_role_marks_a_permit_of_any_type_expired(kind, who, persona):
    permit = issued(kind, expires_on=datetime.date(2026, 6, 3))
    assert not may_transition(persona(who), permit, Status.EXPIRED)
    with pytest.raises(IllegalTransition, match="may not"):
        transition(permit, Status.EXPIRED, by=persona(who))


def issued(kind, **fields):
    permit = PermitFactory(kind=kind)
    Permit.objects.filter(pk=permit.pk).update(status=Status.ISSUED, **fields)
    return Permit.objects.get(pk=permit.pk)


@pytest.mark.parametrize(("kind", "validity"), [(t.kind, t.validity) for t in kinds.online_types()])
def test_the_system_expires_a_permit_only_after_its_types_validity(kind, validity):
    permit = issued(kind, expires_on=datetime.date(2026, 6, 3))
    with pytest.raises(RulesBroken) as refused:
        transition(permit, Status.EXPIRED, by=None, today=datetime.date(2026, 6, 3))
    assert [v.citation for v in refused.value.violations] == [validity or kinds.get_type(kind).citation]
    assert Permit.objects.get(pk=permit.pk).status == Status.ISSUED
    if validity:
        transition(permit, Status.EXPIRED, by=None, today=datetime.date(2026, 6, 4))
        assert Permit.objects.get(pk=permit.pk).status == Status.EXPIRED
