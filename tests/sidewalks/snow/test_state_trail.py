"""§ 303-8 and § 303-2: every change of a snow or rubbish case's status is one audited change (who, when, from, to,
why citing the section), shown as the History on the case page; and the snow page refuses a future snowfall."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from permits.errors import IllegalTransition
from permits.ledger.models import SpecialCharge
from permits.state import actor_label, history_of
from sidewalks.models import RubbishCase, SnowCase, Snowfall
from sidewalks.snow import services as snow
from tests.sidewalks.snow.conftest import rubbish_notice

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]
CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)
C = SnowCase.Status


@pytest.fixture
def case(dpw_director, parcel):
    snow.record_snowfall(stopped_at=STOPPED, inches=Decimal("5.0"), by=dpw_director)
    return snow.report_snow_case(address=parcel.site_address, at=STOPPED + timedelta(hours=20))


def test_303_8b_village_clearing_is_on_the_cases_trail_and_page(case, dpw_director, client):
    snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=30), notes="Salted")
    [cleared] = history_of(case)
    assert (cleared.from_state, cleared.to_state, cleared.actor) == (C.OPEN, C.VILLAGE_CLEARED, dpw_director)
    assert cleared.reason.startswith("Cleared by the Village (§ 303-8B) on January 14, 2026 12:00 PM")
    client.force_login(dpw_director)
    page = client.get(reverse("sidewalks:snow_case", args=[case.number])).content.decode()
    assert '<h2 id="history-heading">History</h2>' in page
    assert f"Open → Cleared by the Village by {actor_label(dpw_director)}. Cleared by the Village (§ 303-8B)" in page


def test_303_8a_owner_cleared_close_is_on_the_trail(case, inspector, client):
    snow.close_snow_case(case=case, by=inspector, status=C.OWNER_CLEARED, notes="Clear when we came")
    [closed] = history_of(case)
    assert (closed.from_state, closed.to_state, closed.actor) == (C.OPEN, C.OWNER_CLEARED, inspector)
    assert closed.reason == "Cleared by the owner (§ 303-8A): no charge. Crew notes: Clear when we came"
    client.force_login(inspector)
    page = client.get(reverse("sidewalks:snow_case", args=[case.number])).content.decode()
    assert "Open → Cleared by the owner by" in page


def test_303_8b_two_crews_closing_at_once_close_once_and_charge_nothing(case, inspector, dpw_director):
    first, second, third = (SnowCase.objects.get(pk=case.pk) for _ in range(3))
    snow.close_snow_case(case=first, by=inspector, status=C.OWNER_CLEARED)
    with pytest.raises(IllegalTransition):  # it read "open" before the first crew closed it
        snow.close_snow_case(case=second, by=dpw_director, status=C.DISMISSED)
    with pytest.raises(IllegalTransition):  # and a clearing logged on the stale case bills nothing
        snow.log_village_clearing(case=third, by=dpw_director, at=STOPPED + timedelta(hours=30))
    assert [c.to_state for c in history_of(case)] == [C.OWNER_CLEARED]
    assert not SpecialCharge.objects.exists()


def test_303_8b_a_clearing_race_on_the_page_is_a_form_error(case, inspector, dpw_director, client, monkeypatch):
    from sidewalks.snow import views as views_snow

    stale = SnowCase.objects.get(pk=case.pk)  # the crew's page read the case while it was open
    snow.close_snow_case(case=case, by=inspector, status=C.DISMISSED)  # then the office dismissed it
    monkeypatch.setattr(views_snow, "_case_for", lambda user, number: stale)
    client.force_login(dpw_director)
    response = client.post(reverse("sidewalks:snow_case_clear", args=[case.number]), {"at": "2026-01-14T12:00"})
    assert response.status_code == 400
    assert "it cannot become cleared by the village" in str(response.context["clearing_form"].errors)
    assert not SpecialCharge.objects.exists() and history_of(case).count() == 1


def test_303_2_owner_removal_is_on_the_rubbish_cases_trail(parcel, dpw_director, client):
    served = timezone.now() - timedelta(days=10)
    case = rubbish_notice(parcel, dpw_director, served, deadline_at=served + timedelta(days=2))
    stale = RubbishCase.objects.get(pk=case.pk)
    client.force_login(dpw_director)
    response = client.post(reverse("sidewalks:rubbish_case", args=[case.number]), {"action": "owner_removed"})
    assert response.status_code == 302
    with pytest.raises(IllegalTransition):
        snow.record_rubbish_removed_by_owner(case=stale, by=dpw_director)
    [removed] = history_of(case)
    assert (removed.from_state, removed.to_state, removed.actor) == (
        RubbishCase.Status.NOTICED,
        RubbishCase.Status.OWNER_REMOVED,
        dpw_director,
    )
    assert removed.reason == "Removed by the owner or occupant: no charge (§ 303-2)"
    page = client.get(reverse("sidewalks:rubbish_case", args=[case.number])).content.decode()
    assert "Notice served → Removed by the owner or occupant by" in page
    # The page again, after the race: the second attempt is shown, not a 500.
    response = client.post(reverse("sidewalks:rubbish_case", args=[case.number]), {"action": "owner_removed"})
    assert response.status_code == 302 and history_of(case).count() == 1


def test_303_8a_future_snowfall_on_the_snow_page_is_a_form_error_not_a_500(dpw_director, client):
    client.force_login(dpw_director)
    later = timezone.localtime() + timedelta(hours=2)
    response = client.post(
        reverse("sidewalks:snow"), {"snowfall-stopped_at": later.strftime("%Y-%m-%dT%H:%M"), "snowfall-inches": "3"}
    )
    assert response.status_code == 400
    errors = response.context["snowfall_form"].errors
    assert errors["stopped_at"] == ["The time the snow stopped cannot be in the future (§ 303-8A)."]
    assert "cannot be in the future (§ 303-8A)" in response.content.decode()
    assert not Snowfall.objects.exists()
