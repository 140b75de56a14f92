"""Forms of the snow (§ 303-8) and rubbish (§ 303-2) pages. They validate input; sidewalks.snow.rules decides."""

from __future__ import annotations

import random

from django import forms
from django.core import signing

from permits.models import Parcel
from sidewalks.models import Snowfall

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
CHALLENGE_SALT = "sidewalks.snow_report"
CHALLENGE_MAX_AGE = 60 * 60


class SnowReportForm(forms.Form):
    """The public form (no login): an address, what is wrong, and a small sum to keep robots out."""

    address = forms.CharField(
        max_length=200,
        label="Address of the uncleared sidewalk",
        help_text="House number and street, e.g. 102 Highland Avenue",
    )
    details = forms.CharField(
        max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 3}), label="What did you see? (optional)"
    )
    contact = forms.CharField(
        max_length=200,
        required=False,
        label="Your phone or email (optional)",
        help_text="Only if you want the Village to be able to ask you about it.",
    )
    answer = forms.IntegerField(label="Anti-spam check")
    challenge = forms.CharField(widget=forms.HiddenInput)
    # Honeypot: hidden from people (display: none in site.css, so not read by screen readers); robots fill it.
    website = forms.CharField(
        required=False,
        label="Leave this empty",
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            a, b = random.randint(2, 9), random.randint(2, 9)
            self.initial["challenge"] = signing.dumps({"a": a, "b": b}, salt=CHALLENGE_SALT)
            self.question = (a, b)
        else:
            self.question = self._question(self.data.get("challenge", ""))
        if self.question:
            self.fields["answer"].label = f"Anti-spam check: what is {self.question[0]} plus {self.question[1]}?"

    @staticmethod
    def _question(token: str):
        try:
            data = signing.loads(token, salt=CHALLENGE_SALT, max_age=CHALLENGE_MAX_AGE)
            return int(data["a"]), int(data["b"])
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            return None

    def clean(self):
        data = super().clean()
        if data.get("website"):
            raise forms.ValidationError("The report could not be accepted.")
        if self.question is None:
            self.add_error("answer", "The check expired: please answer the new question.")
        elif data.get("answer") is not None and data["answer"] != sum(self.question):
            self.add_error("answer", "That is not the right sum: please try again.")
        return data


class StaffSnowReportForm(forms.Form):
    address = forms.CharField(max_length=200, label="Address of the uncleared sidewalk")
    details = forms.CharField(max_length=500, required=False, label="Details (optional)")
    unoccupied = forms.BooleanField(
        required=False,
        label="Unoccupied lot or abandoned property",
        help_text="§ 303-8B: no written notice need be given to the owner; the 24 hours still apply.",
    )


class UnoccupiedForm(forms.Form):
    unoccupied = forms.BooleanField(
        required=False,
        label="Unoccupied lot or abandoned property",
        help_text="§ 303-8B: no written notice need be given to the owner; the 24 hours still apply.",
    )


class SnowfallForm(forms.ModelForm):
    stopped_at = forms.DateTimeField(
        widget=DATETIME_WIDGET, label="Snow stopped at", help_text="§ 303-8A: owners have 24 hours from this time."
    )

    class Meta:
        model = Snowfall
        fields = ["stopped_at", "inches", "notes"]


class ClearingForm(forms.Form):
    at = forms.DateTimeField(
        widget=DATETIME_WIDGET, label="Cleared at", help_text="§ 303-8B: at least 24 hours after the snow stopped."
    )
    notes = forms.CharField(max_length=500, required=False, label="Crew notes")


class CloseCaseForm(forms.Form):
    status = forms.ChoiceField(
        choices=[("owner_cleared", "Cleared by the owner"), ("dismissed", "Dismissed")], label="Close as"
    )
    notes = forms.CharField(max_length=500, required=False, label="Notes")


class AssignParcelForm(forms.Form):
    tax_key = forms.CharField(max_length=40, label="Tax key number of the parcel")

    def clean_tax_key(self):
        parcel = Parcel.objects.filter(tax_key=self.cleaned_data["tax_key"].strip()).first()
        if parcel is None:
            raise forms.ValidationError("No parcel has that tax key number.")
        return parcel


class RubbishNoticeForm(forms.Form):
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


class RubbishRemovalForm(forms.Form):
    at = forms.DateTimeField(widget=DATETIME_WIDGET, label="Removed at")
    cost = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0, label="Cost to the Village ($)")
