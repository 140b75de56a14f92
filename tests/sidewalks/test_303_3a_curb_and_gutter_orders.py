"""§ 303-3A: the Board may order sidewalks or curb and gutter constructed, laid, rebuilt or repaired; § 303-3B(2):
the owner pays 100% as a special assessment, 50% only on the Highland Avenue / Theresa Lane project."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from permits.models import Notice
from sidewalks import services
from sidewalks.models import SidewalkOrder
from tests.board_world import adopt_orders
from tests.sidewalks.conftest import TODAY

CURB = dict(element="curb_gutter", work="replace", quantity="60", unit="lf", unit_price="35.50")


def propose(home, by, **overrides):
    values = CURB | {"findings": "Curb broken along the frontage"} | overrides
    return services.propose_board_order(parcel=home, by=by, today=TODAY, **values)


def test_303_3a_dpw_proposes_curb_and_gutter_for_the_board(home, dpw_director):
    order = propose(home, dpw_director)
    assert (order.element, order.reason, order.status) == ("curb_gutter", "board", "proposed")
    assert order.estimated_cost == Decimal("2130.00") and order.findings.startswith("§ 303-3A")


def test_303_3a_an_order_needs_its_findings_and_a_quantity(home, dpw_director):
    with pytest.raises(ValidationError) as error:
        propose(home, dpw_director, findings=" ", quantity="0")
    assert set(error.value.message_dict) == {"findings", "quantity"}
    assert not SidewalkOrder.objects.exists()


def test_303_3a_resident_and_board_member_cannot_propose(home, resident, board_member):
    for user in (resident, board_member):
        with pytest.raises(PermissionDenied):
            propose(home, user)


def test_303_3a_curb_and_gutter_order_is_adopted_served_and_assessed(home, dpw_director, clerk):
    order = propose(home, dpw_director)
    adopt_orders([order], clerk, number="2026-50", held_on=TODAY + timedelta(days=3))
    order.refresh_from_db()
    services.serve_order(order=order, method="personal", served_on=date(2026, 6, 10), proof="Affidavit", by=clerk)
    body = Notice.objects.get(template="sidewalk_order_served").body
    assert "curb and gutter" in body and "special" in body and "66.0703" in body
    services.record_village_work(order=order, cost=Decimal("2000"), done_on=date(2026, 7, 1), by=dpw_director)
    charge = services.charge_order(order=order, by=clerk, today=date(2026, 7, 2))
    assert (charge.amount, charge.route, charge.status) == (Decimal("2000.00"), "special_assessment_66_0703", "pending")
    assert charge.description.startswith("Curb and gutter: remove and rebuild at 101 Elm Street")


def test_303_3b_2_only_the_clerk_records_the_named_project(home, dpw_director):
    with pytest.raises(ValidationError, match="Only the Clerk-Treasurer"):
        propose(home, dpw_director, highland_theresa_project=True)


def test_303_3b_2_highland_theresa_curb_is_half_the_owners(home, dpw_director, clerk):
    order = propose(home, clerk, highland_theresa_project=True)
    adopt_orders([order], clerk, number="2026-51", held_on=TODAY + timedelta(days=3))
    order.refresh_from_db()
    services.serve_order(order=order, method="personal", served_on=date(2026, 6, 10), proof="Affidavit", by=clerk)
    services.record_village_work(order=order, cost=Decimal("2000.02"), done_on=date(2026, 7, 1), by=dpw_director)
    charge = services.charge_order(order=order, by=clerk, today=date(2026, 7, 2))
    assert charge.amount == Decimal("1000.01") and charge.route == "special_assessment_66_0703"


def test_303_3a_board_order_page(client, home, dpw_director, resident):
    url = reverse("sidewalks:order_board")
    client.force_login(resident)
    assert client.get(url).status_code == 403
    client.force_login(dpw_director)
    assert client.get(url).status_code == 200
    posted = {"parcel": home.tax_key, "findings": "Gutter sunk"} | CURB
    response = client.post(url, posted)
    order = SidewalkOrder.objects.get()
    assert response.status_code == 302 and response["Location"] == order.get_absolute_url()
    page = client.get(order.get_absolute_url())
    assert "Curb and gutter" in page.content.decode()
    bad = client.post(url, posted | {"findings": ""})
    assert bad.status_code == 400
