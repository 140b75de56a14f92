"""The Village Board's verbs and the questions every authority check asks of it.

- Who the Board is on a date: `seats_on`, `members_on`, `is_member_on` (the roster, never a role).
- Meetings: `schedule_meeting`, `record_attendance`, `add_agenda_item`, `record_motion`, `lock_meeting`. The clerk
  keeps the minutes; a locked meeting is the record.
- Designations ("the Village Board or its designee"): `designate`, `designations_in_force`, `may_act_for`, and
  `require_board_or_designee`, which every verb acting under such a clause calls.

Every verb runs in a transaction and stores nothing when a rule refuses (RulesBroken, each violation citing its
section).
"""

from __future__ import annotations

from datetime import date

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from permits.access import require_role
from permits.board import rules
from permits.board.clauses import DESIGNABLE, Clause, citation
from permits.board.models import AgendaItem, Attendance, Designation, Meeting, Motion, Seat, Term, Vote
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.recording import recorded_by
from permits.roles import Role, has_role, roles_of

BOARD_CLERKS = (Role.CLERK,)  # the Clerk-Treasurer keeps the Board's roster, agendas and minutes


# --- Who the Board is ----------------------------------------------------------------------------------------------


def _seats_q(day: date) -> Q:
    return Q(established_on__lte=day) & (Q(abolished_on__isnull=True) | Q(abolished_on__gt=day))


def _terms_q(day: date) -> Q:
    return Q(starts_on__lte=day) & (Q(ends_on__isnull=True) | Q(ends_on__gte=day))


def seats_on(day: date) -> int:
    """§ 303-3D(8)(c) "the entire Board": every seat that exists on `day`, filled or vacant."""
    return Seat.objects.filter(_seats_q(day)).count()


def members_on(day: date):
    """The terms in force on `day` (the members seated that day), President first."""
    return (
        Term.objects.filter(_terms_q(day), seat__in=Seat.objects.filter(_seats_q(day)))
        .select_related("seat", "user")
        .order_by("seat__number")
    )


def is_member_on(user, day: date) -> bool:
    """Whether `user` holds a seat on the Board on `day`."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return members_on(day).filter(user=user).exists()


def term_overlap_errors(*, seat: Seat, starts_on: date, ends_on: date | None, term: Term | None = None) -> list[str]:
    """One member holds a seat at a time: a term may not overlap another term of the same seat."""
    errors = []
    if ends_on is not None and ends_on < starts_on:
        errors.append("The term ends before it starts.")
    others = Term.objects.filter(seat=seat).exclude(pk=getattr(term, "pk", None))
    overlap = others.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=starts_on))
    if ends_on is not None:
        overlap = overlap.filter(starts_on__lte=ends_on)
    for other in overlap:
        errors.append(f"Seat {seat.number} is held by {other.name} from {other.starts_on:%B %-d, %Y} in that period.")
    return errors


def seat_member(*, seat: Seat, name: str, starts_on: date, by, ends_on: date | None = None, user=None) -> Term:
    """Record a member's term on a seat (the clerk keeps the roster)."""
    require_role(by, *BOARD_CLERKS, action="keep the Board's roster (the Clerk-Treasurer does)")
    errors = term_overlap_errors(seat=seat, starts_on=starts_on, ends_on=ends_on)
    if not name.strip():
        errors.append("Name the member.")
    if errors:
        raise RulesBroken([Violation("starts_on", "term", "Wis. Stat. § 61.32", e) for e in errors])
    return Term.objects.create(seat=seat, name=name.strip(), starts_on=starts_on, ends_on=ends_on, user=user)


# --- Meetings ------------------------------------------------------------------------------------------------------


def _unlocked(meeting: Meeting) -> None:
    if Meeting.objects.filter(pk=meeting.pk, locked_at__isnull=False).exists():
        raise RulesBroken(
            [Violation(None, "meeting_locked", "Wis. Stat. § 19.21", f"The minutes of the {meeting} are locked")]
        )


def meeting_not_held_errors(meeting: Meeting, today: date) -> list[Violation]:
    """Wis. Stat. § 19.83(1): the Board acts only at a meeting convened as a body: who attended and how each member
    voted are minutes of a meeting that has begun, so nothing is recorded for a meeting whose day has not come."""
    if meeting.held_on <= today:
        return []
    message = (
        f"The meeting of {meeting.held_on:%B %-d, %Y} has not been held yet: attendance and votes are recorded once "
        "the Board has met (Wis. Stat. § 19.83(1))"
    )
    return [Violation(None, "meeting_not_held", "Wis. Stat. § 19.83(1)", message)]


def schedule_meeting(*, held_on: date, by, kind: str = Meeting.Kind.REGULAR, title: str = "") -> Meeting:
    require_role(by, *BOARD_CLERKS, action="keep the Board's meetings (the Clerk-Treasurer does)")
    return Meeting.objects.create(held_on=held_on, kind=kind, title=title.strip(), created_by=by)


def record_attendance(*, meeting: Meeting, present, by, today: date | None = None) -> list[Attendance]:
    """Wis. Stat. § 61.32: who of the members seated on the meeting date was present; everyone else seated that day is
    recorded absent. `present` holds Terms; one not seated that day is refused, and so is a meeting not yet held."""
    require_role(by, *BOARD_CLERKS, action="record the Board's attendance (the Clerk-Treasurer does)")
    raise_if_broken(meeting_not_held_errors(meeting, today or timezone.localdate()))
    seated = list(members_on(meeting.held_on))
    seated_ids = {t.pk for t in seated}
    present_ids = {t.pk for t in present}
    strangers = present_ids - seated_ids
    if strangers:
        names = ", ".join(sorted(Term.objects.filter(pk__in=strangers).values_list("name", flat=True)))
        raise RulesBroken(
            [
                Violation(
                    "present",
                    "not_seated",
                    "Wis. Stat. § 61.32",
                    f"Not seated on the Board on {meeting.held_on:%B %-d, %Y}: {names}",
                )
            ]
        )
    with transaction.atomic():
        _unlocked(meeting)
        if Motion.objects.filter(item__meeting=meeting).exists():
            raise RulesBroken(
                [
                    Violation(
                        "present",
                        "votes_recorded",
                        "Wis. Stat. § 61.32",
                        "Votes are already recorded at this meeting: its attendance is part of them",
                    )
                ]
            )
        rows = []
        for term in seated:
            row, _ = Attendance.objects.update_or_create(
                meeting=meeting, term=term, defaults={"present": term.pk in present_ids}
            )
            rows.append(row)
        Meeting.objects.filter(pk=meeting.pk).update(attendance_recorded_at=timezone.now())
    return rows


def add_agenda_item(
    *, meeting: Meeting, title: str, by, clause: str = Clause.OTHER, subject=None, description: str = ""
) -> AgendaItem:
    require_role(by, *BOARD_CLERKS, action="build the Board's agenda (the Clerk-Treasurer does)")
    if not title.strip():
        raise RulesBroken([Violation("title", "required", "", "Give the agenda item a title")])
    with transaction.atomic():
        _unlocked(meeting)
        order = meeting.items.count() + 1
        return AgendaItem.objects.create(
            meeting=meeting,
            order=order,
            title=title.strip(),
            clause=clause,
            description=description,
            subject_type=ContentType.objects.get_for_model(subject) if subject is not None else None,
            subject_id=subject.pk if subject is not None else None,
        )


def motion_errors(*, meeting: Meeting, votes: dict, seats: int, present_ids: set[int]) -> list[Violation]:
    """What refuses recording a vote: no attendance or no quorum (Wis. Stat. § 61.32), a vote by a member absent or
    not seated that day."""
    errors = []
    if meeting.attendance_recorded_at is None and not Attendance.objects.filter(meeting=meeting).exists():
        errors.append(
            Violation("votes", "no_attendance", "Wis. Stat. § 61.32", "Record who was present before recording a vote")
        )
        return errors
    if not rules.has_quorum(present=len(present_ids), seats=seats):
        errors.append(
            Violation(
                "votes",
                "no_quorum",
                "Wis. Stat. § 61.32",
                f"No quorum: {len(present_ids)} of {seats} seats present, {rules.quorum(seats)} needed "
                "(Wis. Stat. § 61.32)",
            )
        )
    absent = [t for t in votes if t.pk not in present_ids]
    if absent:
        errors.append(
            Violation(
                "votes",
                "voter_not_present",
                "Wis. Stat. § 61.32",
                "Only members present vote: " + ", ".join(t.name for t in absent) + " not recorded present",
            )
        )
    bad = [c for c in votes.values() if c not in Vote.Choice.values]
    if bad:
        errors.append(Violation("votes", "bad_choice", "", f"A vote is aye, nay or abstain, not {bad[0]!r}"))
    return errors


def record_motion(
    *,
    item: AgendaItem,
    text: str,
    votes: dict,
    by,
    rule: str = Motion.Rule.MAJORITY_PRESENT,
    resolution_number: str = "",
    moved_by: Term | None = None,
    seconded_by: Term | None = None,
    today: date | None = None,
) -> Motion:
    """Record a motion and each present member's vote ({Term: "aye" | "nay" | "abstain"}). The outcome is computed:
    a majority of those present, or, under § 303-3D(8)(c), three-fourths of the entire Board (every seat on the
    meeting date, vacant ones included)."""
    require_role(by, *BOARD_CLERKS, action="record the Board's votes (the Clerk-Treasurer does)")
    meeting = item.meeting
    day = meeting.held_on
    seats = seats_on(day)
    present_ids = set(Attendance.objects.filter(meeting=meeting, present=True).values_list("term_id", flat=True))
    errors = meeting_not_held_errors(meeting, today or timezone.localdate())
    errors += motion_errors(meeting=meeting, votes=votes, seats=seats, present_ids=present_ids)
    if not text.strip():
        errors.append(Violation("text", "required", "", "Give the motion's text"))
    if errors:
        raise RulesBroken(errors)
    choices = list(votes.values())
    ayes, nays = choices.count(Vote.Choice.AYE), choices.count(Vote.Choice.NAY)
    if rule == Motion.Rule.THREE_FOURTHS_ENTIRE:
        needed = rules.votes_needed_for_three_fourths(seats)
        carried = rules.is_three_fourths_of_entire_board(ayes=ayes, seats=seats)
    else:
        needed = rules.votes_needed_for_majority_of_present(len(present_ids))
        carried = rules.is_majority_of_present(ayes=ayes, present=len(present_ids))
    try:
        with transaction.atomic():
            _unlocked(meeting)
            motion = Motion.objects.create(
                item=item,
                text=text.strip(),
                rule=rule,
                moved_by=moved_by,
                seconded_by=seconded_by,
                resolution_number=resolution_number.strip(),
                outcome=Motion.Outcome.CARRIED if carried else Motion.Outcome.FAILED,
                seats=seats,
                present=len(present_ids),
                ayes=ayes,
                nays=nays,
                abstentions=choices.count(Vote.Choice.ABSTAIN),
                needed=needed,
                **recorded_by(by),
            )
            Vote.objects.bulk_create([Vote(motion=motion, term=t, choice=c) for t, c in votes.items()])
    except IntegrityError:
        raise RulesBroken(
            [
                Violation(
                    "resolution_number",
                    "duplicate",
                    "",
                    f"Resolution {resolution_number.strip()} is already recorded",
                )
            ]
        ) from None
    return motion


def lock_meeting(*, meeting: Meeting, by) -> Meeting:
    """The minutes become the record (Wis. Stat. § 19.21): attendance and votes change no more."""
    require_role(by, *BOARD_CLERKS, action="lock the Board's minutes (the Clerk-Treasurer does)")
    now = timezone.now()
    Meeting.objects.filter(pk=meeting.pk, locked_at__isnull=True).update(locked_at=now, locked_by=by)
    meeting.refresh_from_db()
    return meeting


# --- Board actions and designations -------------------------------------------------------------------------------


def board_action_errors(motion: Motion | None, *, clause: str, on: date | None = None, subject=None) -> list[Violation]:
    """A recorded Board action for `clause`: a motion that carried, on an agenda item deciding that clause (and that
    subject, when one is named), at a meeting held on or before `on`."""
    cite = citation(clause)
    if motion is None:
        return [Violation("motion", "no_motion", cite, f"Name the Board's motion that decided this ({cite})")]
    errors = []
    if not motion.carried:
        errors.append(
            Violation(
                "motion",
                "motion_failed",
                cite,
                f"The motion failed ({motion.ayes}-{motion.nays}): it decided nothing ({cite})",
            )
        )
    if motion.item.clause != clause:
        errors.append(
            Violation(
                "motion",
                "wrong_clause",
                cite,
                f"The motion's agenda item was under {citation(motion.item.clause) or 'other business'}, not {cite}",
            )
        )
    if on is not None and motion.held_on > on:
        errors.append(
            Violation(
                "motion", "future_motion", cite, f"The meeting of {motion.held_on:%B %-d, %Y} is after {on:%B %-d, %Y}"
            )
        )
    if subject is not None and motion.item.subject_id is not None:
        ct = ContentType.objects.get_for_model(subject)
        if (motion.item.subject_type_id, motion.item.subject_id) != (ct.pk, subject.pk):
            errors.append(
                Violation(
                    "motion", "wrong_subject", cite, f"The motion decided {motion.item.subject}, not {subject} ({cite})"
                )
            )
    return errors


def designate(
    *, clause: str, motion: Motion, starts_on: date, by, user=None, role: str = "", ends_on: date | None = None
) -> Designation:
    """Record the designation a carried Board motion made: who (a person or an office) acts for the Board under
    `clause` from `starts_on` through `ends_on`."""
    require_role(by, *BOARD_CLERKS, action="record the Board's designations (the Clerk-Treasurer does)")
    cite = citation(clause)
    errors = []
    if clause not in DESIGNABLE:
        errors.append(Violation("clause", "not_designable", cite, f"{cite or clause} has no designee in Chapter 303"))
    if (user is None) == (not role):
        errors.append(
            Violation("user", "designee", cite, "Designate either a person or an office, not both or neither")
        )
    if role and role not in Role.values:
        errors.append(Violation("role", "unknown_role", cite, f"{role!r} is not a Village office"))
    if ends_on is not None and ends_on < starts_on:
        errors.append(Violation("ends_on", "ends_before_start", cite, "The designation ends before it starts"))
    if motion is not None and motion.held_on > starts_on:
        errors.append(
            Violation(
                "starts_on",
                "before_motion",
                cite,
                f"A designation starts on or after the meeting that made it ({motion.held_on:%B %-d, %Y})",
            )
        )
    errors += [e for e in board_action_errors(motion, clause=clause) if e.code != "future_motion"]
    if errors:
        raise RulesBroken(errors)
    return Designation.objects.create(
        clause=clause,
        user=user,
        role=role,
        starts_on=starts_on,
        ends_on=ends_on,
        motion=motion,
        **recorded_by(by),
    )


def designations_in_force(on: date, clause: str | None = None):
    qs = Designation.objects.filter(_terms_q(on), motion__outcome=Motion.Outcome.CARRIED)
    if clause is not None:
        qs = qs.filter(clause=clause)
    return qs.select_related("user", "motion", "motion__item__meeting").order_by("clause", "starts_on")


def may_act_for(user, clause: str, *, on: date) -> bool:
    """Whether `user` is the Board's designee for `clause` on `on`: named in a designation in force that day, in
    person or by the office (staff role) they hold. A superuser is not anyone's designee."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    offices = roles_of(user)
    return designations_in_force(on, clause).filter(Q(user=user) | Q(role__in=offices)).exists()


def may_decide_for_the_board(user, clause: str, *, on: date) -> bool:
    """ "The Village Board or its designee" under `clause`, for showing a page's form: the clerk, who records the
    Board's own decisions from its minutes, or the designee in force on `on` (require_board_or_designee decides)."""
    return has_role(user, *BOARD_CLERKS) or may_act_for(user, clause, on=on)


def require_board_or_designee(by, clause: str, *, on: date, action: str, motion: Motion | None = None, subject=None):
    """ "The Village Board or its designee" under `clause`: either the Board decided it (a carried motion, recorded by
    the clerk) or `by` is its designee on `on`. Returns the motion when the Board decided."""
    cite = citation(clause)
    if motion is not None:
        require_role(by, *BOARD_CLERKS, action=f"record the Board's decision to {action} ({cite})")
        errors = board_action_errors(motion, clause=clause, on=on, subject=subject)
        if errors:
            raise RulesBroken(errors)
        return motion
    if not may_act_for(by, clause, on=on):
        raise PermissionDenied(
            f"You may not {action}: only the Village Board, by a recorded motion, or the designee it named for {cite} "
            f"in force on {on:%B %-d, %Y} may ({cite})."
        )
    return None


# --- The agenda, the votes on it and what they decide ---------------------------------------------------------------


def end_term(*, term: Term, ends_on: date, by) -> Term:
    """The last day a member holds the seat (resignation, end of term): the roster of later days shows it vacant."""
    require_role(by, *BOARD_CLERKS, action="keep the Board's roster (the Clerk-Treasurer does)")
    if ends_on < term.starts_on:
        raise RulesBroken(
            [Violation("ends_on", "ends_before_start", "Wis. Stat. § 61.32", "The term ends before it starts")]
        )
    with transaction.atomic():
        Term.objects.filter(pk=term.pk).update(ends_on=ends_on)
        term.refresh_from_db()
    return term


def add_matter_to_agenda(*, meeting: Meeting, subject, clause: str, by) -> AgendaItem:
    """Put a queued matter on the agenda: the item decides `subject` under `clause` (permits.board.matters)."""
    from permits.board.matters import matter_for

    label = f"{subject._meta.app_label}.{subject._meta.object_name}"
    matter = matter_for(clause, label)
    if matter is None:
        raise RulesBroken(
            [Violation("matter", "unknown_matter", citation(clause), "No such matter waits for the Board")]
        )
    ct = ContentType.objects.get_for_model(subject)
    if AgendaItem.objects.filter(
        subject_type=ct, subject_id=subject.pk, clause=clause, motions__isnull=True, meeting__locked_at__isnull=True
    ).exists():
        raise RulesBroken(
            [
                Violation(
                    "matter", "already_on_agenda", citation(clause), f"{subject} is already on an agenda, undecided"
                )
            ]
        )
    return add_agenda_item(meeting=meeting, title=str(subject), clause=clause, subject=subject, by=by)


def move_agenda_item(*, item: AgendaItem, by, up: bool) -> AgendaItem:
    """Swap the item with the one before (up) or after it; the agenda's order is 1, 2, 3 ... again afterwards."""
    require_role(by, *BOARD_CLERKS, action="build the Board's agenda (the Clerk-Treasurer does)")
    with transaction.atomic():
        _unlocked(item.meeting)
        items = list(AgendaItem.objects.select_for_update().filter(meeting=item.meeting).order_by("order", "pk"))
        at = next(i for i, other in enumerate(items) if other.pk == item.pk)
        to = at - 1 if up else at + 1
        if 0 <= to < len(items):
            items[at], items[to] = items[to], items[at]
        for number, other in enumerate(items, start=1):
            if other.order != number:
                AgendaItem.objects.filter(pk=other.pk).update(order=number)
    item.refresh_from_db()
    return item


def publish_agenda(*, meeting: Meeting, on: date, by) -> Meeting:
    """Wis. Stat. § 19.84: the agenda is published before the meeting, with at least one item on it."""
    require_role(by, *BOARD_CLERKS, action="publish the Board's agenda (the Clerk-Treasurer does)")
    errors = []
    if on > meeting.held_on:
        errors.append(
            Violation(
                "agenda_published_on", "after_meeting", "Wis. Stat. § 19.84", "Publish the agenda before the meeting"
            )
        )
    if not meeting.items.exists():
        errors.append(Violation("agenda_published_on", "empty", "Wis. Stat. § 19.84", "The agenda has no items"))
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        _unlocked(meeting)
        Meeting.objects.filter(pk=meeting.pk).update(agenda_published_on=on)
    meeting.refresh_from_db()
    return meeting


def decide_item(
    *,
    item: AgendaItem,
    text: str,
    votes: dict,
    by,
    resolution_number: str = "",
    moved_by: Term | None = None,
    seconded_by: Term | None = None,
) -> Motion:
    """Record the Board's motion on an agenda item under the rule its clause requires (rules.vote_rule_for: never
    typed), then apply the result to the item's subject through its matter's `decide` (granted, denied, waived,
    adopted). All in one transaction: a subject that refuses the result leaves no motion behind."""
    from permits.board.matters import matter_for

    if item.motions.exists():
        raise RulesBroken([Violation("text", "decided", citation(item.clause), "This item's motion is recorded")])
    with transaction.atomic():
        motion = record_motion(
            item=item,
            text=text,
            votes=votes,
            by=by,
            rule=rules.vote_rule_for(item.clause),
            resolution_number=resolution_number,
            moved_by=moved_by,
            seconded_by=seconded_by,
        )
        if item.subject_type_id is not None:
            label = f"{item.subject_type.app_label}.{item.subject_type.model_class()._meta.object_name}"
            matter = matter_for(item.clause, label)
            if matter is not None:
                matter.decide(subject=item.subject, motion=motion, by=by)
    return motion


def designate_by_motion(
    *, motion: Motion, clause: str, starts_on: date, by, user=None, role: str = "", ends_on: date | None = None
) -> Designation:
    """The designations page: the same verb as the back office (designate)."""
    return designate(clause=clause, motion=motion, starts_on=starts_on, by=by, user=user, role=role, ends_on=ends_on)


def end_designation(*, designation: Designation, motion: Motion, ends_on: date, by) -> Designation:
    """A designation ends by another carried Board motion under its clause: in force through `ends_on`, a day on or
    after that meeting."""
    require_role(by, *BOARD_CLERKS, action="record the Board's designations (the Clerk-Treasurer does)")
    cite = citation(designation.clause)
    errors = [e for e in board_action_errors(motion, clause=designation.clause) if e.code != "future_motion"]
    if motion is not None and ends_on < motion.held_on:
        errors.append(
            Violation(
                "ends_on",
                "before_motion",
                cite,
                f"A designation ends on or after the meeting that ended it ({motion.held_on:%B %-d, %Y}) ({cite})",
            )
        )
    if ends_on < designation.starts_on:
        errors.append(
            Violation("ends_on", "ends_before_start", cite, f"The designation ends before it starts ({cite})")
        )
    if designation.ended_by_id is not None:
        errors.append(Violation("motion", "already_ended", cite, "This designation was already ended by a motion"))
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        designation.ends_on = ends_on
        designation.ended_by = motion
        designation.save(update_fields=["ends_on", "ended_by"])
    return designation
