"""§ 303-3B(3), Wis. Stat. § 66.0907: every change of a sidewalk order's status is one audited change (who, when,
from, to, why citing the section), shown as the History on the order page."""

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits.errors import IllegalTransition
from permits.state import actor_label, history_of
from sidewalks import services
from sidewalks.models import SidewalkOrder
from tests.board_world import adopt_orders
from tests.sidewalks.conftest import TODAY, order_illegal

pytestmark = pytest.mark.django_db
S = SidewalkOrder.Status


@pytest.fixture
def proposed(shop, dpw_director):
    return order_illegal(shop, dpw_director)


@pytest.fixture
def adopted(proposed, clerk):
    adopt_orders([proposed], clerk, number="2026-20", held_on=TODAY)
    return SidewalkOrder.objects.get(pk=proposed.pk)


def serve(order, clerk, verb=services.serve_order):
    return verb(
        order=order, method="certified_mail", served_on=date(2026, 6, 10), proof="7019 2280 0000 1234 5678", by=clerk
    )


def test_303_3b_3_adoption_and_service_are_on_the_orders_trail(adopted, clerk, client):
    serve(adopted, clerk)
    [adoption, service] = history_of(adopted)
    assert (adoption.from_state, adoption.to_state, adoption.actor) == (S.PROPOSED, S.ADOPTED, clerk)
    assert adoption.reason == "Adopted by the Board, resolution 2026-20 of June 1, 2026 (§ 303-3B(3))"
    assert (service.from_state, service.to_state, service.actor) == (S.ADOPTED, S.SERVED, clerk)
    assert "deadline is June 30, 2026 (Wis. Stat. § 66.0907)" in service.reason
    client.force_login(clerk)
    page = client.get(reverse("sidewalks:order", args=[adopted.number])).content.decode()
    assert '<h2 id="history-heading">History</h2>' in page
    who = actor_label(clerk)
    assert f"Proposed → Adopted by the Board by {who}. Adopted by the Board, resolution 2026-20" in page
    assert f"Adopted by the Board → Served on the owner by {who}." in page
    assert "Served on the owner on June 10, 2026" in page


def test_66_0907_two_clerks_serving_at_once_serve_once(adopted, clerk):
    first, second = SidewalkOrder.objects.get(pk=adopted.pk), SidewalkOrder.objects.get(pk=adopted.pk)
    serve(first, clerk)
    with pytest.raises(IllegalTransition):  # it read "adopted" before the first clerk served it
        serve(second, clerk)
    assert [c.to_state for c in history_of(adopted)] == [S.ADOPTED, S.SERVED]


def test_66_0907_a_race_shown_on_the_order_page_as_a_form_error(adopted, clerk, client, monkeypatch):
    client.force_login(clerk)
    real = services.serve_order

    def served_meanwhile(**kwargs):
        serve(SidewalkOrder.objects.get(pk=adopted.pk), clerk)  # the other clerk, a moment earlier
        return real(**kwargs)

    monkeypatch.setattr(services, "serve_order", served_meanwhile)
    response = client.post(
        reverse("sidewalks:order_act", args=[adopted.number, "serve"]),
        {"method": "certified_mail", "served_on": "2026-06-10", "proof": "7019 2280 0000 1234 5678"},
    )
    assert response.status_code == 400
    assert "it cannot become served" in response.content.decode()
    assert history_of(adopted).filter(to_state=S.SERVED).count() == 1


def test_order_page_queries_do_not_grow_with_its_history(proposed, adopted, clerk, client, shop, dpw_director):
    other = order_illegal(shop, dpw_director, frontage_feet=Decimal("20"))
    adopt_orders([other], clerk, number="2026-21", held_on=TODAY)
    serve(adopted, clerk)
    client.force_login(clerk)
    counts = []
    for order in (other, adopted):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("sidewalks:order", args=[order.number])).status_code == 200
        counts.append(len(ctx))
    assert (history_of(other).count(), history_of(adopted).count()) == (1, 2)
    assert counts[0] == counts[1]
