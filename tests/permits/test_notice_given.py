"""A deadline that runs "after notice" runs from the notice actually given (permits.notices): an email when sent,
a letter only once the Clerk-Treasurer records its mailing (and, where the rule needs the notice in hand, from its
presumed receipt three days later). One test per clock that reads it."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from permits import notices
from permits.models import Notice

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")


def _letter(**fields) -> Notice:
    return Notice(channel=Notice.Channel.MAIL, recipient_name="A. Owner", mailing_address="1 Main", **fields)


def test_an_unmailed_letter_is_not_given():
    assert notices.given(_letter()) is None


def test_a_mailed_letter_is_given_at_the_end_of_its_mailing_day():
    given = notices.given(_letter(mailed_on=date(2026, 12, 4)))
    assert given.on == date(2026, 12, 4) and given.by_mail
    assert given.at == datetime(2026, 12, 5, 0, 0, tzinfo=CHICAGO)


def test_presumed_receipt_counts_days_and_moves_off_a_sunday():
    # Mailed Thursday, December 3, 2026: the third day after is Sunday the 6th, so receipt is Monday the 7th.
    given = notices.given(_letter(mailed_on=date(2026, 12, 3)), receipt_days=notices.MAIL_RECEIPT_DAYS)
    assert given.on == date(2026, 12, 7)
    assert given.at == datetime(2026, 12, 8, tzinfo=CHICAGO)


def test_an_email_is_given_when_sent():
    sent = datetime(2026, 12, 5, 10, 30, tzinfo=CHICAGO)
    given = notices.given(Notice(channel=Notice.Channel.EMAIL, to="a@example.com", created_at=sent))
    assert (given.on, given.at, given.by_mail) == (date(2026, 12, 5), sent, False)


def test_every_notice_clock_is_registered_once():
    assert set(notices.clocks()) >= {
        "snow_case_notice",
        "special_charge_bill",
        "street_privilege_obstruction_notice",
        "enforcement_notice",
    }
