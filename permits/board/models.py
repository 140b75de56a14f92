"""The Village Board as data (Wis. Stat. § 61.32; Chapter 303 wherever "the Village Board" decides): its seats, the
members holding them for a term, its meetings and who attended, the agenda items and what they decide, the motions
with each member's vote and the outcome, and the designations the Board made by motion ("the Village Board or its
designee").

Who the Board is on a date is read from the roster (the terms in force that day), never typed: the seat count of
"three-fourths of the entire Board" (§ 303-3D(8)(c)) and the attendance behind "a majority of those present" both come
from here (permits.board.rules, permits.board.services). Tables have the `permits` app label (loaded from
permits/models/__init__.py, like the ledger's).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from permits.board.clauses import DESIGNABLE, Clause
from permits.roles import Role


class Seat(models.Model):
    """A seat on the Village Board: the President's or a trustee's (Wis. Stat. § 61.32). A seat counts toward "the
    entire Board" from `established_on` until `abolished_on`, filled or vacant."""

    class Office(models.TextChoices):
        PRESIDENT = "president", "Village President"
        TRUSTEE = "trustee", "Trustee"

    number = models.PositiveSmallIntegerField(unique=True, help_text="1 is the President's seat")
    office = models.CharField(max_length=20, choices=Office.choices)
    established_on = models.DateField()
    abolished_on = models.DateField(null=True, blank=True, help_text="The first day the seat no longer exists")
    history = HistoricalRecords()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(abolished_on__isnull=True) | Q(abolished_on__gt=models.F("established_on")),
                name="board_seat_abolished_after_established",
            ),
            models.UniqueConstraint(
                fields=["office"], condition=Q(office="president"), name="board_seat_one_president"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} ({self.get_office_display()})"


class Term(models.Model):
    """A member holding a seat from `starts_on` through `ends_on` (inclusive; open while blank). The user account is
    optional: a member who never signs in still votes."""

    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="terms")
    name = models.CharField(max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="board_terms"
    )
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True, help_text="The last day of the term (inclusive)")
    history = HistoricalRecords()

    class Meta:
        ordering = ["seat__number", "-starts_on"]
        verbose_name = "member's term"
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")), name="board_term_ends_after"
            ),
        ]

    def __str__(self) -> str:
        until = f"{self.ends_on:%Y-%m-%d}" if self.ends_on else "…"
        office = self.seat.get_office_display()
        return f"{self.name}, {office} (seat {self.seat.number}, {self.starts_on:%Y-%m-%d}–{until})"

    def seated_on(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)


class Meeting(models.Model):
    """A regular or special meeting of the Board. Once the clerk locks the minutes, its attendance and motions are
    the record and change no more."""

    class Kind(models.TextChoices):
        REGULAR = "regular", "Regular meeting"
        SPECIAL = "special", "Special meeting"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.REGULAR)
    held_on = models.DateField()
    title = models.CharField(max_length=200, blank=True)
    agenda_published_on = models.DateField(null=True, blank=True)
    attendance_recorded_at = models.DateTimeField(null=True, blank=True, editable=False)
    locked_at = models.DateTimeField(null=True, blank=True, editable=False, help_text="Minutes locked: the record")
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-held_on", "-pk"]
        indexes = [models.Index(fields=["-held_on"], name="board_meeting_held_on")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.held_on:%B %-d, %Y}" + (f": {self.title}" if self.title else "")

    @property
    def is_locked(self) -> bool:
        return self.locked_at is not None


class Attendance(models.Model):
    """Whether a member seated on the meeting date was present (one row per member seated that day)."""

    meeting = models.ForeignKey(Meeting, on_delete=models.PROTECT, related_name="attendance")
    term = models.ForeignKey(Term, on_delete=models.PROTECT, related_name="attendance")
    present = models.BooleanField()

    class Meta:
        ordering = ["term__seat__number"]
        constraints = [models.UniqueConstraint(fields=["meeting", "term"], name="board_attendance_once")]

    def __str__(self) -> str:
        return f"{self.term.name}: {'present' if self.present else 'absent'}"


class AgendaItem(models.Model):
    """An item on a meeting's agenda, pointing at what it decides (a permit, a waiver's parcel, a street...) and the
    clause it decides under."""

    meeting = models.ForeignKey(Meeting, on_delete=models.PROTECT, related_name="items")
    order = models.PositiveSmallIntegerField(default=1)
    title = models.CharField(max_length=300)
    clause = models.CharField(max_length=20, choices=Clause.choices, default=Clause.OTHER)
    description = models.TextField(blank=True)
    subject_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    subject = GenericForeignKey("subject_type", "subject_id")

    class Meta:
        ordering = ["meeting", "order", "pk"]
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="board_item_subject")]

    def __str__(self) -> str:
        return f"{self.meeting.held_on:%Y-%m-%d} item {self.order}: {self.title}"


class Motion(models.Model):
    """A motion on an agenda item, with the vote and its outcome computed from the roster and the attendance on the
    meeting date (permits.board.rules). The counts are kept as recorded: they are the minutes."""

    class Rule(models.TextChoices):
        MAJORITY_PRESENT = "majority_present", "A majority of those present"
        THREE_FOURTHS_ENTIRE = "three_fourths_entire", "Three-fourths of the entire Board (§ 303-3D(8)(c))"

    class Outcome(models.TextChoices):
        CARRIED = "carried", "Carried"
        FAILED = "failed", "Failed"

    item = models.ForeignKey(AgendaItem, on_delete=models.PROTECT, related_name="motions")
    text = models.TextField()
    rule = models.CharField(max_length=30, choices=Rule.choices, default=Rule.MAJORITY_PRESENT)
    moved_by = models.ForeignKey(Term, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    seconded_by = models.ForeignKey(Term, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    resolution_number = models.CharField(max_length=40, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, editable=False)
    seats = models.PositiveSmallIntegerField(editable=False, help_text="Seats on the entire Board that day")
    present = models.PositiveSmallIntegerField(editable=False)
    ayes = models.PositiveSmallIntegerField(editable=False)
    nays = models.PositiveSmallIntegerField(editable=False)
    abstentions = models.PositiveSmallIntegerField(editable=False, default=0)
    needed = models.PositiveSmallIntegerField(editable=False, help_text="Ayes the rule needed")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-item__meeting__held_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["resolution_number"], condition=~Q(resolution_number=""), name="board_resolution_unique"
            ),
            models.CheckConstraint(condition=Q(ayes__lte=models.F("seats")), name="board_motion_ayes_within_seats"),
        ]

    def __str__(self) -> str:
        number = f"Resolution {self.resolution_number}: " if self.resolution_number else ""
        return f"{number}{self.text[:80]} ({self.get_outcome_display().lower()}, {self.ayes}-{self.nays})"

    @property
    def carried(self) -> bool:
        return self.outcome == self.Outcome.CARRIED

    @property
    def held_on(self):
        return self.item.meeting.held_on


class Vote(models.Model):
    class Choice(models.TextChoices):
        AYE = "aye", "Aye"
        NAY = "nay", "Nay"
        ABSTAIN = "abstain", "Abstain"

    motion = models.ForeignKey(Motion, on_delete=models.PROTECT, related_name="votes")
    term = models.ForeignKey(Term, on_delete=models.PROTECT, related_name="votes")
    choice = models.CharField(max_length=10, choices=Choice.choices)

    class Meta:
        ordering = ["term__seat__number"]
        constraints = [models.UniqueConstraint(fields=["motion", "term"], name="board_vote_once")]

    def __str__(self) -> str:
        return f"{self.term.name}: {self.get_choice_display()}"


class Designation(models.Model):
    """Whom the Board designated, by a motion that carried, to act for it under `clause`, from `starts_on` through
    `ends_on` (inclusive; open while blank). The designee is a person (a user) or an office (a staff role: whoever
    holds it that day)."""

    clause = models.CharField(max_length=20, choices=[(c.value, c.label) for c in DESIGNABLE])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="board_designations"
    )
    role = models.CharField(max_length=40, choices=Role.choices, blank=True, help_text="An office, instead of a person")
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True, help_text="The last day in force (inclusive)")
    motion = models.ForeignKey(Motion, on_delete=models.PROTECT, related_name="designations")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    ended_by = models.ForeignKey(
        Motion,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ended_designations",
        editable=False,
        help_text="The Board's motion that ended the designation (ends_on set from it)",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["clause", "-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(role="")) | (Q(user__isnull=True) & ~Q(role="")),
                name="board_designation_person_or_office",
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="board_designation_ends_after",
            ),
        ]

    def __str__(self) -> str:
        until = f" through {self.ends_on:%Y-%m-%d}" if self.ends_on else ""
        return f"{self.designee_label} for § {self.clause} from {self.starts_on:%Y-%m-%d}{until}"

    @property
    def designee_label(self) -> str:
        if self.user_id:
            return self.user.get_full_name() or self.user.get_username()
        return f"the {self.role}"

    def in_force_on(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)
