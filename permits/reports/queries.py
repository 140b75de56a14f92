"""The reports' numbers, each aggregated in the database: one GROUP BY statement per report (several sources are one
UNION ALL of grouped statements), plus at most one small lookup of names, so a report costs the same few queries at 100
permits and at 100,000.

Each function returns plain rows (dicts) for the view, the CSV and the PDF; `permits.reports.tables` lays them out.

Open cases and inspections come from the parts that keep them: each part's `report_sources.py` (found through
permits.kinds.discover) may have `OPEN_CASES`, functions (today) -> a grouped queryset of the columns (case_source,
band, cases, amount) built with grouped_by_age, and `INSPECTIONS`, InspectionSource records whose `made` is built with
grouped_by_month.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import cache

from django.db.models import (
    Case,
    CharField,
    Count,
    DateField,
    DecimalField,
    DurationField,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, Coalesce, Concat, NullIf, TruncDate, TruncMonth
from django.utils import timezone

from permits import kinds
from permits.ledger.models import ChargePayment, SpecialCharge, TaxRollBatch, TaxRollLine
from permits.models import FeeItem, Payment, Permit
from permits.reports import rules

ZERO = Decimal("0.00")
MONEY = DecimalField(max_digits=14, decimal_places=2)


def year_bounds(year: int) -> tuple[datetime, datetime]:
    """January 1 to the next January 1, midnight in Village time (the instants a year's receipts fall between)."""
    tz = timezone.get_current_timezone()
    return datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz)


def _month_number(value) -> int:
    # TruncMonth hands back an aware datetime (DateTimeField) or a date (DateField): the month either way.
    if isinstance(value, datetime):
        return timezone.localtime(value).month if timezone.is_aware(value) else value.month
    return value.month


def _money(value) -> Decimal:
    # SQLite hands sums back without their cents (and as float through a UNION): always two places.
    return Decimal(str(value or 0)).quantize(Decimal("0.01"))


# --- Fees and charges collected ----------------------------------------------------------------------------------


def fees_collected(year: int) -> list[dict]:
    """Receipts of `year` by fee item and month, as the treasurer posts them: permit fees by the permit's fee item
    (its type when it had none) and special-charge payments by the charge's source, in one UNION ALL of two grouped
    statements. A payment refunded or voided since is not counted (it no longer pays anything)."""
    start, end = year_bounds(year)
    permits = (
        Payment.objects.filter(received_at__gte=start, received_at__lt=end, refunds__isnull=True)
        .order_by()
        .annotate(
            item=Coalesce(NullIf(F("permit__fee_code"), Value("")), F("permit__kind"), output_field=CharField()),
            month=TruncMonth("received_at"),
        )
        .values("item", "month")
        .annotate(receipts=Count("id"), amount=Sum("amount"))
    )
    charges = (
        ChargePayment.objects.filter(received_at__gte=start, received_at__lt=end, refunded=False)
        .order_by()
        .annotate(
            item=Concat(Value("special_charge_"), F("charge__source"), output_field=CharField()),
            month=TruncMonth("received_at"),
        )
        .values("item", "month")
        .annotate(receipts=Count("id"), amount=Sum("amount"))
    )
    rows = [
        {
            "item": r["item"],
            "month": _month_number(r["month"]),
            "receipts": r["receipts"],
            "amount": _money(r["amount"]),
        }
        for r in permits.union(charges, all=True)
    ]
    rows.sort(key=lambda r: (r["item"], r["month"]))
    return rows


def fee_item_names(codes: set[str]) -> dict[str, str]:
    """What each fee item is called: the fee schedule's name (latest period), a special charge's source, or a permit
    type's name; one query for the fee schedule."""
    names = {f"special_charge_{value}": f"Special charge: {label}" for value, label in SpecialCharge.Source.choices}
    names.update({t.kind: t.label for t in kinds.all_types()})
    wanted = [code for code in codes if code not in names]
    if wanted:
        for code, name in (
            FeeItem.objects.filter(code__in=wanted).order_by("code", "effective_from").values_list("code", "name")
        ):
            names[code] = name  # the latest period's name wins
    return {code: names.get(code, code) for code in codes}


# --- Permits by type, status and month ---------------------------------------------------------------------------


def permits_by_month(year: int, kind: str | None = None) -> list[dict]:
    """Permits started in `year` (by the month the application was started), by type and current status."""
    start, end = year_bounds(year)
    qs = Permit.objects.filter(created_at__gte=start, created_at__lt=end)
    if kind:
        qs = qs.filter(kind=kind)
    grouped = (
        qs.order_by()
        .annotate(month=TruncMonth("created_at"))
        .values("kind", "status", "month")
        .annotate(permits=Count("id"))
    )
    rows = [{**r, "month": _month_number(r["month"])} for r in grouped]
    rows.sort(key=lambda r: (r["kind"], r["status"], r["month"]))
    return rows


# --- Time from application to issue -------------------------------------------------------------------------------


def waits_to_issue(year: int, kind: str | None = None) -> list[dict]:
    """Permits issued in `year`, counted per type and per wait in days (rules.days_to_issue: from the day submitted,
    Village time, to the day issued), so medians and bands are exact from a few hundred grouped rows."""
    qs = Permit.objects.filter(issued_on__year=year, submitted_at__isnull=False)
    if kind:
        qs = qs.filter(kind=kind)
    wait = ExpressionWrapper(
        F("issued_on") - Cast(TruncDate("submitted_at"), DateField()), output_field=DurationField()
    )
    grouped = qs.order_by().annotate(wait=wait).values("kind", "wait").annotate(permits=Count("id"))
    rows = [{"kind": r["kind"], "days": _days(r["wait"]), "permits": r["permits"]} for r in grouped]
    rows.sort(key=lambda r: (r["kind"], r["days"]))
    return rows


def _days(wait) -> int:
    if isinstance(wait, timedelta):
        return wait.days
    return int(wait or 0)  # a backend that hands back a plain number of days


# --- Inspections passed and failed --------------------------------------------------------------------------------


@dataclass(frozen=True)
class InspectionSource:
    """The inspections of one permit type, for the report of inspections passed and failed."""

    kind: str  # the permit type inspected
    # (start, end) -> the inspections made in [start, end), grouped by grouped_by_month
    made: Callable[[datetime, datetime], QuerySet]
    labels: Callable[[], dict[str, str]]  # () -> what each inspection (or stage) is called, with its section


def grouped_by_month(qs: QuerySet, permit_type: str, *, what: str, at: str, passed: Q, failed: Q) -> QuerySet:
    """The one shape every inspection source gives: (permit_type, what, month, passed, failed), grouped in the
    database."""
    return (
        qs.order_by()
        .annotate(permit_type=Value(permit_type, output_field=CharField()), what=F(what), month=TruncMonth(at))
        .values("permit_type", "what", "month")
        .annotate(passed=Count("id", filter=passed), failed=Count("id", filter=failed))
    )


@cache
def inspection_sources() -> tuple[InspectionSource, ...]:
    return tuple(s for module in kinds.discover("report_sources") for s in getattr(module, "INSPECTIONS", ()))


def inspections_by_month(year: int, kind: str | None = None) -> list[dict]:
    """Inspections made in `year` by permit type, inspection (or stage) and month, passed and failed: one UNION ALL
    of each inspected type's grouped statement."""
    start, end = year_bounds(year)
    parts = [s.made(start, end) for s in inspection_sources() if kind in (None, "", s.kind)]
    if not parts:
        return []
    union = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    rows = [{**r, "month": _month_number(r["month"])} for r in union]
    rows.sort(key=lambda r: (r["permit_type"], r["what"], r["month"]))
    return rows


@cache
def inspection_labels() -> dict[str, str]:
    """What each inspection kind and sidewalk stage is called, with its section."""
    return {what: label for source in inspection_sources() for what, label in source.labels().items()}


# --- Open cases and charges by age --------------------------------------------------------------------------------


def _band(field: str, today: date, *, instant: bool) -> Case:
    """The age band (rules.band_cutoffs) of the record whose opening day or instant is in `field`."""
    whens = []
    for label, cutoff in rules.band_cutoffs(today):
        if cutoff is None:
            break
        if instant:  # opened at or after the cutoff day's midnight, Village time
            bound = datetime.combine(cutoff, time.min, tzinfo=timezone.get_current_timezone())
        else:
            bound = cutoff
        whens.append(When(**{f"{field}__gte": bound}, then=Value(label)))
    return Case(*whens, default=Value(rules.band_label(rules.AGE_BANDS[-1])), output_field=CharField())


def grouped_by_age(qs: QuerySet, source: str, field: str, today: date, *, instant: bool, amount=None) -> QuerySet:
    """The one shape every open-case source gives: (case_source, band, cases, amount), grouped in the database."""
    return (
        qs.order_by()
        .annotate(case_source=Value(source, output_field=CharField()), band=_band(field, today, instant=instant))
        .values("case_source", "band")
        .annotate(
            cases=Count("pk"),
            amount=Coalesce(Sum(amount), Value(ZERO), output_field=MONEY)
            if amount is not None
            else Value(ZERO, output_field=MONEY),
        )
    )


@cache
def open_case_sources() -> tuple[Callable[[date], QuerySet], ...]:
    """Every part's open-case sources (`<part>.report_sources.OPEN_CASES`), in the order of the registry."""
    return tuple(f for module in kinds.discover("report_sources") for f in getattr(module, "OPEN_CASES", ()))


def open_cases_by_age(today: date) -> list[dict]:
    """Every open case and unpaid charge as of `today`, by source and age band: one UNION ALL of each source's
    grouped statement."""
    parts = [source(today) for source in open_case_sources()]
    if not parts:
        return []
    union = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    return [
        {"source": r["case_source"], "band": r["band"], "cases": r["cases"], "amount": _money(r["amount"])}
        for r in union
    ]


# --- The year's tax-roll summary -----------------------------------------------------------------------------------


def tax_roll_summary(year: int) -> tuple[TaxRollBatch | None, list[dict]]:
    """The year's special-charges roll (Wis. Stat. §§ 70.65, 74.03): the batch (state, certified, transferred) and
    its lines by source: lines, parcels and amount."""
    batch = TaxRollBatch.objects.filter(year=year).first()
    grouped = (
        TaxRollLine.objects.filter(batch__year=year)
        .order_by()
        .values("source")
        .annotate(lines=Count("id"), parcels=Count("tax_key", distinct=True), amount=Sum("amount"))
    )
    rows = [{**r, "amount": _money(r["amount"])} for r in grouped]
    rows.sort(key=lambda r: r["source"])
    return batch, rows


__all__ = [
    "InspectionSource",
    "grouped_by_month",
    "open_case_sources",
    "fees_collected",
    "grouped_by_age",
    "inspections_by_month",
    "open_cases_by_age",
    "permits_by_month",
    "tax_roll_summary",
    "waits_to_issue",
]
