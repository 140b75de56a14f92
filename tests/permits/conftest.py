"""Helpers for the permit-core tests: permits in any status, and every persona by name."""

import pytest

from permits.models import Status
from permits.workflow import transition
from tests.conftest import warm_office_facts
from tests.factories import PermitFactory
from tests.permits.admin_world import admin_world  # noqa: F401 (a module-scoped fixture: the back office)

# How the system (by=None) walks a fresh draft to each status.
PATH_TO = {
    Status.DRAFT: [],
    Status.SUBMITTED: [Status.SUBMITTED],
    Status.UNDER_REVIEW: [Status.SUBMITTED, Status.UNDER_REVIEW],
    Status.APPROVED: [Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED],
    Status.ISSUED: [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.ISSUED,
    ],
    Status.ACTIVE: [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.ISSUED,
        Status.ACTIVE,
    ],
    Status.COMPLETED: [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.ISSUED,
        Status.COMPLETED,
    ],
    Status.CLOSED: [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.ISSUED,
        Status.COMPLETED,
        Status.CLOSED,
    ],
    Status.DENIED: [Status.SUBMITTED, Status.DENIED],
    Status.WITHDRAWN: [Status.WITHDRAWN],
    Status.EXPIRED: [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.EXPIRED,
    ],
    Status.REVOKED: [
        Status.SUBMITTED,
        Status.UNDER_REVIEW,
        Status.APPROVED,
        Status.REVOKED,
    ],
}

STAFF_PERSONAS = [
    "clerk",
    "dpw_director",
    "inspector",
    "building_inspector",
    "police_chief",
    "board_member",
    "president",
]
OTHER_STAFF = [p for p in STAFF_PERSONAS if p != "clerk"]  # every staff role but the clerk
PUBLIC_PERSONAS = ["resident", "outsider", "contractor", "contractor_staff"]
ALL_PERSONAS = PUBLIC_PERSONAS + STAFF_PERSONAS


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Rate limits (DRF's anonymous throttle, allauth's login limit) count in the cache, which outlives a test.
    from django.core.cache import cache

    cache.clear()
    warm_office_facts()
    yield
    cache.clear()


# A permit kind with no registered type: kinds.get_type() is None, so the core AUTHORITY applies and no rules block.
CORE_ONLY_KIND = "core_only"


def permit_in(status, **fields):
    """A permit walked by the system (by=None) from draft to `status`.

    By default of a kind no type registers (CORE_ONLY_KIND): the core's status table and authority with no type's
    rules, which is what these tests pin, now that every type of the design card is online. Each type's rules are
    tested in its own folder (tests/permits/street_opening/, tests/sidewalks/, ...), and tests/permits/test_registry.py
    walks every type through the generic paths."""
    fields.setdefault("kind", CORE_ONLY_KIND)
    permit = PermitFactory(**fields)
    for step in PATH_TO[Status(status)]:
        transition(permit, step, by=None)
    return permit


@pytest.fixture
def persona(request):
    """persona("clerk") -> the user of that persona fixture."""

    def get(name):
        return request.getfixturevalue(name) if name else None

    return get
