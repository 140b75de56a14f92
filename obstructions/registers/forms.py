"""The registers' forms: they parse input; the services decide (every message cites its section)."""

from __future__ import annotations

from django import forms

from obstructions.registers.models import Grade, ImprovementRequest
from permits.board.clauses import Clause
from permits.board.models import Motion
from permits.input_limits import LimitedForm
from permits.models import Street

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def carried_motions(clause: str):
    return (
        Motion.objects.filter(item__clause=clause, outcome=Motion.Outcome.CARRIED)
        .exclude(resolution_number="")
        .select_related("item__meeting")
        .order_by("-item__meeting__held_on", "-pk")
    )


class MotionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"Resolution {obj.resolution_number} of {obj.held_on:%B %-d, %Y}: {obj.text[:80]}"


class GradeForm(LimitedForm):
    street = forms.ModelChoiceField(queryset=Street.objects.order_by("name"), label="Street or alley")
    way = forms.ChoiceField(choices=Grade.Way.choices, label="Grade of the")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=4000,
        help_text="The elevations, and the profile sheet and datum they are drawn to.",
    )
    motion = MotionChoiceField(
        queryset=carried_motions(Clause.GRADE),
        required=False,
        label="The Board's motion that established it (§ 303-1A(1))",
        help_text="Leave blank only for a grade established before this register; then give its resolution and date.",
    )
    confirmed_resolution = forms.CharField(
        required=False, max_length=60, label="Earlier resolution (a grade confirmed by § 303-1A(1))"
    )
    established_on = forms.DateField(required=False, widget=DATE, label="Date of the earlier resolution")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["motion"].queryset = carried_motions(Clause.GRADE)


class ImprovementRequestForm(LimitedForm):
    kind = forms.ChoiceField(choices=ImprovementRequest.Kind.choices, label="Improvement asked for")
    location = forms.CharField(max_length=300, help_text="The block or the addresses.")
    street = forms.ModelChoiceField(queryset=Street.objects.order_by("name"), required=False)
    petitioners = forms.CharField(max_length=300, label="Who asks", help_text="The owners, as they signed.")
    signatures = forms.IntegerField(min_value=1, max_value=10000, initial=1)
    presented_at = forms.DateTimeField(
        label="Presented (date and time, Village time)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text="By September 15 (any hour): considered for next year; after it, for the year after (§ 303-11).",
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=4000)


class GradeAlterationForm(LimitedForm):
    grade = forms.ModelChoiceField(
        queryset=Grade.objects.filter(in_force=True).select_related("street").order_by("street__name", "way"),
        label="Grade altered",
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=4000, label="The new grade")
    motion = MotionChoiceField(
        queryset=carried_motions(Clause.GRADE_ALTERATION),
        required=False,
        label="The Board's motion that authorized it (§ 303-1B)",
    )
    authorized_by = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Or: the Director of Public Works who authorized it (§ 303-1B)",
    )

    def __init__(self, *args, **kwargs):
        from django.contrib.auth import get_user_model

        from permits.roles import Role

        super().__init__(*args, **kwargs)
        self.fields["grade"].queryset = self.fields["grade"].queryset.all()
        self.fields["motion"].queryset = carried_motions(Clause.GRADE_ALTERATION)
        self.fields["authorized_by"].queryset = (
            get_user_model().objects.filter(groups__name=Role.DPW_DIRECTOR.value).order_by("last_name")
        )
        self.fields["authorized_by"].label_from_instance = lambda u: u.get_full_name() or u.username


class HigherStandardForm(LimitedForm):
    street = forms.ModelChoiceField(queryset=Street.objects.order_by("name"))
    parcel = forms.ModelChoiceField(
        queryset=None, required=False, label="Parcel", help_text="Blank: the standard applies to the whole street."
    )
    min_width_feet = forms.DecimalField(
        required=False, min_value=0, max_digits=5, decimal_places=2, label="Minimum width (feet)"
    )
    min_thickness_inches = forms.DecimalField(
        required=False, min_value=0, max_digits=5, decimal_places=2, label="Minimum thickness (inches)"
    )
    min_driveway_thickness_inches = forms.DecimalField(
        required=False, min_value=0, max_digits=5, decimal_places=2, label="Minimum thickness at driveways (inches)"
    )
    motion = MotionChoiceField(
        queryset=carried_motions(Clause.HIGHER_STANDARD), label="The Board's motion (§ 303-3D(11))"
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=4000)

    def __init__(self, *args, **kwargs):
        from permits.models import Parcel

        super().__init__(*args, **kwargs)
        self.fields["parcel"].queryset = Parcel.objects.select_related("street").order_by("site_address")
        self.fields["motion"].queryset = carried_motions(Clause.HIGHER_STANDARD)


class TerraceApprovalForm(LimitedForm):
    """§ 303-9B: an area of a terrace approved to be covered, by the Board's motion or its designee."""

    parcel = forms.ModelChoiceField(queryset=None, label="Parcel")
    area = forms.CharField(max_length=300, label="The area approved and what covers it")
    motion = MotionChoiceField(
        queryset=carried_motions(Clause.TERRACE_SURFACE),
        required=False,
        label="The Board's motion (§ 303-9B)",
        help_text="Blank when you approve it as the Board's designee for § 303-9.",
    )
    ends_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Ends on")

    def __init__(self, *args, **kwargs):
        from permits.models import Parcel

        super().__init__(*args, **kwargs)
        self.fields["parcel"].queryset = Parcel.objects.order_by("site_address")


class StreetWidthsForm(LimitedForm):
    """The street register: a street's widths (§ 303-7D(1), § 303-6B(2))."""

    street = forms.ModelChoiceField(queryset=Street.objects.all(), empty_label="Choose a street", label="Street")
    width_feet = forms.DecimalField(
        max_digits=5,
        decimal_places=1,
        required=False,
        label="Width of the street or alley (feet)",
        help_text="Curb to curb: § 303-7D(1) allows at most a third of it.",
    )
    traveled_width_feet = forms.DecimalField(
        max_digits=5,
        decimal_places=1,
        required=False,
        label="Width of the traveled portion (feet)",
        help_text="§ 303-6B(2) allows building materials on at most a third of it.",
    )
    sidewalk_width_feet = forms.DecimalField(
        max_digits=4,
        decimal_places=1,
        required=False,
        label="Width of the sidewalk (feet)",
        help_text="§ 303-6B(2) allows building materials on at most half of it. Empty: the street has no sidewalk.",
    )


class VillageContractForm(LimitedForm):
    """§ 303-3C: a contract the Village let, entered in the Clerk-Treasurer's register."""

    number = forms.CharField(max_length=40, label="Contract number")
    contractor = forms.CharField(max_length=200, label="Contractor, as named in the contract")
    organization = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="The contractor's company account",
        help_text="When it has one: only its filings are then accepted under this contract.",
    )
    work = forms.CharField(max_length=300, label="Work contracted")
    parcels = forms.CharField(
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Tax keys of the parcels it covers",
        help_text="Separated by commas or lines, as on the tax roll.",
    )
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="First day of its term")
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="Last day of its term")
    motion = MotionChoiceField(
        queryset=Motion.objects.none(),
        required=False,
        label="The Board's motion awarding it",
        help_text="Blank when the Board did not let it by a recorded motion.",
    )

    def __init__(self, *args, **kwargs):
        from permits.models import Organization

        super().__init__(*args, **kwargs)
        self.fields["organization"].queryset = Organization.objects.order_by("name")
        self.fields["motion"].queryset = (
            Motion.objects.filter(outcome=Motion.Outcome.CARRIED)
            .exclude(resolution_number="")
            .select_related("item__meeting")
            .order_by("-item__meeting__held_on", "-pk")
        )

    def clean_parcels(self):
        from permits.models import Parcel

        keys = [k.strip() for k in self.cleaned_data["parcels"].replace("\n", ",").split(",") if k.strip()]
        found = {p.tax_key: p for p in Parcel.objects.filter(tax_key__in=keys)}
        unknown = [k for k in keys if k not in found]
        if unknown:
            raise forms.ValidationError(f"Not on the tax roll: {', '.join(unknown[:10])} (§ 303-3C).")
        return list(found.values())
