"""{% pay_online_link permit %} / {% pay_online_link charge %}: the "Pay online" button, shown only to whoever may
pay (the applicant's side, or an owner of record) and only while something is payable."""

from django import template
from django.urls import reverse

from permits.ledger.models import SpecialCharge
from permits.online_payments import rules, services

register = template.Library()


@register.inclusion_tag("permits/online_payments/_pay_link.html", takes_context=True)
def pay_online_link(context, subject):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not services.online_payments_enabled():
        return {}
    if isinstance(subject, SpecialCharge):
        balance = subject.balance_due
        ok = services.may_pay_charge(user, subject) and not rules.charge_payable_violations(
            status=subject.status, status_label="", balance_due=balance, number=subject.number
        )
        url = reverse("online_payments:pay_charge", args=[subject.number])
    else:
        balance = subject.balance_due
        ok = services.may_pay_permit(user, subject) and not rules.permit_payable_violations(
            status=subject.status, balance_due=balance, number=subject.number
        )
        url = reverse("online_payments:pay_permit", args=[subject.number])
    return {"pay_online_url": url if ok else "", "pay_online_amount": balance}
