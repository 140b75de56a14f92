"""What street opening permits bring to the Village Board (permits.board.matters): § 303-5A emergency
determinations of winter openings and § 303-5I "absolutely essential" exceptions for openings of repaved streets.
The Board's carried motion on the permit records them through the same services its designee uses
(record_emergency_determination, grant_moratorium_exception); a failed motion decides nothing, and the permit stays
refused at approval."""

from __future__ import annotations

from django.db.models import F, Q

from permits.board.clauses import Clause
from permits.board.matters import Matter
from permits.street_opening import services

OPEN = ("submitted", "under_review")


def _candidates():
    from permits.models import Permit

    return (
        Permit.objects.filter(kind="street_opening", status__in=OPEN)
        .select_related("street_opening", "street", "applicant")
        .order_by("created_at", "pk")
    )


def _date_key(field: str):
    """A date as the integer YYYYMMDD, to compare month-and-day and year-later dates in SQL on every database."""
    from django.db.models.functions import ExtractDay, ExtractMonth, ExtractYear

    return ExtractYear(field) * 10000 + ExtractMonth(field) * 100 + ExtractDay(field)


def _in_open_season(field: str):
    """§ 303-5A in SQL, rules.in_frozen_ground_season negated: April 2 through November 14 are open."""
    from django.db.models import Q
    from django.db.models.functions import ExtractDay, ExtractMonth

    month, day = ExtractMonth(field), ExtractDay(field)
    return Q(**{f"{field}_md__gte": 402, f"{field}_md__lte": 1114}), {f"{field}_md": month * 100 + day}


def _emergencies_waiting():
    """§ 303-5A: open applications claiming an emergency that fall in the frozen-ground season, undetermined.

    rules.winter_violations in SQL: dates from start to end avoid the season only when both fall in its open months
    (April 2 to November 14) of the same year; every other span reaches a closed day."""
    from django.db.models.functions import ExtractYear

    start_open, start_md = _in_open_season("start_date")
    end_open, end_md = _in_open_season("end_date")
    return (
        _candidates()
        .filter(
            street_opening__emergency=True,
            street_opening__emergency_determination=None,
            start_date__isnull=False,
            end_date__gte=F("start_date"),
        )
        .annotate(**start_md, **end_md, start_year=ExtractYear("start_date"), end_year=ExtractYear("end_date"))
        .exclude(start_open & end_open & Q(start_year=F("end_year")))
    )


def _exceptions_waiting():
    """§ 303-5I: open applications on a street repaved less than five years before the work, without an exception.

    rules.is_in_moratorium in SQL, on the street's latest repaving R: R <= day < R + 5 years (February 29 plus five
    years is February 28, as rules.moratorium_ends reads it), for the start day or the end day."""
    from django.db.models import Case, IntegerField, Max, OuterRef, Subquery, Value, When

    from permits.street_opening import rules
    from permits.street_opening.models import StreetImprovement

    last = (
        StreetImprovement.objects.filter(street_id=OuterRef("street_id"), repaved_on__isnull=False)
        .order_by()
        .values("street_id")
        .annotate(last=Max("repaved_on"))
        .values("last")
    )
    leap_day = Case(When(last_md=229, then=Value(1)), default=Value(0), output_field=IntegerField())
    qs = (
        _candidates()
        .filter(street_opening__moratorium_exception=None, street__isnull=False, start_date__isnull=False)
        # Only the streets ever repaved (a short list): the repaving subquery then runs for few applications
        .filter(street_id__in=StreetImprovement.objects.filter(repaved_on__isnull=False).values("street_id"))
        .annotate(last_repaved=Subquery(last))
        .filter(last_repaved__isnull=False)
        .annotate(
            last_md=_date_key("last_repaved") % 10000,
            ends_key=_date_key("last_repaved") + rules.MORATORIUM_YEARS * 10000,
        )
        .annotate(ends_key_adjusted=F("ends_key") - leap_day, start_key=_date_key("start_date"))
    )
    start_in = Q(last_repaved__lte=F("start_date"), start_key__lt=F("ends_key_adjusted"))
    end_in = Q(end_date__isnull=False, last_repaved__lte=F("end_date"), end_key__lt=F("ends_key_adjusted"))
    return qs.annotate(end_key=_date_key("end_date")).filter(start_in | end_in)


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


def _applying(service):
    """The `decide` of both matters: a carried motion records its result through `service`, the one its designee
    uses, with the motion's text as the reason, on the meeting's day; a failed motion decides nothing."""

    def decide(*, subject, motion, by) -> None:
        if motion.carried:
            service(permit=subject, by=by, reason=motion.text, motion=motion, today=motion.held_on)

    return decide


def _application_matter(clause: str, title: str, waiting, service) -> Matter:
    """A matter of open applications, with their facts, decided through `service`."""
    return Matter(
        clause=clause, title=title, model="permits.Permit", waiting=waiting, facts=_facts, decide=_applying(service)
    )


def _in_guarantee_year():
    """§ 303-4H(4): completed street openings whose one-year guarantee runs: the work the Board may find defective."""
    from permits.models import Permit

    return (
        Permit.objects.filter(kind="street_opening", status="completed", guarantee__ended=False)
        .select_related("guarantee", "street", "applicant")
        .order_by("guarantee__completed_on", "pk")
    )


def _guarantee_facts(permit) -> list[tuple[str, str]]:
    guarantee = permit.guarantee
    return [
        ("Permit", permit.number),
        ("Permittee", permit.applicant.get_full_name() or permit.applicant.email),
        ("Street", str(permit.street) if permit.street_id else "(none)"),
        ("Completed", f"{guarantee.completed_on:%B %-d, %Y}"),
        ("Guaranteed until", f"{guarantee.ends_on:%B %-d, %Y} (§ 303-4H(3))"),
    ]


def _decide_defect(*, subject, motion, by) -> None:
    """§ 303-4H(4): a carried motion is the Board's finding; the clerk then records the written notice it orders
    (defect, work, cost, time) with the motion (field services.record_defect_finding). A failed motion finds nothing."""
    from permits import services as core

    if motion.carried:
        core.record_event(
            subject,
            by=by,
            reason=f"The Village Board found the work defective at its meeting of {motion.held_on:%B %-d, %Y}: "
            "its written notice follows (§ 303-4H(4))",
        )


MATTERS = (
    _application_matter(
        Clause.WINTER_EMERGENCY,
        "Winter openings to determine emergencies (§ 303-5A)",
        _emergencies_waiting,
        services.record_emergency_determination,
    ),
    _application_matter(
        Clause.MORATORIUM_EXCEPTION,
        'Openings of repaved streets: "absolutely essential"? (§ 303-5I)',
        _exceptions_waiting,
        services.grant_moratorium_exception,
    ),
    Matter(
        clause=Clause.DEFECT_FINDING,
        title="Street opening work in its guarantee year: found defective? (§ 303-4H(4))",
        model="permits.Permit",
        waiting=_in_guarantee_year,
        facts=_guarantee_facts,
        decide=_decide_defect,
    ),
)
