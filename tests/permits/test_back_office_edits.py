"""Edits of a filed permit (permits.edits, the one save path services.edit_permit): for every type, every editable
field, every status and every role, who may change it, then the type's rules on the new values. The tables below are
written from the ordinance, not read from the code."""

from datetime import date

import pytest

from permits import edits, services
from permits.errors import RulesBroken
from permits.models import Permit, PermitKind, Status
from tests.factories import PermitFactory, StreetFactory
from tests.permits.conftest import STAFF_PERSONAS

pytestmark = pytest.mark.django_db

EVERY = set(edits.EDITABLE)
DATES = {"start_date", "end_date"}
IN_FORCE = (Status.APPROVED, Status.ISSUED, Status.ACTIVE)
# type -> (the personas who edit, {status: the fields open}); a status not listed has none open.
EXPECTED = {
    # § 303-4A: the clerk or the DPW; once approved only the dates (within § 303-4D)
    PermitKind.STREET_OPENING: (
        {"clerk", "dpw_director"},
        {Status.SUBMITTED: EVERY, Status.UNDER_REVIEW: EVERY, **dict.fromkeys(IN_FORCE, DATES)},
    ),
    # § 303-7A: the Building Inspector (the clerk keeps the record); never the street; nothing once granted
    PermitKind.STREET_PRIVILEGE: (
        {"clerk", "building_inspector"},
        {s: {"location_description", *DATES} for s in (Status.SUBMITTED, Status.UNDER_REVIEW)},
    ),
    # § 303-15C, § 303-15F: the clerk; once the Board granted it, only the event's description
    PermitKind.STREET_USE: (
        {"clerk"},
        {Status.SUBMITTED: EVERY, Status.UNDER_REVIEW: EVERY, **dict.fromkeys(IN_FORCE, {"work_description"})},
    ),
    # § 303-3C: the clerk, until the permit is issued
    PermitKind.SIDEWALK: ({"clerk"}, dict.fromkeys((Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED), EVERY)),
}
PERSONAS = [*STAFF_PERSONAS, "resident", "contractor"]


def in_status(kind, status, **fields) -> Permit:
    permit = PermitFactory(kind=kind, **fields)
    Permit.objects.filter(pk=permit.pk).update(status=status)
    return Permit.objects.get(pk=permit.pk)


def test_every_type_states_its_edit_policy():
    from permits import kinds

    assert {t.kind for t in kinds.online_types()} == set(EXPECTED)
    assert all(t.edit_policy is not None for t in kinds.online_types())


@pytest.mark.parametrize("kind", list(EXPECTED))
def test_every_editable_field_of_every_status_as_every_role(kind, persona):
    editors, open_in = EXPECTED[kind]
    wrong = []
    for status in Status.values:
        permit = in_status(kind, status)
        for who in PERSONAS:
            for name in edits.EDITABLE:
                refused = edits.scope_violations(permit, [name], by=persona(who))
                may = who in editors and name in open_in.get(status, set())
                if may == bool(refused):
                    wrong.append((status, who, name, [v.code for v in refused]))
                for v in refused:
                    assert v.citation and v.citation in v.message
                    assert v.field in (None, name)
    assert wrong == []


def test_nothing_changed_is_never_refused(clerk, resident):
    permit = in_status(PermitKind.STREET_PRIVILEGE, Status.CLOSED)
    values = {name: getattr(permit, name) for name in edits.EDITABLE}
    assert edits.edit_violations(permit, values, today=date(2026, 5, 4), by=resident) == []


# --- The street privilege permit the Director of Public Works moved, issued, and stretched over two years --------


def values_of(permit, **changes):
    return {name: getattr(permit, name) for name in edits.EDITABLE} | changes


@pytest.fixture
def issued_privilege():
    return in_status(
        PermitKind.STREET_PRIVILEGE,
        Status.ISSUED,
        start_date=date(2026, 6, 1),
        end_date=date(2026, 6, 30),
        location_description="In front of 102 Henni Street",
    )


def test_303_7a_the_dpw_does_not_edit_a_street_privilege_permit(issued_privilege, dpw_director):
    values = values_of(issued_privilege, street=StreetFactory(name="Mill Street"), end_date=date(2028, 6, 30))
    with pytest.raises(RulesBroken) as refused:
        services.edit_permit(permit=issued_privilege, by=dpw_director, values=values)
    assert [v.message for v in refused.value.violations] == [
        "Only the Building Inspector or the Clerk-Treasurer changes a street privilege permit in the back office "
        "(§ 303-7A)."
    ]
    assert Permit.objects.get(pk=issued_privilege.pk).end_date == date(2026, 6, 30)


def test_303_7a_an_issued_street_privilege_permit_keeps_its_street_and_dates(issued_privilege, clerk):
    values = values_of(issued_privilege, street=StreetFactory(name="Mill Street"), end_date=date(2028, 6, 30))
    with pytest.raises(RulesBroken) as refused:
        services.edit_permit(permit=issued_privilege, by=clerk, values=values)
    assert {(v.field, v.code, v.citation) for v in refused.value.violations} == {
        ("street", "closed_in_status", "§ 303-7A"),
        ("end_date", "closed_in_status", "§ 303-7A"),
    }
    assert not issued_privilege.events.exists()


def test_303_7d_under_review_the_dates_are_corrected_in_order_only(building_inspector):
    permit = in_status(
        PermitKind.STREET_PRIVILEGE, Status.UNDER_REVIEW, start_date=date(2026, 6, 1), end_date=date(2026, 6, 30)
    )
    with pytest.raises(RulesBroken) as refused:
        services.edit_permit(permit=permit, by=building_inspector, values=values_of(permit, end_date=date(2026, 5, 31)))
    assert [(v.field, v.code, v.citation) for v in refused.value.violations] == [
        ("end_date", "end_before_start", "§ 303-7D")
    ]
    changes = services.edit_permit(
        permit=permit, by=building_inspector, values=values_of(permit, end_date=date(2026, 6, 1))
    )
    assert changes == ["End date: June 30, 2026 → June 1, 2026"]
    assert Permit.objects.get(pk=permit.pk).end_date == date(2026, 6, 1)
    assert permit.history.count() >= 2  # the field history keeps it too


def test_the_admin_shows_the_dpw_why_and_changes_nothing(client, issued_privilege, dpw_director):
    client.force_login(dpw_director)
    data = {
        "street": StreetFactory(name="Mill Street").pk,
        "parcel": "",
        "location_description": issued_privilege.location_description,
        "work_description": issued_privilege.work_description,
        "start_date": "2026-06-01",
        "end_date": "2028-06-30",
    }
    for prefix in ("events", "payments", "documents", "notices"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    response = client.post(f"/admin/permits/permit/{issued_privilege.pk}/change/", data)
    assert response.status_code == 200 and "(§ 303-7A)" in response.content.decode()
    assert Permit.objects.get(pk=issued_privilege.pk).street_id == issued_privilege.street_id
