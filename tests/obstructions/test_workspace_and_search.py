"""The enforcement cases on the start pages and in the staff search box."""

import pytest
from django.urls import reverse

from obstructions import services
from obstructions.models import Case
from tests.obstructions.conftest import at

pytestmark = pytest.mark.django_db


def _case(shop, by):
    return services.open_case(
        kind=Case.Kind.OBSTRUCTION_SIDEWALK,
        address=shop.site_address,
        parcel=shop,
        what="Pallets of bricks across the sidewalk",
        seen_at=at(2026, 6, 1, 9, 0),
        by=by,
    )


def test_a_case_past_its_deadline_is_on_the_dpws_start_page_and_not_before(client, shop, dpw_director):
    case = _case(shop, dpw_director)
    client.force_login(dpw_director)
    assert case.number not in client.get(reverse("permits:workspace")).content.decode()
    Case.objects.filter(pk=case.pk).update(attention=Case.Attention.PAST_DEADLINE)
    page = client.get(reverse("permits:workspace")).content.decode()
    assert "Enforcement cases needing action" in page and case.number in page


def test_a_case_is_not_on_the_board_members_start_page(client, shop, dpw_director, board_member):
    case = _case(shop, dpw_director)
    Case.objects.filter(pk=case.pk).update(attention=Case.Attention.PAST_DEADLINE)
    client.force_login(board_member)
    assert case.number not in client.get(reverse("permits:workspace")).content.decode()


def test_the_clerk_finds_a_case_by_its_number_and_its_address(client, shop, dpw_director, clerk):
    case = _case(shop, dpw_director)
    client.force_login(clerk)
    for typed in (case.number, "210 Main"):
        page = client.get(reverse("permits:search"), {"q": typed}).content.decode()
        assert case.get_absolute_url() in page, typed


def test_a_resident_cannot_search_cases(client, resident):
    client.force_login(resident)
    assert client.get(reverse("permits:search"), {"q": "EC"}).status_code == 403


def test_an_open_case_is_counted_in_the_open_cases_report(client, shop, dpw_director, clerk):
    _case(shop, dpw_director)
    client.force_login(clerk)
    page = client.get(reverse("reports:report", args=["open-cases"])).content.decode()
    assert "Enforcement cases (§ 303-6, 9, 12, 13, 14)" in page
