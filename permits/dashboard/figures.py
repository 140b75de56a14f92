"""The key figures, each aggregated in the database: a fixed handful of queries whatever the number of permits,
payments and charges (permits by type and status, fees taken, charges outstanding, days to issue)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.db.models import Count, Q, Sum
from django.urls import reverse
from django.utils import timezone

from permits import kinds
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import Payment, Permit, Status
from permits.reports import queries
from permits.reports.charts import Chart, bar_chart, format_value

ZERO = Decimal("0.00")
CHARGES_PAID = (SpecialCharge.Status.PAID, SpecialCharge.Status.PAID_ON_ROLL)


@dataclass
class Figure:
    label: str
    value: str
    url: str
    link_text: str


@dataclass
class TypeRow:
    label: str
    month: int
    year: int
    report_url: str
    by_status: list[tuple[str, int, str]] = field(default_factory=list)  # (status label, count, office list url)


@dataclass
class KeyFigures:
    today: date
    figures: list[Figure]
    types: list[TypeRow]
    statuses: list[tuple[str, str]]  # (value, label) of the status columns
    status_totals: list[tuple[str, int, str]]
    permits_chart: Chart
    money_chart: Chart


def _local_start(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.get_current_timezone())


def permits_by_type_and_status(today: date) -> list[dict]:
    """Applications started this year (drafts aside), by type and status, with those started this month: one query."""
    year_start, month_start = _local_start(today.replace(month=1, day=1)), _local_start(today.replace(day=1))
    return list(
        Permit.objects.filter(created_at__gte=year_start)
        .exclude(status=Status.DRAFT)
        .order_by()
        .values("kind", "status")
        .annotate(year=Count("id"), month=Count("id", filter=Q(created_at__gte=month_start)))
    )


def fees_taken(today: date) -> tuple[Decimal, Decimal]:
    """(this month, this year): permit fees and special-charge payments received and not refunded; two queries."""
    year_start, month_start = _local_start(today.replace(month=1, day=1)), _local_start(today.replace(day=1))
    totals = [ZERO, ZERO]
    for model, live in ((Payment, Q(refunds__isnull=True)), (ChargePayment, Q(refunded=False))):
        sums = model.objects.filter(live, received_at__gte=year_start).aggregate(
            year=Sum("amount"), month=Sum("amount", filter=Q(received_at__gte=month_start))
        )
        totals[0] += queries._money(sums["month"])
        totals[1] += queries._money(sums["year"])
    return totals[0], totals[1]


def charges_outstanding() -> tuple[int, Decimal]:
    """(charges, amount) of the special charges not paid (Wis. Stat. § 66.0627), less what was paid on them."""
    open_charges = SpecialCharge.objects.exclude(status__in=CHARGES_PAID)
    billed = open_charges.aggregate(n=Count("id"), amount=Sum("amount"))
    paid = ChargePayment.objects.filter(charge__in=open_charges, refunds__isnull=True).aggregate(amount=Sum("amount"))
    return billed["n"], max(queries._money(billed["amount"]) - queries._money(paid["amount"]), ZERO)


def average_days_to_issue(today: date) -> float | None:
    """The mean calendar days from submission to issue of the permits issued this year (as the time-to-issue report
    counts them), or None when none was issued."""
    rows = queries.waits_to_issue(today.year)
    issued = sum(r["permits"] for r in rows)
    return sum(r["days"] * r["permits"] for r in rows) / issued if issued else None


def key_figures(today: date) -> KeyFigures:
    rows = permits_by_type_and_status(today)
    month_fees, year_fees = fees_taken(today)
    charges, owed = charges_outstanding()
    mean_days = average_days_to_issue(today)
    office = reverse("permits:office")
    report = reverse("reports:report", args=["permits"])
    year_query = f"year={today.year}"

    shown = [s for s in Status if s != Status.DRAFT and any(r["status"] == s for r in rows)]
    types = []
    for permit_type in kinds.all_types():
        mine = {r["status"]: r for r in rows if r["kind"] == permit_type.kind}
        types.append(
            TypeRow(
                label=permit_type.title,
                month=sum(r["month"] for r in mine.values()),
                year=sum(r["year"] for r in mine.values()),
                report_url=f"{report}?{year_query}&kind={permit_type.kind}",
                by_status=[(s.label, mine[s]["year"] if s in mine else 0, f"{office}?status={s.value}") for s in shown],
            )
        )
    status_totals = [
        (s.label, sum(r["year"] for r in rows if r["status"] == s), f"{office}?status={s.value}") for s in shown
    ]
    month_name = today.strftime("%B %Y")
    figures = [
        Figure(
            f"Applications this month ({month_name})",
            format_value(sum(t.month for t in types), "count"),
            office,
            "Every application",
        ),
        Figure(
            f"Applications this year ({today.year})",
            format_value(sum(t.year for t in types), "count"),
            f"{report}?{year_query}",
            "Permits report",
        ),
        Figure(
            f"Fees taken this month ({month_name})",
            format_value(month_fees, "money"),
            f"{reverse('reports:report', args=['fees'])}?{year_query}",
            "Fees report",
        ),
        Figure(
            f"Fees taken this year ({today.year})",
            format_value(year_fees, "money"),
            f"{reverse('reports:report', args=['fees'])}?{year_query}",
            "Fees report",
        ),
        Figure(
            "Special charges outstanding",
            f"{format_value(owed, 'money')} on {charges} charge{'s' if charges != 1 else ''}",
            reverse("ledger:charges"),
            "Special charges",
        ),
        Figure(
            f"Average days to issue ({today.year})",
            "none issued yet" if mean_days is None else f"{mean_days:.1f} days",
            f"{reverse('reports:report', args=['time-to-issue'])}?{year_query}",
            "Time-to-issue report",
        ),
    ]
    permits_chart = bar_chart(
        f"Applications by permit type, {month_name} and {today.year}",
        [t.label for t in types],
        [("This month", [t.month for t in types]), ("This year", [t.year for t in types])],
    )
    money_chart = bar_chart(
        f"Fees taken, {month_name} and {today.year}",
        ["This month", "This year"],
        [("Fees taken", [month_fees, year_fees])],
        unit="money",
    )
    return KeyFigures(
        today=today,
        figures=figures,
        types=types,
        statuses=[(s.value, s.label) for s in shown],
        status_totals=status_totals,
        permits_chart=permits_chart,
        money_chart=money_chart,
    )
