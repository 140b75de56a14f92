"""Forms of the clerk's Board pages. They validate input; the rules and the authority are the services'
(permits.board.services), whose refusals each form shows on the field they name."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from permits.board.clauses import DESIGNABLE
from permits.board.models import Meeting, Motion, Seat, Term, Vote
from permits.input_limits import LimitedForm
from permits.roles import Role

DATE = forms.DateInput(attrs={"type": "date"})


class MeetingForm(LimitedForm):
    held_on = forms.DateField(label="Meeting date", widget=DATE)
    kind = forms.ChoiceField(choices=Meeting.Kind.choices, initial=Meeting.Kind.REGULAR)
    title = forms.CharField(max_length=200, required=False)


class AddToAgendaForm(LimitedForm):
    meeting = forms.ModelChoiceField(queryset=Meeting.objects.none(), label="Meeting", empty_label=None)
    matter = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["meeting"].queryset = Meeting.objects.filter(locked_at__isnull=True).order_by("held_on", "pk")


class PublishForm(LimitedForm):
    agenda_published_on = forms.DateField(label="Agenda published on", widget=DATE)


class AttendanceForm(LimitedForm):
    """Wis. Stat. § 61.32: one checkbox per member seated on the meeting date."""

    present = forms.ModelMultipleChoiceField(
        queryset=Term.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Members present",
        help_text="Everyone seated that day and not ticked is recorded absent.",
    )

    def __init__(self, *args, seated, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["present"].queryset = seated
        self.fields["present"].label_from_instance = lambda t: f"{t.name} ({t.seat.get_office_display()})"


class VoteForm(LimitedForm):
    """The motion on an agenda item and each present member's vote: one row (a radio group) per member."""

    text = forms.CharField(label="Motion", widget=forms.Textarea(attrs={"rows": 2}))
    resolution_number = forms.CharField(label="Resolution number", max_length=40, required=False)
    moved_by = forms.ModelChoiceField(queryset=Term.objects.none(), required=False, label="Moved by")
    seconded_by = forms.ModelChoiceField(queryset=Term.objects.none(), required=False, label="Seconded by")

    def __init__(self, *args, present, **kwargs):
        super().__init__(*args, **kwargs)
        self.present = list(present)
        qs = Term.objects.filter(pk__in=[t.pk for t in self.present]).select_related("seat")
        self.fields["moved_by"].queryset = qs
        self.fields["seconded_by"].queryset = qs
        for term in self.present:
            self.fields[f"vote_{term.pk}"] = forms.ChoiceField(
                label=f"{term.name} ({term.seat.get_office_display()}, seat {term.seat.number})",
                choices=Vote.Choice.choices,
                widget=forms.RadioSelect,
            )

    def vote_fields(self):
        return [self[f"vote_{t.pk}"] for t in self.present]

    def votes(self) -> dict:
        return {t: self.cleaned_data[f"vote_{t.pk}"] for t in self.present}


class DesignationForm(LimitedForm):
    clause = forms.ChoiceField(choices=[(c.value, c.label) for c in DESIGNABLE])
    role = forms.ChoiceField(
        choices=[("", "(a person instead)"), *Role.choices], required=False, label="Designated office"
    )
    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), required=False, label="Designated person (a staff account)"
    )
    starts_on = forms.DateField(label="In force from", widget=DATE)
    ends_on = forms.DateField(label="In force through (blank: until ended)", widget=DATE, required=False)
    motion = forms.ModelChoiceField(queryset=Motion.objects.none(), label="The Board's motion")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = (
            get_user_model().objects.filter(groups__name__in=Role.values).distinct().order_by("last_name", "username")
        )
        self.fields["motion"].queryset = carried_designable_motions()


class EndDesignationForm(LimitedForm):
    ends_on = forms.DateField(label="Last day in force", widget=DATE)
    motion = forms.ModelChoiceField(queryset=Motion.objects.none(), label="The Board's motion ending it")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["motion"].queryset = carried_designable_motions()


def carried_designable_motions():
    return (
        Motion.objects.filter(outcome=Motion.Outcome.CARRIED, item__clause__in=[c.value for c in DESIGNABLE])
        .select_related("item__meeting")
        .order_by("-item__meeting__held_on", "-pk")
    )


class TermForm(LimitedForm):
    seat = forms.ModelChoiceField(queryset=Seat.objects.order_by("number"))
    name = forms.CharField(max_length=200, label="Member's name")
    starts_on = forms.DateField(label="Term starts on", widget=DATE)
    ends_on = forms.DateField(label="Term ends on (last day; blank: open)", widget=DATE, required=False)


class EndTermForm(LimitedForm):
    ends_on = forms.DateField(label="Last day on the Board", widget=DATE)
