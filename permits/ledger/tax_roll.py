"""The special-charges tax roll (Wis. Stat. §§ 66.0627(4), 70.65, 74.03): build, certify, transfer, export.

Building is idempotent and safe to interrupt: lines are written in small committed chunks, and the database's unique
constraint on TaxRollLine.charge (and on TaxRollBatch.year) means a second run, or a run after a worker was killed
halfway, never puts a charge on a roll twice. A certified batch is frozen: nothing here changes it again except the
transfer date.
"""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Coalesce, Rank
from django.template.defaultfilters import pluralize
from django.utils import timezone

from permits import spreadsheet
from permits.access import require_role
from permits.errors import IllegalTransition, RulesBroken, Violation, raise_if_broken
from permits.jobs import run_job
from permits.ledger import rules as charge_rules
from permits.ledger.models import SpecialCharge, TaxRollBatch, TaxRollLine
from permits.ledger.services import hearing_errors_for
from permits.paging import MAX_PAGES
from permits.pdf import render_pdf
from permits.roles import Role
from permits.state import change_state

S = SpecialCharge.Status
# "route_name" names the statutory route as the law does (special charge, special tax, special assessment).
CSV_COLUMNS = [
    "tax_key",
    "owner",
    "source",
    "description",
    "amount",
    "citation",
    "charge",
    "route",
    "incurred_on",
    "route_name",
]
BUILD_JOB = "sidewalks.build_tax_roll"
ROLL = "Wis. Stat. § 70.65"  # the clerk certifies the roll
HEARING = "Wis. Stat. § 66.0627(3)(b)"  # a sidewalk-repair charge is on it only after its hearing


class FrozenRoll(Exception):
    """The year's roll is certified: it is never rebuilt."""


@dataclass
class RollPlan:
    eligible: list[SpecialCharge] = field(default_factory=list)
    held_back: list[tuple[SpecialCharge, list[str]]] = field(default_factory=list)


def plan_roll(*, year: int, today: date) -> RollPlan:
    """Which delinquent charges go on `year`'s roll, and which are held back and why."""
    setting = settings.TAX_ROLL_CUTOFF
    candidates = (
        SpecialCharge.objects.filter(status=S.DELINQUENT, delinquent_on__isnull=False)
        .exclude(roll_lines__batch__state=TaxRollBatch.State.CERTIFIED)
        .select_related("parcel")
        .prefetch_related("hearings")
        .order_by("parcel__tax_key", "number")
    )
    plan = RollPlan()
    for charge in candidates:
        # § 66.0627(4): the current roll when delinquent by the cutoff, else the next one; § 303-6F(1): an
        # obstruction removal not before 60 days after its costs were incurred (charge_rules.roll_ready_on).
        ready_on = charge_rules.roll_ready_on(charge.source, charge.incurred_on, charge.delinquent_on, charge.citation)
        if charge_rules.roll_year_for(ready_on, setting) > year:
            continue
        reasons = hearing_errors_for(charge, today) + charge_rules.roll_wait_errors(
            charge.source, charge.incurred_on, today, charge.citation
        )
        if reasons:
            plan.held_back.append((charge, reasons))
        else:
            plan.eligible.append(charge)
    return plan


def held_back_charges(batch: TaxRollBatch, *, year: int) -> QuerySet[SpecialCharge]:
    """The delinquent charges due on `year`'s roll that are not on its draft, in roll order: one indexed query for
    the page to show a page at a time, not the whole roll plan recomputed on every view."""
    cutoff = charge_rules.tax_roll_cutoff(year, settings.TAX_ROLL_CUTOFF)
    return (
        SpecialCharge.objects.filter(status=S.DELINQUENT, delinquent_on__isnull=False, delinquent_on__lte=cutoff)
        # A charge has at most one line (unique): one correlated look-up on the line's charge index, whatever the
        # planner believes about the lines just rebuilt (an anti join over the batch's lines scanned them per charge).
        .exclude(
            Exists(
                TaxRollLine.objects.filter(charge=OuterRef("pk")).filter(
                    Q(batch=batch) | Q(batch__state=TaxRollBatch.State.CERTIFIED)
                )
            )
        )
        .select_related("parcel")
        .prefetch_related("hearings")
        .order_by("parcel__tax_key", "number")
    )


def held_back_reasons(charge: SpecialCharge, *, today: date) -> list[str]:
    """Why a charge is not on the draft (the rules plan_roll applies); one whose reasons have gone since the build is
    "rebuild to add it"."""
    return hearing_errors_for(charge, today) + charge_rules.roll_wait_errors(
        charge.source, charge.incurred_on, today, charge.citation
    ) or ["Now eligible: rebuild the roll to add it."]


@dataclass
class HeldBackPage:
    number: int
    rows: list[tuple[SpecialCharge, list[str]]]
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def held_back_page(batch: TaxRollBatch, *, year: int, today: date, number: int, size: int = 25) -> HeldBackPage:
    """One page of the held-back charges with why, read without counting them: the count reads every delinquent
    charge; the last build's run says how many it held back. At most MAX_PAGES pages (no deep OFFSET)."""
    number = max(1, min(number, MAX_PAGES))
    start = (number - 1) * size
    charges = list(held_back_charges(batch, year=year)[start : start + size + 1])
    rows = [(charge, held_back_reasons(charge, today=today)) for charge in charges[:size]]
    return HeldBackPage(number=number, rows=rows, has_next=len(charges) > size and number < MAX_PAGES)


def roll_totals(batch: TaxRollBatch) -> dict:
    """How many lines the batch has and their total, in one aggregate query."""
    return batch.lines.aggregate(count=Count("pk"), total=Sum("amount"))


def roll_inputs_fingerprint(batch: TaxRollBatch, *, year: int, today: date) -> str:
    """A digest of what a build of `batch` reads: every candidate charge with the fields its eligibility and its line
    come from (status, dates, amount, text, parcel's tax key and owner, each hearing's dates), the day and the cutoff
    (the hearing rules read them), and the batch's lines (count, highest id, total). Two values_list queries, no
    models: a tenth of a second for 10,000 charges."""
    charges = (
        SpecialCharge.objects.filter(status=S.DELINQUENT, delinquent_on__isnull=False)
        .exclude(roll_lines__batch__state=TaxRollBatch.State.CERTIFIED)
        .order_by("pk", "hearings__pk")
        .values_list(
            "pk",
            "number",
            "status",
            "source",
            "route",
            "delinquent_on",
            "incurred_on",
            "amount",
            "description",
            "citation",
            "parcel__tax_key",
            "parcel__owner_name",
            "hearings__pk",
            "hearings__hearing_on",
            "hearings__published_on",
            "hearings__mailed_on",
        )
    )
    digest = hashlib.sha256(f"{year}|{today}|{settings.TAX_ROLL_CUTOFF}|".encode())
    for row in charges.iterator(chunk_size=5000):
        digest.update(repr(row).encode())
    lines = TaxRollLine.objects.filter(batch=batch).aggregate(n=Count("pk"), top=Max("pk"), total=Sum("amount"))
    digest.update(repr(sorted(lines.items())).encode())
    return digest.hexdigest()


def _line_values(charge: SpecialCharge) -> dict:
    return {
        "tax_key": charge.parcel.tax_key,
        "owner": charge.parcel.owner_name,
        "source": charge.source,
        "description": f"{charge.description} ({charge.number})",
        "amount": charge.amount,
        "citation": charge.citation,
    }


def build_tax_roll(
    *,
    year: int,
    today: date | None = None,
    chunk_size: int = 500,
    on_line: Callable[[int], None] | None = None,
    chunk_pause: float = 0.0,
) -> TaxRollBatch:
    """Build (or rebuild, unchanged) `year`'s draft roll and its CSV; its PDF is rendered by the worker afterwards
    (render_roll_pdf_job: a 10,000-line PDF takes a minute, never in a request). Records a JobRun with progress.
    Lines are written in bulk, a chunk at a time (one insert and one update per chunk at most); a rebuild that
    changes nothing writes nothing and keeps the files.

    `on_line(n)` is called after the n-th line is written (tests inject a fault there); `chunk_pause` seconds are
    slept after each committed chunk (drills: lets an operator kill a worker mid-batch)."""
    today = today or timezone.localdate()
    try:
        with transaction.atomic():
            batch, _ = TaxRollBatch.objects.get_or_create(year=year)
    except IntegrityError:  # a concurrent run created it first
        batch = TaxRollBatch.objects.get(year=year)
    if batch.is_frozen:
        raise FrozenRoll(
            f"The {year} roll was certified on {timezone.localdate(batch.certified_at):%B %-d, %Y}; "
            "it is frozen and is not rebuilt."
        )
    run_job(
        BUILD_JOB,
        _build,
        progress=True,
        batch=batch,
        year=year,
        today=today,
        chunk_size=chunk_size,
        on_line=on_line,
        chunk_pause=chunk_pause,
    )
    batch.refresh_from_db()
    return batch


def _build(*, progress, batch, year, today, chunk_size, on_line, chunk_pause) -> tuple[int, int, str]:
    fingerprint = roll_inputs_fingerprint(batch, year=year, today=today)
    if fingerprint == batch.inputs_fingerprint and batch.csv_file:
        # Nothing the build reads has changed since the last build: nothing to write.
        lines = batch.lines.count()
        TaxRollBatch.objects.filter(pk=batch.pk, state=TaxRollBatch.State.DRAFT).update(built_at=timezone.now())
        return (
            lines,
            lines,
            f"{lines} charge{pluralize(lines)} on the {year} roll; nothing changed since the last build.",
        )
    plan = plan_roll(year=year, today=today)
    progress.total(len(plan.eligible))
    eligible_ids = {c.pk for c in plan.eligible}
    # Charges no longer eligible (paid, held back) leave this draft roll.
    removed, _ = (
        TaxRollLine.objects.filter(batch=batch, batch__state=TaxRollBatch.State.DRAFT)
        .exclude(charge_id__in=eligible_ids)
        .delete()
    )
    written = changed = 0
    for start in range(0, len(plan.eligible), chunk_size):
        with transaction.atomic():
            # Lock the batch row for the chunk: a certification (which locks it too) cannot interleave.
            if TaxRollBatch.objects.select_for_update().get(pk=batch.pk).is_frozen:
                raise FrozenRoll(f"The {year} roll was certified while it was being built; the build stopped.")
            chunk = plan.eligible[start : start + chunk_size]
            changed += _write_lines(batch, chunk)
            for _charge in chunk:
                written += 1
                if on_line is not None:
                    on_line(written)
            progress.done(written)
        if chunk_pause:
            time.sleep(chunk_pause)
    if changed or removed or not batch.csv_file:  # (a pending PDF is already queued)
        write_csv(batch)
        queue_roll_pdf(batch)
    TaxRollBatch.objects.filter(pk=batch.pk, state=TaxRollBatch.State.DRAFT).update(
        built_at=timezone.now(), inputs_fingerprint=roll_inputs_fingerprint(batch, year=year, today=today)
    )
    return (
        len(plan.eligible),
        written,
        f"{written} charge{pluralize(written)} on the {year} roll; {len(plan.held_back)} held back.",
    )


LINE_FIELDS = ["batch_id", "tax_key", "owner", "source", "description", "amount", "citation"]


def _write_lines(batch: TaxRollBatch, charges: list[SpecialCharge]) -> int:
    """Write a chunk of lines: one query reads the chunk's existing lines, one bulk insert adds the new ones (the
    unique constraint on charge keeps a line written meanwhile by another run single), one bulk update changes the
    draft lines that differ. An unchanged line is not written again: a rebuild changes nothing. Returns the lines
    written."""
    existing = {
        line.charge_id: line
        for line in TaxRollLine.objects.filter(charge__in=[c.pk for c in charges]).select_related("batch")
    }
    new, stale = [], []
    for charge in charges:
        values = {"batch_id": batch.pk, **_line_values(charge)}
        line = existing.get(charge.pk)
        if line is None:
            new.append(TaxRollLine(charge=charge, **values))
        elif not line.batch.is_frozen and any(getattr(line, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(line, k, v)
            stale.append(line)
    if new:
        TaxRollLine.objects.bulk_create(new, ignore_conflicts=True)
    if stale:
        TaxRollLine.objects.bulk_update(stale, LINE_FIELDS)
    return len(new) + len(stale)


def roll_lines(batch: TaxRollBatch):
    return batch.lines.select_related("charge").order_by("tax_key", "charge__number")


class RollLinesPages:
    """The batch's lines in roll order (tax key, then charge number) for a Paginator, a page read without joining
    every line to its charge to sort them: the page's first and last tax keys come from the line index
    (batch, tax_key) alone, then only the lines with those keys are joined and sorted. Two small queries."""

    def __init__(self, batch: TaxRollBatch, count: int):
        self.batch = batch
        self._count = count

    def count(self) -> int:
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, window: slice) -> list[TaxRollLine]:
        start, stop = window.start or 0, window.stop
        # The page's tax keys, each with its rank (1 + the lines before its first line): from the index alone, and
        # the same whichever way lines sharing a key are ordered.
        edge = list(
            self.batch.lines.order_by("tax_key").values_list("tax_key", Window(Rank(), order_by="tax_key"))[start:stop]
        )
        if not edge:
            return []
        (first, rank), (last, _) = edge[0], edge[-1]
        lines = list(roll_lines(self.batch).filter(tax_key__gte=first, tax_key__lte=last))
        skip = start - (rank - 1)
        return lines[skip : skip + len(edge)]


def render_csv(batch: TaxRollBatch) -> bytes:
    """The county's file: columns begin tax_key,owner,source,description,amount,citation; no cell runs as a formula."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for line in roll_lines(batch):
        row = [
            line.tax_key,
            line.owner,
            line.source,
            line.description,
            f"{line.amount:.2f}",
            line.citation,
            line.charge.number,
            line.charge.route,
            line.charge.incurred_on.isoformat(),
            line.charge.get_route_display(),
        ]
        writer.writerow(row)
    return out.getvalue().encode("utf-8")


def render_roll_pdf(batch: TaxRollBatch) -> bytes:
    lines = list(roll_lines(batch))
    total = sum((line.amount for line in lines), Decimal("0.00"))
    return render_pdf(
        "pdf/tax_roll.html",
        {
            "batch": batch,
            "lines": lines,
            "total": total,
            "transfer_deadline": charge_rules.transfer_deadline(batch.year),
            "certified_on": timezone.localdate(batch.certified_at) if batch.certified_at else None,
        },
    )


PDF_JOB = "ledger.render_tax_roll_pdf"


def _save(batch: TaxRollBatch, field_name: str, name: str, content: bytes) -> None:
    file = getattr(batch, field_name)
    storage = file.storage
    path = f"tax_roll/{batch.year}/{name}"
    if storage.exists(path):
        storage.delete(path)
    saved = storage.save(path, ContentFile(content))
    TaxRollBatch.objects.filter(pk=batch.pk).update(**{field_name: saved})


def write_csv(batch: TaxRollBatch) -> None:
    """(Re)write the CSV under MEDIA_ROOT/tax_roll/<year>/ with a stable name (quick: one query, no layout)."""
    _save(batch, "csv_file", f"special-charges-{batch.year}.csv", render_csv(batch))
    batch.refresh_from_db()


def queue_roll_pdf(batch: TaxRollBatch) -> None:
    """The stored PDF no longer matches the lines: it is cleared now (never served stale) and the worker renders the
    new one once this transaction commits (at once in the embedded demo)."""
    from permits.ledger import tasks  # tasks imports this module

    TaxRollBatch.objects.filter(pk=batch.pk).update(pdf_file="")
    batch_id = batch.pk
    transaction.on_commit(lambda: tasks.render_tax_roll_pdf.delay(batch_id))


def write_roll_pdf(batch: TaxRollBatch) -> None:
    """Render the roll's PDF and keep it in storage: the worker's job (a JobRun with the lines as its items)."""
    run_job(PDF_JOB, _render_and_keep_pdf, progress=True, batch=batch)
    batch.refresh_from_db()


def _render_and_keep_pdf(*, progress, batch: TaxRollBatch) -> tuple[int, int, str]:
    lines = batch.lines.count()
    progress.total(lines)
    _save(batch, "pdf_file", f"special-charges-{batch.year}.pdf", render_roll_pdf(batch))
    return lines, lines, f"The {batch.year} roll's PDF ({lines} line{pluralize(lines)}) is ready."


def write_files(batch: TaxRollBatch) -> None:
    """(Re)write the CSV now and have the worker render the PDF."""
    write_csv(batch)
    queue_roll_pdf(batch)


def certify_tax_roll(*, batch: TaxRollBatch, by, today: date | None = None) -> TaxRollBatch:
    """The Clerk-Treasurer certifies the draft roll (§ 70.65): every line is re-checked, the batch and its charges
    change state together, and the batch is frozen."""
    require_role(by, Role.CLERK, action="certify the tax roll (the Clerk-Treasurer does, Wis. Stat. § 70.65)")
    today = today or timezone.localdate()
    with transaction.atomic():
        # The batch row is locked while its lines are checked and certified: no build or second clerk interleaves.
        batch = TaxRollBatch.objects.select_for_update().get(pk=batch.pk)
        lines = list(batch.lines.select_related("charge").prefetch_related("charge__hearings"))
        errors = []
        if batch.is_frozen:
            errors.append(Violation(None, "already_certified", ROLL, f"The {batch.year} roll is already certified."))
        if not lines:
            errors.append(Violation(None, "empty_roll", ROLL, "The roll has no charges: build it first."))
        for line in lines:
            if line.charge.status != S.DELINQUENT:
                message = f"{line.charge.number} is {line.charge.get_status_display().lower()}: rebuild the roll."
                errors.append(Violation(None, "not_delinquent", ROLL, message))
            for reason in hearing_errors_for(line.charge, today):
                errors.append(Violation(None, "no_hearing", HEARING, f"{line.charge.number}: {reason}"))
        raise_if_broken(errors)
        change_state(
            batch,
            field="state",
            to=TaxRollBatch.State.CERTIFIED,
            from_states={TaxRollBatch.State.DRAFT},
            by=by,
            reason=(
                f"Certified by the Clerk-Treasurer with {len(lines)} charge{pluralize(len(lines))} (Wis. Stat. § 70.65)"
            ),
            certified_by=by,
            certified_at=timezone.now(),
        )
        for line in lines:
            try:
                change_state(
                    line.charge,
                    to=S.CERTIFIED,
                    from_states={S.DELINQUENT},
                    by=by,
                    reason=f"Certified to the {batch.year} tax roll (Wis. Stat. §§ 66.0627(4), 70.65)",
                )
            except IllegalTransition as error:  # rolls the whole certification back
                message = "A charge changed while certifying (paid meanwhile?): rebuild the roll and retry."
                raise RulesBroken.one(None, "charge_changed", ROLL, message) from error
        write_files(batch)
    return batch


def transfer_tax_roll(*, batch: TaxRollBatch, by, today: date | None = None) -> TaxRollBatch:
    """§ 74.03: the certified roll is delivered to the treasurer (by December 8): its charges are now on the roll."""
    require_role(by, Role.CLERK, action="transfer the tax roll (the Clerk-Treasurer does, Wis. Stat. § 74.03)")
    today = today or timezone.localdate()
    with transaction.atomic():
        # The batch row is locked: two clerks cannot both deliver it.
        locked = TaxRollBatch.objects.select_for_update().get(pk=batch.pk)
        if not locked.is_frozen or locked.transferred_on:
            message = "Only a certified roll not yet transferred can be transferred."
            raise RulesBroken.one(None, "not_transferable", "Wis. Stat. § 74.03", message)
        # The batch stays certified (frozen); the delivery is on its trail, and each charge is now on the roll.
        change_state(
            locked,
            field="state",
            to=TaxRollBatch.State.CERTIFIED,
            from_states={TaxRollBatch.State.CERTIFIED},
            by=by,
            reason=f"Delivered to the treasurer on {today:%B %-d, %Y} (Wis. Stat. § 74.03)",
            transferred_on=today,
        )
        for charge in SpecialCharge.objects.filter(roll_lines__batch=batch, status=S.CERTIFIED):
            change_state(
                charge,
                to=S.ON_ROLL,
                from_states={S.CERTIFIED},
                by=by,
                reason=f"On the {batch.year} tax roll delivered to the treasurer on {today:%B %-d, %Y} (§ 74.03)",
            )
    batch.refresh_from_db()
    return batch


def batches_with_totals():
    """The rolls with their line counts and totals, each a subquery for the rows shown: no join and GROUP BY over
    every line of every year, which the page count ran too."""
    lines = TaxRollLine.objects.filter(batch=OuterRef("pk")).order_by().values("batch")
    return TaxRollBatch.objects.annotate(
        line_count=Coalesce(Subquery(lines.annotate(n=Count("pk")).values("n")), 0),
        total=Subquery(lines.annotate(total=Sum("amount")).values("total")),
    ).select_related("certified_by")
