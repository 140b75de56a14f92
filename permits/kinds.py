"""The permit-type registry: one plain record per street permit type of Chapter 303.

The core never imports a permit type by name except through `TYPE_PACKAGES` below. The apply chooser, the "which
permit?" guide, the office page, the permit page, the API router, the demo loader, the admin, the Celery task
discovery, the expiry job and `workflow.transition()` all read the records.

Adding a permit type (docs/explanation/registry.md):
1. copy a sibling package (`permits/street_opening/`): models.py rules.py services.py forms.py views.py urls.py
   api.py admin.py tasks.py demo.py and kind.py, whose `PERMIT_TYPE` is the record;
2. add the package to `TYPE_PACKAGES` (the one line of the core it touches);
3. write its rules first, with their boundary tests, then its hooks (what blocks a transition, what it stamps).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import Any

# The permit types this Village runs online, one package each. Sidewalk permits live in the sidewalks app with the
# rest of § 303-3 (surveys, Board orders).
TYPE_PACKAGES: tuple[str, ...] = (
    "permits.street_opening",
    "sidewalks",
    "permits.street_use",
    "permits.street_privilege",
)

APPLICANT = "applicant"  # in an authority table: the applicant or a member of its organization


@dataclass(frozen=True)
class WorkQueue:
    """A link on the Village office page to a list of work, shown to the roles that do that work."""

    title: str
    url_name: str
    roles: tuple[str, ...]


@dataclass(frozen=True)
class ApiRoute:
    prefix: str
    viewset: Any
    basename: str


@dataclass(frozen=True)
class PermitType:
    """One street permit type. Hooks take the permit and the target status; they read the database as they need,
    and the rules they call are pure (the `today` passed in is read once by transition())."""

    kind: str
    title: str
    citation: str
    who_needs_it: str
    prefix: str  # permit numbers: SO-2026-0001
    fee_code: str | None = None  # the Chapter 167 fee charged at submission
    apply_url: str | None = None  # URL name of the online application; None: apply at the Village office
    detail_template: str | None = None  # the type's panel on the permit page
    urls: tuple = ()  # the type's URL patterns, mounted in the permits namespace (a type app mounts its own)
    work_queues: tuple[WorkQueue, ...] = ()
    demo_loaders: tuple[Callable[[], None], ...] = ()
    api_routes: tuple[ApiRoute, ...] = ()
    # Who may move a permit of this type INTO each status (APPLICANT or role names); a status missing here may
    # be entered by the system only (a scheduled job, by=None).
    authority: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # (permit, to, today) -> the Violations that refuse moving `permit` to `to` now
    blockers: Callable[..., list] | None = None
    # (permit, to, today) -> other Permit fields the transition writes (e.g. expires_on on approval)
    stamps: Callable[..., dict] | None = None
    expires: bool = False  # a validity period the nightly expiry job ends (expires_on)
    expire_lapsed: Callable[..., tuple[int, int]] | None = None  # (today) -> (considered, expired)
    # (permit, values, today) -> the Violations that refuse a back-office edit of the permit's fields (the same rules
    # as filing, permits.admin.edits); None: only the order of the dates is checked.
    edit_rules: Callable[..., list] | None = None
    # permits.streetmap.impacts.RightOfWay: what the permit closes (lanes, sidewalk) and the point drawn on its
    # application, for the public map, the conflict checks and the WZDx feed; None: "street occupied"
    right_of_way: Any = None
    # The one page per permit (permits.permit_page): the page template (extending permits/detail.html) and
    # the context the type adds to it ((request, permit) -> dict); the URL name of the permit PDF (takes the number);
    # (permit, violation) -> (url, label) | None: where the applicant fixes what blocks the next step.
    page_template: str | None = None
    page_context: Callable[..., dict] | None = None
    pdf_url: str | None = None
    fix_link: Callable[..., tuple[str, str] | None] | None = None


# Types of the design card not yet online: the guide and the chooser send applicants to the Village office.
OFFICE_ONLY_TYPES: tuple[PermitType, ...] = ()


# The core's own work queues (the ledger every enforcement path bills through).
CORE_WORK_QUEUES: tuple[WorkQueue, ...] = (
    WorkQueue(
        "Special charges",
        "ledger:charges",
        (
            "Clerk-Treasurer",
            "Director of Public Works",
            "DPW Inspector",
            "Building Inspector",
            "Chief of Police",
            "Village Board",
            "Village President",
        ),
    ),
    WorkQueue("Special-charge hearings", "ledger:hearings", ("Clerk-Treasurer",)),
    WorkQueue("Tax roll", "ledger:tax_rolls", ("Clerk-Treasurer",)),
    WorkQueue("Parcel link requests", "permits:parcel_link_requests", ("Clerk-Treasurer",)),
)


def import_type_modules(module: str) -> list:
    """Import `<package>.<module>` of every registered type that has one (models, admin, tasks...)."""
    found = []
    for package in TYPE_PACKAGES:
        name = f"{package}.{module}"
        if find_spec(name) is not None:
            found.append(import_module(name))
    return found


@cache
def registry() -> dict[str, PermitType]:
    """kind -> record, for the types online, in the order of TYPE_PACKAGES."""
    types = [m.PERMIT_TYPE for m in import_type_modules("kind")]
    return {t.kind: t for t in types}


def online_types() -> list[PermitType]:
    return list(registry().values())


def all_types() -> list[PermitType]:
    """Every permit type of the chooser and the guide: the ones online first, then the office-only ones."""
    online = registry()
    return [*online.values(), *(t for t in OFFICE_ONLY_TYPES if t.kind not in online)]


def get_type(kind: str) -> PermitType | None:
    """The record of `kind`, or the office-only record (no hooks), or None."""
    found = registry().get(kind)
    if found is not None:
        return found
    return next((t for t in OFFICE_ONLY_TYPES if t.kind == kind), None)


def number_prefix(kind: str) -> str:
    permit_type = get_type(kind)
    if permit_type is None:
        raise ValueError(f"Unknown permit type {kind!r}")
    return permit_type.prefix


def apply_url_for(permit_type: PermitType) -> str | None:
    from django.urls import NoReverseMatch, reverse

    if not permit_type.apply_url:
        return None
    try:
        return reverse(permit_type.apply_url)
    except NoReverseMatch:
        return None


def work_queues_for(user) -> list[tuple[WorkQueue, str]]:
    """The office page's work queues `user` sees, with their URLs, from every type and from the core."""
    from django.conf import settings
    from django.urls import get_script_prefix, get_urlconf

    from permits.roles import has_role

    every = _work_queue_urls(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    return [(q, url) for q, url in every if has_role(user, *q.roles)]


@cache
def _work_queue_urls(script_prefix: str, urlconf: str) -> tuple[tuple[WorkQueue, str], ...]:
    """Every work queue with its URL, reversed once per process, prefix and URLconf (not a reverse() per
    queue on every look at the office list, like the header's links)."""
    from django.urls import reverse

    queues = [*(q for t in online_types() for q in t.work_queues), *CORE_WORK_QUEUES]
    return tuple((q, reverse(q.url_name, urlconf=urlconf)) for q in queues)


def api_routes() -> list[ApiRoute]:
    return [r for t in online_types() for r in t.api_routes]


def demo_loaders() -> list[Callable[[], None]]:
    return [loader for t in online_types() for loader in t.demo_loaders]
