"""§ 303-5A with § 303-4D: an approval given before November 15 does not carry the opening into the frozen-ground
season without the Board's (or its designee's) emergency determination."""

from datetime import date, datetime

import pytest
import time_machine
from django.utils import timezone

from permits.models import Status
from permits.street_opening import rules
from permits.street_opening import services as so
from tests.permits.street_opening.conftest import CHICAGO, file_certificate, valid_data


@pytest.mark.parametrize(
    ("approved_on", "valid_through"),
    [
        (date(2026, 10, 14), date(2026, 11, 13)),  # its 30 days end the Friday before the season: untouched
        (date(2026, 10, 15), date(2026, 11, 14)),  # its 30th day is November 14 itself, the last open day
        (date(2026, 10, 16), date(2026, 11, 14)),  # the 30th day would be November 15: cut to November 14
        (date(2026, 11, 1), date(2026, 11, 14)),  # not December 1
        (date(2026, 11, 14), date(2026, 11, 14)),  # approved on the last open day: valid that day only
    ],
)
def test_303_5a_an_approval_is_valid_only_until_the_season_begins(approved_on, valid_through):
    assert rules.approved_valid_through(approved_on, emergency_determined=False) == valid_through


def test_303_5a_with_the_emergency_determination_the_30_days_run_in_full():
    assert rules.approved_valid_through(date(2026, 11, 1), emergency_determined=True) == date(2026, 12, 1)


def test_303_5a_an_approval_after_the_season_ends_runs_its_30_days():
    assert rules.approved_valid_through(date(2026, 4, 2), emergency_determined=False) == date(2026, 5, 2)


def test_303_5a_the_season_after_a_day_is_this_years_or_the_next():
    assert rules.season_start_after(date(2026, 11, 14)) == date(2026, 11, 15)
    assert rules.season_start_after(date(2026, 11, 15)) == date(2027, 11, 15)


@pytest.mark.django_db
def test_303_5a_approved_november_1_the_permit_expires_november_14_and_an_opening_on_the_17th_is_outside_it(
    street, contractor, contractor_org, bond, clerk, dpw_director
):
    with time_machine.travel(datetime(2026, 10, 30, 10, 0, tzinfo=CHICAGO), tick=False) as clock:
        permit = so.apply_for_street_opening(
            applicant=contractor,
            organization=contractor_org,
            data=valid_data(street, start_date=date(2026, 11, 2), end_date=date(2026, 11, 6)),
        )
        file_certificate(permit, contractor)
        so.begin_review(permit=permit, by=clerk)
        clock.move_to(datetime(2026, 11, 1, 10, 0, tzinfo=CHICAGO))
        so.approve_street_opening(permit=permit, by=dpw_director)
        permit.refresh_from_db()
        assert permit.status == Status.APPROVED
        assert timezone.localdate() == date(2026, 11, 1)
        assert permit.expires_on == date(2026, 11, 14)
        assert not rules.is_expired(permit.expires_on, date(2026, 11, 14))
        assert rules.is_expired(permit.expires_on, date(2026, 11, 17))
