"""The reports' numbers, each aggregated in the database: one GROUP BY statement per report (several sources are one
UNION ALL of grouped statements), plus at most one small lookup of names, so a report costs the same few queries at 100
permits and at 100,000.

Each function returns plain rows (dicts) for the view, the CSV and the PDF; `permits.reports.tables` lays them out.

Open cases come from a plain hook list, OPEN_CASE_SOURCES: each entry is a function (today) -> a grouped queryset of
the columns (case_source, band, cases, amount), built with grouped_by_age. The enforcement cases of § 303-6
(obstructions/) plug in by appending theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.apps import apps
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

from permits.ledger.models import ChargePayment, SpecialCharge, TaxRollBatch, TaxRollLine
from permits.models import FeeItem, Payment, Permit, PermitKind
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
    names.update({value: label for value, label in PermitKind.choices})
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


def inspections_by_month(year: int, kind: str | None = None) -> list[dict]:
    """Inspections made in `year` by permit type, inspection (street opening) or stage (sidewalk) and month, passed
    and failed: one UNION ALL of the two inspection tables' grouped statements."""
    Inspection = apps.get_model("permits", "Inspection")  # read by label: the core names no permit type
    SidewalkInspection = apps.get_model("sidewalks", "SidewalkInspection")

    start, end = year_bounds(year)
    parts = []
    if kind in (None, "", PermitKind.STREET_OPENING):
        parts.append(
            Inspection.objects.filter(at__gte=start, at__lt=end)
            .order_by()
            .annotate(
                permit_type=Value(PermitKind.STREET_OPENING.value, output_field=CharField()),
                what=F("kind"),
                month=TruncMonth("at"),
            )
            .values("permit_type", "what", "month")
            .annotate(passed=Count("id", filter=Q(result="pass")), failed=Count("id", filter=Q(result="fail")))
        )
    if kind in (None, "", PermitKind.SIDEWALK):
        parts.append(
            SidewalkInspection.objects.filter(inspected_at__gte=start, inspected_at__lt=end)
            .order_by()
            .annotate(
                permit_type=Value(PermitKind.SIDEWALK.value, output_field=CharField()),
                what=F("stage"),
                month=TruncMonth("inspected_at"),
            )
            .values("permit_type", "what", "month")
            .annotate(passed=Count("id", filter=Q(result="passed")), failed=Count("id", filter=Q(result="failed")))
        )
    if not parts:
        return []
    union = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    rows = [{**r, "month": _month_number(r["month"])} for r in union]
    rows.sort(key=lambda r: (r["permit_type"], r["what"], r["month"]))
    return rows


INSPECTION_LABELS: dict[str, str] = {}


def inspection_labels() -> dict[str, str]:
    """What each inspection kind and sidewalk stage is called, with its section."""
    if not INSPECTION_LABELS:
        Inspection = apps.get_model("permits", "Inspection")  # read by label: the core names no permit type
        SidewalkInspection = apps.get_model("sidewalks", "SidewalkInspection")

        INSPECTION_LABELS.update(dict(Inspection.Kind.choices))
        INSPECTION_LABELS.update(dict(SidewalkInspection.Stage.choices))
    return INSPECTION_LABELS


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


def open_snow_cases(today: date) -> QuerySet:
    """§ 303-8: walks reported uncleared that nobody has cleared or dismissed yet, by days since the report."""
    SnowCase = apps.get_model("sidewalks", "SnowCase")  # read by label: the core names no permit type

    return grouped_by_age(
        SnowCase.objects.filter(status=SnowCase.Status.OPEN),
        "Snow and ice cases (§ 303-8)",
        "reported_at",
        today,
        instant=True,
    )


def open_rubbish_cases(today: date) -> QuerySet:
    """§ 303-2: rubbish or dirt noticed and not yet removed, by days since the notice was served."""
    RubbishCase = apps.get_model("sidewalks", "RubbishCase")  # read by label: the core names no permit type

    return grouped_by_age(
        RubbishCase.objects.filter(status=RubbishCase.Status.NOTICED),
        "Rubbish and dirt cases (§ 303-2)",
        "served_at",
        today,
        instant=True,
    )


def open_sidewalk_orders(today: date) -> QuerySet:
    """§ 303-3: Board sidewalk orders not yet done, charged or withdrawn, by days since the order was proposed, with
    their estimated cost."""
    SidewalkOrder = apps.get_model("sidewalks", "SidewalkOrder")  # read by label: the core names no permit type

    closed = [SidewalkOrder.Status.OWNER_DONE, SidewalkOrder.Status.CHARGED, SidewalkOrder.Status.WITHDRAWN]
    return grouped_by_age(
        SidewalkOrder.objects.exclude(status__in=closed),
        "Sidewalk orders (§ 303-3)",
        "created_at",
        today,
        instant=True,
        amount="estimated_cost",
    )


def open_special_charges(today: date) -> QuerySet:
    """Wis. Stat. § 66.0627: special charges not paid (billed, delinquent, certified or on the roll, or awaiting their
    hearing), by days since billed (since incurred when not billed yet), with their amounts."""
    paid = [SpecialCharge.Status.PAID, SpecialCharge.Status.PAID_ON_ROLL]
    qs = SpecialCharge.objects.exclude(status__in=paid).annotate(
        opened_on=Coalesce("billed_on", "incurred_on", output_field=DateField())
    )
    return grouped_by_age(
        qs, "Special charges unpaid (Wis. Stat. § 66.0627)", "opened_on", today, instant=False, amount="amount"
    )


def open_enforcement_cases(today: date) -> QuerySet:
    """§ 303-6, 9, 12, 13, 14: enforcement cases not yet closed (open or noticed), by days since opened."""
    EnforcementCase = apps.get_model("obstructions", "Case")  # read by label: the core names no app by import

    return grouped_by_age(
        EnforcementCase.objects.filter(status__in=["open", "noticed"]),
        "Enforcement cases (§ 303-6, 9, 12, 13, 14)",
        "opened_at",
        today,
        instant=True,
    )


# The merger (and each new enforcement path) appends its own: a function (today) -> grouped_by_age(...).
OPEN_CASE_SOURCES: list[Callable[[date], QuerySet]] = [
    open_snow_cases,
    open_rubbish_cases,
    open_sidewalk_orders,
    open_special_charges,
    open_enforcement_cases,
]


def open_cases_by_age(today: date) -> list[dict]:
    """Every open case and unpaid charge as of `today`, by source and age band: one UNION ALL of each source's
    grouped statement."""
    parts = [source(today) for source in OPEN_CASE_SOURCES]
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
    "OPEN_CASE_SOURCES",
    "fees_collected",
    "grouped_by_age",
    "inspections_by_month",
    "open_cases_by_age",
    "permits_by_month",
    "tax_roll_summary",
    "waits_to_issue",
]
