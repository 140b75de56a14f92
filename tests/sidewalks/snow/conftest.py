"""The snow and rubbish tests bill through the core ledger: they share its parcel fixtures."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import time_machine

from permits.models import FeeItem
from sidewalks.snow import services as snow
from tests.permits.ledger.conftest import other_parcel, parcel  # noqa: F401  (fixtures)


@pytest.fixture
def fee(db):
    """The $75 snow removal fee in force, whatever the seeded fee schedule says."""
    FeeItem.objects.update_or_create(
        code="snow_removal",
        effective_from=date(2020, 1, 1),
        defaults={"name": "Snow removal", "amount": Decimal("75.00")},
    )


@pytest.fixture
def nowhere_road(db):
    """§ 303-8A: a street of the register with no lot on the parcel roll: a report of "999 Nowhere Road" is matched
    to the street alone, for DPW staff to match to a parcel."""
    from tests.factories import StreetFactory

    return StreetFactory(name="Nowhere Road")


def snow_case_after(stopped, address, by):
    """Four inches that stopped at `stopped`, recorded an hour later; the walk at `address` reported an hour after."""
    with time_machine.travel(stopped + timedelta(hours=1), tick=False):
        snow.record_snowfall(stopped_at=stopped, inches=Decimal("4"), by=by)
    return snow.report_snow_case(address=address, at=stopped + timedelta(hours=2))


def rubbish_notice(site, by, served_at, **fields):
    """§ 303-2: a notice to remove dirt from the walk of the parcel `site`, handed to its owner at `served_at`."""
    args = dict(
        parcel=site,
        description="Dirt from a landscaping job",
        served_to="Olga Owner",
        served_method="Personal delivery",
        by=by,
        served_at=served_at,
    )
    return snow.serve_rubbish_notice(**{**args, **fields})
