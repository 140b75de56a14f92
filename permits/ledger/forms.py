"""Forms of the special-charge and tax-roll pages. They validate input; permits.ledger.rules decides."""

from __future__ import annotations

from django import forms

from permits.input_limits import LimitedForm
from permits.ledger import rules as charge_rules
from permits.ledger.models import ChargePayment

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class ChargePaymentForm(LimitedForm):
    amount = forms.DecimalField(
        max_digits=10,
        decimal_places=2,
        label="Amount ($)",
        help_text="The full balance: no installments (Wis. Stat. § 66.0627(2)).",
    )
    method = forms.ChoiceField(choices=ChargePayment.Method.choices)
    reference = forms.CharField(max_length=60, required=False, label="Check number or card reference")


class BuildRollForm(LimitedForm):
    year = forms.IntegerField(min_value=2000, max_value=2100, label="Tax year")


class HearingForm(LimitedForm):
    hearing_on = forms.DateField(widget=DATE_WIDGET, label="Board hearing date")
    published_on = forms.DateField(widget=DATE_WIDGET, label="Class 1 notice published on")
    mailed_on = forms.DateField(widget=DATE_WIDGET, label="Notice mailed on")
    place = forms.CharField(max_length=200, required=False)


class BulkHearingForm(LimitedForm):
    """Wis. Stat. § 66.0627(3)(b): one Board hearing on several charges. Notices too late are refused, by field."""

    hearing_on = forms.DateField(widget=DATE_WIDGET, label="Board hearing date")
    published_on = forms.DateField(
        widget=DATE_WIDGET,
        label="Class 1 notice published on",
        help_text="At least 20 days before the hearing (Wis. Stat. § 66.0627(3)(b)).",
    )
    mailed_on = forms.DateField(
        widget=DATE_WIDGET,
        label="Notice mailed on",
        help_text="At least 10 days before the hearing (Wis. Stat. § 66.0627(3)(b)).",
    )
    place = forms.CharField(max_length=200, required=False)
    charges = forms.ModelMultipleChoiceField(
        queryset=None,
        to_field_name="number",
        widget=forms.MultipleHiddenInput,
        error_messages={"required": "Select at least one charge the hearing covered."},
    )

    def __init__(self, *args, eligible=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["charges"].queryset = eligible

    def clean(self):
        data = super().clean()
        if all(data.get(f) for f in ("hearing_on", "published_on", "mailed_on")):
            for field, message in charge_rules.hearing_notice_field_errors(
                data["hearing_on"], data["published_on"], data["mailed_on"]
            ).items():
                self.add_error(field, message)
        return data


class AssessmentForm(LimitedForm):
    """§ 303-3B(2), Wis. Stat. § 66.0703: a special assessment proceeding over pending assessments."""

    title = forms.CharField(max_length=200, label="Project", help_text="As the notice will name it.")
    charges = forms.ModelMultipleChoiceField(
        queryset=None,
        to_field_name="number",
        widget=forms.CheckboxSelectMultiple,
        label="Assessments in the schedule",
        error_messages={"required": "Select at least one assessment."},
    )

    def __init__(self, *args, eligible=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["charges"].queryset = eligible
        self.fields["charges"].label_from_instance = lambda c: f"{c.number}: {c.parcel.site_address}, ${c.amount}"


class EngineersReportForm(LimitedForm):
    filed_on = forms.DateField(widget=DATE_WIDGET, label="Filed with the Clerk-Treasurer on")
    report = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Engineer's report",
        help_text="Plans and specifications, the estimate, and the schedule of assessments (Wis. Stat. § 66.0703(5)).",
    )


class AssessmentNoticeForm(LimitedForm):
    hearing_on = forms.DateField(widget=DATE_WIDGET, label="Public hearing on")
    published_on = forms.DateField(
        widget=DATE_WIDGET,
        label="Class 1 notice published on",
        help_text="10 to 40 days before the hearing (Wis. Stat. § 66.0703(7)(a)).",
    )
    mailed_on = forms.DateField(
        widget=DATE_WIDGET,
        label="Notice mailed to the owners on",
        help_text="At least 10 days before the hearing (Wis. Stat. § 66.0703(7)(a)).",
    )
    place = forms.CharField(max_length=200, required=False, label="Place of the hearing")
