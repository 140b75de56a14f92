"""§ 303-6D/E: a notice served by mail or email is the Village's own letter or email, served when given
(permits.notices); the official's typed time does not start the 24 hours."""

from datetime import datetime, time, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from obstructions import services as cases
from obstructions.models import Case
from permits.errors import RulesBroken
from permits.models import Notice
from permits.time import hours_later, last_day, shift
from tests.letters import mail_today

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")


def _open(parcel, by):
    return cases.open_case(
        kind=Case.Kind.OBSTRUCTION_SIDEWALK,
        address=parcel.site_address,
        what="Boat trailer on the walk",
        seen_at=timezone.now() - timedelta(days=10),
        by=by,
    )


# § 303-6D/E: a mailed notice is served by the Village's letter, not by a typed time ---------------------------------


def test_303_6d_a_mailed_notice_starts_no_deadline_until_its_letter_is_mailed(shop, clerk, dpw_director):
    case = _open(shop, dpw_director)
    typed = case.seen_at + timedelta(hours=1)
    case = cases.serve_notice(case=case, served_to="owner", served_how="mail", served_at=typed, by=dpw_director)
    assert (case.served_at, case.deadline_at) == (None, None)  # the typed time is not the service
    letter = Notice.objects.get(template="enforcement_notice")
    assert letter.channel == Notice.Channel.MAIL  # by mail: the Village's own letter, though an email is on file
    with pytest.raises(RulesBroken) as broken:
        cases.record_removal(case=case, removed_at=timezone.now(), cost=D("80"), description="Trailer", by=dpw_director)
    assert "§ 303-6F(1)" in str(broken.value)
    # Served from the end of the presumed day of receipt; the 24 counted hours run from there.
    received = mail_today(letter, clerk)
    assert received.on == last_day(timezone.localdate(), 3)
    assert received.at == datetime.combine(shift(received.on, 1), time.min, tzinfo=CHICAGO)
    case.refresh_from_db()
    assert case.served_at == received.at
    assert case.deadline_at == hours_later(received.at, 24)


def test_303_6d_emailed_service_needs_the_owners_email(house, dpw_director):
    case = _open(house, dpw_director)
    with pytest.raises(RulesBroken) as broken:
        cases.serve_notice(case=case, served_to="owner", served_how="email", by=dpw_director)
    assert broken.value.violations[0].field == "served_how" and "§ 303-6D" in str(broken.value)


def test_every_refusal_of_a_notice_cites_its_section(house, dpw_director):
    case = _open(house, dpw_director)
    future = timezone.now() + timedelta(days=1)
    with pytest.raises(RulesBroken) as broken:
        cases.serve_notice(case=case, served_to="owner", served_how="personal", served_at=future, by=dpw_director)
    assert all(v.citation and v.citation in v.message for v in broken.value.violations)
