"""§ 303-7F: the 24 hours run from the Board's notice as given to the owner (permits.notices), not from the motion."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from permits.errors import RulesBroken
from permits.models import Notice
from permits.time import hours_later, last_day, shift
from tests.letters import mail_today

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")


# § 303-7F: the 24 hours run from the Board's notice as given, not from the motion -----------------------------------


@pytest.fixture
def letter_obstruction(world, abutting_parcel, building_inspector, clerk):
    from permits.board.clauses import Clause
    from permits.street_privilege import board_matters
    from permits.street_privilege import services as sp
    from tests.board_world import vote

    type(abutting_parcel).objects.filter(pk=abutting_parcel.pk).update(
        owner_email="", owner_mailing_address="1 Main Street, Theresa WI"
    )
    abutting_parcel.refresh_from_db()
    permit = world.walk("issued")
    obstruction = sp.report_obstruction(
        permit=permit, parcel=abutting_parcel, description="Lumber", by=building_inspector
    )
    (waiting,) = board_matters.obstructions_waiting()
    motion = vote(clause=Clause.PRIVILEGE_OBSTRUCTION_NOTICE, ayes=4, held_on=date(2026, 11, 2), subject=waiting)
    board_matters.decide_obstruction(subject=waiting, motion=motion, by=clerk)
    obstruction.refresh_from_db()
    return obstruction


def test_303_7f_no_removal_while_the_boards_letter_is_unmailed(letter_obstruction, clerk):
    from permits.street_privilege import services as sp

    assert letter_obstruction.status == "noticed" and letter_obstruction.noticed_at is None
    with pytest.raises(RulesBroken) as broken:
        sp.record_village_removal(
            obstruction=letter_obstruction, by=clerk, cost=D("150"), removed_at=timezone.now() + timedelta(days=30)
        )
    assert broken.value.violations[0].code == "no_notice"
    assert "§ 303-7F" in str(broken.value)


def test_303_7f_the_24_hours_run_from_the_letters_presumed_receipt(letter_obstruction, clerk):
    from permits.street_privilege import services as sp

    letter = Notice.objects.get(template="street_privilege_obstruction_notice")
    # The hours start at the end of the presumed day of receipt; the Village may remove 24 counted hours later.
    received = mail_today(letter, clerk)
    assert received.on == last_day(timezone.localdate(), 3)
    assert received.at == datetime.combine(shift(received.on, 1), time.min, tzinfo=CHICAGO)
    letter_obstruction.refresh_from_db()
    assert letter_obstruction.noticed_at == received.at
    end = hours_later(received.at, 24)
    with pytest.raises(RulesBroken):
        sp.record_village_removal(
            obstruction=letter_obstruction, by=clerk, cost=D("150"), removed_at=end - timedelta(minutes=1)
        )
    sp.record_village_removal(obstruction=letter_obstruction, by=clerk, cost=D("150"), removed_at=end)
    letter_obstruction.refresh_from_db()
    assert letter_obstruction.status == "village_removed"
