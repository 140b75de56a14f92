"""A Village Board for tests: seven seats, members seated for a term, a meeting with attendance, motions voted
through the services, and designations made by a carried motion."""

from __future__ import annotations

from datetime import date

from permits.board import demo as board_demo
from permits.board import services
from permits.board.models import Motion, Seat, Term, Vote
from permits.roles import Role
from tests.factories import UserFactory

SINCE = date(2000, 1, 1)


def board_clerk():
    from django.contrib.auth.models import Group

    user = UserFactory(username="board-clerk")
    user.groups.add(Group.objects.get_or_create(name=Role.CLERK.value)[0])
    return user


def ensure_seats(count: int = 7, since: date = SINCE) -> list[Seat]:
    """`count` seats (seat 1 the President's), established `since`; the migration seeds 7, a flushed database none."""
    seats = []
    for number in range(1, count + 1):
        seat, _ = Seat.objects.get_or_create(
            number=number,
            defaults={"office": Seat.Office.PRESIDENT if number == 1 else Seat.Office.TRUSTEE, "established_on": since},
        )
        seats.append(seat)
    return seats


def seat_members(*, vacant: tuple[int, ...] = (), since: date = SINCE, until: date | None = None) -> list[Term]:
    """A member on every seat but the `vacant` ones."""
    terms = []
    for seat in ensure_seats():
        if seat.number in vacant:
            continue
        term = Term.objects.filter(seat=seat, starts_on=since).first() or Term.objects.create(
            seat=seat, name=f"Member {seat.number}", starts_on=since, ends_on=until
        )
        terms.append(term)
    return terms


def vote(
    *,
    clause: str,
    ayes: int,
    nays: int = 0,
    held_on: date = SINCE,
    absent: int = 0,
    vacant: tuple[int, ...] = (),
    rule: str = Motion.Rule.MAJORITY_PRESENT,
    subject=None,
    number: str = "",
    clerk=None,
) -> Motion:
    """A meeting on `held_on` with every seated member present but `absent` of them, and one motion under `clause`."""
    clerk = clerk or board_clerk()
    terms = seat_members(vacant=vacant)
    present = terms[: len(terms) - absent]
    meeting = services.schedule_meeting(held_on=held_on, by=clerk)
    # Minutes are recorded once the meeting is held (Wis. Stat. § 19.83(1)): here, on its day.
    services.record_attendance(meeting=meeting, present=present, by=clerk, today=held_on)
    item = services.add_agenda_item(
        meeting=meeting, title=f"Item under {clause}", clause=clause, subject=subject, by=clerk
    )
    votes = {t: Vote.Choice.AYE for t in present[:ayes]}
    votes |= {t: Vote.Choice.NAY for t in present[ayes : ayes + nays]}
    return services.record_motion(
        item=item,
        text=f"Motion under {clause}",
        votes=votes,
        rule=rule,
        resolution_number=number,
        by=clerk,
        today=held_on,
    )


def designate(
    clause: str, *, user=None, role: str = "", starts_on: date = SINCE, ends_on: date | None = None, clerk=None
):
    """A designation made by a carried motion of a meeting held `starts_on`."""
    clerk = clerk or board_clerk()
    motion = vote(clause=clause, ayes=5, held_on=starts_on, clerk=clerk)
    return services.designate(
        clause=clause, user=user, role=role, starts_on=starts_on, ends_on=ends_on, motion=motion, by=clerk
    )


# What the code hard-coded before the Board's designations were data, the offices these tests act as: the same
# designations the demo Board makes.
FORMER_DESIGNEES = board_demo.DESIGNATIONS


def designate_former_offices() -> None:
    from django.contrib.auth import get_user_model

    clerk = get_user_model().objects.filter(username="board-clerk").first() or board_clerk()
    motions = {}
    for clause, role in FORMER_DESIGNEES:
        if clause not in motions:
            motions[clause] = vote(clause=clause, ayes=5, held_on=SINCE, clerk=clerk)
        services.designate(clause=clause, role=role, starts_on=SINCE, motion=motions[clause], by=clerk)


# The demo Board's amounts (permits.street_opening.demo): a guarantee bond of $5,000 and an annual bond of $20,000.
GUARANTEE_BOND, ANNUAL_BOND = 5000, 20000


def bond_amounts_in_force(*, clerk=None, since: date = SINCE) -> None:
    """§ 303-4H(3), (5): the bond amounts the Board determined by one carried motion, in force from `since` (a bond
    counts only against an amount the Board has determined: permits.street_opening.rules.bond_amount_counts)."""
    from permits.street_opening import services as street_openings
    from permits.street_opening.models import BondAmount

    clerk = clerk or board_clerk()
    motion = vote(clause="303-4H(3)", ayes=5, held_on=since, clerk=clerk)
    for kind, amount in ((BondAmount.Kind.GUARANTEE, GUARANTEE_BOND), (BondAmount.Kind.ANNUAL, ANNUAL_BOND)):
        street_openings.set_bond_amount(kind=kind, amount=amount, effective_from=since, motion=motion, by=clerk)


def adopt_orders(orders, clerk, *, number: str, held_on: date):
    """§ 303-3B(3): the Board adopts sidewalk orders by a carried motion with resolution `number`, recorded by the
    clerk (sidewalks.services.adopt_orders)."""
    from sidewalks import services as sidewalk_services

    motion = vote(clause="303-3B(3)", ayes=5, held_on=held_on, number=number, clerk=clerk)
    return sidewalk_services.adopt_orders(orders=orders, motion=motion, by=clerk, today=held_on)
