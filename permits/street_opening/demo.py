"""Demo street openings in different states for the demo contractor and utility. Safe to load twice: each demo
application is found by its location before it is created."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits import services
from permits.demo import upload_certificate
from permits.errors import RulesBroken
from permits.models import Organization, Permit, PermitKind, Street
from permits.street_opening import lifecycle
from permits.street_opening import rules as ordinance
from permits.street_opening import services as so
from permits.street_opening.models import AnnualBond


def _next_april(today: date) -> date:
    year = today.year if (today.month, today.day) < (4, 6) else today.year + 1
    return date(year, 4, 13)


def _data(street: str, location: str, work: str, start: date, days: int, signer: str, **extra) -> dict:
    return application_values(Street.objects.get(name=street), location, work, start, days, signer, **extra)


def application_values(street: Street, location: str, work: str, start: date, days: int, signer: str, **extra) -> dict:
    """A demo application: open cut in bituminous pavement, insured, under the annual bond, the statement signed."""
    return {
        "street": street,
        "location_description": location,
        "work_description": work,
        "method": "Open cut with saw-cut edges; mechanical compaction in 12-inch lifts",
        "start_date": start,
        "end_date": start + timedelta(days=days),
        "surface": "bituminous",
        "existing_pavement_inches": Decimal(3),
        "insurance_per_person": Decimal(1000000),
        "insurance_per_accident": Decimal(1000000),
        "insurance_property_damage": Decimal(500000),
        "insurance_expires": start + timedelta(days=400),
        "annual_bond": True,
        "statement_signed_by": signer,
        "statement_undertakings": list(ordinance.UNDERTAKINGS),
        **extra,
    }


def _bond_amounts(clerk) -> None:
    """§ 303-4H(3), (5): the amounts the demo Board set by its motion (permits.board.demo)."""
    from permits.board.models import Motion
    from permits.street_opening.models import BondAmount

    motion = Motion.objects.filter(item__clause="303-4H(3)", outcome=Motion.Outcome.CARRIED).first()
    if motion is None or BondAmount.objects.exists():
        return
    for kind, amount in ((BondAmount.Kind.GUARANTEE, Decimal(5000)), (BondAmount.Kind.ANNUAL, Decimal(20000))):
        so.set_bond_amount(kind=kind, amount=amount, effective_from=motion.held_on, motion=motion, by=clerk)


@transaction.atomic
def load() -> dict:
    User = get_user_model()
    users = {
        u.username: u for u in User.objects.filter(username__in=["contractor", "utility", "clerk", "dpw", "board"])
    }
    if len(users) < 5:
        return {}
    today = timezone.localdate()
    contractor = Organization.objects.get(name="Brandt Excavating LLC")
    utility = Organization.objects.get(name="Rock River Gas & Electric")
    april = _next_april(today)
    for org, year in ((contractor, april.year), (utility, today.year), (utility, today.year + 1)):
        AnnualBond.objects.get_or_create(
            organization=org,
            year=year,
            defaults={
                "surety": "Badger State Surety Co.",
                "amount": Decimal(25000),
                "recorded_by": users["clerk"],
                "recorded_at": timezone.now(),
            },
        )
    _bond_amounts(users["clerk"])
    # The locate was requested this morning (or just now, before 8:00): never in the future (Wis. Stat. § 182.0175).
    requested = min(timezone.make_aware(datetime.combine(today, time(8, 0))), timezone.now())
    plans = [
        (
            "submitted",
            contractor,
            users["contractor"],
            _data("Henni Street", "In front of 118 Henni Street", "New sewer lateral", april, 3, "Carl Brandt"),
        ),
        (
            "under_review",
            contractor,
            users["contractor"],
            _data(
                "Main Street",
                "204 to 212 Main Street",
                "Water service replacement",
                april + timedelta(days=7),
                5,
                "Carl Brandt",
            ),
        ),
        (
            "approved",
            utility,
            users["utility"],
            _data(
                "Mill Street",
                "Mill Street at Church Street",
                "Gas leak repair",
                today,
                2,
                "Uma Steffen",
                emergency=True,
                emergency_began_on=today,
                diggers_hotline_ticket="20260001111",
                diggers_hotline_requested_at=requested,
            ),
        ),
        (
            "issued",
            utility,
            users["utility"],
            _data(
                "Church Street",
                "Church Street, 100 block",
                "Water main break",
                today,
                3,
                "Uma Steffen",
                emergency=True,
                emergency_began_on=today,
                diggers_hotline_ticket="20260002222",
                diggers_hotline_requested_at=requested,
            ),
        ),
    ]
    created = []
    for state, org, user, data in plans:
        if Permit.objects.filter(
            kind=PermitKind.STREET_OPENING, location_description=data["location_description"], organization=org
        ).exists():
            continue
        permit = so.apply_for_street_opening(applicant=user, organization=org, data=data, today=today)
        upload_certificate(permit, by=user)
        if state == "submitted":
            # The DPW asks for a sketch: the contractor sees the question on My applications and answers on the page
            from permits.applicant.applications import request_information

            question = "Add a sketch of the trench: its length, width and depth, and where the lateral meets the main."
            request_information(permit=permit, by=users["dpw"], message=question)
        if state in ("under_review", "approved", "issued"):
            so.begin_review(permit=permit, by=users["clerk"], today=today)
        if state in ("approved", "issued"):
            if ordinance.in_frozen_ground_season(today):
                so.record_emergency_determination(
                    permit=permit, by=users["dpw"], reason="Active leak: danger to life and property"
                )
            so.approve_street_opening(
                permit=permit,
                by=users["dpw"],
                today=today,
                conditions="Keep one lane open each way; flagger at the intersection.",
            )
        if state == "under_review" and permit.street_opening.approval_can_come_later:
            # § 303-4D: applied in winter for spring work, the approval is held until its 30 days cover the work
            lifecycle.hold_approval(permit=permit, by=users["dpw"], today=today)
        if state == "issued":
            services.record_payment(
                permit=permit, amount=permit.balance_due, method="check", reference="4410", by=users["clerk"]
            )
            so.issue_street_opening(permit=permit, by=users["clerk"], today=today)
            _requests_on_issued(permit, user=user, today=today)
        created.append(permit.number)
    return {"street_openings": created}


def _requests_on_issued(permit: Permit, *, user, today: date) -> None:
    """The permittee's requests waiting for the Village: completion (§ 303-4H(3)), which the DPW confirms after the
    final inspection, and a written renewal (§ 303-4E). A renewal the rules refuse on the day the demo is loaded
    (one that would run into November 15, § 303-5A) is simply not requested."""
    lifecycle.request_completion(permit=permit, by=user, today=today)
    try:
        lifecycle.request_renewal(
            permit=permit,
            by=user,
            work_begun_on=today,
            reason="The break runs under the intersection: the repair and restoration need two more weeks.",
            today=today,
        )
    except RulesBroken:
        pass
