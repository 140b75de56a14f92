"""Thin views of online payment: the pay pages, the card step, the result, the gateway's callbacks, and the
Clerk-Treasurer's pages (online payments, refunds, the daily settlement)."""

from __future__ import annotations

from datetime import date
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from payments import PaymentError, RedirectNeeded
from payments import urls as gateway

from permits.access import get_permit_for, require_role
from permits.forms import service_result
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import Payment
from permits.online_payments import services
from permits.online_payments import settlement as settlement_service
from permits.online_payments.forms import ReceiptRefundForm, ReconcileForm, RefundForm
from permits.online_payments.models import OnlinePayment, SettlementDay
from permits.paging import page_of
from permits.pdf import render_pdf
from permits.roles import Role
from permits.spreadsheet import writer as csv_writer

CLERK_ONLY = "open the Clerk-Treasurer's payment pages"


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def _card_payment_started(request, start, subject):
    """A post on a pay page starts the card payment: (the redirect to the card page, []), or (None, the refusal's
    messages); a plain look at the page is (None, [])."""
    if request.method != "POST":
        return None, []
    try:
        op = start(subject, by=request.user, base_url=_base_url(request))
    except ValidationError as error:
        return None, error.messages
    return redirect("online_payments:card", token=op.token), []


def _disabled(request, back: str):
    messages.info(request, "Online payment is not available; pay the Clerk-Treasurer at the Village Hall.")
    return redirect(back)


@login_required
@require_http_methods(["GET", "POST"])
def pay_permit(request, number):
    permit = get_permit_for(request.user, number)
    if not services.online_payments_enabled():
        return _disabled(request, permit.get_absolute_url())
    if not services.may_pay_permit(request.user, permit):
        raise PermissionDenied("Only the applicant (or the applicant's organization) pays a permit's fee online.")
    started, errors = _card_payment_started(request, services.start_permit_payment, permit)
    if started is not None:
        return started
    balance = permit.balance_due_as_stored()
    from permits.online_payments import rules

    refusal = [
        v.message
        for v in rules.permit_payable_violations(status=permit.status, balance_due=balance, number=permit.number)
    ]
    context = {
        "subject": permit,
        "title": f"Pay the fee of {permit.number}",
        "back_url": permit.get_absolute_url(),
        "lines": services.permit_lines(permit),
        "total_owed": permit.fee_amount,
        "paid": permit.paid_as_stored(),
        "balance": balance,
        "fee": services.convenience_fee(timezone.localdate()),
        "errors": errors or refusal,
        "payable": not refusal,
    }
    context["charge_total"] = context["balance"] + context["fee"]
    return render(request, "permits/online_payments/pay.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def pay_charge(request, number):
    charge = SpecialCharge.objects.select_related("parcel").filter(number=number).first()
    if charge is None or not services.may_pay_charge(request.user, charge):
        raise Http404("No such charge")
    if not services.online_payments_enabled():
        return _disabled(request, charge.get_absolute_url())
    started, errors = _card_payment_started(request, services.start_charge_payment, charge)
    if started is not None:
        return started
    from permits.online_payments import rules

    balance = charge.balance_due
    refusal = [
        v.message
        for v in rules.charge_payable_violations(
            status=charge.status, status_label=charge.get_status_display(), balance_due=balance, number=charge.number
        )
    ]
    context = {
        "subject": charge,
        "title": f"Pay special charge {charge.number}",
        "back_url": charge.get_absolute_url(),
        "lines": [(f"{charge.description} ({charge.get_source_display()}; {charge.citation})", charge.amount)],
        "total_owed": charge.amount,
        "paid": charge.amount_paid,
        "balance": balance,
        "fee": services.convenience_fee(timezone.localdate()),
        "errors": errors or refusal,
        "payable": not refusal,
        "full_balance_note": True,
    }
    context["charge_total"] = context["balance"] + context["fee"]
    return render(request, "permits/online_payments/pay.html", context)


def _own_payment(request, token) -> OnlinePayment:
    op = OnlinePayment.objects.select_related("permit", "charge").filter(token=str(token)).first()
    if op is None or op.payer_id != request.user.pk:
        raise Http404("No such payment")
    return op


@login_required
@require_http_methods(["GET", "POST"])
def card(request, token):
    """The card step: the gateway's page (Stripe Checkout: a redirect) or the test provider's form."""
    op = _own_payment(request, token)
    if op.outcome != OnlinePayment.Outcome.OPEN:
        return redirect("online_payments:result", token=op.token)
    try:
        form = op.get_form(data=request.POST or None)
    except RedirectNeeded as redirect_to:
        return HttpResponseRedirect(str(redirect_to))
    except PaymentError as error:
        messages.error(request, f"The card gateway did not answer ({error}). Nothing was charged; try again later.")
        return redirect("online_payments:result", token=op.token)
    return render(request, "permits/online_payments/card.html", {"op": op, "form": form})


@login_required
def result(request, token):
    op = services.check_with_gateway(_own_payment(request, token))
    receipt_url = ""
    if op.receipt_payment_id:
        receipt_url = reverse("permits:receipt_pdf", args=[op.receipt_payment.receipt_number])
    elif op.receipt_charge_payment_id:
        receipt_url = reverse(
            "ledger:charge_receipt_pdf", args=[op.charge.number, op.receipt_charge_payment.receipt_number]
        )
    back = op.permit.get_absolute_url() if op.permit_id else op.charge.get_absolute_url()
    return render(
        request, "permits/online_payments/result.html", {"op": op, "receipt_url": receipt_url, "back_url": back}
    )


# --- The gateway's callbacks -----------------------------------------------------------------------------------


@csrf_exempt
def gateway_process(request, token):
    """The per-payment callback address, public and CSRF-exempt. Only the demo's test provider uses it (its 3-D
    Secure step); Stripe Checkout reports to the webhook alone, so for its payments this address does not exist
    (a signed event for one payment posted here once confirmed another)."""
    op = OnlinePayment.objects.filter(token=str(token)).only("variant").first()
    if op is None or not services.uses_per_payment_callback(op.variant):
        raise Http404("No such payment")
    return gateway.process_data(request, str(token))


@csrf_exempt
@require_POST
def gateway_webhook(request, variant):
    """The gateway's webhook: django-payments' static callback, whose provider verifies the signature (Stripe:
    stripe.Webhook.construct_event). A tampered or unsigned confirmation is refused with 400 and changes nothing."""
    try:
        return gateway.static_callback(request, variant)
    except NotImplementedError:
        # The demo's dummy provider has no webhook: nothing to confirm here (it was a 500).
        return JsonResponse({"error": "This payment gateway takes no confirmations at this address."}, status=404)
    except Exception as error:  # noqa: BLE001 - stripe.SignatureVerificationError, a payload that is not JSON ...
        if type(error).__name__ in {"SignatureVerificationError", "ValueError", "JSONDecodeError", "KeyError"}:
            return JsonResponse({"error": "Confirmation refused: its signature or payload is not valid."}, status=400)
        raise


# --- The Clerk-Treasurer's pages ---------------------------------------------------------------------------------


@login_required
def office_list(request):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    qs = OnlinePayment.objects.select_related("permit", "charge", "payer", "receipt_payment", "receipt_charge_payment")
    outcome = request.GET.get("outcome", "")
    if outcome in OnlinePayment.Outcome.values:
        qs = qs.filter(outcome=outcome)
    page = page_of(request, qs.order_by("-created", "-pk"))
    held = OnlinePayment.objects.filter(outcome=OnlinePayment.Outcome.HELD).count()
    return render(
        request,
        "permits/online_payments/office_list.html",
        {"page": page, "outcome": outcome, "outcomes": OnlinePayment.Outcome.choices, "held": held},
    )


@login_required
@require_http_methods(["GET", "POST"])
def refund_online(request, token):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    op = get_object_or_404(OnlinePayment.objects.select_related("permit", "charge"), token=str(token))
    form = RefundForm(request.POST or None)
    if request.method == "POST":
        refund = service_result(form, partial(services.refund_online_payment, op, by=request.user))
        if refund is not None:
            messages.success(request, f"${refund.amount} refunded to the card.")
            return redirect("online_payments:office_list")
    return render(request, "permits/online_payments/refund.html", {"op": op, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def refund_receipt(request, receipt_number):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    record = (
        Payment.objects.select_related("permit").filter(receipt_number=receipt_number).first()
        or ChargePayment.objects.select_related("charge").filter(receipt_number=receipt_number).first()
    )
    if record is None:
        raise Http404("No such receipt")
    form = ReceiptRefundForm(request.POST or None)
    if request.method == "POST":
        refund = service_result(form, partial(services.refund_receipt, receipt_number, by=request.user))
        if refund is not None:
            messages.success(request, f"{refund.get_kind_display()} of receipt {receipt_number} recorded.")
            target = record.permit if isinstance(record, Payment) else record.charge
            return redirect(target.get_absolute_url())
    return render(request, "permits/online_payments/refund.html", {"record": record, "form": form})


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise Http404("No such day") from None


@login_required
def settlements(request):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    page = page_of(request, SettlementDay.objects.select_related("reconciled_by").order_by("-day"))
    # A reconciled day is frozen as reconciled; any other is shown as its receipts stand now, as its own page shows it.
    live = settlement_service.live_summaries([s.day for s in page if not s.reconciled_at])
    rows = [(s, s.totals if s.reconciled_at else live[s.day]) for s in page]
    return render(
        request,
        "permits/online_payments/settlements.html",
        {"page": page, "rows": rows, "today": timezone.localdate()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def settlement(request, day):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    day = _day(day)
    form = ReconcileForm(request.POST or None)
    if request.method == "POST" and service_result(
        form, partial(settlement_service.reconcile_settlement, day, by=request.user), aliases={"payout": "payout"}
    ):
        messages.success(request, f"Settlement of {day:%B %-d, %Y} reconciled.")
        return redirect("online_payments:settlement", day=day.isoformat())
    record = SettlementDay.objects.filter(day=day).first()
    if record is None or not record.reconciled_at:
        record = settlement_service.build_settlement(day)
    receipts = page_of(request, settlement_service.receipts_of(day), per_page=50)
    receipts.object_list = settlement_service.receipts_in_words(list(receipts.object_list))
    return render(
        request,
        "permits/online_payments/settlement.html",
        {
            "settlement": record,
            "totals": settlement_service.in_words(record.totals),
            "receipts": receipts,
            "form": form,
            "day": day,
        },
    )


def _rows(day: date):
    yield ["Receipt", "Received", "For", "Fee item", "Method", "Reference", "Amount", "Convenience fee"]
    for row in settlement_service.receipts_of(day):
        yield [
            row["receipt"],
            row["at"].isoformat(),
            row["for"],
            row["fee_item"],
            row["method"],
            row["reference"],
            str(row["amount"]),
            str(row["convenience_fee"]),
        ]


@login_required
def settlement_csv(request, day):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    day = _day(day)
    totals = settlement_service.compute_totals(day)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="settlement-{day.isoformat()}.csv"'
    writer = csv_writer(response)
    for row in _rows(day):
        writer.writerow(row)
    writer.writerow([])
    for method, amount in totals["by_method"].items():
        writer.writerow(["Total", "", "", "", method, "", amount, ""])
    for item, amount in totals["by_fee_item"].items():
        writer.writerow(["Total", "", "", item, "", "", amount, ""])
    writer.writerow(["Total", "", "", "", "all receipts", "", totals["receipts_total"], totals["convenience_fees"]])
    writer.writerow(["Expected gateway payout", "", "", "", "", "", totals["expected_gateway_payout"], ""])
    return response


@login_required
def settlement_pdf(request, day):
    require_role(request.user, Role.CLERK, action=CLERK_ONLY)
    day = _day(day)
    pdf = render_pdf(
        "pdf/settlement.html",
        {
            "day": day,
            "totals": settlement_service.in_words(settlement_service.compute_totals(day)),
            "receipts": settlement_service.receipts_in_words(settlement_service.receipts_of(day)),
        },
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="settlement-{day.isoformat()}.pdf"'
    return response
