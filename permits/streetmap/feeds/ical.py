"""iCalendar (RFC 5545) feeds with the `icalendar` package: a street's closures (public), and a permittee's own
deadlines (behind its private CalendarToken). Events are whole days (DTEND is the day after the last day)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.conf import settings
from django.db.models import Q
from icalendar import Calendar, Event

from permits.models import Membership, Permit, Status
from permits.streetmap import impacts, selectors

PRODID = "-//Village of Theresa//Theresa Permits//EN"


def _calendar(name: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    return cal


def _event(
    uid: str,
    summary: str,
    first: date,
    last: date,
    *,
    now: datetime,
    location: str = "",
    url: str = "",
    description: str = "",
) -> Event:
    event = Event()
    event.add("uid", f"{uid}@{settings.SITE_URL.split('://')[-1]}")
    event.add("dtstamp", now)
    event.add("summary", summary)
    event.add("dtstart", first)
    event.add("dtend", last + timedelta(days=1))
    if location:
        event.add("location", location)
    if url:
        event.add("url", url)
    if description:
        event.add("description", description)
    return event


def street_closures(street, *, today: date, now: datetime) -> bytes:
    cal = _calendar(f"{street.name}: permits and closures")
    for work in selectors.works(selectors.public_permits(today=today, street_id=street.pk)):
        first = work.starts or today
        last = work.ends or first
        cal.add_component(
            _event(
                f"{work.number}-street-{street.pk}",
                f"{work.number}: {work.impact.label}",
                first,
                max(first, last),
                now=now,
                location=work.where,
                url=settings.SITE_URL + work.status_url,
                description=f"{work.type_title} ({work.phase(today).lower()})",
            )
        )
    return cal.to_ical()


def permittee_deadlines(user, *, now: datetime) -> bytes:
    """The user's own permits (and their organizations'): work start and expiry, and each type's own deadlines
    (street openings: permanent pavement due, guarantee end, defect notices to correct)."""
    cal = _calendar("My permit deadlines")
    orgs = list(Membership.objects.filter(user=user).values_list("organization_id", flat=True))
    records = impacts.records()
    related = sorted({name for r in records for name in r.deadline_related})
    prefetches = [p for r in records if r.deadline_prefetch for p in r.deadline_prefetch()]
    permits = (
        Permit.objects.filter(Q(applicant=user) | Q(organization_id__in=orgs))
        .exclude(status__in=(Status.DRAFT, Status.DENIED, Status.WITHDRAWN, Status.CLOSED))
        .select_related(*related)
        .prefetch_related(*prefetches)
        .order_by("number")
    )
    for permit in permits:
        url = settings.SITE_URL + f"/permits/{permit.number}/"
        for key, summary, day in _deadlines(permit):
            cal.add_component(
                _event(f"{permit.number}-{key}", f"{permit.number}: {summary}", day, day, now=now, url=url)
            )
    return cal.to_ical()


def _deadlines(permit):
    if permit.start_date and permit.status in (Status.APPROVED, Status.ISSUED):
        yield "start", "work may begin", permit.start_date
    if permit.expires_on:
        yield "expires", "permit expires", permit.expires_on
    record = impacts.for_kind(permit.kind)
    if record.deadlines is not None:
        yield from record.deadlines(permit)
