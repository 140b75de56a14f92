"""The registry: one list of the project's parts, one discovery function, one plain record per street permit type.

`PACKAGES` lists every part: the permit types and the other parts (the Board, the ledger, online payments, the street
map, the enforcement cases). The core never names a part otherwise, by import or by string: it asks `discover(name)`
for the `<part>.<name>` module of every part that has one. A permit type is a part whose `kind.py` holds a
`PERMIT_TYPE` record; the apply chooser, the "which permit?" guide, the office page, the permit page, the API router,
the demo loader, the admin and its role permissions, the expiry job and `workflow.transition()` all read the records.

The modules a part may have, each read by one core module:
    kind.py             PERMIT_TYPE                       permits.kinds.registry()
    models.py admin.py  (loaded for their side effects)   permits.models, permits.admin.core
    tasks.py            Celery tasks                      theresa_permits.celery
    board_matters.py    MATTERS                           permits.board.matters
    search_sources.py   SEARCH_SOURCES                    permits.workspace.search
    work_sources.py     WORK_SOURCES                      permits.workspace.sources
    street_work_checks.py  work_violations(...), load_demo()  permits.street_work
    report_sources.py   OPEN_CASES, INSPECTIONS           permits.reports.queries
    readings.py         READINGS                          permits.readings (the public rules page)
    admin_roles.py      ADMIN_ROLES (a part with no PERMIT_TYPE)  permits.role_permissions
    demo.py             DEMO_LOADERS (a part with no PERMIT_TYPE)  load_demo

Adding a permit type (docs/explanation/adding-a-type.md):
1. copy a sibling package (`permits/street_use/` is the smallest): kind.py models.py rules.py services.py forms.py
   views.py urls.py api.py admin.py demo.py board_matters.py, with `PERMIT_TYPE` in kind.py;
2. add the package to `PACKAGES` (the one line of the core it touches: tests/permits/test_new_type_experiment.py);
3. write its rules first, with their boundary tests, then its hooks (what blocks a transition, what it stamps).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import Any

from permits.roles import Role

# Every part, in the order the pages list what they bring: the permit types this Village runs online first (sidewalk
# permits live in the sidewalks app with the rest of § 303-3: surveys, Board orders), then the other parts.
PACKAGES: tuple[str, ...] = (
    "permits.street_opening",
    "sidewalks",
    "permits.street_use",
    "permits.street_privilege",
    "permits.board",
    "permits.ledger",
    "permits.online_payments",
    "permits.streetmap",
    "obstructions",
    "obstructions.registers",
)

APPLICANT = "applicant"  # in an authority table: the applicant or a member of its organization
# In an `admin_roles` table: the staff roles that see every permit in the back office (the Clerk-Treasurer sees every
# model without being listed).
PERMIT_READERS = (
    Role.DPW_DIRECTOR,
    Role.DPW_INSPECTOR,
    Role.BUILDING_INSPECTOR,
    Role.POLICE_CHIEF,
    Role.BOARD,
    Role.PRESIDENT,
)


@dataclass(frozen=True)
class WorkQueue:
    """A link on the Village office page to a list of work, shown to the roles that do that work."""

    title: str
    url_name: str
    roles: tuple[str, ...]


# In a `cleared_by` table: nobody acts, the day comes (a year of revocation runs out; the nightly job ends a guarantee).
CALENDAR = "the calendar"


@dataclass(frozen=True)
class Clearer:
    """Who clears one blocker (a Violation code a type's `blockers` hook returns) and on which page: role names,
    APPLICANT or CALENDAR, and a URL name that takes the permit's number (or nothing). Never the back office:
    every step of a journey is done on a page by the person whose step it is
    (tests/permits/test_every_blocker_has_a_page.py holds every code to this). No roles: no page clears it yet, a
    dead end that test lists by name."""

    roles: tuple[str, ...]
    page: str
    how: str


@dataclass(frozen=True)
class ApiRoute:
    prefix: str
    viewset: Any
    basename: str


@dataclass(frozen=True)
class RequiredDocument:
    """A document a type's rules require, declared once: the application form lists it, and the rules that refuse
    a step without it cite the same section."""

    kind: str  # a Document.Kind value: what to choose when uploading it
    what: str  # "A certificate of insurance showing the limits entered on the form"
    citation: str
    when: str  # where and by when it is uploaded: "on the permit page once submitted, before approval"


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
    # The section of the type's validity period ("§ 303-4D"): a permit of the type becomes expired by the system only,
    # after its last valid day (expires_on); "" when Chapter 303 sets none: a permit of the type never expires
    # (permits.workflow.expiry_violations).
    validity: str = ""
    expire_lapsed: Callable[..., tuple[int, int]] | None = None  # (today) -> (considered, expired)
    # permits.edits.EditPolicy: who edits a filed permit of the type (its street, place, work, dates) and which fields
    # stay open in each status; None: the core's DEFAULT_POLICY (the clerk, before the decision).
    edit_policy: Any = None
    # (permit, values, today) -> the Violations that refuse the new values of an edit the policy allows (the same
    # rules as filing, permits.edits); None: only the order of the dates is checked.
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
    # The documents the type's rules require (the application form's checklist, permits/templatetags/documents.py).
    required_documents: tuple[RequiredDocument, ...] = ()
    # Violation code -> Clearer: for every blocker the `blockers` hook can return, who clears it and on which page.
    cleared_by: Mapping[str, Clearer] = field(default_factory=dict)
    # What a permit's `kind` is called in lists and reports ("Street use (block party, event)"); "" reads the title.
    label: str = ""
    # Which staff roles see the type's models in the back office: "app_label.modelname" -> role names
    # (permits.role_permissions; the Clerk-Treasurer sees every model).
    admin_roles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Which of those roles may also change and add them ("app_label.modelname" -> role names).
    admin_editors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self):
        if not self.label:
            object.__setattr__(self, "label", self.title)


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


def discover(module: str) -> list:
    """Import `<package>.<module>` of every part of PACKAGES that has one, in the order of PACKAGES."""
    found = []
    for package in PACKAGES:
        name = f"{package}.{module}"
        if find_spec(name) is not None:
            found.append(import_module(name))
    return found


def type_packages() -> tuple[str, ...]:
    """The parts that are permit types: those whose `kind.py` has a PERMIT_TYPE."""
    return tuple(m.__name__.rpartition(".")[0] for m in discover("kind") if hasattr(m, "PERMIT_TYPE"))


@cache
def registry() -> dict[str, PermitType]:
    """kind -> record, for the types online, in the order of PACKAGES."""
    types = [m.PERMIT_TYPE for m in discover("kind") if hasattr(m, "PERMIT_TYPE")]
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


def validate_kind(value: str) -> None:
    """A permit's `kind` names a type of the registry (Permit.kind's validator: forms, the admin, the API, the
    services; no database needed)."""
    from permits.errors import Violation, field_error

    if get_type(value) is None:
        raise field_error(Violation("kind", "unknown_permit_type", "", f"{value!r} is not a registered permit type."))


def kind_label(kind: str) -> str:
    """What a permit of `kind` is called in lists, notices and reports: its record's label."""
    permit_type = get_type(kind)
    return permit_type.label if permit_type is not None else kind


def kind_choices() -> list[tuple[str, str]]:
    """(kind, label) of every permit type, for the filters of lists and reports."""
    return [(t.kind, t.label) for t in all_types()]


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
    """Each permit type's demo loaders (its record), then the other parts' (`DEMO_LOADERS` of their demo.py)."""
    types = [loader for t in online_types() for loader in t.demo_loaders]
    return types + [loader for m in discover("demo") for loader in getattr(m, "DEMO_LOADERS", ())]
