"""Scheduled jobs of the special-charge ledger: thin, idempotent, each recording a JobRun."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from permits.jobs import run_job, today_from
from permits.ledger import rules as charge_rules
from permits.ledger import services as charges
from permits.ledger import tax_roll
from permits.ledger.models import TaxRollBatch


@shared_task
def mark_delinquent_charges(today_iso: str | None = None) -> int:
    """§ 66.0627(4): billed charges unpaid after their due date become delinquent."""
    result = run_job("ledger.mark_delinquent_charges", charges.mark_delinquent_charges, today=today_from(today_iso))
    return result["items_done"]


@shared_task
def bill_charges_after_hearings(today_iso: str | None = None) -> int:
    """§ 66.0627(3)(b): pending sidewalk-repair charges are billed once their Board hearing has been held."""
    result = run_job(
        "ledger.bill_charges_after_hearings", charges.bill_charges_after_hearings, today=today_from(today_iso)
    )
    return result["items_done"]


@shared_task
def build_tax_roll(
    year: int | None = None, today_iso: str | None = None, chunk_pause: float = 0.0, chunk_size: int = 500
) -> int | None:
    """Build the year's draft special-charges roll in the weeks before the cutoff (settings.TAX_ROLL_CUTOFF).
    With an explicit year it builds at once (the clerk's button, the command, drills)."""
    today = today_from(today_iso)
    if year is None:
        if not charge_rules.is_roll_build_window(today, settings.TAX_ROLL_CUTOFF):
            return None
        year = today.year
    try:
        batch = tax_roll.build_tax_roll(year=year, today=today, chunk_pause=chunk_pause, chunk_size=chunk_size)
    except tax_roll.FrozenRoll:
        return None
    return batch.lines.count()


@shared_task
def render_tax_roll_pdf(batch_id: int) -> bool:
    """The roll's PDF, rendered here and kept in storage (a 10,000-line roll takes about a minute: never in a request).
    Queued by every build and certification that changed the lines; the roll's page shows its progress (JobRun)."""
    batch = TaxRollBatch.objects.filter(pk=batch_id).first()
    if batch is None:
        return False
    tax_roll.write_roll_pdf(batch)
    return True
