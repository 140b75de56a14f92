"""Forms of the snow (§ 303-8) and rubbish (§ 303-2) pages. They validate input; sidewalks.snow.rules decides."""

from __future__ import annotations

from django import forms

from permits.errors import RulesBroken, field_error
from permits.input_limits import LimitedForm, LimitedModelForm
from permits.models import Parcel
from permits.public_forms import DATETIME_WIDGET, PublicReportForm
from sidewalks.models import Snowfall


class SnowReportForm(PublicReportForm):
    """The public form (no login): an address, what is wrong, and a small sum to keep robots out. An address that is
    not of the Village is refused on its field with the closest ones (services.match_address, § 303-8A)."""

    def clean_address(self):
        from sidewalks.snow.services import match_address

        address = self.cleaned_data["address"]
        try:
            match_address(address)
        except RulesBroken as exc:
            raise forms.ValidationError([field_error(v) for v in exc.violations]) from exc
        return address


class StaffSnowReportForm(LimitedForm):
    address = forms.CharField(max_length=200, label="Address of the uncleared sidewalk")
    details = forms.CharField(max_length=500, required=False, label="Details (optional)")
    unoccupied = forms.BooleanField(
        required=False,
        label="Unoccupied lot or abandoned property",
        help_text="§ 303-8B: no written notice need be given to the owner; the 24 hours still apply.",
    )


class UnoccupiedForm(LimitedForm):
    unoccupied = forms.BooleanField(
        required=False,
        label="Unoccupied lot or abandoned property",
        help_text="§ 303-8B: no written notice need be given to the owner; the 24 hours still apply.",
    )


class SnowfallForm(LimitedModelForm):
    stopped_at = forms.DateTimeField(
        widget=DATETIME_WIDGET, label="Snow stopped at", help_text="§ 303-8A: owners have 24 hours from this time."
    )

    class Meta:
        model = Snowfall
        fields = ["stopped_at", "inches", "notes"]


class ClearingForm(LimitedForm):
    at = forms.DateTimeField(
        widget=DATETIME_WIDGET, label="Cleared at", help_text="§ 303-8B: at least 24 hours after the snow stopped."
    )
    notes = forms.CharField(max_length=500, required=False, label="Crew notes")


class CloseCaseForm(LimitedForm):
    status = forms.ChoiceField(
        choices=[("owner_cleared", "Cleared by the owner"), ("dismissed", "Dismissed")], label="Close as"
    )
    notes = forms.CharField(max_length=500, required=False, label="Notes")


class AssignParcelForm(LimitedForm):
    tax_key = forms.CharField(max_length=40, label="Tax key number of the parcel")

    def clean_tax_key(self):
        parcel = Parcel.objects.filter(tax_key=self.cleaned_data["tax_key"].strip()).first()
        if parcel is None:
            raise forms.ValidationError("No parcel has that tax key number.")
        return parcel


class RubbishNoticeForm(LimitedForm):
    tax_key = forms.CharField(max_length=40, label="Tax key number of the premises")
    description = forms.CharField(
        max_length=500, label="Rubbish or dirt found", widget=forms.Textarea(attrs={"rows": 2})
    )
    served_to = forms.CharField(max_length=200, label="Owner or occupant notified")
    served_method = forms.CharField(
        max_length=100,
        label="How the notice was served",
        help_text="e.g. personal delivery, posted on the door, first-class mail",
    )
    served_at = forms.DateTimeField(widget=DATETIME_WIDGET, label="Served at")
    deadline_at = forms.DateTimeField(
        widget=DATETIME_WIDGET,
        label="Remove by",
        required=False,
        help_text="Default: 24 hours after the notice is served.",
    )

    clean_tax_key = AssignParcelForm.clean_tax_key


class RubbishRemovalForm(LimitedForm):
    at = forms.DateTimeField(widget=DATETIME_WIDGET, label="Removed at")
    cost = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0, label="Cost to the Village ($)")
