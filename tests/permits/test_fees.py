"""The fee schedule (Chapter 167 amounts as data) and the fee kept with each application."""

import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from permits.fees import FeeNotConfigured, fee_in_force
from permits.models import FeeItem, Permit, Status
from permits.services import add_fee, submit_permit
from tests.factories import FeeItemFactory, PermitFactory

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def schedule():
    FeeItem.objects.all().delete()  # the placeholder fees seeded by migration
    old = FeeItemFactory(
        amount=Decimal("50.00"),
        effective_from=D(2025, 1, 1),
        effective_to=D(2025, 12, 31),
    )
    new = FeeItemFactory(amount=Decimal("75.00"), effective_from=D(2026, 1, 1))
    return old, new


def test_fee_in_force_on_its_first_day(schedule):
    assert fee_in_force("street_opening", D(2025, 1, 1)).amount == Decimal("50.00")


def test_fee_not_in_force_the_day_before(schedule):
    with pytest.raises(FeeNotConfigured, match="December 31, 2024"):
        fee_in_force("street_opening", D(2024, 12, 31))


def test_fee_in_force_on_its_last_day_inclusive(schedule):
    assert fee_in_force("street_opening", D(2025, 12, 31)).amount == Decimal("50.00")


def test_next_fee_in_force_the_day_after(schedule):
    assert fee_in_force("street_opening", D(2026, 1, 1)).amount == Decimal("75.00")


def test_open_ended_fee_stays_in_force(schedule):
    assert fee_in_force("street_opening", D(2040, 6, 1)).amount == Decimal("75.00")


def test_gap_after_effective_to_means_no_fee():
    FeeItem.objects.all().delete()
    FeeItemFactory(effective_from=D(2025, 1, 1), effective_to=D(2025, 6, 30))
    with pytest.raises(FeeNotConfigured):
        fee_in_force("street_opening", D(2025, 7, 1))


def test_unknown_code_is_not_configured(schedule):
    with pytest.raises(FeeNotConfigured, match="no_such_fee"):
        fee_in_force("no_such_fee", D(2026, 1, 1))


def test_seeded_placeholder_fees_exist_for_every_code():
    codes = {
        "street_opening",
        "street_opening_renewal",
        "backfill_retest",
        "sidewalk",
        "street_privilege",
        "street_use",
        "snow_removal",
    }
    seeded = set(FeeItem.objects.filter(is_placeholder=True).values_list("code", flat=True))
    assert codes <= seeded
    for item in FeeItem.objects.filter(is_placeholder=True):
        assert isinstance(item.amount, Decimal)


def test_fee_is_kept_on_the_permit_at_submission_even_if_schedule_changes(schedule, resident):
    _, current = schedule
    permit = PermitFactory(applicant=resident)
    submit_permit(permit, by=resident, fee_code="street_opening", today=D(2026, 3, 2))
    current.amount = Decimal("500.00")
    current.save()
    FeeItemFactory(amount=Decimal("900.00"), effective_from=D(2026, 3, 3))
    permit = Permit.objects.get(pk=permit.pk)
    assert permit.status == Status.SUBMITTED
    assert permit.fee_amount == Decimal("75.00")
    assert permit.fee_code == "street_opening"
    assert "2026-01-01" in permit.fee_basis
    assert permit.balance_due == Decimal("75.00")


def test_submission_without_a_fee_in_force_stores_nothing(resident):
    FeeItem.objects.all().delete()
    permit = PermitFactory(applicant=resident)
    with pytest.raises(FeeNotConfigured):
        submit_permit(permit, by=resident, fee_code="street_opening", today=D(2026, 3, 2))
    permit.refresh_from_db()
    assert permit.status == Status.DRAFT
    assert not permit.events.exists()


def test_add_fee_adds_the_scheduled_amount_and_notes_it(schedule, resident, clerk):
    permit = PermitFactory(applicant=resident)
    submit_permit(permit, by=resident, fee_code="street_opening", today=D(2026, 3, 2))
    added = add_fee(
        permit,
        fee_code="street_opening",
        by=clerk,
        today=D(2026, 4, 1),
        reason="Renewal",
    )
    assert added == Decimal("75.00")
    assert Permit.objects.get(pk=permit.pk).fee_amount == Decimal("150.00")
    assert permit.events.filter(reason="Renewal").exists()


def test_database_refuses_a_negative_fee():
    with pytest.raises(IntegrityError), transaction.atomic():
        FeeItemFactory(amount=Decimal("-0.01"), effective_from=D(2030, 1, 1))


def test_database_refuses_a_period_ending_before_it_starts():
    with pytest.raises(IntegrityError), transaction.atomic():
        FeeItemFactory(effective_from=D(2030, 1, 2), effective_to=D(2030, 1, 1))


def test_database_accepts_a_one_day_period_and_a_zero_fee():
    item = FeeItemFactory(amount=Decimal("0.00"), effective_from=D(2030, 1, 1), effective_to=D(2030, 1, 1))
    assert fee_in_force("street_opening", D(2030, 1, 1)) == item


def test_database_refuses_two_items_with_the_same_code_and_start():
    FeeItemFactory(effective_from=D(2030, 1, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        FeeItemFactory(effective_from=D(2030, 1, 1))


def test_database_refuses_a_negative_fee_on_a_permit():
    with pytest.raises(IntegrityError), transaction.atomic():
        PermitFactory(fee_amount=Decimal("-1.00"))
