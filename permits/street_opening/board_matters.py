"""What street opening permits bring to the Village Board (permits.board.matters): § 303-5A emergency
determinations of winter openings and § 303-5I "absolutely essential" exceptions for openings of repaved streets.
The Board's carried motion on the permit records them through the same services its designee uses
(record_emergency_determination, grant_moratorium_exception); a failed motion decides nothing, and the permit stays
refused at approval."""

from __future__ import annotations

from permits.board.clauses import Clause
from permits.board.matters import Matter

OPEN = ("submitted", "under_review")


def _candidates():
    from permits.models import Permit

    return (
        Permit.objects.filter(kind="street_opening", status__in=OPEN)
        .select_related("street_opening", "street", "applicant")
        .order_by("created_at", "pk")
    )


def _emergencies_waiting():
    """§ 303-5A: open applications claiming an emergency that fall in the frozen-ground season, undetermined."""
    from permits.street_opening import rules

    return [
        p
        for p in _candidates().filter(street_opening__emergency=True, street_opening__emergency_determination=None)
        if rules.winter_violations(
            start_date=p.start_date,
            end_date=p.end_date,
            emergency=True,
            determination_recorded=False,
            at_approval=True,
        )
    ]


def _repaved_on_by_street(street_ids) -> dict:
    from django.db.models import Max

    from permits.street_opening.models import StreetImprovement

    rows = (
        StreetImprovement.objects.filter(street_id__in=street_ids, repaved_on__isnull=False)
        .values("street_id")
        .annotate(last=Max("repaved_on"))
    )
    return {r["street_id"]: r["last"] for r in rows}


def _exceptions_waiting():
    """§ 303-5I: open applications on a street repaved less than five years before the work, without an exception."""
    from permits.street_opening import rules

    permits = list(_candidates().filter(street_opening__moratorium_exception=None, street__isnull=False))
    repaved = _repaved_on_by_street({p.street_id for p in permits})
    return [
        p
        for p in permits
        if p.start_date
        and (
            rules.is_in_moratorium(repaved_on=repaved.get(p.street_id), day=p.start_date)
            or (p.end_date and rules.is_in_moratorium(repaved_on=repaved.get(p.street_id), day=p.end_date))
        )
    ]


def _facts(permit) -> list[tuple[str, str]]:
    so = permit.street_opening
    dates = f"{permit.start_date:%B %-d, %Y}" if permit.start_date else "(no dates)"
    if permit.end_date:
        dates += f" to {permit.end_date:%B %-d, %Y}"
    facts = [
        ("Permit", permit.number),
        ("Applicant", permit.applicant.get_full_name() or permit.applicant.email),
        ("Street", str(permit.street) if permit.street_id else "(none)"),
        ("Dates", dates),
    ]
    if so.emergency:
        began = f", began {so.emergency_began_on:%B %-d, %Y}" if so.emergency_began_on else ""
        facts.append(("Emergency claimed", f"Yes{began} (§ 303-5H)"))
    return facts


def _decide_emergency(*, subject, motion, by) -> None:
    from permits.street_opening import services

    if motion.carried:
        services.record_emergency_determination(
            permit=subject, by=by, reason=motion.text, motion=motion, today=motion.held_on
        )


def _decide_exception(*, subject, motion, by) -> None:
    from permits.street_opening import services

    if motion.carried:
        services.grant_moratorium_exception(
            permit=subject, by=by, reason=motion.text, motion=motion, today=motion.held_on
        )


MATTERS = (
    Matter(
        clause=Clause.WINTER_EMERGENCY,
        title="Winter openings to determine emergencies (§ 303-5A)",
        model="permits.Permit",
        waiting=_emergencies_waiting,
        facts=_facts,
        decide=_decide_emergency,
    ),
    Matter(
        clause=Clause.MORATORIUM_EXCEPTION,
        title='Openings of repaved streets: "absolutely essential"? (§ 303-5I)',
        model="permits.Permit",
        waiting=_exceptions_waiting,
        facts=_facts,
        decide=_decide_exception,
    ),
)
