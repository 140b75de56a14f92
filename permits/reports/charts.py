"""Bar charts drawn on the server: the geometry of an SVG the template (and the PDF) renders, with no script and no
chart library. Each chart carries its title, a text summary (its text alternative) and the numbers it plots, which the
page shows as a table beside it."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 16, 48
# Dark enough against white for WCAG 1.4.11 (non-text contrast at least 3:1): 8.9:1 and 6.0:1.
COLOURS = ("#1f4e79", "#a8321f")


@dataclass
class Bar:
    x: float
    y: float
    width: float
    height: float
    colour: str
    text: str  # "March, failed: 3", the bar's own tooltip


@dataclass
class Tick:
    y: float
    text: str


@dataclass
class Chart:
    title: str
    unit: str  # "money" or "count"
    labels: list[str]
    series: list[tuple[str, list]]
    bars: list[Bar] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)
    axis_labels: list[tuple[float, str]] = field(default_factory=list)  # (x, text) under each group
    legend: list[tuple[float, str, str]] = field(default_factory=list)  # (x, colour, name) when several series
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    baseline: float = HEIGHT - BOTTOM
    tick_x: int = LEFT - 6
    label_y: float = HEIGHT - BOTTOM + 16
    legend_y: float = HEIGHT - 8

    @property
    def summary(self) -> str:
        """The chart in words (its text alternative): the total of each series and where it is highest."""
        if not self.labels or not any(any(values) for _, values in self.series):
            return f"{self.title}: nothing to show for this selection."
        parts = []
        for name, values in self.series:
            total = sum(values, Decimal(0) if self.unit == "money" else 0)
            if not total:
                parts.append(f"{name}: none")
                continue
            top = max(range(len(values)), key=lambda i: values[i])
            parts.append(
                f"{name}: {format_value(total, self.unit)} in all, most in {self.labels[top]} "
                f"({format_value(values[top], self.unit)})"
            )
        return f"{self.title}. " + "; ".join(parts) + "."

    @property
    def rows(self) -> list[tuple[str, list[str]]]:
        """The plotted numbers, one row per label, for the table beside the chart."""
        return [
            (label, [format_value(values[i], self.unit) for _, values in self.series])
            for i, label in enumerate(self.labels)
        ]


def format_value(value, unit: str) -> str:
    if unit == "money":
        return f"${Decimal(value):,.2f}"
    return f"{int(value):,}"


def nice_step(value, unit: str = "count") -> Decimal:
    """The step between the axis's five ticks: the smallest 1, 1.25, 2, 2.5 or 5 times a power of ten whose four steps
    reach `value` (counts step by whole numbers: 1, 2 or 5 times a power of ten, never below 1)."""
    needed = Decimal(value) / 4
    if needed <= 0:
        return Decimal(1)
    magnitude = Decimal(1)
    while magnitude * 10 <= needed:
        magnitude *= 10
    while magnitude > needed:
        magnitude /= 10
    steps = (1, 2, 5, 10) if unit == "count" else (1, Decimal("1.25"), 2, Decimal("2.5"), 5, 10)
    for step in steps:
        candidate = magnitude * step
        if candidate >= needed and (unit != "count" or (candidate >= 1 and candidate == candidate.to_integral())):
            return candidate
    return max(magnitude * 10, Decimal(1))


def bar_chart(title: str, labels: list[str], series: list[tuple[str, list]], *, unit: str = "count") -> Chart:
    """Grouped vertical bars: one group per label, one bar per series, on a 0-based axis with five ticks."""
    chart = Chart(title=title, unit=unit, labels=list(labels), series=[(n, list(v)) for n, v in series])
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    top = nice_step(max((v for _, values in series for v in values), default=0), unit) * 4
    for i in range(5):
        share = Decimal(i) / 4
        chart.ticks.append(Tick(y=float(chart.baseline - float(share) * plot_h), text=_tick_text(top * share, unit)))
    if not labels:
        return chart
    group_w = plot_w / len(labels)
    bar_w = group_w * 0.8 / max(len(series), 1)
    for g, label in enumerate(labels):
        x0 = LEFT + g * group_w + group_w * 0.1
        chart.axis_labels.append((round(LEFT + g * group_w + group_w / 2, 2), label))
        for s, (name, values) in enumerate(series):
            value = values[g]
            h = float(Decimal(value) / top) * plot_h if top else 0.0
            chart.bars.append(
                Bar(
                    x=round(x0 + s * bar_w, 2),
                    y=round(chart.baseline - h, 2),
                    width=round(bar_w * 0.92, 2),
                    height=round(h, 2),
                    colour=COLOURS[s % len(COLOURS)],
                    text=f"{label}, {name.lower()}: {format_value(value, unit)}",
                )
            )
    if len(series) > 1:
        chart.legend = [(LEFT + 110 * s, COLOURS[s % len(COLOURS)], name) for s, (name, _) in enumerate(series)]
    return chart


def _tick_text(value: Decimal, unit: str) -> str:
    if unit == "money":
        return f"${value:,.0f}" if value == value.to_integral() else f"${value:,.2f}"
    return f"{value:,.0f}" if value == value.to_integral() else f"{value:,.1f}"
