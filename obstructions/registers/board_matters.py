"""What the registers bring to the Village Board (permits.board.matters): the owners' applications for a sidewalk
grade (§ 303-1A(2)), decided by a motion under Clause.GRADE."""

from __future__ import annotations

from obstructions.registers import services
from obstructions.registers.models import Grade, GradeApplication
from permits.board.clauses import Clause
from permits.board.matters import Matter


def _waiting():
    return (
        GradeApplication.objects.filter(status=GradeApplication.Status.PENDING)
        .select_related("street", "parcel")
        .order_by("received_on", "pk")
    )


def _prepare(applications: list[GradeApplication]) -> None:
    """The street grade in force of every application's street, in one query (one grade in force per street)."""
    street_ids = {a.street_id for a in applications if a.street_id}
    grades = {
        g.street_id: g for g in Grade.objects.filter(street_id__in=street_ids, way=Grade.Way.STREET, in_force=True)
    }
    for application in applications:
        application.street_grade_in_force = grades.get(application.street_id)


def _facts(application: GradeApplication) -> list[tuple[str, str]]:
    if hasattr(application, "street_grade_in_force"):
        street_grade = application.street_grade_in_force
    else:
        street_grade = services.grade_in_force(application.street)
    return [
        ("Parcel", str(application.parcel)),
        ("Owners applying", application.owners),
        ("Received", f"{application.received_on:%B %-d, %Y}"),
        ("Street grade in force", street_grade.description if street_grade else "none recorded"),
    ]


def _decide(*, subject: GradeApplication, motion, by) -> None:
    services.decide_sidewalk_grade(subject=subject, motion=motion, by=by)


MATTERS = (
    Matter(
        clause=Clause.GRADE,
        title="Sidewalk grades applied for by the owners (§ 303-1A(2))",
        model="obstructions.GradeApplication",
        waiting=_waiting,
        facts=_facts,
        decide=_decide,
        prepare=_prepare,
    ),
)
