"""Each role's start page: what waits on *that* role, oldest first, each row one click from its action.

A work source is one plain record: a title, the roles whose work it is, and a function that returns the waiting rows
oldest first. The core's sources are below. A part (a permit type, or the enforcement cases past their deadline)
adds its own in a `work_sources.py` module of its package (a tuple `WORK_SOURCES`, found through
permits.kinds.discover). The start page counts every source in one query, each count capped at COUNT_CAP ("100+":
the count stops early, served by an index, at any size), and reads the first rows of each source that has any: one
query per source with work, however many rows wait.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from typing import Any
from urllib.parse import urlencode

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.urls import reverse

from permits import kinds
from permits.roles import Role, has_role

ROWS_SHOWN = 5  # rows per source on the start page; the source's own list has the rest
COUNT_CAP = 100  # a source's count stops here: the box says "100+" and its own list has them all


@dataclass(frozen=True)
class WorkRow:
    label: str  # "SO-2026-0004: 120 Main Street"
    since: date | datetime | None  # how long it has waited (the list is oldest first)
    url: str  # where the action is taken
    action: str = "Open"  # the link's verb: "Review", "Record payment"...


@dataclass(frozen=True)
class WorkSource:
    title: str  # "Applications to check"
    roles: tuple[str, ...]  # the roles whose work it is (a superuser sees every source)
    # (user, today) -> the waiting records, oldest first (a queryset, or a sized list)
    waiting: Callable[[Any, date], Any]
    # (record) -> WorkRow
    row: Callable[[Any], WorkRow]
    url_name: str | None = None  # the full list, where the source has one
    url_query: str = ""  # the full list's filter: "status=submitted"
    citation: str = ""  # "§ 303-4B"
    # (user) -> bool: a finer test than the roles (a Board designee); None: the roles decide
    may_see: Callable[[Any], bool] | None = None


@dataclass(frozen=True)
class WorkBox:
    """One source on one user's start page: its count and first rows."""

    source: WorkSource
    count: int
    rows: list[WorkRow]
    url: str | None
    capped: bool = False  # more than `count` wait (the count stopped at COUNT_CAP)

    @property
    def shown_count(self) -> str:
        return f"{self.count}+" if self.capped else str(self.count)


@dataclass(frozen=True)
class Chained:
    """A source's waiting rows taken from several querysets (the Board's matters): each counted with the other sources
    in one query; the box's rows are the first ones of the first part that has any."""

    parts: tuple


def capped_counts(querysets: list[QuerySet], cap: int) -> list[int]:
    """How many rows each queryset has, counting at most `cap` of each: one query for all of them (a scalar subquery
    per queryset, each stopped by its LIMIT), so a list of 100,000 rows costs what a list of `cap` rows does."""
    parts, params = [], []
    for qs in querysets:
        try:
            sql, part_params = qs.order_by().values("pk")[:cap].query.get_compiler(qs.db).as_sql()
        except EmptyResultSet:  # a filter that cannot match (kind__in=[]): nothing waits
            parts.append("0")
            continue
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) capped_{len(parts)})")
        params.extend(part_params)
    if not querysets:
        return []
    with connections[querysets[0].db].cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        return [int(n) for n in cursor.fetchone()]


def _permit_row(action: str, when: str) -> Callable[[Any], WorkRow]:
    def row(permit) -> WorkRow:
        place = permit.street.name if permit.street_id else permit.location_description
        label = f"{permit.number}: {permit.get_kind_display()}" + (f", {place}" if place else "")
        return WorkRow(label, getattr(permit, when), permit.get_absolute_url(), action)

    return row


def numbered_row(record, what: str, since, action: str = "Open") -> WorkRow:
    """A row for a numbered record (a permit, a case, a charge): its number and what waits, linked to its page."""
    return WorkRow(f"{record.number}: {what}", since, record.get_absolute_url(), action)


def _kinds_entered_by(user, status: str) -> list[str]:
    """The permit types whose authority table lets `user`'s roles move a permit into `status` (the DPW Director sees
    the street openings that wait on the DPW, not every application of the Village)."""
    from permits.workflow import AUTHORITY

    found = []
    for permit_type in kinds.online_types():
        table = permit_type.authority or AUTHORITY
        roles = [r for r in table.get(status, ()) if r != kinds.APPLICANT]
        if roles and has_role(user, *roles):
            found.append(permit_type.kind)
    return found


def _permits():
    from permits.models import Permit
    from permits.selectors import with_paid_total

    return with_paid_total(Permit.objects.select_related("street"))


def _charges():
    from permits.ledger.models import SpecialCharge

    return SpecialCharge.objects.select_related("parcel")


def _permits_to_move(user, status: str, into: str, oldest: str):
    """The permits in `status` of the types whose table lets `user` move them into `into`, oldest `oldest` first."""
    return with_base(
        _permits().filter(status=status, kind__in=_kinds_entered_by(user, into)).order_by(oldest, "pk"), _permits
    )


def _applications_to_check(user, today):
    from permits.models import Status

    return _permits_to_move(user, Status.SUBMITTED, Status.UNDER_REVIEW, "submitted_at")


def _applications_to_decide(user, today):
    from permits.models import Status

    return _permits_to_move(user, Status.UNDER_REVIEW, Status.APPROVED, "submitted_at")


def _fees_to_collect(user, today):
    from permits.models import Status

    owing = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED)
    return with_base(
        _permits().filter(status__in=owing, fee_amount__gt=F("paid_total")).order_by("submitted_at", "pk"), _permits
    )


def _fee_row(permit) -> WorkRow:
    url = reverse("admin:permits_permit_payment", args=[permit.pk])
    return WorkRow(f"{permit.number}: ${permit.balance_due} due", permit.submitted_at, url, "Record payment")


def _refunds_to_make(user, today):
    """Chapter 167: the withdrawn and denied applications with money paid beyond what the Village keeps (the same
    refund due as the permit's page, permits.models.core.owed)."""
    from permits.models.core import ENDED_WITHOUT_PERMIT

    return with_base(
        _permits().filter(status__in=ENDED_WITHOUT_PERMIT, paid_total__gt=F("fee_kept")).order_by("submitted_at", "pk"),
        _permits,
    )


def _refund_row(permit) -> WorkRow:
    url = reverse("permits:detail", args=[permit.number])
    return WorkRow(f"{permit.number}: refund due ${permit.refund_due}", permit.submitted_at, url, "Record the refund")


def _permits_to_issue(user, today):
    from permits.models import Status

    return _permits_to_move(user, Status.APPROVED, Status.ISSUED, "approved_on")


def _letters_to_mail(user, today):
    from permits.letters import letters_to_mail

    return letters_to_mail()


def _letter_row(notice) -> WorkRow:
    return WorkRow(
        f"{notice.recipient_name or notice.to}: {notice.subject}",
        notice.created_at,
        reverse("permits:letters"),
        "Print and mail",
    )


def _charges_to_bill(user, today):
    from permits.ledger.models import SpecialCharge
    from permits.ledger.rules import SOURCES_NEEDING_HEARING

    return with_base(
        _charges()
        .filter(status=SpecialCharge.Status.PENDING)
        # Not (needs a hearing and has none), as an EXISTS per pending charge: the NOT IN that exclude() wrote hashed
        # every charge of the ledger
        .filter(
            ~Q(source__in=SOURCES_NEEDING_HEARING)
            | Exists(SpecialCharge.hearings.through.objects.filter(specialcharge_id=OuterRef("pk")))
        )
        # A special assessment is billed by the Board's final resolution (Wis. Stat. § 66.0703), not by the clerk.
        .exclude(route=SpecialCharge.Route.SPECIAL_ASSESSMENT_66_0703)
        .order_by("incurred_on", "pk"),
        _charges,
    )


def _hearings_to_hold(user, today):
    from permits.ledger.models import SpecialCharge
    from permits.ledger.rules import SOURCES_NEEDING_HEARING

    return with_base(
        _charges()
        .filter(status=SpecialCharge.Status.PENDING, source__in=SOURCES_NEEDING_HEARING, hearings__isnull=True)
        # A special assessment has its own hearing, on the § 66.0703 route (permits.ledger.assessments).
        .exclude(route=SpecialCharge.Route.SPECIAL_ASSESSMENT_66_0703)
        .order_by("incurred_on", "pk"),
        _charges,
    )


def _charge_row(action: str) -> Callable[[Any], WorkRow]:
    def row(charge) -> WorkRow:
        return numbered_row(charge, f"${charge.amount}, {charge.parcel.site_address}", charge.incurred_on, action)

    return row


def _board_matters(user, today):
    from permits.board.matters import matters

    return Chained(tuple(matter.waiting() for matter in matters()))


def _matter_row(subject) -> WorkRow:
    return WorkRow(str(subject), None, _matter_url(subject), "Open")


def _matter_url(subject) -> str:
    """The item itself: its own page, or its permit's, privilege's or charge's; else its matter's list in the Board
    queue (never the Board's index, where the reader would have to find it again)."""
    from permits.board.matters import matters

    for record in (subject, *(getattr(subject, name, None) for name in ("permit", "privilege", "charge"))):
        if record is not None and hasattr(record, "get_absolute_url"):
            return record.get_absolute_url()
    keys = [matter.key for matter in matters() if matter.model == subject._meta.label]
    return f"{reverse('board:queue')}?{urlencode({'matter': keys[0]})}" if keys else reverse("board:queue")


CORE_WORK_SOURCES: tuple[WorkSource, ...] = (
    WorkSource(
        "Applications to check",
        (Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR),
        _applications_to_check,
        _permit_row("Check", "submitted_at"),
        url_name="permits:office",
        url_query="status=submitted",
        citation="§ 303-4B",
    ),
    WorkSource(
        "Applications to approve or deny",
        # The Board decides by motion (permits.board), not from an application's page: its matters are listed below.
        (Role.CLERK, Role.DPW_DIRECTOR, Role.BUILDING_INSPECTOR),
        _applications_to_decide,
        _permit_row("Decide", "submitted_at"),
        url_name="permits:office",
        url_query="status=under_review",
        citation="§ 303-4A",
    ),
    WorkSource("Fees to collect", (Role.CLERK,), _fees_to_collect, _fee_row, citation="§ 303-4F(2)"),
    WorkSource("Refunds to make", (Role.CLERK,), _refunds_to_make, _refund_row, citation="Chapter 167"),
    WorkSource(
        "Permits to issue",
        (Role.CLERK, Role.DPW_DIRECTOR),
        _permits_to_issue,
        _permit_row("Issue", "approved_on"),
        url_name="permits:office",
        url_query="status=approved",
        citation="§ 303-4A",
    ),
    WorkSource("Letters to mail", (Role.CLERK,), _letters_to_mail, _letter_row, url_name="permits:letters"),
    WorkSource(
        "Charges to bill",
        (Role.CLERK,),
        _charges_to_bill,
        _charge_row("Bill"),
        url_name="ledger:charges",
        citation="Wis. Stat. § 66.0627",
    ),
    WorkSource(
        "Hearings to hold",
        (Role.CLERK,),
        _hearings_to_hold,
        _charge_row("Schedule hearing"),
        url_name="ledger:hearings",
        citation="Wis. Stat. § 66.0627(3)(b)",
    ),
    WorkSource(
        "Items for the Board's next agenda",
        (Role.CLERK, Role.BOARD, Role.PRESIDENT),
        _board_matters,
        _matter_row,
        url_name="board:board",
    ),
)


@cache
def work_sources() -> tuple[WorkSource, ...]:
    """The core's sources, then each part's (`<part>.work_sources.WORK_SOURCES`), in the order of the registry."""
    parts = [s for module in kinds.discover("work_sources") for s in module.WORK_SOURCES]
    return (*CORE_WORK_SOURCES, *parts)


def sources_for(user) -> list[WorkSource]:
    return [s for s in work_sources() if has_role(user, *s.roles) and (s.may_see is None or s.may_see(user))]


def _querysets_of(waiting) -> list[QuerySet]:
    if isinstance(waiting, QuerySet):
        return [] if waiting.query.is_empty() else [waiting]
    if isinstance(waiting, Chained):
        return [q for part in waiting.parts for q in _querysets_of(part)]
    return []


def _count_of(waiting, counted: dict[int, int]) -> int:
    if isinstance(waiting, QuerySet):
        return counted.get(id(waiting), 0)
    if isinstance(waiting, Chained):
        return sum(_count_of(part, counted) for part in waiting.parts)
    return len(waiting)


def _shown_part(waiting, counted: dict[int, int]):
    """What a box's rows are read from: the queryset if anything waits in it (a Chained source: its first part with
    rows; the count covers them all, and the source's own page lists the rest), a plain list as it is, else None."""
    if isinstance(waiting, Chained):
        part = next((p for p in waiting.parts if _count_of(p, counted)), None)
        return _shown_part(part, counted) if part is not None else None
    if isinstance(waiting, QuerySet):
        return waiting if _count_of(waiting, counted) else None
    return waiting


def with_base(qs: QuerySet, base: Callable[[], QuerySet]) -> QuerySet:
    """Mark `qs` as `base()` filtered and ordered by plain ascending fields: the first rows of the boxes marked with
    the same base are read in one query (not one query per box)."""
    qs._work_base = base
    return qs


def _mergeable(qs) -> bool:
    order = qs.query.order_by
    return (
        getattr(qs, "_work_base", None) is not None
        and bool(order)
        and all(isinstance(f, str) and not f.startswith(("-", "?")) and "__" not in f for f in order)
    )


def _first_keys(querysets: list[QuerySet], n: int) -> list[list]:
    """The primary keys of the first `n` rows of each queryset, in one query: each queryset's own ORDER BY ... LIMIT
    in a derived table (its own plan, stopped by its LIMIT), tagged with its place, the tables joined by UNION ALL."""
    parts, params = [], []
    keys: list[list] = [[] for _ in querysets]
    for i, qs in enumerate(querysets):
        try:
            sql, part_params = qs.values_list("pk")[:n].query.get_compiler(qs.db).as_sql()
        except EmptyResultSet:
            continue
        parts.append(f"SELECT {i} AS part, first_{i}.pk FROM ({sql}) first_{i}")
        params.extend(part_params)
    if parts:
        with connections[querysets[0].db].cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            for i, pk in cursor.fetchall():
                keys[i].append(pk)
    return keys


def _first_rows_of(parts: list, n: int) -> dict[int, list]:
    """The first `n` rows of each part, keyed by id(part). The querysets marked with a base: their first keys in one
    query, then the rows of each base in one query (sorted back by each part's ordering); the others one query each."""
    found: dict[int, list] = {}
    merged = [p for p in parts if isinstance(p, QuerySet) and _mergeable(p)]
    for part in parts:
        if isinstance(part, QuerySet) and not _mergeable(part):
            found[id(part)] = list(part[:n])
        elif not isinstance(part, QuerySet):
            found[id(part)] = list(part)[:n]
    if not merged:
        return found
    keys = _first_keys(merged, n) if len(merged) > 1 else [None]
    if len(merged) == 1:
        found[id(merged[0])] = list(merged[0][:n])
        return found
    by_base: dict[Any, set] = {}
    for part, part_keys in zip(merged, keys, strict=True):
        by_base.setdefault(part._work_base, set()).update(part_keys)
    rows = {base: base().in_bulk(sorted(pks)) if pks else {} for base, pks in by_base.items()}
    for part, part_keys in zip(merged, keys, strict=True):
        fields = part.query.order_by
        mine = [rows[part._work_base][pk] for pk in part_keys if pk in rows[part._work_base]]
        mine.sort(key=lambda r, fields=fields: tuple((getattr(r, f) is None, getattr(r, f)) for f in fields))
        found[id(part)] = mine
    return found


def work_for(user, *, today: date) -> list[WorkBox]:
    """The start page's boxes for `user`: each source of its roles, counted (capped), with its oldest rows."""
    sources = sources_for(user)
    waitings = [source.waiting(user, today) for source in sources]
    querysets = [q for w in waitings for q in _querysets_of(w)]
    counted = {id(q): n for q, n in zip(querysets, capped_counts(querysets, COUNT_CAP + 1), strict=True)}
    shown = [_shown_part(w, counted) for w in waitings]
    first = _first_rows_of([p for p in shown if p is not None], ROWS_SHOWN)
    boxes = []
    for source, waiting, part in zip(sources, waitings, shown, strict=True):
        count = _count_of(waiting, counted)
        rows = [source.row(record) for record in (first[id(part)] if part is not None else [])]
        url = reverse(source.url_name) if source.url_name else None
        if url and source.url_query:
            url = f"{url}?{source.url_query}"
        boxes.append(WorkBox(source, min(count, COUNT_CAP), rows, url, capped=count > COUNT_CAP))
    return boxes


def recent_actions(user, *, limit: int = 10) -> Iterable:
    """What `user` did lately: the permit timeline rows they wrote, newest first."""
    from permits.models import PermitEvent

    return PermitEvent.objects.filter(actor=user).select_related("permit").order_by("-at", "-pk")[:limit]


# The back office's model links, grouped by the task they serve (the clerk's index lists its work first; these are
# one click away). app_label.model_name -> group; a model not listed falls in "Other records".
RECORD_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Permits and applications",
        (
            "permits.permit",
            "permits.streetopening",
            "permits.diggersticket",
            "permits.emergencydetermination",
            "permits.emergencyreport",
            "permits.moratoriumexception",
            "permits.applicantrevocation",
            "permits.renewalrequest",
            "permits.renewal",
            "permits.annualbond",
            "permits.bondamount",
            "sidewalks.sidewalkpermit",
        ),
    ),
    (
        "Money: fees, payments, charges and the tax roll",
        (
            "permits.feeitem",
            "permits.payment",
            "permits.onlinepayment",
            "permits.refund",
            "permits.settlementday",
            "permits.specialcharge",
            "permits.chargehearing",
            "permits.paymentperiod",
            "permits.taxrollbatch",
        ),
    ),
    (
        "Field work, cases and notices",
        (
            "permits.inspection",
            "permits.permitteenotice",
            "permits.pavementrestoration",
            "permits.guarantee",
            "permits.defectnotice",
            "permits.notice",
            "sidewalks.",
        ),
    ),
    ("Village Board", ("permits.seat", "permits.term", "permits.meeting", "permits.motion", "permits.designation")),
    (
        "Streets, parcels and the map",
        (
            "permits.street",
            "permits.streetsegment",
            "permits.streetimprovement",
            "permits.parcel",
            "permits.placement",
            "permits.conflictmargin",
            "permits.conflictreview",
            "permits.streetsubscription",
        ),
    ),
    ("People and companies", ("auth.", "account.", "permits.organization", "authtoken.", "mfa.")),
    ("The system: jobs, calendar, sign-in log", ("permits.jobrun", "permits.officeclosure", "axes.", "sites.")),
)


def group_of(app_label: str, model_name: str) -> str:
    key = f"{app_label}.{model_name}".lower()
    for title, prefixes in RECORD_GROUPS:
        if any(key == p or (p.endswith(".") and key.startswith(p)) for p in prefixes):
            return title
    return "Other records"


def grouped_records(app_list: list[dict]) -> list[tuple[str, list[dict]]]:
    """The admin index's app_list regrouped by task (the order of RECORD_GROUPS, then "Other records")."""
    groups: dict[str, list[dict]] = {title: [] for title, _ in RECORD_GROUPS}
    groups["Other records"] = []
    for app in app_list:
        for model in app["models"]:
            groups[group_of(app["app_label"], model["object_name"].lower())].append(model)
    return [(title, sorted(models, key=lambda m: m["name"])) for title, models in groups.items() if models]
