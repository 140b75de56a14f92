"""What the ledger brings to the Village Board (permits.board.matters): the public hearings on sidewalk-repair and
street-tarring charges that Wis. Stat. § 66.0627(3)(b) requires before they are billed. A noticed hearing
(ChargeHearing, recorded with its class 1 notice and mailing) waits until the meeting that holds it; the Board's
motion there is kept on the hearing (ChargeHearing.motion). The billing itself still follows the held, timely
noticed hearing (permits.ledger.services.bill_charges_after_hearings).

Also the two resolutions of a § 303-3B(2) special assessment (Wis. Stat. § 66.0703): the preliminary resolution on a
proceeding the Clerk-Treasurer opened, and, at the noticed hearing, the final resolution that levies it
(permits.ledger.assessments)."""

from __future__ import annotations

from permits.board.clauses import Clause
from permits.board.matters import Matter
from permits.errors import RulesBroken, Violation

CITE = "Wis. Stat. § 66.0627(3)(b)"


def _waiting():
    """Hearings noticed for today or later that no Board motion has held yet (older ones are history)."""
    from django.db.models import Count, Sum
    from django.utils import timezone

    from permits.ledger.models import ChargeHearing

    return (
        ChargeHearing.objects.filter(motion__isnull=True, hearing_on__gte=timezone.localdate())
        .annotate(charge_count=Count("charges"), charge_total=Sum("charges__amount"))
        .order_by("hearing_on", "pk")
    )


def _facts(hearing) -> list[tuple[str, str]]:
    from permits.ledger import rules

    count = getattr(hearing, "charge_count", None)
    total = getattr(hearing, "charge_total", None)
    if count is None:
        charges = list(hearing.charges.all())
        count, total = len(charges), sum((c.amount for c in charges), 0)
    problems = rules.hearing_notice_errors(hearing.hearing_on, hearing.published_on, hearing.mailed_on)
    return [
        ("Hearing", f"{hearing.hearing_on:%B %-d, %Y}" + (f", {hearing.place}" if hearing.place else "")),
        ("Class 1 notice published", f"{hearing.published_on:%B %-d, %Y}"),
        ("Notice mailed", f"{hearing.mailed_on:%B %-d, %Y}"),
        ("Notice", "; ".join(problems) if problems else f"Timely ({CITE})"),
        ("Charges heard", f"{count} totalling ${total or 0:,.2f}"),
    ]


def _decide(*, subject, motion, by) -> None:
    """The hearing is held at the meeting of its date: the motion is kept on it."""
    from permits.ledger.models import ChargeHearing

    if subject.hearing_on != motion.held_on:
        raise RulesBroken(
            [
                Violation(
                    None,
                    "hearing_date",
                    CITE,
                    f"The hearing was noticed for {subject.hearing_on:%B %-d, %Y}, not the meeting of "
                    f"{motion.held_on:%B %-d, %Y} ({CITE})",
                )
            ]
        )
    ChargeHearing.objects.filter(pk=subject.pk, motion__isnull=True).update(motion=motion)


def _awaiting_preliminary():
    from permits.ledger.models import AssessmentProceeding

    return AssessmentProceeding.objects.filter(preliminary_motion__isnull=True).order_by("recorded_at", "pk")


def _awaiting_final():
    from permits.ledger.models import AssessmentProceeding

    return AssessmentProceeding.objects.filter(hearing_on__isnull=False, final_motion__isnull=True).order_by(
        "hearing_on", "pk"
    )


def _prepare_assessments(proceedings: list) -> None:
    """The schedules of the proceedings listed together, in one query (no query per row)."""
    from django.db.models import prefetch_related_objects

    prefetch_related_objects(proceedings, "charges__parcel")


def _assessment_facts(proceeding) -> list[tuple[str, str]]:
    charges = list(proceeding.charges.all())
    facts = [
        ("Project", proceeding.title),
        ("Schedule of assessments", f"{len(charges)} totalling ${sum((c.amount for c in charges), 0):,.2f}"),
        ("Owners", "; ".join(f"{c.parcel.site_address}: ${c.amount:,.2f}" for c in charges) or "(none)"),
    ]
    if proceeding.report_filed_on:
        facts.append(("Engineer's report filed", f"{proceeding.report_filed_on:%B %-d, %Y}"))
    if proceeding.hearing_on:
        facts += [
            (
                "Public hearing",
                f"{proceeding.hearing_on:%B %-d, %Y}" + (f", {proceeding.place}" if proceeding.place else ""),
            ),
            ("Class 1 notice published", f"{proceeding.published_on:%B %-d, %Y}"),
            ("Notice mailed", f"{proceeding.mailed_on:%B %-d, %Y}"),
        ]
    return facts


def _decide_preliminary(*, subject, motion, by) -> None:
    """Wis. Stat. § 66.0703(4): a carried motion is the preliminary resolution; a failed one leaves it waiting."""
    from permits.ledger import assessments

    if motion.carried:
        assessments.adopt_preliminary_resolution(proceeding=subject, motion=motion, by=by)


def _decide_final(*, subject, motion, by) -> None:
    """Wis. Stat. § 66.0703(8): a carried motion at or after the hearing is the final resolution that levies the
    assessments; a failed one levies nothing."""
    from permits.ledger import assessments

    if motion.carried:
        assessments.levy_assessment(proceeding=subject, motion=motion, by=by)


MATTERS = (
    Matter(
        clause=Clause.SPECIAL_ASSESSMENT_PRELIMINARY,
        title="Special assessments: preliminary resolutions (Wis. Stat. § 66.0703(4); § 303-3B(2))",
        model="permits.AssessmentProceeding",
        waiting=_awaiting_preliminary,
        facts=_assessment_facts,
        decide=_decide_preliminary,
        new_url="ledger:assessments",
        prepare=_prepare_assessments,
    ),
    Matter(
        clause=Clause.SPECIAL_ASSESSMENT_FINAL,
        title="Special assessments: hearings and final resolutions (Wis. Stat. § 66.0703(7), (8); § 303-3B(2))",
        model="permits.AssessmentProceeding",
        waiting=_awaiting_final,
        facts=_assessment_facts,
        decide=_decide_final,
        prepare=_prepare_assessments,
    ),
    Matter(
        clause=Clause.SPECIAL_CHARGE_HEARING,
        title="Hearings on special charges (Wis. Stat. § 66.0627(3)(b))",
        model="permits.ChargeHearing",
        waiting=_waiting,
        facts=_facts,
        decide=_decide,
    ),
)
