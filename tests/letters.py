"""Test helpers for letters: the clerk mails one today, and the moment it counts as given (permits.notices)."""

from django.utils import timezone

from permits import notices
from permits.letters import record_mailing


def mail_today(letter, clerk, *, receipt_days: int = notices.MAIL_RECEIPT_DAYS) -> notices.Given:
    """The Clerk-Treasurer records `letter` as mailed today; returns when it counts as given (presumed received)."""
    mailed_on = timezone.localdate()
    record_mailing(notices=[letter], mailed_on=mailed_on, by=clerk, today=mailed_on)
    letter.refresh_from_db()
    return notices.given(letter, receipt_days=receipt_days)
