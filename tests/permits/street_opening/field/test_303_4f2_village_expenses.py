"""§ 303-4F(2): "the fee for a street opening permit shall be as prescribed in Chapter 167, Fees, plus actual Village
expenses. Permit fees shall be paid to the Village Clerk-Treasurer who shall issue his receipt therefor." The Village's
labor, equipment and materials, with the receipt for what was bought, are added to the permit fee and billed to the
permittee; the clerk receipts the payment."""

import datetime
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from permits import services
from permits.errors import RulesBroken
from permits.models import Notice
from permits.street_opening.field import rules as r
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import VillageExpense
from tests.upload_samples import PNG

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 6, 15)


def _receipt():
    return SimpleUploadedFile("invoice.png", PNG, content_type="image/png")


def _bill(permit, by, **kw):
    args = dict(
        incurred_on=TODAY,
        description="Flagger and arrow board for the lane closure",
        labor=D("120.00"),
        equipment=D("80.50"),
        materials=D("0"),
        receipt=_receipt(),
        today=TODAY,
    )
    return field_work.bill_village_expenses(permit=permit, by=by, **{**args, **kw})


def _codes(violations):
    return [v.code for v in violations]


def _rule(**kw):
    base = dict(
        labor=D("0"),
        equipment=D("0"),
        materials=D("0"),
        description="Patch",
        incurred_on=TODAY,
        today=TODAY,
        has_receipt=True,
    )
    return r.village_expense_violations(**{**base, **kw})


def test_303_4f2_one_cent_is_an_expense_and_nothing_is_not():
    assert _codes(_rule()) == ["nothing_spent"]
    assert _rule(labor=D("0.01")) == []


def test_303_4f2_equipment_or_materials_need_their_receipt_labor_does_not():
    assert _rule(labor=D("50"), has_receipt=False) == []
    assert _codes(_rule(materials=D("0.01"), has_receipt=False)) == ["receipt_required"]
    assert _codes(_rule(equipment=D("10"), has_receipt=False)) == ["receipt_required"]


def test_303_4f2_spent_today_is_billable_tomorrow_is_not():
    assert _rule(labor=D("1"), incurred_on=TODAY) == []
    got = _rule(labor=D("1"), incurred_on=TODAY + datetime.timedelta(days=1))
    assert _codes(got) == ["future"] and all("§ 303-4F(2)" in v.message for v in got)


def test_303_4f2_negative_amounts_and_no_description_are_refused():
    got = _rule(labor=D("-0.01"), description=" ")
    assert _codes(got) == ["negative", "required"]


def test_303_4f2_the_expenses_are_added_to_the_fee_and_billed_to_the_permittee(issued_permit, dpw_director, contractor):
    before = issued_permit.fee_amount
    expense = _bill(issued_permit, dpw_director)
    issued_permit.refresh_from_db()
    assert expense.total == D("200.50") and issued_permit.fee_amount == before + D("200.50")  # no 20% added
    assert expense.receipt is not None and expense.receipt.permit == issued_permit
    sent = Notice.objects.get(template="field_village_expenses_bill")
    assert sent.to == contractor.email and "§ 303-4F(2)" in sent.body and "$200.50" in sent.body
    assert issued_permit.events.filter(reason__contains="§ 303-4F(2)").exists()


def test_303_4f2_the_clerk_receipts_the_payment(issued_permit, dpw_director, clerk):
    _bill(issued_permit, dpw_director)
    issued_permit.refresh_from_db()
    due = issued_permit.balance_due
    assert due >= D("200.50")
    payment = services.record_payment(permit=issued_permit, amount=due, method="cash", by=clerk)
    assert payment.receipt_number
    issued_permit.refresh_from_db()
    assert issued_permit.balance_due == 0


@pytest.mark.parametrize(
    "persona, may",
    [("dpw_director", True), ("clerk", True), ("inspector", False), ("contractor", False), ("board_member", False)],
)
def test_303_4f2_the_dpw_or_the_clerk_bills(issued_permit, persona, may, request):
    user = request.getfixturevalue(persona)
    if may:
        assert _bill(issued_permit, user).pk
    else:
        with pytest.raises(PermissionDenied):
            _bill(issued_permit, user)
        assert not VillageExpense.objects.exists()


def test_303_4f2_nothing_is_billed_on_an_application(contractor, contractor_org, dpw_director):
    from tests.factories import PermitFactory

    permit = PermitFactory(applicant=contractor, organization=contractor_org)
    before = permit.fee_amount
    with pytest.raises(RulesBroken) as broken:
        _bill(permit, dpw_director)
    assert _codes(broken.value.violations) == ["not_billable"]
    permit.refresh_from_db()
    assert permit.fee_amount == before and not VillageExpense.objects.exists()


def test_303_4f2_a_refused_bill_stores_nothing(issued_permit, dpw_director):
    before = issued_permit.fee_amount
    with pytest.raises(RulesBroken):
        _bill(issued_permit, dpw_director, receipt=None)
    issued_permit.refresh_from_db()
    assert issued_permit.fee_amount == before and not VillageExpense.objects.exists()


def test_303_4f2_the_page_bills_the_expenses(client, issued_permit, dpw_director):
    client.force_login(dpw_director)
    url = reverse("permits:field_village_expenses", args=[issued_permit.number])
    assert client.get(url).status_code == 200
    data = {
        "description": "Cold patch placed by the Village crew",
        "incurred_on": timezone.localdate().isoformat(),
        "labor": "60.00",
        "materials": "45.25",
    }
    refused = client.post(url, data)
    assert refused.status_code == 400 and "receipt" in refused.content.decode()
    response = client.post(url, {**data, "receipt": _receipt()}, follow=True)
    assert "Village expenses billed: $105.25" in response.content.decode()
    assert VillageExpense.objects.get().total == D("105.25")


def test_303_4f2_the_page_is_not_the_inspectors(client, issued_permit, inspector):
    client.force_login(inspector)
    assert client.get(reverse("permits:field_village_expenses", args=[issued_permit.number])).status_code == 403
