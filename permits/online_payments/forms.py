from django import forms

from permits.input_limits import LimitedForm
from permits.online_payments.models import Refund


class RefundForm(LimitedForm):
    reason = forms.CharField(
        label="Reason for the refund",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Kept on the permit's or the charge's record (§ 303-4F(2)).",
    )


class ReceiptRefundForm(RefundForm):
    kind = forms.ChoiceField(
        label="Refund or void",
        choices=Refund.Kind.choices,
        widget=forms.RadioSelect,
        initial=Refund.Kind.REFUND,
        help_text="A void undoes a receipt issued in error today.",
    )
    reference = forms.CharField(label="Village check number (if refunded by check)", max_length=80, required=False)


class ReconcileForm(LimitedForm):
    payout = forms.DecimalField(
        label="Gateway payout for the day ($)",
        max_digits=10,
        decimal_places=2,
        min_value=0,
        help_text="As shown in the gateway's payout report.",
    )
    note = forms.CharField(
        label="Note",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required when the payout differs from the card payments of the day.",
    )
