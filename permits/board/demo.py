"""Demo Village Board: its seven seats and members (the President and six trustees), a past regular meeting with its
attendance and votes, the designations in force and the bond amounts it set; and the next meeting, its agenda to
build. Safe to load twice: the meeting is found by its date and title before it is created."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits.board import services
from permits.board.clauses import Clause
from permits.board.models import Meeting, Motion, Seat, Term, Vote
from permits.ledger import services as ledger
from permits.roles import Role

TITLE = "Regular meeting (demo)"
NEXT_TITLE = "Next regular meeting (demo)"
MEMBERS = [  # seat, name, username (None: a member without an account)
    (1, "Peter Henning", "president"),
    (2, "Barb Ottmann", "board"),
    (3, "Gerald Krueger", None),
    (4, "Linda Schultz", None),
    (5, "Tom Wendt", None),
    (6, "Mary Hoffmann", None),
    (7, "Jim Reinders", None),
]
DESIGNATIONS = [  # clause, office designated
    (Clause.WINTER_EMERGENCY, Role.DPW_DIRECTOR),
    (Clause.MORATORIUM_EXCEPTION, Role.DPW_DIRECTOR),
    (Clause.RUBBISH, Role.DPW_DIRECTOR),
    (Clause.RUBBISH, Role.DPW_INSPECTOR),
    (Clause.RUBBISH, Role.CLERK),
]


def _upcoming(clerk, today: date) -> None:
    """The next regular meeting, its agenda still to build (the sidewalks demo puts a width waiver on the queue)."""
    if not Meeting.objects.filter(title=NEXT_TITLE).exists():
        services.schedule_meeting(
            held_on=today + timedelta(days=(1 - today.weekday()) % 7 or 7), title=NEXT_TITLE, by=clerk
        )


def _first_tuesday_before(day: date) -> date:
    return day - timedelta(days=(day.weekday() - 1) % 7)


def _ensure_roster(term_start: date, users: dict) -> list[Term]:
    for number in range(1, 8):
        Seat.objects.get_or_create(
            number=number,
            defaults={
                "office": Seat.Office.PRESIDENT if number == 1 else Seat.Office.TRUSTEE,
                "established_on": date(1900, 1, 1),
            },
        )
    terms = []
    for number, name, username in MEMBERS:
        seat = Seat.objects.get(number=number)
        term = Term.objects.filter(seat=seat, name=name).first()
        if term is None:
            term = Term.objects.create(seat=seat, name=name, starts_on=term_start, user=users.get(username))
        terms.append(term)
    return terms


@transaction.atomic
def load() -> dict:
    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=["clerk", "president", "board"])}
    if "clerk" not in users:
        return {}
    clerk = users["clerk"]
    today = timezone.localdate()
    term_start = date(today.year - 1, 4, 15)  # spring election: terms begin the third Tuesday of April
    terms = _ensure_roster(term_start, users)
    held_on = _first_tuesday_before(today - timedelta(days=60))
    _upcoming(clerk, today)
    meeting = Meeting.objects.filter(title=TITLE).first()
    if meeting is not None:
        return {"meeting": meeting}
    meeting = services.schedule_meeting(held_on=held_on, title=TITLE, by=clerk)
    Meeting.objects.filter(pk=meeting.pk).update(agenda_published_on=held_on - timedelta(days=3))
    present = [t for t in terms if t.name != "Jim Reinders"]  # one trustee absent: 6 of 7 present
    services.record_attendance(meeting=meeting, present=present, by=clerk)
    all_aye = {t: Vote.Choice.AYE for t in present}

    def motion(clause, title, text, votes, *, rule=Motion.Rule.MAJORITY_PRESENT, number=""):
        item = services.add_agenda_item(meeting=meeting, title=title, clause=clause, by=clerk)
        return services.record_motion(
            item=item,
            text=text,
            votes=votes,
            rule=rule,
            resolution_number=number,
            moved_by=present[1],
            seconded_by=present[2],
            by=clerk,
        )

    designating = {}
    for clause, label in (
        (Clause.WINTER_EMERGENCY, "Designee for winter emergency excavations"),
        (Clause.MORATORIUM_EXCEPTION, "Designee for openings of repaved streets"),
        (Clause.RUBBISH, "Designees for rubbish and dirt notices"),
    ):
        designating[clause] = motion(
            clause,
            label,
            f"To designate under § {clause} as the Village Board's designee: {label.lower()}",
            all_aye,
            number=f"{held_on.year}-D{len(designating) + 1}",
        )
    for clause, role in DESIGNATIONS:
        services.designate(clause=clause, role=role, starts_on=held_on, motion=designating[clause], by=clerk)
    motion(  # the amounts themselves are the street opening demo's (permits.street_opening.demo)
        Clause.BOND_AMOUNTS,
        "Bond amounts for street openings",
        "To set the guarantee bond at $5,000 per permit and the annual bond at $20,000 (§ 303-4H(3), (5))",
        all_aye,
        number=f"{held_on.year}-B1",
    )
    period = motion(
        Clause.PAYMENT_PERIOD,
        "Time for paying special charges",
        "To determine that special charges are due 30 days after the bill is given (Wis. Stat. § 66.0627(4))",
        all_aye,
        number=f"{held_on.year}-P1",
    )
    ledger.set_payment_period(days=30, effective_from=held_on, motion=period, by=clerk)
    motion(  # the authority itself is recorded by the sidewalks demo (sidewalks.demo)
        Clause.SIDEWALK_ORDER,
        "Minor sidewalk repairs",
        "To require minor sidewalk repairs costing no more than $100 to be made at once and charged to the owner "
        "(§ 303-3B(3); Wis. Stat. § 66.0907)",
        all_aye,
        number=f"{held_on.year}-S1",
    )
    motion(  # the approval itself is the registers demo's (obstructions.registers.demo)
        Clause.TERRACE_SURFACE,
        "Terrace paving, 201 Main Street",
        "To approve paving the terrace at 201 Main Street between the walk and the curb for a bicycle rack (§ 303-9B)",
        all_aye,
        number=f"{held_on.year}-T1",
    )
    # A waiver vote short of three-fourths of the entire Board: 5 ayes of 7 seats (one seat's member absent) fails.
    votes = {t: Vote.Choice.AYE for t in present[:5]} | {present[5]: Vote.Choice.NAY}
    motion(
        Clause.SIDEWALK_WAIVER,
        "Sidewalk width waiver, 201 Main Street",
        "To waive the five-foot width in front of 201 Main Street (§ 303-3D(8)(c))",
        votes,
        rule=Motion.Rule.THREE_FOURTHS_ENTIRE,
    )
    services.lock_meeting(meeting=meeting, by=clerk)
    return {"meeting": meeting}
