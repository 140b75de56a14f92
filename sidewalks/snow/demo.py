"""Demo data for the special-charge ledger: a snowfall, a few snow cases, a rubbish case and charges in several
states. Idempotent: a second load finds its snowfall and stops."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits.ledger import services as charges
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.letters import notices_about, record_mailing
from permits.models import Notice, Parcel
from sidewalks.models import SnowCase, Snowfall
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

    snowfall = snow.record_snowfall(
        stopped_at=now - timedelta(hours=50), inches=Decimal("6.5"), notes=DEMO_NOTE, by=dpw
    )
    # An open public report waiting for the crew, a walk the Village cleared, one the owner cleared.
    snow.report_snow_case(
        address=parcels["266-1116-1003"].site_address,
        details="Not shoveled since the storm",
        at=now - timedelta(hours=30),
    )
    cleared = snow.report_snow_case(address=resident_parcel.site_address, by=dpw, at=now - timedelta(hours=49))
    _mailed(cleared, now - timedelta(hours=48), clerk)  # § 303-8B: written notice given before the crew clears
    cleared.refresh_from_db()
    snow.log_village_clearing(case=cleared, by=dpw, at=now - timedelta(hours=25), notes="Cleared and salted")
    owner = snow.report_snow_case(address=parcels["266-1116-1005"].site_address, by=dpw, at=now - timedelta(hours=27))
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
    snow.log_rubbish_removal(case=rubbish, cost=Decimal("140.00"), by=dpw, at=now - timedelta(days=5))

    # Earlier charges: one delinquent (billed in the summer, unpaid) and one paid.
    old = charges.add_charge(
        parcel=parcels["266-1116-1008"],
        source=SpecialCharge.Source.SNOW_ICE,
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount=Decimal("75.00"),
        incurred_on=today - timedelta(days=120),
        description="Snow and ice removed from the sidewalk by the Village",
        citation="§ 303-8B",
        by=dpw,
        today=today - timedelta(days=120),
    )
    _mailed(old, now - timedelta(days=120), clerk)  # the bill went out by letter: due 30 days after mailing
    paid = charges.add_charge(
        parcel=parcels["266-1116-1010"],
        source=SpecialCharge.Source.RUBBISH,
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount=Decimal("60.00"),
        incurred_on=today - timedelta(days=40),
        description="Leaves and dirt removed from the sidewalk by the Village",
        citation="§ 303-2",
        by=dpw,
        today=today - timedelta(days=40),
    )
    _mailed(paid, now - timedelta(days=40), clerk)
    charges.record_charge_payment(
        charge=paid,
        amount=Decimal("60.00"),
        method=ChargePayment.Method.CASH,
        by=clerk,
        today=today - timedelta(days=20),
    )
    charges.mark_delinquent_charges(today=today)
    assert SpecialCharge.objects.filter(pk=old.pk, status=SpecialCharge.Status.DELINQUENT).exists()
