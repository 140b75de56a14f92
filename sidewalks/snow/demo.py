"""Demo data for the special-charge ledger: a snowfall, a few snow cases, a rubbish case and charges in several
states. Idempotent: a second load finds its snowfall and stops."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits.demo import special_charge
from permits.ledger import services as charges
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.letters import notices_about, record_mailing
from permits.models import Notice, Parcel
from sidewalks.models import SnowCase, Snowfall
from sidewalks.snow import rules as snow_rules
from sidewalks.snow import services as snow

DEMO_NOTE = "Demo snowfall (loaded by sidewalks.snow.demo)"


def _mailed(record, when, clerk) -> None:
    """Demo history: the letters about `record` (owners without email) were printed and mailed at `when`, as the
    Clerk-Treasurer would record them (permits.letters). Letters of the open cases are left waiting to be mailed."""
    waiting = notices_about(record).filter(channel=Notice.Channel.MAIL, mailed_on__isnull=True)
    if not waiting.exists():
        return
    waiting.update(created_at=when)
    day = timezone.localdate(when)
    record_mailing(notices=list(waiting), mailed_on=day, by=clerk, today=day)


def _billed_earlier(parcel, source, amount, description, citation, *, days_ago, now, dpw, clerk) -> SpecialCharge:
    """A charge the Village incurred `days_ago`, its bill gone out by letter that day: due 30 days after mailing."""
    then = now - timedelta(days=days_ago)
    incurred_on = timezone.localdate(now) - timedelta(days=days_ago)
    charge = special_charge(parcel, source, amount, description, citation, by=dpw, incurred_on=incurred_on)
    _mailed(charge, then, clerk)
    return charge


@transaction.atomic
def load() -> None:
    if Snowfall.objects.filter(notes=DEMO_NOTE).exists():
        return
    User = get_user_model()
    dpw, clerk = User.objects.get(username="dpw"), User.objects.get(username="clerk")
    now = timezone.now()
    today = timezone.localdate()
    parcels = {p.tax_key: p for p in Parcel.objects.filter(tax_key__startswith="266-1116-")}
    resident_parcel = parcels["266-1116-1000"]

    def ago(hours: int):
        # Counted hours (§ 303-8, permits.time): on a Monday, 25 clock hours ago is a Sunday that does not count.
        return snow_rules.snow_hours_earlier(now, hours)

    snowfall = snow.record_snowfall(stopped_at=ago(50), inches=Decimal("6.5"), notes=DEMO_NOTE, by=dpw)
    # An open public report waiting for the crew, a walk the Village cleared, one the owner cleared.
    snow.report_snow_case(
        address=parcels["266-1116-1003"].site_address,
        details="Not shoveled since the storm",
        at=ago(30),
    )
    cleared = snow.report_snow_case(address=resident_parcel.site_address, by=dpw, at=ago(49))
    _mailed(cleared, ago(48), clerk)  # § 303-8B: written notice given before the crew clears
    cleared.refresh_from_db()
    snow.log_village_clearing(case=cleared, by=dpw, at=ago(25), notes="Cleared and salted")
    owner = snow.report_snow_case(address=parcels["266-1116-1005"].site_address, by=dpw, at=ago(27))
    snow.close_snow_case(case=owner, by=dpw, status=SnowCase.Status.OWNER_CLEARED, notes="Cleared when we arrived")
    assert snowfall.cases.count() == 3

    # Rubbish: a notice served a week ago and the Village's removal after the deadline.
    rubbish = snow.serve_rubbish_notice(
        parcel=parcels["266-1116-2002"],
        description="Broken pallets and cardboard across the walk",
        served_to=parcels["266-1116-2002"].owner_name,
        served_method="Personal delivery",
        by=dpw,
        served_at=now - timedelta(days=7),
    )
    # Removed a day after the notice's deadline (counted hours skip a Sunday or holiday, so not a fixed day count).
    removed_at = min(rubbish.deadline_at + timedelta(days=1), now - timedelta(hours=1))
    snow.log_rubbish_removal(case=rubbish, cost=Decimal("140.00"), by=dpw, at=removed_at)

    # Earlier charges: one delinquent (billed in the summer, unpaid) and one paid.
    old = _billed_earlier(
        parcels["266-1116-1008"],
        SpecialCharge.Source.SNOW_ICE,
        Decimal("75.00"),
        "Snow and ice removed from the sidewalk by the Village",
        "§ 303-8B",
        days_ago=120,
        now=now,
        dpw=dpw,
        clerk=clerk,
    )
    paid = _billed_earlier(
        parcels["266-1116-1010"],
        SpecialCharge.Source.RUBBISH,
        Decimal("60.00"),
        "Leaves and dirt removed from the sidewalk by the Village",
        "§ 303-2",
        days_ago=40,
        now=now,
        dpw=dpw,
        clerk=clerk,
    )
    charges.record_charge_payment(
        charge=paid,
        amount=Decimal("60.00"),
        method=ChargePayment.Method.CASH,
        by=clerk,
        today=today - timedelta(days=20),
    )
    charges.mark_delinquent_charges(today=today)
    assert SpecialCharge.objects.filter(pk=old.pk, status=SpecialCharge.Status.DELINQUENT).exists()
