"""Stripe Checkout as django-payments' StripeProviderV3 does it, with what a signed event must also prove before it
changes a payment. The library checks only the signature: an event Stripe signed for payment A, posted to payment
B's address, confirmed B; a stray `checkout.session.expired` after the payment was recorded turned its status to
rejected (then it could not be refunded); and duplicate deliveries at once saved stale copies over the settlement.

Here every event is read once, under the payment's row lock, and changes the payment only if it is that payment's
own Checkout Session (its id and client_reference_id) and the payment has no outcome yet.
"""

from __future__ import annotations

from django.http import JsonResponse
from payments.stripe import StripeProviderV3

EVENT_ON_REQUEST = "_theresa_stripe_event"


def event_session(event) -> dict:
    """The Checkout Session an event is about ({} when the payload has none)."""
    try:
        session = event["data"]["object"]
    except (KeyError, TypeError):
        return {}
    return session if isinstance(session, dict) else {}


def event_matches_payment(session: dict, *, transaction_id: str, token: str) -> bool:
    """§ 303-4F(2): the gateway's word counts only for the payment it is about: the event's Checkout Session is the
    one created for this payment (its id is the payment's transaction id) and names the payment (client_reference_id
    is its token). Anything else, however validly signed, is about some other money."""
    return bool(transaction_id) and session.get("id") == transaction_id and session.get("client_reference_id") == token


class StripeCheckoutProvider(StripeProviderV3):
    def return_event_payload(self, request):
        # Verified once per request (the library reads it twice: for the token, then for the data).
        if not hasattr(request, EVENT_ON_REQUEST):
            setattr(request, EVENT_ON_REQUEST, super().return_event_payload(request))
        return getattr(request, EVENT_ON_REQUEST)

    def process_data(self, payment, request):
        from permits.online_payments.models import OnlinePayment

        event = self.return_event_payload(request)  # the signature first: an unsigned post learns nothing
        # One delivery at a time per payment (django-payments runs this inside a transaction): the row is locked
        # and read afresh, so a duplicate delivered at the same moment sees the outcome the first one recorded.
        OnlinePayment.objects.select_for_update().filter(pk=payment.pk).values_list("pk", flat=True).first()
        payment.refresh_from_db()
        if not event_matches_payment(event_session(event), transaction_id=payment.transaction_id, token=payment.token):
            return JsonResponse({"error": "This event is not about this payment; nothing was changed."}, status=400)
        if payment.outcome in OnlinePayment.SETTLED:
            # A retry, a duplicate, or an event after the outcome (an expired session of a paid payment): the
            # money is already accounted for, and the session kept is the one that paid (its payment intent).
            return JsonResponse({"status": "OK", "note": "already settled; nothing changed"})
        return super().process_data(payment, request)
