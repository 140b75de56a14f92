"""Chapter 167, § 303-4F(2): a withdrawn or denied application owes nothing the Village has not kept. What of the fee
is kept is the fee item's "kept when withdrawn or denied" (data the Clerk-Treasurer sets), fixed at submission; what
was paid and not kept is a refund due, recorded by the Clerk-Treasurer from the permit's page. Every place that shows
a balance or a pay link says the same: the permit page, the lists, the clerk's queues, the pay page, the API."""

from decimal import Decimal

import pytest
from django.urls import reverse

from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.online_payments import rules, services
from permits.selectors import permits_visible_to
from permits.services import record_payment, submit_permit
from permits.workflow import transition
from permits.workspace.sources import _refunds_to_make
from tests.factories import FeeItemFactory
from tests.permits.conftest import permit_in
from tests.permits.online_payments.conftest import permit_owing

pytestmark = pytest.mark.django_db
ENDED = [Status.WITHDRAWN, Status.DENIED]


def ended(status, *, applicant, organization, clerk, paid="0.00", kept="0.00"):
    """A $50.00 application found complete, `paid` at the counter, the fee `kept` of it, then withdrawn or denied."""
    permit = permit_owing(applicant=applicant, organization=organization)
    Permit.objects.filter(pk=permit.pk).update(fee_kept=Decimal(kept))
    if Decimal(paid):
        record_payment(permit=permit, amount=Decimal(paid), method="cash", by=clerk)
    transition(permit, status, by=None)
    return permits_visible_to(clerk).get(pk=permit.pk)  # as the lists and pages read it (annotated)


# --- The fee item says what is kept; the application keeps it from its submission ----------------------------------


@pytest.mark.parametrize("kept", [True, False])
def test_chapter_167_submission_fixes_what_is_kept_from_the_fee_item(kept, contractor, contractor_org):
    FeeItemFactory(code="core_fee", amount=Decimal("75.00"), kept_when_withdrawn_or_denied=kept)
    permit = permit_in(Status.DRAFT, applicant=contractor, organization=contractor_org)
    submit_permit(permit, by=contractor, fee_code="core_fee")
    permit.refresh_from_db()
    assert permit.fee_amount == Decimal("75.00")
    assert permit.fee_kept == (Decimal("75.00") if kept else Decimal("0.00"))


# --- The balance and the refund at the boundaries ------------------------------------------------------------------


@pytest.mark.parametrize("status", ENDED)
@pytest.mark.parametrize(
    ("paid", "kept", "refund", "kept_shown"),
    [
        ("0.00", "0.00", "0.00", "0.00"),  # paid nothing: owes nothing, nothing to refund
        ("0.00", "50.00", "0.00", "0.00"),  # paid nothing of a kept fee: still owes nothing
        ("50.00", "0.00", "50.00", "0.00"),  # paid in full, fee not kept: all of it refunded
        ("50.00", "50.00", "0.00", "50.00"),  # paid in full, fee kept: nothing refunded
        ("20.00", "0.00", "20.00", "0.00"),  # paid part, not kept
        ("20.00", "50.00", "0.00", "20.00"),  # paid part of a kept fee: the Village keeps what it has
    ],
)
def test_chapter_167_withdrawn_or_denied_owes_nothing_and_refunds_what_is_not_kept(
    status, paid, kept, refund, kept_shown, contractor, contractor_org, clerk
):
    permit = ended(status, applicant=contractor, organization=contractor_org, clerk=clerk, paid=paid, kept=kept)
    assert permit.balance_due == Decimal("0.00") == permit.balance_due_as_stored()
    assert permit.refund_due == Decimal(refund) == permit.refund_due_as_stored()
    assert permit.amount_kept == Decimal(kept_shown)


def test_303_4f_2_an_open_application_still_owes_its_fee_and_no_refund(contractor, contractor_org, clerk):
    permit = permit_owing(applicant=contractor, organization=contractor_org)
    Permit.objects.filter(pk=permit.pk).update(fee_kept=Decimal("0.00"))
    record_payment(permit=permit, amount=Decimal("20.00"), method="cash", by=clerk)
    permit = permits_visible_to(clerk).get(pk=permit.pk)
    assert permit.balance_due == Decimal("30.00") and permit.refund_due == Decimal("0.00")


# --- Paying a withdrawn or denied application is refused, on every path ---------------------------------------------


@pytest.mark.parametrize("status", ENDED)
def test_303_4f_2_counter_payment_on_withdrawn_or_denied_is_refused(status, contractor, contractor_org, clerk):
    permit = ended(status, applicant=contractor, organization=contractor_org, clerk=clerk)
    with pytest.raises(RulesBroken) as refused:
        record_payment(permit=permit, amount=Decimal("50.00"), method="cash", by=clerk)
    (violation,) = refused.value.violations
    assert violation.code == "ended_without_permit" and violation.citation == "§ 303-4F(2)"
    assert "Chapter 167" in violation.message and "§ 303-4F(2)" in violation.message
    assert permit.payments.count() == 0


@pytest.mark.parametrize("status", ENDED)
def test_303_4f_2_online_payment_of_withdrawn_or_denied_is_refused(status, contractor, contractor_org, clerk, client):
    permit = ended(status, applicant=contractor, organization=contractor_org, clerk=clerk)
    (violation,) = rules.permit_payable_violations(status=permit.status, balance_due=Decimal("50.00"), number="X")
    assert violation.code == "ended_without_permit" and "Chapter 167" in violation.message
    with pytest.raises(RulesBroken, match="Chapter 167"):
        services.start_permit_payment(permit, by=contractor, base_url="http://testserver/")
    client.force_login(contractor)
    page = client.get(reverse("online_payments:pay_permit", args=[permit.number])).content.decode()
    assert "nothing is owed on it" in page
    client.post(reverse("online_payments:pay_permit", args=[permit.number]))
    assert not permit.online_payments.exists()


# --- What each role sees --------------------------------------------------------------------------------------------


def test_chapter_167_applicant_sees_the_refund_due_and_no_pay_link(contractor, contractor_org, clerk, client):
    permit = ended(Status.WITHDRAWN, applicant=contractor, organization=contractor_org, clerk=clerk, paid="50.00")
    client.force_login(contractor)
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    assert "Refund due $50.00" in page
    assert "balance due" not in page.lower().replace("balance or refund due", "")
    assert reverse("online_payments:pay_permit", args=[permit.number]) not in page
    assert "Record the refund" not in page  # the Clerk-Treasurer's, not the applicant's
    listing = client.get(reverse("permits:my_applications")).content.decode()
    assert "Refund due $50.00" in listing


def test_chapter_167_kept_fee_is_shown_as_kept_and_no_refund(contractor, contractor_org, clerk, client):
    permit = ended(
        Status.DENIED, applicant=contractor, organization=contractor_org, clerk=clerk, paid="50.00", kept="50.00"
    )
    client.force_login(contractor)
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    assert "the Village keeps $50.00" in page and "no refund due" in page
    assert "Refund due" not in page


def test_chapter_167_clerk_records_the_refund_from_the_permit_page(contractor, contractor_org, clerk, client):
    permit = ended(Status.WITHDRAWN, applicant=contractor, organization=contractor_org, clerk=clerk, paid="50.00")
    receipt = permit.payments.get().receipt_number
    client.force_login(clerk)
    office = client.get(reverse("permits:office")).content.decode()
    assert "Refund due $50.00" in office
    assert [p.pk for p in _refunds_to_make(clerk, None)] == [permit.pk]
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    link = reverse("online_payments:refund_receipt", args=[receipt])
    assert link in page
    response = client.post(link, {"reason": "Application withdrawn", "kind": "refund", "reference": "7001"})
    assert response.status_code == 302
    permit = permits_visible_to(clerk).get(pk=permit.pk)
    assert permit.refund_due == Decimal("0.00") and permit.balance_due == Decimal("0.00")  # not owed again
    assert list(_refunds_to_make(clerk, None)) == []
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    assert "Refunded" in page and link not in page and "no refund due" in page


@pytest.mark.parametrize("who", ["dpw_director", "building_inspector"])
def test_chapter_167_only_the_clerk_gets_the_refund_link(who, persona, contractor, contractor_org, clerk, client):
    permit = ended(Status.DENIED, applicant=contractor, organization=contractor_org, clerk=clerk, paid="50.00")
    client.force_login(persona(who))
    page = client.get(reverse("permits:detail", args=[permit.number])).content.decode()
    assert "Refund due $50.00" in page and "Record the refund" not in page


def test_chapter_167_api_balance_and_refund_agree_with_the_pages(contractor, contractor_org, clerk, client):
    permit = ended(Status.WITHDRAWN, applicant=contractor, organization=contractor_org, clerk=clerk, paid="50.00")
    client.force_login(contractor)
    body = client.get(f"/api/v1/permits/{permit.number}/").json()
    assert body["balance_due"] == "0.00" and body["refund_due"] == "50.00"
    rows = client.get("/api/v1/permits/").json()
    row = next(r for r in rows["results"] if r["number"] == permit.number)
    assert row["balance_due"] == "0.00" and row["refund_due"] == "50.00"


def test_chapter_167_the_reading_is_on_the_public_rules_page(client):
    page = client.get("/rules/").content.decode()
    assert "kept when withdrawn or denied" in page
