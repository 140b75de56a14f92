"""The forms of the public map (filters, subscription) and of the staff pages (place a permit, conflicts seen)."""

from __future__ import annotations

from django import forms

from permits.input_limits import LimitedForm
from permits.kinds import all_types
from permits.models import Street

DATE = forms.DateInput(attrs={"type": "date"})


class MapFilterForm(LimitedForm):
    kinds = forms.MultipleChoiceField(
        label="Permit types", required=False, widget=forms.CheckboxSelectMultiple, choices=()
    )
    street = forms.ModelChoiceField(
        label="Street", required=False, queryset=Street.objects.order_by("name"), empty_label="All streets"
    )
    date_from = forms.DateField(
        label="From", required=False, widget=DATE, help_text="Works still on from this day (default: today)"
    )
    date_to = forms.DateField(label="To", required=False, widget=DATE, help_text="Works that begin by this day")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kinds"].choices = [(t.kind, t.title) for t in all_types()]

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", "The “To” date is before the “From” date.")
        return data


class SubscribeForm(LimitedForm):
    email = forms.EmailField(label="Your email address", help_text="We send a link to confirm it first.")
    street = forms.ModelChoiceField(label="Street", queryset=Street.objects.order_by("name"))
    address_number = forms.IntegerField(
        label="House number (optional)",
        required=False,
        min_value=1,
        max_value=99999,
        help_text="Only permits at this address; leave empty for the whole street.",
    )


class PlaceForm(LimitedForm):
    segments = forms.MultipleChoiceField(
        label="Street segments the work is on", required=False, widget=forms.CheckboxSelectMultiple, choices=()
    )
    geometry = forms.JSONField(
        label="Or a point or line drawn on the map (GeoJSON)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text='Click the map to draw; or type e.g. {"type": "Point", "coordinates": [-88.452, 43.517]}',
    )

    def __init__(self, *args, segments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["segments"].choices = [(str(s.pk), str(s)) for s in segments]

    def clean(self):
        data = super().clean()
        if not data.get("segments") and not data.get("geometry"):
            raise forms.ValidationError("Choose at least one segment, or draw a point or a line on the map.")
        return data


class ConflictReviewForm(LimitedForm):
    accepts_closure = forms.BooleanField(
        label="I accept this street use closure over the street opening work listed (§ 303-15A)", required=False
    )
    note = forms.CharField(
        label="Note (optional)", required=False, widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )
