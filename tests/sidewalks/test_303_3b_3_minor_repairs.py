"""§ 303-3B(3), Wis. Stat. § 66.0907: where the Board has so required, a minor repair costing no more than its limit
is made at once, without the order procedure, and the cost charged to the owner as a special tax."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from permits.ledger.models import SpecialCharge
from permits.models import Notice
from sidewalks import services
from sidewalks.models import MinorRepairAuthority, MinorSidewalkRepair
from tests.board_world import vote

FROM = date(2026, 5, 1)
TODAY = date(2026, 6, 1)


@pytest.fixture
def authority(clerk):
    motion = vote(clause="303-3B(3)", ayes=5, held_on=FROM - timedelta(days=3), number="2026-05", clerk=clerk)
    return services.set_minor_repair_authority(limit="100", effective_from=FROM, motion=motion, by=clerk)


def repair(home, by, *, cost="100.00", done_on=TODAY, description="Ground down a 1-inch lip at block 3"):
    return services.record_minor_repair(
        parcel=home, description=description, done_on=done_on, cost=cost, by=by, today=TODAY
    )


def test_303_3b_3_a_repair_at_the_limit_is_made_at_once_and_billed(authority, home, dpw_director):
    done = repair(home, dpw_director, cost="100.00")
    charge = done.charge
    assert (charge.source, charge.route, charge.amount) == (
        "sidewalk_minor_repair",
        "special_tax_66_0907",
        Decimal("100.00"),
    )
    assert charge.status == "billed" and charge.due_on is not None  # no § 66.0627(3)(b) hearing on this route
    assert charge.work_record == done
    notice = Notice.objects.get(template="sidewalk_minor_repair_notice")
    assert notice.to == "olga@example.com" and "$100.00" in notice.body and "66.0907" in notice.body
    assert Notice.objects.filter(template="special_charge_bill").exists()


def test_303_3b_3_a_cent_over_the_limit_needs_the_boards_order(authority, home, dpw_director):
    with pytest.raises(ValidationError, match="needs the Board's order") as error:
        repair(home, dpw_director, cost="100.01")
    assert set(error.value.message_dict) == {"cost"}
    assert not SpecialCharge.objects.exists() and not MinorSidewalkRepair.objects.exists()


def test_303_3b_3_no_minor_repair_before_the_boards_authority(authority, home, dpw_director):
    with pytest.raises(ValidationError, match="not authorised"):
        repair(home, dpw_director, done_on=FROM - timedelta(days=1))
    assert repair(home, dpw_director, done_on=FROM).done_on == FROM


def test_303_3b_3_no_minor_repair_without_any_authority(home, dpw_director):
    with pytest.raises(ValidationError, match="not authorised"):
        repair(home, dpw_director, cost="10")


def test_303_3b_3_a_later_resolution_sets_a_new_limit(authority, home, dpw_director, clerk):
    motion = vote(clause="303-3B(3)", ayes=5, held_on=date(2026, 5, 20), number="2026-09", clerk=clerk)
    services.set_minor_repair_authority(limit="150", effective_from=date(2026, 5, 20), motion=motion, by=clerk)
    assert repair(home, dpw_director, cost="150").cost == Decimal("150.00")
    with pytest.raises(ValidationError):
        repair(home, dpw_director, cost="150", done_on=date(2026, 5, 19))


def test_303_3b_3_a_repair_is_recorded_once_made(authority, home, dpw_director):
    with pytest.raises(ValidationError, match="future"):
        repair(home, dpw_director, done_on=TODAY + timedelta(days=1))


def test_303_3b_3_who_records_minor_repairs(authority, home, inspector, resident, board_member, clerk):
    for user in (inspector, resident, board_member):
        with pytest.raises(PermissionDenied):
            repair(home, user)
    assert repair(home, clerk).charge.created_by == clerk


def test_303_3b_3_authority_needs_a_carried_motion_under_the_clause(clerk, dpw_director):
    failed = vote(clause="303-3B(3)", ayes=2, nays=4, held_on=FROM, clerk=clerk)
    with pytest.raises(ValidationError, match="failed"):
        services.set_minor_repair_authority(limit="100", effective_from=FROM, motion=failed, by=clerk)
    other = vote(clause="303-3D(9)", ayes=5, held_on=FROM, clerk=clerk)
    with pytest.raises(ValidationError, match="not § 303-3B"):
        services.set_minor_repair_authority(limit="100", effective_from=FROM, motion=other, by=clerk)
    carried = vote(clause="303-3B(3)", ayes=5, held_on=FROM, clerk=clerk)
    with pytest.raises(ValidationError, match="more than"):
        services.set_minor_repair_authority(limit="0", effective_from=FROM, motion=carried, by=clerk)
    with pytest.raises(PermissionDenied):
        services.set_minor_repair_authority(limit="100", effective_from=FROM, motion=carried, by=dpw_director)
    assert not MinorRepairAuthority.objects.exists()


def test_303_3b_3_minor_repairs_page(client, authority, home, dpw_director, resident, django_assert_max_num_queries):
    url = reverse("sidewalks:minor_repairs")
    client.force_login(resident)
    assert client.get(url).status_code == 403
    client.force_login(dpw_director)
    with django_assert_max_num_queries(15):
        page = client.get(url)
    assert page.status_code == 200 and "$100.00" in page.content.decode()
    posted = {"parcel": home.tax_key, "description": "Patched a spall", "done_on": "2026-05-02", "cost": "40"}
    response = client.post(url, posted)
    done = MinorSidewalkRepair.objects.get()
    assert response.status_code == 302 and response["Location"] == done.get_absolute_url()
    assert client.get(done.get_absolute_url()).status_code == 200
    over = client.post(url, posted | {"cost": "100.01"})
    assert over.status_code == 400 and "needs the Board" in over.content.decode()


def test_303_3b_3_the_owner_of_record_sees_the_repair_others_do_not(
    client, authority, home, dpw_director, resident, outsider
):
    done = repair(home, dpw_director)
    home.owners.add(resident)
    client.force_login(resident)
    page = client.get(done.get_absolute_url())
    assert page.status_code == 200 and done.charge.number in page.content.decode()
    assert "Minor repairs</a>" not in page.content.decode()  # the staff page is not the owner's
    client.force_login(outsider)
    assert client.get(done.get_absolute_url()).status_code == 404
