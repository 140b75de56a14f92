"""This week on Highland Avenue, for the public street map (permits/streetmap): an issued gas-service repair with
the point drawn on its application, and a water lateral repair under review that overlaps it. Safe to load twice."""

from __future__ import annotations

from datetime import datetime, time
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits import services
from permits.demo import upload_certificate
from permits.models import Organization, Permit, PermitKind, Street
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.demo import application_values


def _opening(street, location, work, start, signer, **extra) -> dict:
    # This morning at 7:30, or just now when the demo is loaded earlier: never in the future (Wis. Stat. § 182.0175;
    # the rule refused the demo when it was loaded before 7:30 a.m. Village time).
    requested_at = min(timezone.make_aware(datetime.combine(start, time(7, 30))), timezone.now())
    return application_values(
        street,
        location,
        work,
        start,
        4,
        signer,
        emergency=True,
        emergency_began_on=start,
        diggers_hotline_requested_at=requested_at,
        **extra,
    )


@transaction.atomic
def load() -> list[str]:
    """This week on Highland Avenue: an issued gas-service repair (flagged on the map by its point), a water
    lateral under review that overlaps it, and a block party closure (a street use permit recorded at the office)."""
    User = get_user_model()
    users = {
        u.username: u
        for u in User.objects.filter(username__in=["utility", "contractor", "clerk", "dpw", "board", "resident"])
    }
    highland = Street.objects.filter(name="Highland Avenue").first()
    if len(users) < 6 or highland is None:
        return []
    today = timezone.localdate()
    utility = Organization.objects.get(name="Rock River Gas & Electric")
    made = []
    plans = [
        (
            "issued",
            utility,
            users["utility"],
            _opening(
                highland,
                "Highland Avenue between Milwaukee and Main Street",
                "Gas service repair",
                today,
                "Uma Steffen",
                diggers_hotline_ticket="20260003333",
                map_latitude=Decimal("43.515500"),
                map_longitude=Decimal("-88.450500"),
            ),
        ),
        (
            "under_review",
            utility,
            users["utility"],
            _opening(
                highland,
                "In front of 122 Highland Avenue",
                "Water lateral repair",
                today,
                "Uma Steffen",
                diggers_hotline_ticket="20260004444",
            ),
        ),
    ]
    for state, org, user, data in plans:
        if Permit.objects.filter(
            kind=PermitKind.STREET_OPENING, location_description=data["location_description"]
        ).exists():
            continue
        permit = so.apply_for_street_opening(applicant=user, organization=org, data=data, today=today)
        upload_certificate(permit, by=user)
        so.begin_review(permit=permit, by=users["clerk"], today=today)
        if state == "issued":
            if ordinance.in_frozen_ground_season(today):
                so.record_emergency_determination(permit=permit, by=users["dpw"], reason="Gas leak: danger to life")
            so.approve_street_opening(
                permit=permit, by=users["dpw"], today=today, conditions="Keep one lane open each way."
            )
            services.record_payment(
                permit=permit, amount=permit.balance_due, method="check", reference="5120", by=users["clerk"]
            )
            so.issue_street_opening(permit=permit, by=users["clerk"], today=today)
        made.append(permit.number)
    return made
