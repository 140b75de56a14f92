"""Street use permits before the Village Board (§ 303-15C), for the Board's queue, agenda packet and vote recorder
(permits.board.matters)."""

from __future__ import annotations

from django.utils import timezone

from permits.board.clauses import Clause
from permits.board.matters import Matter
from permits.models import Permit, PermitKind, Status

# § 303-15D(1), (2), (3), (6) and the Board's general ground: judgment grounds, put to the Board with the facts.
JUDGMENT_GROUNDS = (
    ("§ 303-15D(1)", "Primarily for private or commercial gain?"),
    ("§ 303-15D(2)", "Would it violate any federal or state law or Village ordinance?"),
    ("§ 303-15D(3)", "Would it substantially hinder police, fire or emergency vehicles?"),
    ("§ 303-15D(6)", "Could it equally be held in a public park or other location?"),
    ("§ 303-15D", "Can the public's health, safety and general welfare be adequately protected?"),
)


def waiting():
    """Street use applications whose petition is verified and that the Board has not decided, oldest first."""
    return (
        Permit.objects.filter(kind=PermitKind.STREET_USE, status=Status.UNDER_REVIEW)
        .select_related("street", "street_use")
        .order_by("submitted_at", "pk")
    )


def prepare(subjects: list[Permit]) -> None:
    """The petition counts of every application listed, in a few queries for all of them."""
    from permits.street_use.services import petition_counts

    counts = petition_counts([p.street_use for p in subjects])
    for p in subjects:
        p.street_use.listed_petition_count = counts[p.street_use.pk]


def facts(subject: Permit) -> list[tuple[str, str]]:
    from permits.street_use.services import petition_count

    su = subject.street_use
    count = getattr(su, "listed_petition_count", None) or petition_count(su)
    start, end = timezone.localtime(su.starts_at), timezone.localtime(su.ends_at)
    rows = [
        ("Street and portion", f"{subject.street.name}: {subject.location_description}"),
        ("When", f"{start:%a %b %-d, %Y %-I:%M %p} to {end:%a %b %-d, %Y %-I:%M %p}"),
        ("Applicant", su.organization_name or su.applicant_name),
        ("Responsible for conducting the use", f"{su.responsible_name}, {su.responsible_phone}"),
        ("Approximate number of persons", str(su.expected_attendance)),
        ("Proposed use", subject.work_description),
        (
            "Petition (§ 303-15F)",
            f"{count.counted} of {count.roster_size} declared residents over 18 consented; {count.required} needed"
            + (" (verified by the clerk)" if su.petition_verified_at else ""),
        ),
        ("Filing grounds (§ 303-15D(4), (5))", "Complete, three days or fewer: checked at filing"),
    ]
    rows += [(f"Denial ground {cite}", f"{question} For the Board to decide.") for cite, question in JUDGMENT_GROUNDS]
    rows.append(("Staff recommendation", "None recorded"))
    return rows


def decide(*, subject: Permit, motion, by) -> None:
    """A carried motion grants, with the motion's words as its conditions; a failed one denies."""
    from permits.street_use.services import decide_street_use

    decide_street_use(
        permit=subject, motion=motion, by=by, grant=motion.carried, conditions=motion.text if motion.carried else ""
    )


MATTERS = (
    Matter(
        clause=Clause.STREET_USE,
        title="Street use permits awaiting the Board (§ 303-15C)",
        model="permits.Permit",
        waiting=waiting,
        facts=facts,
        decide=decide,
        prepare=prepare,
    ),
)
