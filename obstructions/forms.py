"""Forms of the enforcement pages. They validate input; obstructions.rules decides (through obstructions.services)."""

from __future__ import annotations

from django import forms

from obstructions import rules
from obstructions.models import Case
from permits.forms import yes_or_no
from permits.input_limits import LimitedForm
from permits.public_forms import DATE_WIDGET, DATETIME_WIDGET, PublicReportForm

DETAIL_CHOICES = (
    [("", "(not needed for this kind of case)")]
    + [(k, f"Terrace: {v}") for k, v in rules.TERRACE_CONDITIONS.items()]
    + [(k, f"Dumping: {v}") for k, v in rules.DUMPING_PLACES.items()]
    + [(k, f"Drainage: {v}") for k, v in rules.DRAINAGE_WAYS.items()]
)
RECIPIENTS = [(rules.OWNER, "The owner"), (rules.OCCUPANT, "The occupant")]


class MultiplePhotoInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class PhotosField(forms.FileField):
    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data if d]
        return [single(data, initial)] if data else []


class OpenCaseForm(LimitedForm):
    kind = forms.ChoiceField(choices=Case.Kind.choices, label="What kind of case")
    address = forms.CharField(
        max_length=200, label="Address of the premises", help_text="As on the tax roll, e.g. 210 Main Street"
    )
    what = forms.CharField(max_length=500, label="What you saw", widget=forms.Textarea(attrs={"rows": 3}))
    where = forms.CharField(max_length=200, required=False, label="Where exactly (optional)")
    seen_at = forms.DateTimeField(label="When you saw it", widget=DATETIME_WIDGET)
    photos = PhotosField(
        required=False,
        label="Photos (optional)",
        help_text="JPEG, PNG or PDF, at most 10 MB each.",
        widget=MultiplePhotoInput(attrs={"accept": "image/jpeg,image/png,application/pdf", "capture": "environment"}),
    )
    excepting_permit = forms.CharField(
        max_length=30,
        required=False,
        label="Permit number that may except it (optional)",
        help_text="A street privilege permit (§ 303-6B(1)), a materials authorization (§ 303-6B(2)) or a street "
        "opening permit (§ 303-6B(3)).",
    )
    is_fixture = forms.BooleanField(required=False, label="A merchant's fixture on the sidewalk (§ 303-6C)")
    attached = forms.BooleanField(
        required=False, label="The fixture is attached to the sidewalk, a street fixture or the building"
    )
    temporary_design = forms.BooleanField(required=False, initial=True, label="The fixture is of temporary design")
    clear_width_feet = forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=5,
        decimal_places=1,
        label="Unobstructed sidewalk left at the narrowest point, in feet",
        help_text="§ 303-6C(3): at least 3.0 ft.",
    )
    detail = forms.ChoiceField(choices=DETAIL_CHOICES, required=False, label="The condition, place or drainage way")
    permission_from = forms.ChoiceField(
        choices=[("", "No permission recorded"), *RECIPIENTS],
        required=False,
        label="Dumping: express permission given by (§ 303-12)",
    )
    permission_note = forms.CharField(max_length=300, required=False, label="Dumping: how the permission was given")
    neglect_recorded_on = forms.DateField(
        required=False, widget=DATE_WIDGET, label="Street number: day the neglect was first recorded (§ 303-14C)"
    )

    numeral_inches = forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=4,
        decimal_places=2,
        label="Street number: numeral height (inches)",
        help_text="Leave empty when no number is displayed. § 303-14B: at least 2 1/2 in.",
    )
    background_inches = forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=4,
        decimal_places=2,
        label="Street number: background (inches)",
        help_text="§ 303-14B: at least 3 in.",
    )
    contrasting = forms.BooleanField(required=False, label="Street number: in a contrasting color")
    script_font = forms.BooleanField(required=False, label="Street number: in a script-type font")
    by_front_entrance = forms.BooleanField(required=False, label="Street number: by the front entrance")
    visible_from_street = forms.BooleanField(required=False, label="Street number: easily seen from the street")
    abuts_alley = forms.BooleanField(required=False, label="Street number: the building also abuts an alley")
    visible_from_alley = forms.BooleanField(required=False, label="Street number: easily seen from the alley")

    DISPLAY_FIELDS = (
        "numeral_inches",
        "background_inches",
        "contrasting",
        "script_font",
        "by_front_entrance",
        "visible_from_street",
        "abuts_alley",
        "visible_from_alley",
    )

    def service_arguments(self) -> dict:
        """The cleaned data as open_case's arguments: the § 303-14B findings as one `display` dict, when measured."""
        data = dict(self.cleaned_data)
        display = {name: data.pop(name) for name in self.DISPLAY_FIELDS}
        if display["numeral_inches"] is not None:
            data["display"] = display
        return data

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind in {Case.Kind.TERRACE, Case.Kind.DUMPING, Case.Kind.DRAINAGE}:
            allowed = {
                Case.Kind.TERRACE: rules.TERRACE_CONDITIONS,
                Case.Kind.DUMPING: rules.DUMPING_PLACES,
                Case.Kind.DRAINAGE: rules.DRAINAGE_WAYS,
            }[kind]
            if data.get("detail") not in allowed:
                self.add_error(
                    "detail", f"Choose a {Case.Kind(kind).label.split(' (')[0].lower()} condition from the list."
                )
        if data.get("is_fixture") and data.get("clear_width_feet") is None:
            self.add_error("clear_width_feet", "Measure the clear sidewalk left at the narrowest point (§ 303-6C(3)).")
        return data


class ServeNoticeForm(LimitedForm):
    served_to = forms.ChoiceField(choices=RECIPIENTS, label="Notice to")
    served_how = forms.ChoiceField(choices=Case.ServedHow.choices, label="Served how")
    served_at = forms.DateTimeField(
        label="Served at",
        widget=DATETIME_WIDGET,
        required=False,
        help_text="When handed over or posted. Mailed or emailed: leave it; the notice is served when the Village's "
        "own letter is recorded as mailed, or its email sent.",
    )
    days = forms.IntegerField(
        required=False, min_value=1, max_value=90, label="Days to comply (§§ 303-9, 303-12, 303-13 only)"
    )


class ReinspectionForm(LimitedForm):
    at = forms.DateTimeField(label="Re-inspected at", widget=DATETIME_WIDGET)
    complied = yes_or_no("Result", yes="Complied", no="Not complied", widget=forms.Select)
    note = forms.CharField(max_length=400, required=False, label="Note (optional)")


class RemovalForm(LimitedForm):
    removed_at = forms.DateTimeField(label="Removed by the Village at", widget=DATETIME_WIDGET)
    cost = forms.DecimalField(min_value=0, max_digits=10, decimal_places=2, label="Cost of the removal ($)")
    description = forms.CharField(max_length=200, label="What was removed (printed on the bill)")


class ReferralForm(LimitedForm):
    referred_at = forms.DateTimeField(label="Referred at", widget=DATETIME_WIDGET)
    note = forms.CharField(max_length=300, required=False, label="Note (optional)")


class PhotoForm(LimitedForm):
    photo = forms.FileField(
        label="Photo",
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/jpeg,image/png,application/pdf", "capture": "environment"}
        ),
    )
    note = forms.CharField(max_length=300, required=False, label="Caption (optional)")


class CloseForm(LimitedForm):
    reason = forms.CharField(max_length=300, label="Why is there no violation?")


class MatchForm(LimitedForm):
    address = forms.CharField(max_length=200, label="Address of the parcel", help_text="As on the tax roll")
    kind = forms.ChoiceField(choices=Case.Kind.choices, label="What kind of case")


class ComplaintForm(PublicReportForm):
    """The public complaint form (no login), with the snow report's sum and honeypot."""

    address = forms.CharField(
        max_length=200, label="Address nearest the problem", help_text="House number and street, e.g. 210 Main Street"
    )
    details = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="What is blocking the sidewalk, street or drain?",
    )

    field_order = ["address", "details", "contact", "answer", "challenge", "website"]


class StreetNumberForm(LimitedForm):
    address = forms.CharField(max_length=200, label="Address of the parcel", help_text="As on the tax roll")
    number = forms.IntegerField(min_value=1, label="Official number (from the numbering map)")
    suffix = forms.CharField(max_length=4, required=False, label="Suffix (optional)")
    building = forms.CharField(max_length=100, initial="Principal building", label="Building")
    map_reference = forms.CharField(max_length=100, label="Numbering map sheet or grid")


class MaterialsAuthorizationForm(LimitedForm):
    """§ 303-6B(2): the Building Inspector's authorization of building materials without a § 303-7 permit."""

    address = forms.CharField(
        max_length=200, label="Address of the building", help_text="As on the tax roll, e.g. 210 Main Street"
    )
    location_description = forms.CharField(
        max_length=300, label="Where the materials may be kept", help_text='e.g. "curb lane in front of the house"'
    )
    building_permit_number = forms.CharField(max_length=40, required=False, label="Building permit (Chapter 132)")
    starts_on = forms.DateField(widget=DATE_WIDGET, required=False, label="First day authorized")
    ends_on = forms.DateField(widget=DATE_WIDGET, required=False, label="Last day authorized")
    occupied_street_feet = forms.DecimalField(
        min_value=0,
        max_digits=5,
        decimal_places=1,
        required=False,
        label="Traveled street occupied (feet)",
        help_text="At most 1/3 of the traveled width on the street register (§ 303-6B(2)); 0 for none.",
    )
    occupied_sidewalk_feet = forms.DecimalField(
        min_value=0,
        max_digits=4,
        decimal_places=1,
        required=False,
        label="Sidewalk occupied (feet)",
        help_text="At most 1/2 of the sidewalk width on the street register (§ 303-6B(2)); 0 for none.",
    )
    gutter_kept_flowing = forms.BooleanField(
        required=False, initial=True, label="The materials do not interfere with the flow in the gutters"
    )
