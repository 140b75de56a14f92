"""Back office of the Village Board: the clerk keeps the roster (seats, members' terms), the meetings and their
attendance, the agenda items, the motions with each member's vote, and the designations the Board made.

Nothing goes around the services (permits.board.services): an add form calls the service in its clean(), inside the
admin's transaction, so a refusal shows on the form with its section and stores nothing. Motions, votes and
designations are the record once entered (read-only; a designation ends by another motion); a meeting is editable
until the clerk locks its minutes. Public records are never deleted (Wis. Stat. § 19.21).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from simple_history.admin import SimpleHistoryAdmin

from permits.admin.base import NoDeleteAdmin, ReadOnlyInline
from permits.board import services
from permits.board.models import AgendaItem, Attendance, Designation, Meeting, Motion, Seat, Term, Vote
from permits.errors import RulesBroken
from permits.forms import add_service_errors
from permits.roles import Role, has_role


class RequestFormMixin:
    """Hands the admin's request to the form, so its clean() can call a service as the signed-in user."""

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"request": request})


class ServiceForm(forms.ModelForm):
    """An add form whose clean() calls the service; save_model() then has nothing left to store."""

    request = None

    def call_service(self, data):  # pragma: no cover - each form defines it
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if self.errors or self.instance.pk:
            return data
        try:
            self.instance = self.call_service(data)
        except ValidationError as error:
            add_service_errors(self, error)
        except PermissionDenied as denied:
            raise ValidationError(str(denied)) from None
        return data


class ServiceAdmin(RequestFormMixin, NoDeleteAdmin):
    """Adds through the service (the form's clean()); the record is read-only afterwards."""

    def save_model(self, request, obj, form, change):
        if obj.pk is None:  # pragma: no cover - the form's service call always stores it
            raise PermissionDenied("Records are added through the Board's services only.")

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_add_permission(self, request):
        return has_role(request.user, *services.BOARD_CLERKS) and super().has_add_permission(request)


# --- The roster ----------------------------------------------------------------------------------------------------


@admin.register(Seat)
class SeatAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    """Wis. Stat. § 61.32: the seats of the Board (the President's and the trustees'). A seat counts toward "the
    entire Board" from its establishment until it is abolished, filled or vacant."""

    list_display = ["number", "office", "established_on", "abolished_on", "holder_today"]
    ordering = ["number"]

    @admin.display(description="Held today by")
    def holder_today(self, obj):
        from django.utils import timezone

        today = timezone.localdate()
        term = next((t for t in obj.terms.all() if t.seated_on(today)), None)
        return term.name if term else "Vacant"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("terms")


class TermForm(forms.ModelForm):
    class Meta:
        model = Term
        fields = ["seat", "name", "user", "starts_on", "ends_on"]

    def clean(self):
        data = super().clean()
        if data.get("seat") and data.get("starts_on"):
            for message in services.term_overlap_errors(
                seat=data["seat"], starts_on=data["starts_on"], ends_on=data.get("ends_on"), term=self.instance
            ):
                self.add_error("starts_on", message)
        return data


@admin.register(Term)
class TermAdmin(NoDeleteAdmin, SimpleHistoryAdmin):
    """A member holding a seat for a term (from, until); the account is optional."""

    form = TermForm
    list_display = ["name", "seat", "starts_on", "ends_on", "user"]
    list_filter = ["seat__office"]
    search_fields = ["name", "user__email"]
    list_select_related = ["seat", "user"]
    raw_id_fields = ["user"]


# --- Meetings ------------------------------------------------------------------------------------------------------


class AgendaItemInline(admin.TabularInline):
    model = AgendaItem
    extra = 0
    can_delete = False
    fields = ["order", "title", "clause", "description", "subject_type", "subject_id"]

    def has_change_permission(self, request, obj=None):
        return obj is not None and not obj.is_locked and super().has_change_permission(request, obj)

    def has_add_permission(self, request, obj=None):
        return obj is not None and not obj.is_locked and has_role(request.user, *services.BOARD_CLERKS)


class AttendanceInline(ReadOnlyInline):
    model = Attendance
    fields = readonly_fields = ["term", "present"]


class MotionInline(ReadOnlyInline):
    model = Motion
    fk_name = "item"
    fields = readonly_fields = ["text", "outcome", "ayes", "nays", "resolution_number"]


class MeetingForm(ServiceForm):
    present = forms.ModelMultipleChoiceField(
        queryset=Term.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Members seated on the meeting date who were present (Wis. Stat. § 61.32); the others are recorded "
        "absent. Saved before any vote is recorded.",
    )

    class Meta:
        model = Meeting
        fields = ["kind", "held_on", "title", "agenda_published_on"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["present"].queryset = services.members_on(self.instance.held_on)
            self.initial["present"] = list(
                self.instance.attendance.filter(present=True).values_list("term_id", flat=True)
            )
        else:
            self.fields["present"].help_text = "Record the attendance after the meeting is saved."

    def call_service(self, data):
        return services.schedule_meeting(
            held_on=data["held_on"], kind=data["kind"], title=data.get("title", ""), by=self.request.user
        )

    def clean(self):
        data = super().clean()
        if self.instance.pk and not self.errors and "present" in self.changed_data:
            try:
                services.record_attendance(
                    meeting=self.instance, present=data.get("present") or [], by=self.request.user
                )
            except ValidationError as error:
                add_service_errors(self, error)
            except PermissionDenied as denied:
                raise ValidationError(str(denied)) from None
        return data


@admin.register(Meeting)
class MeetingAdmin(RequestFormMixin, NoDeleteAdmin, SimpleHistoryAdmin):
    """The clerk schedules a meeting, records its attendance and agenda, then locks the minutes."""

    form = MeetingForm
    list_display = ["held_on", "kind", "title", "agenda_published_on", "locked_at"]
    list_filter = ["kind"]
    date_hierarchy = "held_on"
    inlines = [AgendaItemInline, AttendanceInline]
    actions = ["lock_minutes"]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []  # items and attendance once the meeting exists

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.attendance.exists():
            return ["held_on"]  # the roster of that day is what the attendance was recorded against
        return []

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.is_locked:
            return False
        return super().has_change_permission(request, obj)

    def has_add_permission(self, request):
        return has_role(request.user, *services.BOARD_CLERKS) and super().has_add_permission(request)

    @admin.action(description="Lock the minutes (attendance and votes become the record)")
    def lock_minutes(self, request, queryset):
        if not has_role(request.user, Role.CLERK):
            raise PermissionDenied
        for meeting in queryset:
            services.lock_meeting(meeting=meeting, by=request.user)
        messages.success(request, f"{queryset.count()} meeting(s) locked.")


# --- Motions and votes ---------------------------------------------------------------------------------------------


class VoteInline(ReadOnlyInline):
    model = Vote
    fields = readonly_fields = ["term", "choice"]


class MotionForm(ServiceForm):
    voted_aye = forms.ModelMultipleChoiceField(queryset=Term.objects.all(), required=False, label="Voted aye")
    voted_nay = forms.ModelMultipleChoiceField(queryset=Term.objects.all(), required=False, label="Voted nay")
    abstained = forms.ModelMultipleChoiceField(queryset=Term.objects.all(), required=False, label="Abstained")

    class Meta:
        model = Motion
        fields = ["item", "text", "rule", "resolution_number", "moved_by", "seconded_by"]

    def call_service(self, data):
        votes = {}
        for field, choice in (
            ("voted_aye", Vote.Choice.AYE),
            ("voted_nay", Vote.Choice.NAY),
            ("abstained", Vote.Choice.ABSTAIN),
        ):
            for term in data.get(field) or ():
                if term in votes:
                    raise RulesBroken.one(field, "voted_twice", "", f"{term.name} voted twice.")
                votes[term] = choice
        return services.record_motion(
            item=data["item"],
            text=data.get("text", ""),
            votes=votes,
            rule=data["rule"],
            resolution_number=data.get("resolution_number", ""),
            moved_by=data.get("moved_by"),
            seconded_by=data.get("seconded_by"),
            by=self.request.user,
        )


@admin.register(Motion)
class MotionAdmin(ServiceAdmin):
    """The clerk records a motion from the minutes with each member's vote; the outcome, seats and attendance are
    computed from the roster on the meeting date (three-fourths of the entire Board: every seat, vacant included)."""

    form = MotionForm
    list_display = ["__str__", "held_on", "rule", "outcome", "ayes", "nays", "seats", "present", "needed"]
    list_filter = ["outcome", "rule", "item__clause"]
    search_fields = ["resolution_number", "text"]
    list_select_related = ["item__meeting"]
    inlines = [VoteInline]
    readonly_fields = ["outcome", "seats", "present", "ayes", "nays", "abstentions", "needed", "recorded_by"]

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []  # the votes are entered on the add form


# --- Designations --------------------------------------------------------------------------------------------------


class DesignationForm(ServiceForm):
    class Meta:
        model = Designation
        fields = ["clause", "user", "role", "starts_on", "ends_on", "motion"]

    def call_service(self, data):
        return services.designate(
            clause=data["clause"],
            user=data.get("user"),
            role=data.get("role", ""),
            starts_on=data["starts_on"],
            ends_on=data.get("ends_on"),
            motion=data["motion"],
            by=self.request.user,
        )


@admin.register(Designation)
class DesignationAdmin(ServiceAdmin, SimpleHistoryAdmin):
    """ "The Village Board or its designee": whom a carried Board motion designated for a clause, from when until
    when. The authority checks read these (permits.board.services.may_act_for)."""

    form = DesignationForm
    list_display = ["clause", "designee", "starts_on", "ends_on", "motion"]
    list_filter = ["clause", "role"]
    list_select_related = ["user", "motion__item__meeting"]
    raw_id_fields = ["user", "motion"]

    @admin.display(description="Designee")
    def designee(self, obj):
        return obj.designee_label
