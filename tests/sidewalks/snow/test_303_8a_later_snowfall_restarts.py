"""§ 303-8A: the owner's 24 hours run from the snowfall the case is about, and a later snowfall restarts them; the
Village may clear (§ 303-8B) only 24 hours after the snow the walk is now covered with stopped. A case reported
before a new snowfall must not say "Village may clear now" while the owner's new 24 hours run."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.urls import reverse

from permits.ledger.models import SpecialCharge
from sidewalks.models import SnowCase
from sidewalks.snow import rules as snow_rules
from sidewalks.snow import services as snow
from tests.sidewalks.snow.conftest import snow_case_after

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
FIRST = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)
SECOND = FIRST + timedelta(hours=26)  # snow again, stopped Sunday 8:00 AM


@pytest.fixture
def case(dpw_director, parcel):
    return snow_case_after(FIRST, parcel.site_address, dpw_director)


@pytest.fixture
def second_snowfall(dpw_director, case):
    with time_machine.travel(SECOND + timedelta(minutes=5), tick=False):
        return snow.record_snowfall(stopped_at=SECOND, inches=Decimal("3"), by=dpw_director)


def test_303_8a_rule_a_later_snowfall_restarts_the_24_hours():
    assert snow_rules.clock_start(FIRST, SECOND) == SECOND
    assert snow_rules.clock_start(FIRST, FIRST) == FIRST
    assert snow_rules.clock_start(SECOND, FIRST) == SECOND  # an earlier snowfall never moves it back
    assert snow_rules.clock_start(FIRST, None) == FIRST


def test_303_8a_without_a_later_snowfall_the_case_keeps_its_own_clock(case, fee, dpw_director):
    with pytest.raises(ValidationError):
        snow.log_village_clearing(case=case, by=dpw_director, at=FIRST + timedelta(hours=23, minutes=59))
    charge = snow.log_village_clearing(case=case, by=dpw_director, at=FIRST + timedelta(hours=24))
    assert charge.source == SpecialCharge.Source.SNOW_ICE


def test_303_8b_crew_may_not_clear_one_minute_before_24_hours_after_the_later_snowfall(
    case, second_snowfall, fee, dpw_director
):
    with pytest.raises(ValidationError) as caught:
        snow.log_village_clearing(case=case, by=dpw_director, at=SECOND + timedelta(hours=23, minutes=59))
    assert "later snowfall" in str(caught.value) and "§ 303-8A" in str(caught.value)
    case.refresh_from_db()
    assert case.status == SnowCase.Status.OPEN and not SpecialCharge.objects.exists()


def test_303_8b_crew_may_clear_24_hours_after_the_later_snowfall(case, second_snowfall, fee, dpw_director):
    snow.log_village_clearing(case=case, by=dpw_director, at=SECOND + timedelta(hours=24))
    case.refresh_from_db()
    assert case.status == SnowCase.Status.VILLAGE_CLEARED


def test_303_8a_a_second_report_after_the_new_snowfall_is_the_same_open_case(case, second_snowfall, parcel):
    again = snow.report_snow_case(address=parcel.site_address, at=SECOND + timedelta(hours=1))
    assert again.pk == case.pk and SnowCase.objects.count() == 1


# Not named "page": that is pytest-playwright's fixture, and borrowing it regroups the whole suite around chromium.
@pytest.mark.parametrize("which", ["case", "office"])
def test_303_8a_pages_do_not_say_village_may_clear_while_the_new_24_hours_run(
    client, case, second_snowfall, dpw_director, which
):
    client.force_login(dpw_director)
    url = reverse("sidewalks:snow_case", args=[case.number]) if which == "case" else reverse("sidewalks:snow")
    # 27 hours after the first snowfall, 1 hour after the second: the owner has until Monday 8:00 AM.
    with time_machine.travel(FIRST + timedelta(hours=27), tick=False):
        html = client.get(url).content.decode()
    assert "may clear now" not in html and "Yes: 24 hours have passed" not in html
    assert "Jan 14" in html and "8:00 AM" in html
    with time_machine.travel(SECOND + timedelta(hours=24), tick=False):
        html = client.get(url).content.decode()
    assert "may clear now" in html or "Yes: 24 hours have passed" in html


def test_303_8c_hours_of_violation_count_from_the_snowfall_now_on_the_walk(client, case, second_snowfall, dpw_director):
    client.force_login(dpw_director)
    with time_machine.travel(FIRST + timedelta(hours=27), tick=False):
        html = client.get(reverse("sidewalks:snow_case", args=[case.number])).content.decode()
    assert "27 hours" not in html
    assert 'Hours in violation (§ 303-8C)</dt><dd class="col-sm-8">0</dd>' in html


def test_303_8a_the_office_list_reads_the_latest_snowfall_once(
    client, case, second_snowfall, dpw_director, other_parcel, django_assert_max_num_queries
):
    snow.report_snow_case(address=other_parcel.site_address, at=SECOND + timedelta(hours=1))
    client.force_login(dpw_director)
    with time_machine.travel(FIRST + timedelta(hours=30), tick=False):
        with django_assert_max_num_queries(14):
            assert client.get(reverse("sidewalks:snow")).status_code == 200
