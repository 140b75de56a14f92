"""Demo street use permits: a block party on the first block of Henni Street whose petition is in progress (every
address declared, half the adults consented online), and a granted and issued one (its petition verified, the
applicant present at a Board meeting, a recorded vote). Safe to load twice: each demo application is found by its
portion first."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits import services as core
from permits.board import services as board
from permits.board.models import Meeting, Vote
from permits.models import Permit, PermitKind, Street
from permits.street_use import services
from permits.streetmap.models import StreetSegment

HIGHLAND = "Highland Avenue, 100 block (block party)"  # the closure the DPW sees among this week's conflicts
IN_PROGRESS = "Henni Street, Rock River Road to Mill Street: the 100 block (neighbourhood block party)"
GRANTED = "Henni Street, Rock River Road to Mill Street: the 100 block (fall festival)"
SURNAMES = ("Anderson", "Schmidt", "Wagner", "Krueger", "Becker", "Hoffmann", "Lange", "Braun", "Fischer", "Klein")


def _at(day: date, hour: int) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour)))


def _next_saturday(day: date) -> date:
    return day + timedelta(days=(5 - day.weekday()) % 7 or 7)


def _declare(permit: Permit, clerk) -> list[tuple]:
    """Each address along the portion declares two residents over 18 on the paper form, and gives the clerk one
    household email; returns the (address, name, email) of each adult."""
    adults = []
    for i, address in enumerate(services.addresses_of(permit.street_use)):
        surname = SURNAMES[i % len(SURNAMES)]
        if address.adults_declared is None:
            services.declare_adults(permit=permit, address=address, adults=2, by=clerk, source="the paper form")
        for first in ("Alex", "Jo"):
            email = f"{first.lower()}.{surname.lower()}{i}@neighbours.example"
            if not address.contacts.filter(email=email).exists():
                services.bind_household_email(permit=permit, address=address, email=email, by=clerk)
            adults.append((address, f"{first} {surname}", email))
    return adults


def _consent_online(permit: Permit, adults: list[tuple]) -> None:
    """The demo's neighbours consent online; in the demo their codes are taken as entered (no email is read)."""
    for address, name, email in adults:
        if not permit.street_use.signatures.filter(signer_email=email).exists():
            services._store_signature(
                permit,
                address=address,
                signer_name=name,
                signer_email=email,
                method="online",
                signed_at=timezone.now(),
            )


def _apply(user, street: Street, segment: StreetSegment, portion: str, day: date, use: str) -> Permit:
    address = f"{segment.address_from + 2 if segment.address_from else 102} {street.name}, Theresa, WI 53091"
    data = {
        "applicant_name": user.get_full_name() or user.username,
        "applicant_address": address,
        "applicant_phone": "920-555-0110",
        "responsible_name": user.get_full_name() or user.username,
        "responsible_address": address,
        "responsible_phone": "920-555-0110",
        "starts_at": _at(day, 12),
        "ends_at": _at(day, 22),
        "street": street,
        "portion_description": portion,
        "expected_attendance": 60,
        "proposed_use": use,
        "segments": [segment],
    }
    return services.apply_for_street_use(applicant=user, data=data)


def _grant(permit: Permit, clerk, *, issue: bool) -> Permit:
    """Every address declared, every adult consents, the clerk verifies, the Board grants at a special meeting today
    with the applicant present; issued once the fee is paid."""
    today = timezone.localdate()
    _consent_online(permit, _declare(permit, clerk))
    services.verify_petition(permit=permit, by=clerk)
    terms = list(board.members_on(today))
    if len(terms) < 4:
        return permit
    meeting = Meeting.objects.filter(title="Street use permits", held_on=today, locked_at__isnull=True).first()
    if meeting is None:
        meeting = board.schedule_meeting(held_on=today, kind=Meeting.Kind.SPECIAL, title="Street use permits", by=clerk)
        board.record_attendance(meeting=meeting, present=terms, by=clerk)
    item = services.place_on_agenda(permit=permit, meeting=meeting, by=clerk)
    services.record_appearance(
        permit=permit, item=item, name=permit.street_use.applicant_name, capacity="applicant", by=clerk
    )
    motion = board.record_motion(
        item=item,
        text=f"To grant street use permit {permit.number}, barricades at both ends, a fire lane kept open",
        votes={t: Vote.Choice.AYE for t in terms},
        by=clerk,
    )
    services.decide_street_use(
        permit=permit,
        motion=motion,
        by=clerk,
        grant=True,
        conditions="Barricades at both ends of the block; a 12-foot fire lane kept open; music ends at 9 p.m.",
    )
    if issue:
        core.record_payment(permit=permit, amount=Decimal(permit.fee_amount), method="cash", by=clerk)
        services.issue_street_use(permit=permit, by=clerk)
    return permit


@transaction.atomic
def load() -> dict:
    from permits.streetmap.demo import load_segments

    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=["clerk", "resident"])}
    if not StreetSegment.objects.exists():
        load_segments()  # the petition's addresses are read from the segments (the street map loads them later too)
    street = Street.objects.filter(name="Henni Street").first()
    segment = StreetSegment.objects.filter(street=street, address_from__lte=102, address_to__gte=102).first()
    if len(users) < 2 or segment is None:
        return {}
    clerk, resident = users["clerk"], users["resident"]
    today = timezone.localdate()
    found = {p.location_description: p for p in Permit.objects.filter(kind=PermitKind.STREET_USE)}
    result = {}
    if IN_PROGRESS not in found:
        permit = _apply(
            resident,
            street,
            segment,
            IN_PROGRESS,
            _next_saturday(today + timedelta(days=40)),
            "A neighbourhood block party: grills on driveways, tables and a bounce house in the street, music "
            "until 9 p.m. Barricades at both ends; a 12-foot fire lane kept open.",
        )
        adults = _declare(permit, clerk)
        _consent_online(permit, adults[: max(1, len(adults) // 2)])
        result["in_progress"] = permit
    if GRANTED not in found:
        day = _next_saturday(today + timedelta(days=10))
        use = "The block's fall festival: a potluck and a children's parade on the block, 12 noon to 10 p.m."
        permit = _apply(resident, street, segment, GRANTED, day, use)
        result["granted"] = _grant(permit, clerk, issue=True)
    highland = Street.objects.filter(name="Highland Avenue").first()
    on_highland = StreetSegment.objects.filter(street=highland, address_from__lte=102, address_to__gte=102).first()
    if HIGHLAND not in found and on_highland is not None:
        use = "Neighbourhood block party: street closed to traffic"
        permit = _apply(resident, highland, on_highland, HIGHLAND, today + timedelta(days=2), use)
        dpw = User.objects.filter(username="dpw").first()
        if dpw is not None:  # § 303-15A: the DPW saw the street openings there this week and accepted the closure
            from permits.streetmap.services import record_conflict_review

            record_conflict_review(permit=permit, by=dpw, today=today, accepts_closure=True)
        result["highland"] = _grant(permit, clerk, issue=False)
    return result
