"""Forms of the street opening permit. They validate input; the rules of permits.street_opening.rules decide,
through the same check the API runs (services.check_application), so the web and the API show the same messages."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils import timezone

from permits.forms import add_violations  # noqa: F401  (re-exported for this type's views)
from permits.forms_shared import applying_for, offer_organizations
from permits.input_limits import LimitedForm, LimitedModelForm
from permits.models import Organization, Payment, Street
from permits.street_opening import rules as ordinance
from permits.street_opening.models import Surface, TrafficControl
from permits.street_opening.services import check_application

DATE = forms.DateInput(attrs={"type": "date"})
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
MONEY = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal(0)}


def _map_point(axis: str, limit: int) -> forms.DecimalField:
    """One coordinate of the optional map point, in degrees within +/- `limit`."""
    return forms.DecimalField(
        max_digits=9,
        decimal_places=6,
        min_value=-limit,
        max_value=limit,
        required=False,
        label=f"Map point: {axis}",
        help_text="Optional.",
    )


class StreetOpeningForm(LimitedForm):
    organization = applying_for()
    street = forms.ModelChoiceField(queryset=Street.objects.all(), empty_label="Choose a street")
    location_description = forms.CharField(
        max_length=300,
        required=False,
        label="Location on the street",
        help_text='Address range or cross streets, e.g. "in front of 118 Henni Street".',
    )
    map_latitude = _map_point("latitude", 90)
    map_longitude = _map_point("longitude", 180)
    work_description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Nature of the work"
    )
    method = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Method of the work",
        help_text="E.g. open cut with saw-cut edges, boring.",
    )
    start_date = forms.DateField(widget=DATE, required=False, label="Planned start date")
    end_date = forms.DateField(widget=DATE, required=False, label="Planned end date")
    surface = forms.ChoiceField(choices=Surface.choices, label="Surface to be opened")
    existing_pavement_inches = forms.DecimalField(
        max_digits=5,
        decimal_places=2,
        required=False,
        min_value=Decimal(0),
        label="Existing pavement thickness (inches)",
        help_text="Needed for pavement and sidewalk (§ 303-5G).",
    )
    utility_interruption = forms.BooleanField(
        required=False, label="Utility service to private properties will be interrupted (§ 303-5B(5))"
    )
    near_existing_patch = forms.BooleanField(
        required=False,
        label="The opening is within, next to or close to an existing patch, or one of several "
        "openings close together (§ 303-5C(2))",
    )
    nearby_openings = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Existing patches and other openings nearby"
    )
    emergency = forms.BooleanField(required=False, label="This is an emergency already under way (§ 303-5H)")
    emergency_began_on = forms.DateField(widget=DATE, required=False, label="Date the emergency work began")
    underground_utility = forms.BooleanField(required=False, label="Underground utility construction (§ 303-1C)")
    underground_depth_feet = forms.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal(0),
        required=False,
        label="Depth of the top of the construction below grade (feet)",
    )
    lanes_open_each_way = forms.IntegerField(
        min_value=0,
        max_value=9,
        required=False,
        initial=1,
        label="Lanes of traffic kept open in each direction",
        help_text="At least one lane each way must stay open unless the Director of Public Works approves "
        "otherwise (§ 303-5B(3)).",
    )
    traffic_control = forms.ChoiceField(
        choices=TrafficControl.choices,
        required=False,
        initial=TrafficControl.NONE,
        label="Traffic control",
        help_text="With no lane open each way, a flagman or a temporary traffic signal is required (§ 303-5B(3)).",
    )
    insurance_per_person = forms.DecimalField(label="Liability insurance per person ($)", **MONEY)
    insurance_per_accident = forms.DecimalField(label="Liability insurance per accident ($)", **MONEY)
    insurance_property_damage = forms.DecimalField(label="Property damage coverage ($)", **MONEY)
    insurance_expires = forms.DateField(widget=DATE, label="Insurance expires on")
    annual_bond = forms.TypedChoiceField(
        choices=[
            ("1", "Our annual bond on file with the Clerk-Treasurer (§ 303-4H(5))"),
            ("0", "A bond for this permit, which I will upload (§ 303-4H(3))"),
        ],
        coerce=lambda v: v == "1",
        widget=forms.RadioSelect,
        label="Bond",
        initial="1",
    )
    diggers_hotline_ticket = forms.CharField(max_length=40, required=False, label="Diggers Hotline ticket number")
    diggers_hotline_requested_at = forms.DateTimeField(
        widget=DATETIME, required=False, label="Time the locate was requested"
    )
    diggers_hotline_legal_start = forms.DateField(
        widget=DATE,
        required=False,
        label="Legal start date on the ticket",
        help_text="Leave empty to use 3 working days after the request.",
    )
    statement_undertakings = forms.MultipleChoiceField(
        choices=list(ordinance.UNDERTAKINGS.items()),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Indemnity and guarantee statement (§ 303-4H(1)): tick each undertaking",
    )
    statement_signed_by = forms.CharField(max_length=200, required=False, label="Sign by typing your full name")
    # Offered on the first submit, so a valid application with warnings goes in at once when ticked
    # (warnings never refuse: they are written on the permit's timeline at filing). Unticked, the warnings are shown
    # as a warning to confirm, not as an error.
    acknowledge_warnings = forms.BooleanField(
        required=False,
        label="If this application gets warnings, I have read them and still want to submit",
        help_text="Warnings do not stop an application (a street repaved within five years, a locate ticket that "
        "will be stale when work starts...). Each one is kept on the permit's timeline.",
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.warnings: list[ordinance.Violation] = []
        offer_organizations(self, user)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data  # the rules need well-formed values; the field errors come first
        now = timezone.now()
        checked = check_application(
            data, applicant=self.user, organization=data.get("organization"), today=timezone.localdate(now), now=now
        )
        add_violations(self, checked.errors)
        self.warnings = checked.warnings
        if checked.warnings and not data.get("acknowledge_warnings"):
            self.add_error(
                "acknowledge_warnings",
                "Read the warnings under “Before you submit: warnings” at the top of the form, then tick this box "
                "to submit anyway.",
            )
        return data

    @property
    def only_warnings_to_confirm(self) -> bool:
        """Valid except for the acknowledgement: a warning to confirm, not an error."""
        return bool(self.errors) and set(self.errors) == {"acknowledge_warnings"}


class ReviewForm(LimitedForm):
    """No fields: the clerk or the DPW confirms the information is sufficient (§ 303-4B)."""


class ApproveForm(LimitedForm):
    conditions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Conditions of approval (§ 303-1C(2), § 303-5C(4))",
    )
    approve_plans = forms.BooleanField(
        required=False, label="I approve the underground construction plans (§ 303-1C(3))"
    )
    approve_lane_closure = forms.BooleanField(
        required=False,
        label="I approve keeping no lane open in each direction (§ 303-5B(3))",
        help_text="Only when the application keeps no lane open each way; a flagman or a temporary traffic signal "
        "is then required (§ 303-5B(3)). Recorded with your name and the time as a condition of approval.",
    )
    approve_emergency_work = forms.BooleanField(
        required=False,
        label="I approve the emergency underground construction (§ 303-1C(7))",
        help_text="For underground construction begun in an emergency: the work cannot be completed until the "
        "Director of Public Works approves it (§ 303-1C(7)).",
    )


class StaffPaymentForm(LimitedModelForm):
    class Meta:
        model = Payment
        fields = ["amount", "method", "reference"]


class RenewForm(LimitedForm):
    work_begun_on = forms.DateField(widget=DATE, label="Date the work began")
    note = forms.CharField(required=False, max_length=300)


class BondAmountForm(LimitedForm):
    amount = forms.DecimalField(
        min_value=0.01,
        max_digits=10,
        decimal_places=2,
        label="Amount of the bond filed for this permit ($)",
        help_text="As written on the bond document (§ 303-4H(3)): it counts only at or above the Board's amount.",
    )


class ReasonForm(LimitedForm):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label="Why")


class TicketForm(LimitedForm):
    number = forms.CharField(max_length=40, label="Diggers Hotline ticket number")
    contractor = forms.CharField(
        max_length=200,
        required=False,
        label="Contractor (excavator) on the ticket",
        help_text="Leave empty for the permittee.",
    )
    requested_at = forms.DateTimeField(widget=DATETIME, label="Time the locate was requested")
    legal_start = forms.DateField(widget=DATE, required=False, label="Legal start date")


class RenewalRequestForm(LimitedForm):
    """§ 303-4E: the permittee's written request for a thirty-day renewal."""

    work_begun_on = forms.DateField(widget=DATE, label="Date the work began")
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=1000,
        label="Why the work will continue beyond the validity",
        help_text="Your written request to the Clerk-Treasurer or the Director of Public Works (§ 303-4E).",
    )


class DecideRenewalForm(LimitedForm):
    """§ 303-4E: the Clerk-Treasurer or the DPW grants or refuses the written request."""

    decision = forms.ChoiceField(
        choices=[("grant", "Grant: add the renewal fee"), ("refuse", "Refuse")], widget=forms.RadioSelect
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=1000,
        label="Note (required to refuse: the permittee is told why)",
    )


class ApproveWithDatesForm(LimitedForm):
    """§ 303-4D: approve now with planned dates the 30-day validity covers (agreed with the applicant)."""

    start_date = forms.DateField(widget=DATE, label="New planned start")
    end_date = forms.DateField(widget=DATE, label="New planned end")
    conditions = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, label="Conditions of approval"
    )


class EmergencyReportForm(LimitedForm):
    """§ 303-5H: tell the Village office at once of emergency work begun without a permit."""

    organization = applying_for("Reporting for")
    street = forms.ModelChoiceField(queryset=Street.objects.all(), empty_label="Choose a street")
    location_description = forms.CharField(max_length=300, label="Location on the street")
    began_on = forms.DateField(widget=DATE, label="Date the emergency work began")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        orgs = Organization.objects.filter(memberships__user=user)
        self.fields["organization"].queryset = orgs
        first = orgs.order_by("pk").first()
        if first is not None:  # § 303-5H: an emergency is the utility's, so its staff report for it
            self.fields["organization"].initial = first.pk


class InsuranceRenewalForm(LimitedForm):
    """§ 303-4G: a renewed certificate of insurance, recorded on the permit after filing."""

    insurance_expires = forms.DateField(widget=DATE, label="Date the renewed insurance expires")
    certificate = forms.FileField(
        label="Renewed certificate of insurance (PDF, JPEG or PNG, at most 10 MB)",
        help_text="The Clerk-Treasurer reviews it like the certificate filed with the application (§ 303-4G).",
    )

    def clean_certificate(self):
        from permits.uploads import inspect_upload

        upload = self.cleaned_data["certificate"]
        inspect_upload(upload)
        return upload


class AnnualBondForm(LimitedForm):
    """§ 303-4H(5): a contractor's annual bond, recorded by the Clerk-Treasurer."""

    organization = forms.ModelChoiceField(
        queryset=Organization.objects.order_by("name"), label="Principal (the contractor or utility)"
    )
    year = forms.IntegerField(
        min_value=2000, max_value=2100, label="Year covered", help_text="January 1 to December 31 (§ 303-4H(5))."
    )
    surety = forms.CharField(max_length=200, label="Surety")
    bond_number = forms.CharField(
        max_length=60, required=False, label="Bond number (the reference on the bond document)"
    )
    amount = forms.DecimalField(
        min_value=Decimal("0.01"),
        max_digits=12,
        decimal_places=2,
        label="Amount of the bond ($)",
        help_text="At least the amount the Village Board determined (§ 303-4H(5)).",
    )
