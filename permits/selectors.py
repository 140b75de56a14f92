"""Who may see what. Every view and API call fetches permits through these."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import DecimalField, Exists, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from permits.models import Membership, Payment, Permit
from permits.roles import is_village_staff


def with_paid_total(qs: QuerySet[Permit]) -> QuerySet[Permit]:
    """Annotate `paid_total` (used by Permit.amount_paid / balance_due) with one subquery per row.

    A subquery rather than Sum("payments__amount"): a join-and-sum is multiplied by any other join in the query
    (an organization with three staff once tripled a permit's payments). A refunded or voided payment is not paid
    (a Refund is of the whole payment, at most one per payment: the join adds no rows).
    """
    paid = (
        Payment.objects.filter(permit=OuterRef("pk"), refunds__isnull=True)
        .order_by()
        .values("permit")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    money = DecimalField(max_digits=12, decimal_places=2)
    return qs.annotate(
        paid_total=Coalesce(Subquery(paid, output_field=money), Value(Decimal("0.00")), output_field=money)
    )


def organization_ids_of(user) -> list[int]:
    """The user's organizations' ids, fetched once per request (kept on the user object)."""
    if not hasattr(user, "_organization_ids"):
        user._organization_ids = list(Membership.objects.filter(user=user).values_list("organization_id", flat=True))
    return user._organization_ids


def permits_visible_to(user) -> QuerySet[Permit]:
    """Village staff see every permit; anyone else sees their own and their organizations' applications."""
    qs = with_paid_total(Permit.objects.select_related("street", "organization", "applicant"))
    if not getattr(user, "is_authenticated", False):
        return qs.none()
    if is_village_staff(user):
        return qs
    # The organization ids fetched first (one small query), not a subquery: PostgreSQL plans
    # `organization_id IN (SELECT ...)` as a hashed SubPlan over every permit (a full scan per page); with
    # the ids as literals it uses the (applicant, created_at) and (organization, created_at) indexes. No join, so no
    # duplicate rows and no DISTINCT.
    their_orgs = organization_ids_of(user)
    if not their_orgs:
        return qs.filter(applicant=user)
    return qs.filter(Q(applicant=user) | Q(organization_id__in=their_orgs))


# The columns a permit list shows (templates/permits/_permit_table.html): number and link, type, street and location,
# status, next deadline (status, expiry, balance) and balance due. A list fetches only these and only the street it
# names: building 25 full permits with their applicant and organization is a third of the office list's time under
# load.
LIST_ROW_FIELDS = (
    "number",
    "kind",
    "status",
    "street__name",
    "location_description",
    "expires_on",
    "fee_amount",
    "fee_kept",
)


def list_rows(qs: QuerySet[Permit]) -> QuerySet[Permit]:
    """`qs` (from permits_visible_to) reduced to what a permit list shows, newest first."""
    rows = qs.select_related(None).select_related("street").only(*LIST_ROW_FIELDS).order_by("-created_at")
    return with_information_state(rows)


def _answers_awaiting_review(requests: QuerySet) -> QuerySet:
    """Answered requests the review has not gone on from: no status change of the permit since the answer."""
    from permits.models import PermitEvent

    moved_on = PermitEvent.objects.filter(
        permit=OuterRef("permit"), kind=PermitEvent.Kind.TRANSITION, at__gt=OuterRef("answered_at")
    )
    return requests.filter(answered_at__isnull=False).exclude(Exists(moved_on))


def with_information_state(qs: QuerySet[Permit]) -> QuerySet[Permit]:
    """Annotate the open request for information (`info_question`, `info_asked_at`) and the answer the review has not
    yet gone on from (`info_answered_at`), in the same query: a list shows "The Village asked for information" or
    "Answered" on the row (permits.templatetags.permit_lists)."""
    from permits.models import InformationRequest

    of_permit = InformationRequest.objects.filter(permit=OuterRef("pk")).order_by("-asked_at", "-id")
    waiting = of_permit.filter(answered_at__isnull=True)
    return qs.annotate(
        info_question=Subquery(waiting.values("question")[:1]),
        info_asked_at=Subquery(waiting.values("asked_at")[:1]),
        info_answered_at=Subquery(_answers_awaiting_review(of_permit).values("answered_at")[:1]),
    )


def answered_requests() -> QuerySet:
    """The office's "Answered" queue: requests for information the applicant answered, on permits still pending,
    that the review has not gone on from (no status change since, no newer request), oldest answer first."""
    from permits.applicant.applications import PENDING
    from permits.models import InformationRequest

    newer = InformationRequest.objects.filter(permit=OuterRef("permit"), asked_at__gt=OuterRef("asked_at"))
    answered = _answers_awaiting_review(InformationRequest.objects.filter(permit__status__in=PENDING))
    return answered.exclude(Exists(newer)).select_related("permit").order_by("answered_at")


def with_refund(payments: QuerySet) -> QuerySet:
    """Annotate each payment (core Payment or ledger ChargePayment) with `refund_kind` ("refund", "void" or None) and
    `refunded_at`, for the lists that mark a refunded receipt: in the same query, however many payments."""
    from permits.online_payments.models import Refund

    field = "payment" if payments.model is Payment else "charge_payment"
    refund = Refund.objects.filter(**{field: OuterRef("pk")}).order_by()
    return payments.annotate(
        refund_kind=Subquery(refund.values("kind")[:1]), refunded_at=Subquery(refund.values("refunded_at")[:1])
    )


def document_rejections(permit: Permit) -> dict[str, str]:
    """{kind: the reason} for each kind of document whose every upload was rejected (none on file): what the
    applicant must upload again, and why."""
    from permits.models import Document

    rows = list(permit.documents.order_by("uploaded_at").values_list("kind", "review_status", "review_reason"))
    on_file = {kind for kind, status, _ in rows if status != Document.Review.REJECTED}
    return {kind: reason for kind, status, reason in rows if status == Document.Review.REJECTED and kind not in on_file}
