"""§ 303-4D, § 303-4A: after approval, a street opening's planned dates move in the back office only within the
validity its approval started, and its street and place do not move at all."""

from datetime import date

import pytest

from permits import edits, services
from permits.errors import RulesBroken
from permits.models import Permit
from tests.factories import StreetFactory

pytestmark = pytest.mark.django_db


def values_of(permit: Permit, **changes) -> dict:
    return {name: getattr(permit, name) for name in edits.EDITABLE} | changes


def codes(permit, by, **changes) -> list[str]:
    return [v.code for v in edits.edit_violations(permit, values_of(permit, **changes), today=date(2026, 5, 4), by=by)]


def test_303_4d_approved_valid_through_june_3(approved):
    assert approved.expires_on == date(2026, 6, 3)


def test_303_4d_the_planned_end_may_move_to_the_last_valid_day(approved, clerk):
    assert codes(approved, clerk, end_date=date(2026, 6, 3)) == []


def test_303_4d_the_planned_end_cannot_move_a_day_past_the_validity(approved, clerk):
    assert codes(approved, clerk, end_date=date(2026, 6, 4)) == ["end_after_validity"]


def test_303_4d_the_planned_start_cannot_move_past_the_validity(approved, dpw_director):
    assert codes(approved, dpw_director, start_date=date(2026, 6, 4), end_date=date(2026, 6, 5)) == [
        "start_after_validity",
        "end_after_validity",
    ]


def test_303_4d_the_save_path_refuses_it_and_stores_nothing(approved, clerk):
    with pytest.raises(RulesBroken) as refused:
        services.edit_permit(permit=approved, by=clerk, values=values_of(approved, end_date=date(2026, 7, 30)))
    assert "(§ 303-4D)" in refused.value.violations[0].message
    assert Permit.objects.get(pk=approved.pk).end_date == date(2026, 5, 13)
    assert not approved.events.filter(reason__startswith="Edited in the back office").exists()


def test_303_4d_a_move_within_the_validity_is_saved_and_recorded(approved, clerk):
    changes = services.edit_permit(permit=approved, by=clerk, values=values_of(approved, end_date=date(2026, 6, 3)))
    assert changes == ["End date: May 13, 2026 → June 3, 2026"]
    assert Permit.objects.get(pk=approved.pk).end_date == date(2026, 6, 3)
    assert approved.events.get(reason__startswith="Edited in the back office").actor == clerk


def test_303_1c2_an_approved_street_opening_does_not_move_to_another_street(approved, clerk):
    assert codes(approved, clerk, street=StreetFactory(name="Mill Street")) == ["closed_in_status"]
    assert codes(approved, clerk, location_description="Across the road") == ["closed_in_status"]


def test_303_4d_the_admin_shows_the_refusal_on_the_field(client, approved, clerk):
    client.force_login(clerk)
    data = {
        "street": approved.street_id,
        "parcel": "",
        "location_description": approved.location_description,
        "work_description": approved.work_description,
        "start_date": "2026-05-11",
        "end_date": "2026-06-04",
    }
    for prefix in ("events", "payments", "documents", "notices"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    response = client.post(f"/admin/permits/permit/{approved.pk}/change/", data)
    assert response.status_code == 200
    assert "cannot move past it (§ 303-4D)" in " ".join(response.context["adminform"].form.errors["end_date"])
    assert Permit.objects.get(pk=approved.pk).end_date == date(2026, 5, 13)
