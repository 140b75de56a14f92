"""Each report's numbers from the database, at the edges of the year, the day and the age bands."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from permits.ledger.models import SpecialCharge, TaxRollBatch, TaxRollLine
from permits.models import PermitKind
from permits.online_payments.models import Refund
from permits.reports import queries, rules
from permits.street_opening.field.models import Inspection
from sidewalks.models import RubbishCase, SidewalkInspection, SnowCase
from tests.factories import ParcelFactory, PermitFactory
from tests.permits.reports.conftest import CHICAGO, TODAY, at, charge, issued_permit, paid_charge, paid_permit

pytestmark = pytest.mark.django_db


# --- fees and charges collected --------------------------------------------------------------------------------


def test_fees_a_receipt_at_23_59_on_december_31_counts_in_that_year_and_december(clerk):
    paid_permit(clerk, "50.00", datetime(2025, 12, 31, 23, 59, tzinfo=CHICAGO))  # already January 1 in UTC
    assert queries.fees_collected(2026) == []
    assert queries.fees_collected(2025) == [
        {"item": "street_opening", "month": 12, "receipts": 1, "amount": Decimal("50.00")}
    ]


def test_fees_a_receipt_at_midnight_on_january_1_counts_in_the_new_year(clerk):
    paid_permit(clerk, "50.00", datetime(2026, 1, 1, 0, 0, tzinfo=CHICAGO))
    assert queries.fees_collected(2025) == []
    assert queries.fees_collected(2026)[0]["month"] == 1


def test_fees_permit_fees_and_special_charges_are_one_list_by_item_and_month(clerk):
    paid_permit(clerk, "50.00", at(date(2026, 3, 2)))
    paid_permit(clerk, "25.50", at(date(2026, 3, 30)))
    paid_charge(clerk, "75.00", at(date(2026, 4, 1)))
    rows = queries.fees_collected(2026)
    assert rows == [
        {"item": "special_charge_snow_ice", "month": 4, "receipts": 1, "amount": Decimal("75.00")},
        {"item": "street_opening", "month": 3, "receipts": 2, "amount": Decimal("75.50")},
    ]


def test_fees_a_refunded_payment_is_not_collected(clerk):
    kept = paid_permit(clerk, "50.00", at(date(2026, 5, 4)))
    refunded = paid_permit(clerk, "40.00", at(date(2026, 5, 5)))
    Refund.objects.create(
        channel=Refund.Channel.RECORDED,
        payment=refunded,
        amount=refunded.amount,
        reason="Paid twice",
        refunded_by=clerk,
        refunded_at=timezone.now(),
    )
    rows = queries.fees_collected(2026)
    assert [(r["receipts"], r["amount"]) for r in rows] == [(1, kept.amount)]


def test_fees_a_permit_without_a_fee_item_is_counted_under_its_type(clerk):
    paid_permit(clerk, "10.00", at(date(2026, 6, 1)), fee_code="", kind=PermitKind.STREET_USE)
    assert queries.fees_collected(2026)[0]["item"] == "street_use"
    assert queries.fee_item_names({"street_use"}) == {"street_use": "Street use (block party, event)"}


def test_fees_a_fee_item_is_named_as_in_the_fee_schedule():
    from tests.factories import FeeItemFactory

    FeeItemFactory(code="sidewalk_permit", name="Sidewalk permit", effective_from=date(2020, 1, 1))
    FeeItemFactory(code="sidewalk_permit", name="Sidewalk permit (2026)", effective_from=date(2026, 1, 1))
    assert queries.fee_item_names({"sidewalk_permit"}) == {"sidewalk_permit": "Sidewalk permit (2026)"}


# --- permits by type, status and month -------------------------------------------------------------------------


def test_permits_are_counted_by_the_month_started_and_filtered_by_type():
    PermitFactory(kind=PermitKind.STREET_OPENING)
    PermitFactory(kind=PermitKind.STREET_OPENING)
    PermitFactory(kind=PermitKind.SIDEWALK)
    rows = queries.permits_by_month(2026)
    assert {(r["kind"], r["status"], r["month"], r["permits"]) for r in rows} == {
        ("sidewalk", "draft", 12, 1),
        ("street_opening", "draft", 12, 2),
    }
    assert [r["kind"] for r in queries.permits_by_month(2026, PermitKind.SIDEWALK)] == ["sidewalk"]
    assert queries.permits_by_month(2025) == []


# --- time from application to issue ----------------------------------------------------------------------------


def test_wait_submitted_late_on_march_1_in_theresa_counts_from_march_1():
    # 23:30 on March 1 in Theresa is already March 2 in UTC: the wait counts from the Village's day.
    issued_permit(submitted=datetime(2026, 3, 1, 23, 30, tzinfo=CHICAGO), issued_on=date(2026, 3, 9))
    assert queries.waits_to_issue(2026) == [{"kind": "street_opening", "days": 8, "permits": 1}]
    assert rules.days_to_issue(date(2026, 3, 1), date(2026, 3, 9)) == 8


def test_wait_issued_the_day_submitted_is_0_days():
    issued_permit(submitted=at(date(2026, 4, 6), 8), issued_on=date(2026, 4, 6))
    assert queries.waits_to_issue(2026)[0]["days"] == 0


def test_wait_counts_permits_by_the_year_issued_not_submitted():
    issued_permit(submitted=at(date(2025, 12, 20)), issued_on=date(2026, 1, 5))
    assert queries.waits_to_issue(2025) == []
    assert queries.waits_to_issue(2026) == [{"kind": "street_opening", "days": 16, "permits": 1}]


def test_wait_equal_waits_are_one_row_with_their_count():
    for _ in range(3):
        issued_permit(submitted=at(date(2026, 5, 1)), issued_on=date(2026, 5, 4))
    issued_permit(submitted=at(date(2026, 5, 1)), issued_on=date(2026, 5, 4), kind=PermitKind.SIDEWALK)
    assert queries.waits_to_issue(2026, PermitKind.STREET_OPENING) == [
        {"kind": "street_opening", "days": 3, "permits": 3}
    ]


# --- inspections passed and failed ------------------------------------------------------------------------------


def _inspections(inspector):
    opening = PermitFactory(kind=PermitKind.STREET_OPENING)
    walk = PermitFactory(kind=PermitKind.SIDEWALK)
    for result, day in [("pass", date(2026, 6, 1)), ("fail", date(2026, 6, 2)), ("pass", date(2026, 7, 1))]:
        Inspection.objects.create(permit=opening, kind="backfill", inspector=inspector, at=at(day), result=result)
    SidewalkInspection.objects.create(
        permit=walk, stage="forms", result="failed", inspector=inspector, inspected_at=at(date(2026, 6, 3))
    )
    # Midnight of January 1, 2027 belongs to 2027.
    Inspection.objects.create(
        permit=opening, kind="final", inspector=inspector, at=datetime(2027, 1, 1, tzinfo=CHICAGO), result="pass"
    )


def test_inspections_of_both_tables_by_kind_and_month_passed_and_failed(inspector):
    _inspections(inspector)
    rows = queries.inspections_by_month(2026)
    assert [(r["permit_type"], r["what"], r["month"], r["passed"], r["failed"]) for r in rows] == [
        ("sidewalk", "forms", 6, 0, 1),
        ("street_opening", "backfill", 6, 1, 1),
        ("street_opening", "backfill", 7, 1, 0),
    ]


def test_inspections_narrowed_to_sidewalks(inspector):
    _inspections(inspector)
    assert {r["permit_type"] for r in queries.inspections_by_month(2026, PermitKind.SIDEWALK)} == {"sidewalk"}
    assert queries.inspections_by_month(2026, PermitKind.STREET_USE) == []


# --- open cases and charges by age -------------------------------------------------------------------------------


def _bands(rows, source_start):
    return {r["band"]: r["cases"] for r in rows if r["source"].startswith(source_start)}


def test_open_charge_billed_30_days_ago_is_0_to_30_and_31_days_ago_is_31_to_60():
    charge(billed_on=TODAY - timedelta(days=30))
    charge(billed_on=TODAY - timedelta(days=31), amount="20.00")
    charge(billed_on=TODAY - timedelta(days=91), status=SpecialCharge.Status.DELINQUENT)
    charge(billed_on=TODAY - timedelta(days=5), status=SpecialCharge.Status.PAID)  # paid: not open
    rows = queries.open_cases_by_age(TODAY)
    assert _bands(rows, "Special charges") == {"0–30 days": 1, "31–60 days": 1, "91+ days": 1}
    amounts = {r["band"]: r["amount"] for r in rows if r["source"].startswith("Special charges")}
    assert amounts["31–60 days"] == Decimal("20.00")


def test_open_charge_not_billed_yet_ages_from_the_day_incurred():
    charge(billed_on=None, incurred_on=TODAY - timedelta(days=61), status=SpecialCharge.Status.PENDING)
    assert _bands(queries.open_cases_by_age(TODAY), "Special charges") == {"61–90 days": 1}


def test_open_snow_case_reported_at_midnight_30_days_ago_is_0_to_30(dpw_director):
    midnight = datetime.combine(TODAY - timedelta(days=30), time.min, tzinfo=CHICAGO)
    for n, (reported_at, status) in enumerate(
        [
            (midnight, SnowCase.Status.OPEN),
            (midnight - timedelta(minutes=1), SnowCase.Status.OPEN),  # 23:59 the day before: 31 days old
            (midnight, SnowCase.Status.VILLAGE_CLEARED),  # closed: not counted
        ]
    ):
        case = SnowCase.objects.create(
            number=f"SN-T-{n}",
            reported_address="102 Highland Avenue",
            reported_via=SnowCase.ReportedVia.STAFF,
            reported_at=reported_at,
        )
        SnowCase.objects.filter(pk=case.pk).update(status=status)
    assert _bands(queries.open_cases_by_age(TODAY), "Snow") == {"0–30 days": 1, "31–60 days": 1}


def test_open_rubbish_case_counts_until_removed(dpw_director):
    parcel = ParcelFactory()
    served = at(TODAY - timedelta(days=45))
    RubbishCase.objects.create(
        number="RB-T-1",
        parcel=parcel,
        description="Dirt from a dump truck",
        served_to="Owner, Olga",
        served_method="personal",
        served_at=served,
        deadline_at=served + timedelta(days=1),
        created_by=dpw_director,
    )
    assert _bands(queries.open_cases_by_age(TODAY), "Rubbish") == {"31–60 days": 1}
    RubbishCase.objects.update(status=RubbishCase.Status.OWNER_REMOVED)
    assert _bands(queries.open_cases_by_age(TODAY), "Rubbish") == {}


def test_open_cases_take_a_new_source_from_a_part(monkeypatch):
    def open_test_cases(today):
        return queries.grouped_by_age(
            SpecialCharge.objects.filter(source="obstruction_removal"),
            "Obstructions (§ 303-6)",
            "incurred_on",
            today,
            instant=False,
            amount="amount",
        )

    every = queries.open_case_sources()
    monkeypatch.setattr(queries, "open_case_sources", lambda: (*every, open_test_cases))
    charge(billed_on=TODAY, source=SpecialCharge.Source.OBSTRUCTION_REMOVAL)
    rows = queries.open_cases_by_age(TODAY)
    assert _bands(rows, "Obstructions") == {"0–30 days": 1}


# --- the year's tax roll ------------------------------------------------------------------------------------------


def test_tax_roll_summary_by_source_with_lines_parcels_and_amount():
    batch = TaxRollBatch.objects.create(year=2026)
    first, second = ParcelFactory(), ParcelFactory()
    for parcel, source, amount in [
        (first, "snow_ice", "75.00"),
        (first, "snow_ice", "80.00"),
        (second, "snow_ice", "75.00"),
        (second, "rubbish", "120.00"),
    ]:
        c = charge(parcel, amount=amount, source=source, billed_on=date(2026, 3, 2))
        TaxRollLine.objects.create(
            batch=batch,
            charge=c,
            tax_key=parcel.tax_key,
            owner=parcel.owner_name,
            source=source,
            description=c.description,
            amount=c.amount,
            citation=c.citation,
        )
    found, rows = queries.tax_roll_summary(2026)
    assert found == batch
    assert rows == [
        {"source": "rubbish", "lines": 1, "parcels": 1, "amount": Decimal("120.00")},
        {"source": "snow_ice", "lines": 3, "parcels": 2, "amount": Decimal("230.00")},
    ]
    assert queries.tax_roll_summary(2025) == (None, [])
