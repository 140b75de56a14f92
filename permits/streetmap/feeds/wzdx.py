"""A WZDx v4.2 work-zone feed (U.S. DOT Work Zone Data Exchange) of the active and scheduled permits that close or
restrict a lane or the sidewalk: one road event per permit and street segment, with its lanes from the permit's lane
closure (§ 303-5B(3)) and its dates. Validated against the 4.2 schemas in tests/permits/streetmap/test_wzdx.py.

Interpretations: a Village street is two-way, so each event's direction is "undefined" (the WZDx value for a road
event not tied to one direction of travel); a permit with no end date (no expiry yet) is left out, since WZDx requires
one; dates are whole days in the Village's time zone, from 00:00 of the first day to 23:59:59 of the last.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, time
from datetime import timezone as dt_timezone
from email.utils import parseaddr

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from permits.streetmap import selectors

VERSION = "4.2"
LICENSE = "https://creativecommons.org/publicdomain/zero/1.0/"
UPDATE_FREQUENCY_SECONDS = 3600  # the feed is built on each request; consumers are asked to poll hourly


def data_source_id() -> str:
    """A stable UUID for the Village as a data source (derived from its site URL)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, settings.SITE_URL))


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(dt_timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def day_end(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(23, 59, 59)))


def feed(*, today: date, now: datetime | None = None) -> dict:
    now = now or timezone.now()
    permits = selectors.public_permits(today=today).annotate(updated=Max("events__at"))
    features = []
    for work in selectors.works(permits):
        if not work.impact.closes_lane_or_sidewalk or work.ends is None or not work.segments:
            continue
        features.extend(_road_events(work, today=today, now=now))
    return {
        "feed_info": {
            "publisher": settings.VILLAGE_NAME,
            "contact_name": f"{settings.VILLAGE_NAME} Department of Public Works",
            "contact_email": parseaddr(settings.DEFAULT_FROM_EMAIL)[1],
            "update_frequency": UPDATE_FREQUENCY_SECONDS,
            "update_date": rfc3339(now),
            "version": VERSION,
            "license": LICENSE,
            "data_sources": [
                {
                    "data_source_id": data_source_id(),
                    "organization_name": settings.VILLAGE_NAME,
                    "update_date": rfc3339(now),
                    "update_frequency": UPDATE_FREQUENCY_SECONDS,
                }
            ],
        },
        "type": "FeatureCollection",
        "features": features,
    }


def _road_events(work, *, today: date, now: datetime) -> list[dict]:
    permit = work.permit
    starts = work.starts or permit.issued_on or permit.approved_on or today
    created = permit.submitted_at or permit.created_at
    updated = getattr(permit, "updated", None) or created
    lanes = [{"order": n, "type": t, "status": s} for n, (t, s) in enumerate(work.impact.lanes, start=1)]
    events = []
    for segment in work.segments:
        details = {
            "core_details": {
                "event_type": "work-zone",
                "data_source_id": data_source_id(),
                "road_names": [segment.street.name],
                "direction": "undefined",
                "name": permit.number,
                "description": f"{work.type_title} {permit.number}: {work.impact.label}",
                "creation_date": rfc3339(created),
                "update_date": rfc3339(updated),
            },
            "start_date": rfc3339(day_start(starts)),
            "end_date": rfc3339(day_end(work.ends)),
            "is_start_date_verified": False,
            "is_end_date_verified": False,
            "is_start_position_verified": False,
            "is_end_position_verified": False,
            "location_method": "junction-method",
            "vehicle_impact": work.impact.vehicle_impact,
            "work_zone_type": "static",
            "event_status": "active" if work.phase(today) == "Under way" else "planned",
            "types_of_work": [{"type_name": work.impact.type_of_work, "is_architectural_change": False}],
            "lanes": lanes,
        }
        if segment.from_street:
            details["beginning_cross_street"] = segment.from_street
        if segment.to_street:
            details["ending_cross_street"] = segment.to_street
        events.append(
            {
                "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{settings.SITE_URL}/{permit.number}/{segment.pk}")),
                "type": "Feature",
                "properties": details,
                "geometry": {"type": "LineString", "coordinates": segment.geometry["coordinates"]},
            }
        )
    return events
