"""Forms of the street privilege permit. They validate input; the rules of permits.street_privilege.rules decide,
through the same check the API and the service run (services.check_application)."""

from __future__ import annotations

from django import forms

from permits.forms import (
    add_violations,  # noqa: F401  (re-exported for this type's views)
    yes_or_no,
)
from permits.forms_shared import applying_for, offer_organizations
from permits.input_limits import LimitedForm, LimitedModelForm
from permits.models import Parcel, Payment, Street
from permits.street_privilege.models import Purpose
from permits.street_privilege.services import check_application

DATE = forms.DateInput(attrs={"type": "date"})
FEET = {"max_digits": 5, "decimal_places": 1, "min_value": 0, "required": False}


class StreetPrivilegeForm(LimitedForm):
    organization = applying_for()
    purpose = forms.ChoiceField(choices=Purpose.choices, widget=forms.RadioSelect, label="Purpose (§ 303-7A)")
    street = forms.ModelChoiceField(queryset=Street.objects.all(), empty_label="Choose a street", label="Street")
    location_description = forms.CharField(
        max_length=300,
        required=False,
        label="Location on the street",
        help_text='Address or cross streets, e.g. "in front of 204 Main Street".',
    )
    start_date = forms.DateField(widget=DATE, required=False, label="First day in the street")
    end_date = forms.DateField(widget=DATE, required=False, label="Last day in the street")
    building_permit_number = forms.CharField(
        max_length=40,
        required=False,
        label="Building permit number",
        help_text="If you have one. The Building Inspector decides whether the work needs one (§ 303-7A).",
    )
    occupied_street_feet = forms.DecimalField(
        label="Width of the street occupied (feet)",
        help_text="At most one third of the street's width on the Village's street register (§ 303-7D(1)).",
        **FEET,
    )
    lighted_at_night = forms.BooleanField(
        required=False, label="The obstruction will be lighted at night, visible from all directions (§ 303-7D(2))"
    )
    sidewalk_occupied = forms.BooleanField(required=False, label="The sidewalk will be occupied")
    temporary_walk_width_feet = forms.DecimalField(
        label="Width of the temporary walk (feet)", help_text="At least 4 feet (§ 303-7D(3)).", **FEET
    )
    fence_height_feet = forms.DecimalField(
        label="Height of the closed fence (feet)", help_text="At least 4 feet (§ 303-7D(3)).", **FEET
    )
    fenced_both_sides = forms.BooleanField(required=False, label="The temporary walk is fenced on both sides")
    building_description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Building or structure moved"
    )
    route_description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Proposed route",
        help_text="The Village Board prescribes the route (§ 303-7D(6)).",
    )
    overnight_stops = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Overnight stops")
    overnight_at_intersection_or_hydrant = forms.BooleanField(
        required=False,
        label="An overnight stop is on a crossing or intersection, or blocks a fire hydrant (§ 303-7D(5))",
    )
    day_and_night_requested = forms.BooleanField(
        required=False, label="The move must continue day and night (the Board may order it, § 303-7D(4))"
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        offer_organizations(self, user)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data  # the rules need well-formed values; the field errors come first
        add_violations(self, check_application(data))
        return data


class RecommendationForm(LimitedForm):
    recommended = yes_or_no("Your advisory recommendation (§ 303-7A)", yes="Recommended", no="Not recommended")
    conditions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Conditions (printed on the permit)"
    )
    insurance_required = forms.BooleanField(required=False, label="Require proof of liability insurance")


class BondForm(LimitedForm):
    bond_amount = forms.DecimalField(
        max_digits=9, decimal_places=2, label="Bond amount ($)", help_text="At most $10,000 (§ 303-7B)."
    )


class FileBondForm(LimitedForm):
    surety = forms.CharField(max_length=200, label="Surety on the bond")


class CostForm(LimitedForm):
    description = forms.CharField(max_length=200, label="Actual Village cost (e.g. police escort)")
    amount = forms.DecimalField(max_digits=8, decimal_places=2, label="Cost amount ($)")


class BuildingPermitForm(LimitedForm):
    required = yes_or_no(
        "Is a building permit required for this work? (§ 303-7A, Chapter 132)", yes="Required", no="Not required"
    )
    shown_number = forms.CharField(
        max_length=40,
        required=False,
        label="Number of the building permit shown to you",
        help_text="Where one is required. Record it once it is shown; the permit is not issued before.",
    )


class GrantForm(LimitedForm):
    conditions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Building Inspector's conditions"
    )
    earlier_termination_on = forms.DateField(
        widget=DATE, required=False, label="Earlier termination date (optional, § 303-7E)"
    )


class EndDateForm(LimitedForm):
    earlier_termination_on = forms.DateField(
        widget=DATE, required=False, label="Earlier end date (blank: three months from issue, § 303-7E)"
    )


class ReasonForm(LimitedForm):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Reason (the condition violated)")


class ClosingForm(LimitedForm):
    passed = yes_or_no("Closing inspection (§ 303-7D(7))", yes="Passed: vacated, cleaned, safe", no="Failed")
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Inspection notes")


class MotionForm(LimitedForm):
    motion = forms.IntegerField(widget=forms.HiddenInput)
    route = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Route as the Board prescribed it"
    )


class ObstructionForm(LimitedForm):
    parcel = forms.ModelChoiceField(queryset=Parcel.objects.none(), label="Adjoining parcel")
    description = forms.CharField(max_length=300, label="The obstruction")

    def __init__(self, *args, street=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["parcel"].queryset = Parcel.objects.filter(street=street) if street else Parcel.objects.none()


class RemovalForm(LimitedForm):
    cost = forms.DecimalField(max_digits=8, decimal_places=2, label="Cost of the Village's removal ($)")


class StaffPaymentForm(LimitedModelForm):
    class Meta:
        model = Payment
        fields = ["amount", "method", "reference"]
