"""This week on Highland Avenue, for the public street map (permits/streetmap): an issued gas-service repair with
the point drawn on its application, and a water lateral repair under review that overlaps it. Safe to load twice."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.utils import timezone

from permits import services
from permits.models import Organization, Permit, PermitKind, Street
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so

CERTIFICATE = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    b"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \n"
    b"trailer<</Size 3/Root 1 0 R>>\nstartxref\n96\n%%EOF\n"
)


def _opening(street, location, work, start, signer, **extra) -> dict:
    return {
        "street": street,
        "location_description": location,
        "work_description": work,
        "method": "Open cut with saw-cut edges; mechanical compaction in 12-inch lifts",
        "start_date": start,
        "end_date": start + timedelta(days=4),
        "surface": "bituminous",
        "existing_pavement_inches": Decimal(3),
        "insurance_per_person": Decimal(1000000),
        "insurance_per_accident": Decimal(1000000),
        "insurance_property_damage": Decimal(500000),
        "insurance_expires": start + timedelta(days=400),
        "annual_bond": True,
        "statement_signed_by": signer,
        "statement_undertakings": list(ordinance.UNDERTAKINGS),
        "emergency": True,
        "emergency_began_on": start,
        # This morning at 7:30, or just now when the demo is loaded earlier: never in the future (Wis. Stat.
        # § 182.0175; the rule refused the demo when it was loaded before 7:30 a.m. Village time).
        "diggers_hotline_requested_at": min(timezone.make_aware(datetime.combine(start, time(7, 30))), timezone.now()),
        **extra,
    }


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
        services.upload_document(
            permit=permit,
            kind="insurance",
            by=user,
            upload=SimpleUploadedFile("certificate-of-insurance.pdf", CERTIFICATE, content_type="application/pdf"),
        )
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
