"""The permits as a BLDS v1.2 dataset (Building & Land Development Specification, permitdata.org): the core
permit fields, and the status-change dataset from each permit's timeline. CSV and JSON carry the same rows.

Published here: the permits the Village issued (issued, under way, completed; closed, expired or revoked after it
issued them), with their address; never an application in review, withdrawn or denied (nor its company), and never
the applicant's name, phone or email (the contractor's company, an organization, is published as
ContractorCompanyName). Anyone may still ask the Clerk-Treasurer for a record (Wis. Stat. § 19.35).

Field names are those of the specification's "Permits" and "Permit Status Changes" datasets (its wiki,
github.com/open-data-standards/permitdata.org/wiki, was not reachable from this machine: the names follow the
published v1.2 field list as known to the author; the data page says so).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q

from permits.kinds import get_type
from permits.models import Permit, PermitEvent, Status

# The core fields of the BLDS "Permits" dataset, then the optional ones this Village has.
PERMIT_FIELDS = [
    "PermitNum",
    "Description",
    "AppliedDate",
    "IssuedDate",
    "CompletedDate",
    "StatusCurrent",
    "OriginalAddress1",
    "OriginalAddress2",
    "OriginalCity",
    "OriginalState",
    "OriginalZip",
    # optional
    "Jurisdiction",
    "PermitType",
    "PermitTypeDesc",
    "StatusCurrentMapped",
    "StatusDate",
    "ExpiresDate",
    "Link",
    "PIN",
    "ContractorCompanyName",
    "Fee",
    "Publisher",
]
STATUS_FIELDS = [
    "PermitNum",
    "StatusPrevious",
    "StatusPreviousMapped",
    "StatusCurrent",
    "StatusCurrentMapped",
    "StatusChangeDate",
]

# Our statuses in the BLDS StatusCurrentMapped vocabulary.
MAPPED_STATUS = {
    Status.SUBMITTED: "Application Accepted",
    Status.UNDER_REVIEW: "In Review",
    Status.APPROVED: "In Review",
    Status.ISSUED: "Permit Issued",
    Status.ACTIVE: "Inspection Phase",
    Status.COMPLETED: "Permit Finaled",
    Status.CLOSED: "Permit Finaled",
    Status.DENIED: "Permit Cancelled",
    Status.WITHDRAWN: "Permit Cancelled",
    Status.REVOKED: "Permit Cancelled",
    Status.EXPIRED: "Permit Expired",
}
CITY, STATE, ZIP = "Theresa", "WI", "53091"


# In force or done: the Village issued them. Ended after being issued: the same, known by the day it issued them (an
# approved permit may expire or be revoked before it is ever issued, and a closed one may have been either).
IN_FORCE_OR_DONE = frozenset({Status.ISSUED, Status.ACTIVE, Status.COMPLETED})
ENDED = frozenset({Status.CLOSED, Status.EXPIRED, Status.REVOKED})


def is_published(*, status: str, issued_on) -> bool:
    """The open-data feed publishes what the Village would publish: permits it issued, in force, done or ended after
    issue; never an application under review, withdrawn or denied (the applicant's business until a permit exists)."""
    return status in IN_FORCE_OR_DONE or (status in ENDED and issued_on is not None)


def published(prefix: str = "") -> Q:
    """is_published as a query (the same two cases), on the permit or, with `prefix` ("permit__"), through it."""
    return Q(**{f"{prefix}status__in": IN_FORCE_OR_DONE}) | Q(
        **{f"{prefix}status__in": ENDED, f"{prefix}issued_on__isnull": False}
    )


def public_permits():
    return Permit.objects.filter(published()).select_related("street", "parcel", "organization").order_by("number")


def _date(value) -> str:
    if value is None:
        return ""
    return value.date().isoformat() if hasattr(value, "date") and callable(value.date) else value.isoformat()


def permit_row(permit: Permit) -> dict:
    permit_type = get_type(permit.kind)
    address = permit.parcel.site_address if permit.parcel_id else (permit.street.name if permit.street_id else "")
    detail = permit.location_description if not permit.parcel_id else ""
    status_date = (
        permit.closed_on or permit.completed_on or permit.issued_on or permit.approved_on or permit.submitted_at
    )
    return {
        "PermitNum": permit.number,
        "Description": f"{permit.get_kind_display()}: {permit.work_description}".strip().rstrip(":")[:500],
        "AppliedDate": _date(permit.submitted_at),
        "IssuedDate": _date(permit.issued_on),
        "CompletedDate": _date(permit.completed_on),
        "StatusCurrent": permit.get_status_display(),
        "OriginalAddress1": address,
        "OriginalAddress2": detail[:200],
        "OriginalCity": CITY,
        "OriginalState": STATE,
        "OriginalZip": ZIP,
        "Jurisdiction": settings.VILLAGE_NAME,
        "PermitType": permit_type.title if permit_type else permit.get_kind_display(),
        "PermitTypeDesc": permit_type.citation if permit_type else "",
        "StatusCurrentMapped": MAPPED_STATUS.get(permit.status, ""),
        "StatusDate": _date(status_date),
        "ExpiresDate": _date(permit.expires_on),
        "Link": settings.SITE_URL + f"/status/{permit.public_token}/",
        "PIN": permit.parcel.tax_key if permit.parcel_id else "",
        "ContractorCompanyName": permit.organization.name if permit.organization_id else "",
        "Fee": f"{permit.fee_amount:.2f}",
        "Publisher": settings.VILLAGE_NAME,
    }


def permit_rows():
    for permit in public_permits().iterator(chunk_size=500):
        yield permit_row(permit)


def status_rows():
    """One row per status change on the timeline of a published permit (its own drafting is not published)."""
    events = (
        PermitEvent.objects.filter(kind=PermitEvent.Kind.TRANSITION)
        .filter(published("permit__"))
        .exclude(from_status="")
        .select_related("permit")
        .order_by("permit__number", "at", "pk")
    )
    labels = dict(Status.choices)
    for event in events.iterator(chunk_size=1000):
        yield {
            "PermitNum": event.permit.number,
            "StatusPrevious": labels.get(event.from_status, event.from_status),
            "StatusPreviousMapped": MAPPED_STATUS.get(event.from_status, ""),
            "StatusCurrent": labels.get(event.to_status, event.to_status),
            "StatusCurrentMapped": MAPPED_STATUS.get(event.to_status, ""),
            "StatusChangeDate": _date(event.at),
        }
