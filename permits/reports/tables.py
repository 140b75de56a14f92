"""Each report laid out once, from its query's rows: the table the page, the CSV and the PDF all show, and the chart.

REPORTS is the registry the views read: slug -> (title, what it counts, which filters apply, the builder)."""

from __future__ import annotations

import calendar
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from permits import kinds
from permits.models import Status
from permits.reports import queries, rules
from permits.reports.charts import Chart, bar_chart, format_value

MONTHS = [calendar.month_abbr[m] for m in range(1, 13)]
ZERO = Decimal("0.00")


@dataclass
class Table:
    caption: str
    columns: list[str]  # the first column heads the rows (each row's first cell is its header)
    rows: list[list] = field(default_factory=list)
    total: list | None = None


@dataclass
class Report:
    slug: str
    title: str
    period: str
    table: Table
    chart: Chart
    notes: list[str] = field(default_factory=list)

    @property
    def filename(self) -> str:
        stem = self.period.lower().replace(",", "").replace(" ", "-")
        return f"theresa-{self.slug}-{stem}"


@dataclass(frozen=True)
class ReportSpec:
    slug: str
    title: str
    counts: str  # one sentence: what the report counts, shown on the reports page
    filters: tuple[str, ...]  # "year", "kind"
    build: object  # (year, kind, today) -> Report


# Cells keep their values (a Decimal is money, an int a count, a str as written): the CSV writes them plain and the
# page and the PDF format them (permits.templatetags.reports.cell).
def _m(value) -> Decimal:
    return Decimal(value).quantize(Decimal("0.01"))


def _n(value) -> int:
    return int(value)


def format_cell(value) -> str:
    if isinstance(value, Decimal):
        return format_value(value, "money")
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return format_value(value, "count")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _kind_label(kind: str) -> str:
    permit_type = kinds.get_type(kind)
    return permit_type.label if permit_type else kind


def _period(year: int, kind: str | None) -> str:
    return f"{year}, {_kind_label(kind)}" if kind else str(year)


# --- builders ----------------------------------------------------------------------------------------------------


def build_fees(year: int, kind: str | None, today: date) -> Report:
    rows = queries.fees_collected(year)
    names = queries.fee_item_names({r["item"] for r in rows})
    by_item: dict[str, list[Decimal]] = defaultdict(lambda: [ZERO] * 12)
    receipts: dict[str, int] = defaultdict(int)
    for r in rows:
        by_item[r["item"]][r["month"] - 1] += r["amount"]
        receipts[r["item"]] += r["receipts"]
    months = [sum((by_item[i][m] for i in by_item), ZERO) for m in range(12)]
    table = Table(
        caption=f"Fees and charges collected in {year}, by fee item and month",
        columns=["Fee item", *MONTHS, "Receipts", "Total"],
    )
    for item in sorted(by_item, key=lambda i: names[i]):
        amounts = by_item[item]
        table.rows.append([names[item], *[_m(a) for a in amounts], _n(receipts[item]), _m(sum(amounts, ZERO))])
    table.total = ["All fee items", *[_m(a) for a in months], _n(sum(receipts.values())), _m(sum(months, ZERO))]
    chart = bar_chart(f"Collected per month, {year}", MONTHS, [("Collected", months)], unit="money")
    notes = [
        "Receipts as the Clerk-Treasurer posts them: permit fees by the permit's fee item (Chapter 167), special "
        "charges by their source. A payment refunded or voided since is not counted.",
    ]
    return Report("fees", "Fees and charges collected", str(year), table, chart, notes)


def build_permits(year: int, kind: str | None, today: date) -> Report:
    rows = queries.permits_by_month(year, kind)
    by_pair: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * 12)
    for r in rows:
        by_pair[(r["kind"], r["status"])][r["month"] - 1] += r["permits"]
    months = [sum(v[m] for v in by_pair.values()) for m in range(12)]
    statuses = dict(Status.choices)
    order = {value: i for i, value in enumerate(Status.values)}
    table = Table(
        caption=f"Permits started in {year}, by type, status and month",
        columns=["Type and status", *MONTHS, "Total"],
    )
    for k, s in sorted(by_pair, key=lambda p: (_kind_label(p[0]), order.get(p[1], 99))):
        counts = by_pair[(k, s)]
        table.rows.append([f"{_kind_label(k)}: {statuses.get(s, s)}", *[_n(c) for c in counts], _n(sum(counts))])
    table.total = ["All permits", *[_n(c) for c in months], _n(sum(months))]
    chart = bar_chart(f"Permits started per month, {_period(year, kind)}", MONTHS, [("Permits", months)])
    notes = ["Counted by the month the application was started, in its status today (drafts included)."]
    return Report("permits", "Permits by type, status and month", _period(year, kind), table, chart, notes)


def build_time_to_issue(year: int, kind: str | None, today: date) -> Report:
    rows = queries.waits_to_issue(year, kind)
    per_kind: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows:
        per_kind[r["kind"]][r["days"]] += r["permits"]
    bands = [rules.band_label(b) for b in rules.WAIT_BANDS]
    table = Table(
        caption=f"Days from application to issue, permits issued in {year}",
        columns=["Type", "Issued", "Median days", "Mean days", "Longest", *bands],
    )
    everyone: dict[int, int] = defaultdict(int)
    for k in sorted(per_kind, key=_kind_label):
        table.rows.append(_wait_row(_kind_label(k), per_kind[k], bands))
        for days, n in per_kind[k].items():
            everyone[days] += n
    table.total = _wait_row("All types", everyone, bands)
    in_band = defaultdict(int)
    for days, n in everyone.items():
        in_band[rules.band_of(days, rules.WAIT_BANDS)] += n
    chart = bar_chart(
        f"Permits issued by days waited, {_period(year, kind)}", bands, [("Permits", [in_band[b] for b in bands])]
    )
    notes = [
        "Calendar days from the day the application was submitted to the day the permit was issued (the same day "
        "is 0). Only permits issued in the year are counted."
    ]
    return Report("time-to-issue", "Time from application to issue", _period(year, kind), table, chart, notes)


def _wait_row(label: str, counts: dict[int, int], bands: list[str]) -> list:
    issued = sum(counts.values())
    if not issued:
        return [label, 0, "–", "–", "–", *[0 for _ in bands]]
    median = rules.median_of_counts(counts)
    mean = sum(d * n for d, n in counts.items()) / issued
    in_band = defaultdict(int)
    for days, n in counts.items():
        in_band[rules.band_of(days, rules.WAIT_BANDS)] += n
    median = int(median) if median == int(median) else median  # 8, not 8.0; 8.5 stays
    return [label, issued, median, round(mean, 1), max(counts), *[in_band[b] for b in bands]]


def build_inspections(year: int, kind: str | None, today: date) -> Report:
    rows = queries.inspections_by_month(year, kind)
    labels = queries.inspection_labels()
    per_what: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    passed, failed = [0] * 12, [0] * 12
    for r in rows:
        per_what[(r["permit_type"], r["what"])][0] += r["passed"]
        per_what[(r["permit_type"], r["what"])][1] += r["failed"]
        passed[r["month"] - 1] += r["passed"]
        failed[r["month"] - 1] += r["failed"]
    table = Table(
        caption=f"Inspections made in {year}, passed and failed",
        columns=["Permit type and inspection", "Passed", "Failed", "Total", "Failed (%)"],
    )
    for key in sorted(per_what, key=lambda p: (_kind_label(p[0]), labels.get(p[1], p[1]))):
        p, f = per_what[key]
        table.rows.append([f"{_kind_label(key[0])}: {labels.get(key[1], key[1])}", *_pass_fail(p, f)])
    table.total = ["All inspections", *_pass_fail(sum(passed), sum(failed))]
    chart = bar_chart(f"Inspections per month, {_period(year, kind)}", MONTHS, [("Passed", passed), ("Failed", failed)])
    notes = ["Every recorded inspection visit, by the month it was made; a retest is a visit of its own."]
    return Report("inspections", "Inspections passed and failed", _period(year, kind), table, chart, notes)


def _pass_fail(passed: int, failed: int) -> list[str]:
    total = passed + failed
    share = round(100 * failed / total, 1) if total else "–"
    return [passed, failed, total, share]


def build_open_cases(year: int, kind: str | None, today: date) -> Report:
    rows = queries.open_cases_by_age(today)
    bands = [rules.band_label(b) for b in rules.AGE_BANDS]
    per_source: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    amounts: dict[str, Decimal] = defaultdict(lambda: ZERO)
    sources = []
    for source in [r["source"] for r in rows]:
        if source not in sources:
            sources.append(source)
    for r in rows:
        per_source[r["source"]][r["band"]] += r["cases"]
        amounts[r["source"]] += r["amount"]
    table = Table(
        caption=f"Open cases and unpaid charges by age, {today:%B %-d, %Y}",
        columns=["Cases and charges", *bands, "Open", "Amount"],
    )
    in_band = {b: sum(per_source[s][b] for s in sources) for b in bands}
    for source in sources:
        counts = per_source[source]
        table.rows.append([source, *[_n(counts[b]) for b in bands], _n(sum(counts.values())), _m(amounts[source])])
    table.total = ["All", *[_n(in_band[b]) for b in bands], _n(sum(in_band.values())), _m(sum(amounts.values(), ZERO))]
    chart = bar_chart(f"Open cases and charges by age, {today:%B %-d, %Y}", bands, [("Open", list(in_band.values()))])
    notes = [
        "Age: calendar days since the case was reported or noticed, the order proposed, or the charge billed (a "
        "charge not billed yet: since it was incurred). Amounts: the unpaid charges, and the estimated cost of open "
        "sidewalk orders.",
    ]
    return Report("open-cases", "Open cases and charges by age", f"as of {today:%B %-d, %Y}", table, chart, notes)


def build_tax_roll(year: int, kind: str | None, today: date) -> Report:
    from permits.ledger.models import SpecialCharge

    batch, rows = queries.tax_roll_summary(year)
    sources = dict(SpecialCharge.Source.choices)
    table = Table(
        caption=f"Special-charges tax roll {year}, by source",
        columns=["Source", "Lines", "Parcels", "Amount"],
    )
    for r in rows:
        table.rows.append([sources.get(r["source"], r["source"]), _n(r["lines"]), _n(r["parcels"]), _m(r["amount"])])
    table.total = [
        "The whole roll",
        _n(sum(r["lines"] for r in rows)),
        "",
        _m(sum((r["amount"] for r in rows), ZERO)),
    ]
    chart = bar_chart(
        f"Tax roll {year}: amount by source",
        [sources.get(r["source"], r["source"]).split(" (")[0] for r in rows],
        [("Amount", [r["amount"] for r in rows])],
        unit="money",
    )
    if batch is None:
        state = f"No special-charges roll has been built for {year} yet."
    elif batch.is_frozen:
        state = f"Certified on {batch.certified_at:%B %-d, %Y}" + (
            f", transferred to the treasurer on {batch.transferred_on:%B %-d, %Y}." if batch.transferred_on else "."
        )
    else:
        state = "Draft: not certified yet (Wis. Stat. § 70.65); it changes until it is."
    notes = [state, "Wis. Stat. §§ 70.65, 74.03: the clerk transfers the roll to the treasurer by December 8."]
    return Report("tax-roll", "The year's tax-roll summary", str(year), table, chart, notes)


REPORTS: dict[str, ReportSpec] = {
    spec.slug: spec
    for spec in (
        ReportSpec("fees", "Fees and charges collected", "Receipts by fee item and month.", ("year",), build_fees),
        ReportSpec(
            "permits",
            "Permits by type, status and month",
            "Applications started, by status.",
            ("year", "kind"),
            build_permits,
        ),
        ReportSpec(
            "time-to-issue",
            "Time from application to issue",
            "Days waited, median and bands.",
            ("year", "kind"),
            build_time_to_issue,
        ),
        ReportSpec(
            "inspections",
            "Inspections passed and failed",
            "Street opening and sidewalk inspections.",
            ("year", "kind"),
            build_inspections,
        ),
        ReportSpec(
            "open-cases",
            "Open cases and charges by age",
            "Snow, rubbish, sidewalk orders and unpaid charges today.",
            (),
            build_open_cases,
        ),
        ReportSpec(
            "tax-roll", "The year's tax-roll summary", "The special-charges roll by source.", ("year",), build_tax_roll
        ),
    )
}
assert tuple(REPORTS) == rules.REPORT_SLUGS  # the registry and the readers' table list the same reports


def kind_choices(slug: str) -> list[tuple[str, str]]:
    """The types a report may be narrowed to (inspections only to the types that have inspections)."""
    every = [(t.kind, t.label) for t in kinds.all_types()]
    if slug == "inspections":
        inspected = {s.kind for s in queries.inspection_sources()}
        return [(kind, label) for kind, label in every if kind in inspected]
    return every
