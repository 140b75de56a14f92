"""The verbs of the right-of-way map: import and edit segments, place a permit, set the conflict margin, record
that the DPW saw a permit's conflicts, subscribe to a street, tell subscribers, and the calendar token. Every entry
point (views, admin, shell, the scheduled job) calls these."""

from __future__ import annotations

import json
from datetime import date

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from permits import jobs
from permits.access import require_role
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.models import Permit, PermitEvent, Status, Street
from permits.roles import Role
from permits.services import record_event, send_notice, send_notices
from permits.streetmap import conflicts, geometry, placement
from permits.streetmap.models import (
    CalendarToken,
    ConflictMargin,
    ConflictReview,
    Placement,
    StreetSegment,
    StreetSubscription,
    SubscriptionDelivery,
)

SEGMENT_EDITORS = (Role.CLERK, Role.DPW_DIRECTOR)
PLACERS = (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR)
MAX_IMPORT_BYTES = 5 * 1024 * 1024


def _problem(field: str, message: str) -> Violation:
    return Violation(field, "segment_import", "", message)


@transaction.atomic
def import_segments(*, data: bytes | str, by, create_streets: bool = False) -> dict:
    """Import a GeoJSON FeatureCollection of LineString features, one per segment. Each feature's properties:
    `street` (its name), `from`, `to` (cross streets), `address_from`, `address_to`, and optionally `id` (a re-import
    updates the segment with that id). Every problem is reported at once, naming the feature; nothing is stored
    unless all of it is good."""
    require_role(by, *SEGMENT_EDITORS, action="import street segments")
    if len(data) > MAX_IMPORT_BYTES:
        raise RulesBroken([_problem("file", "The file is larger than 5 MB.")])
    try:
        collection = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise RulesBroken([_problem("file", "The file is not valid JSON (GeoJSON).")]) from None
    if not isinstance(collection, dict) or collection.get("type") != "FeatureCollection":
        raise RulesBroken(
            [_problem("file", 'The file must be a GeoJSON FeatureCollection ("type": "FeatureCollection").')]
        )
    streets = {s.name.casefold(): s for s in Street.objects.all()}
    problems, rows = [], []
    for n, feature in enumerate(collection.get("features") or [], start=1):
        props = (feature or {}).get("properties") or {}
        name = str(props.get("street") or "").strip()
        label = f"Feature {n}" + (f" ({name})" if name else "")
        try:
            geometry.line_from_geojson((feature or {}).get("geometry"))
        except geometry.GeometryError as error:
            problems.append(_problem("file", f"{label}: {error}"))
            continue
        if not name:
            problems.append(_problem("file", f'{label}: the property "street" (the street\'s name) is missing.'))
            continue
        if name.casefold() not in streets and not create_streets:
            problems.append(
                _problem("file", f'{label}: no street named "{name}" (add it first, or tick "create missing streets").')
            )
            continue
        low, high = props.get("address_from"), props.get("address_to")
        if any(v is not None and (not isinstance(v, int) or v < 0) for v in (low, high)):
            problems.append(_problem("file", f"{label}: address_from and address_to must be whole numbers."))
            continue
        if low is not None and high is not None and high < low:
            problems.append(_problem("file", f"{label}: address_to ({high}) is below address_from ({low})."))
            continue
        rows.append((name, props, feature["geometry"], low, high))
    if not rows and not problems:
        problems.append(_problem("file", "The FeatureCollection has no features."))
    raise_if_broken(problems)
    created = updated = 0
    for name, props, line, low, high in rows:
        street = streets.get(name.casefold())
        if street is None:
            street = streets[name.casefold()] = Street.objects.create(name=name)
        values = {
            "street": street,
            "from_street": str(props.get("from") or "")[:100],
            "to_street": str(props.get("to") or "")[:100],
            "address_from": low,
            "address_to": high,
            "geometry": {"type": "LineString", "coordinates": [[p[0], p[1]] for p in line["coordinates"]]},
        }
        source_id = str(props.get("id") or "")[:60]
        if source_id:
            _, was_created = StreetSegment.objects.update_or_create(source_id=source_id, defaults=values)
        else:
            StreetSegment.objects.create(**values)
            was_created = True
        created += was_created
        updated += not was_created
    recompute_adjoining()
    return {"created": created, "updated": updated}


def recompute_adjoining() -> int:
    """Set each segment's adjoining segments: those whose lines touch it. Returns the number of pairs."""
    segments = list(StreetSegment.objects.only("pk", "geometry"))
    lines = {s.pk: geometry.line_from_geojson(s.geometry) for s in segments}
    pairs = geometry.touching_pairs(lines)
    through = StreetSegment.adjoining.through
    with transaction.atomic():
        through.objects.all().delete()
        through.objects.bulk_create(
            [through(from_streetsegment_id=a, to_streetsegment_id=b) for a, b in pairs]
            + [through(from_streetsegment_id=b, to_streetsegment_id=a) for a, b in pairs]
        )
    return len(pairs)


@transaction.atomic
def place_permit(*, permit: Permit, by, drawn: dict | None = None, segment_ids=()) -> Placement:
    """Put a permit on the map by a point or a line drawn on it, or on chosen segments; the segments it is on are
    found from the drawing (the nearest segment of the permit's street to a point; the segments a line runs along)."""
    require_role(by, *PLACERS, action="place permits on the map")
    index = placement.SegmentIndex.load()
    if drawn is not None:
        try:
            shape = geometry.drawn_shape(drawn)
        except geometry.GeometryError as error:
            raise RulesBroken([Violation("geometry", "bad_geometry", "", str(error))]) from None
        if drawn["type"] == "Point":
            nearest = geometry.nearest(shape, index.street_lines(placement.permit_street_id(permit)))
            ids = [nearest] if nearest is not None else []
            source = Placement.Source.POINT
        else:
            ids = geometry.along(shape, index.lines)
            source = Placement.Source.LINE
    else:
        ids = [pk for pk in segment_ids if pk in index.segments]
        source = Placement.Source.SEGMENTS
    if not ids:
        raise RulesBroken([Violation("geometry", "not_on_a_segment", "", "The drawing is on no street segment.")])
    row, _ = Placement.objects.update_or_create(
        permit=permit, defaults={"source": source, "geometry": drawn, "placed_by": by, "placed_at": timezone.now()}
    )
    row.segments.set(ids)
    where = "; ".join(str(index.segments[pk]) for pk in ids)
    record_event(permit, by=by, kind=PermitEvent.Kind.NOTE, reason=f"Placed on the map: {where}")
    return row


@transaction.atomic
def set_conflict_margin(*, days: int, effective_from: date, by, note: str = "") -> ConflictMargin:
    require_role(by, Role.DPW_DIRECTOR, action="set the conflict margin")
    if days < 0 or days > 365:
        raise RulesBroken([Violation("days", "margin_range", "", "The margin is 0 to 365 days.")])
    return ConflictMargin.objects.create(
        days=days, effective_from=effective_from, set_by=by, set_at=timezone.now(), note=note
    )


@transaction.atomic
def record_conflict_review(
    *, permit: Permit, by, today: date, accepts_closure: bool = False, note: str = ""
) -> ConflictReview:
    """The DPW records that it saw the conflicts listed now (they are stored with the record, as they were)."""
    require_role(by, Role.DPW_DIRECTOR, action="record that the conflicts were seen")
    listed = conflicts.conflicts_for(permit, today=today)
    review = ConflictReview.objects.create(
        permit=permit,
        conflicts=[c.as_record() for c in listed],
        accepts_closure=accepts_closure,
        note=note,
        reviewed_by=by,
        reviewed_at=timezone.now(),
    )
    accepted = " and accepted the closure" if accepts_closure else ""
    record_event(permit, by=by, reason=f"The DPW saw {len(listed)} conflict(s) at review{accepted}.")
    return review


def street_use_blockers(permit: Permit, *, today: date) -> list[Violation]:
    """For the street use type's blockers on approval (its issue wires it into its kind.py): § 303-15A."""
    listed = conflicts.conflicts_for(permit, today=today)
    accepted = permit.conflict_reviews.filter(accepts_closure=True).exists()
    return conflicts.street_use_closure_refused(permit.kind, listed, dpw_accepted=accepted)


# --- "Tell me about my street" -----------------------------------------------------------------------------------


@transaction.atomic
def subscribe(*, email: str, street: Street, address_number: int | None = None) -> StreetSubscription:
    """Ask to be told about a street; a verification email is sent (the same answer whether or not the address
    was subscribed already, so nobody learns who subscribes)."""
    row, _ = StreetSubscription.objects.get_or_create(
        email=email.strip().lower(), street=street, address_number=address_number
    )
    send_notice(
        None, to=row.email, template="streetmap_verify", context={"subscription": row, "SITE_URL": settings.SITE_URL}
    )
    return row


@transaction.atomic
def verify_subscription(*, token) -> StreetSubscription | None:
    row = StreetSubscription.objects.select_for_update().filter(token=token).first()
    if row is not None and row.verified_at is None:
        row.verified_at = timezone.now()
        row.last_notified_on = timezone.localdate()
        row.save(update_fields=["verified_at", "last_notified_on"])
    return row


def unsubscribe(*, token) -> bool:
    return StreetSubscription.objects.filter(token=token).delete()[0] > 0


def notify_subscribers(*, today: date) -> tuple[int, int]:
    """The scheduled job: tell each verified subscriber of every permit issued on its street (or at its address)
    since it was last told. A permit is told once per subscriber (SubscriptionDelivery), so a rerun sends nothing.
    Set-based: per chunk of (subscriber, permit) pairs, the chunk's subscriptions are locked (a concurrent
    run waits, then finds the deliveries made), the deliveries not made yet inserted in one statement and their
    notices in one; then every subscription's last-told day is set by one UPDATE."""
    from permits.streetmap.selectors import with_placement, works

    subs = list(StreetSubscription.objects.filter(verified_at__isnull=False).select_related("street").order_by("pk"))
    if not subs:
        return 0, 0
    since = min((s.last_notified_on or today) for s in subs)
    issued = with_placement(
        Permit.objects.filter(status__in=(Status.ISSUED, Status.ACTIVE), issued_on__gte=since, issued_on__lte=today)
    )
    issued_works = works(issued)
    due = [
        (sub, work)
        for sub in subs
        for work in issued_works
        if work.permit.issued_on >= (sub.last_notified_on or today) and _concerns(sub, work)
    ]
    done = 0
    for chunk in jobs.chunked(due):
        sub_ids = sorted({sub.pk for sub, _ in chunk})
        with transaction.atomic():
            list(StreetSubscription.objects.select_for_update().filter(pk__in=sub_ids).values_list("pk", flat=True))
            made = set(
                SubscriptionDelivery.objects.filter(
                    subscription_id__in=sub_ids, permit_id__in={work.permit.pk for _, work in chunk}
                ).values_list("subscription_id", "permit_id")
            )
            new = [(sub, work) for sub, work in chunk if (sub.pk, work.permit.pk) not in made]
            now = timezone.now()
            SubscriptionDelivery.objects.bulk_create(
                [SubscriptionDelivery(subscription=sub, permit=work.permit, sent_at=now) for sub, work in new]
            )
            send_notices(
                [
                    (
                        None,
                        sub.email,
                        "streetmap_issued",
                        {"subscription": sub, "work": work, "SITE_URL": settings.SITE_URL},
                    )
                    for sub, work in new
                ]
            )
        done += len(new)
    StreetSubscription.objects.filter(pk__in=[sub.pk for sub in subs]).update(last_notified_on=today)
    return len(subs), done


def _concerns(sub: StreetSubscription, work) -> bool:
    on_street = any(s.street_id == sub.street_id for s in work.segments) or work.permit.street_id == sub.street_id
    if not on_street:
        return False
    if sub.address_number is None:
        return True
    segments = [s for s in work.segments if s.street_id == sub.street_id]
    return any(s.holds_address(sub.address_number) for s in segments) or not segments


def calendar_token_for(user, *, rotate: bool = False) -> CalendarToken:
    import uuid

    row, created = CalendarToken.objects.get_or_create(user=user)
    if rotate and not created:
        row.token = uuid.uuid4()
        row.save(update_fields=["token"])
    return row
