"""The key figures (permits/dashboard): this month's and this year's numbers at their boundaries, each linking to its
list, for the clerk and the Board only, at a fixed number of queries."""

from datetime import date, datetime
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse

from permits.dashboard.figures import (
    average_days_to_issue,
    charges_outstanding,
    fees_taken,
    permits_by_type_and_status,
)
from permits.ledger.models import ChargePayment, SpecialCharge
from permits.models import Permit, Status
from tests.factories import PermitFactory
from tests.permits.reports.conftest import CHICAGO, TODAY, at, charge, issued_permit, paid_charge, paid_permit

PAGE = reverse("permits:key_figures")
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _frozen_today():
    with time_machine.travel(at(TODAY, 12), tick=False):
        yield


def started(on: datetime, status=Status.SUBMITTED, kind="street_opening"):
    permit = PermitFactory(kind=kind)
    Permit.objects.filter(pk=permit.pk).update(created_at=on, status=status)
    return permit


def test_an_application_started_at_midnight_on_the_first_is_this_months_and_one_a_minute_before_is_not():
    started(datetime(2026, 12, 1, 0, 0, tzinfo=CHICAGO))
    started(datetime(2026, 11, 30, 23, 59, tzinfo=CHICAGO))
    started(datetime(2026, 1, 1, 0, 0, tzinfo=CHICAGO))
    started(datetime(2025, 12, 31, 23, 59, tzinfo=CHICAGO))  # last year: not counted
    started(datetime(2026, 6, 1, tzinfo=CHICAGO), status=Status.DRAFT)  # a draft is not an application
    (row,) = permits_by_type_and_status(TODAY)
    assert (row["kind"], row["status"], row["month"], row["year"]) == ("street_opening", "submitted", 1, 3)


def test_fees_taken_count_the_month_from_its_first_day_and_leave_out_refunds(clerk):
    from permits.online_payments.models import Refund

    paid_permit(clerk, "50.00", at(date(2026, 12, 1), 0))
    paid_permit(clerk, "25.00", at(date(2026, 11, 30), 23))
    paid_charge(clerk, "75.00", at(date(2026, 12, 1)))
    paid_permit(clerk, "99.00", at(date(2025, 12, 31), 23))  # last year
    refunded = paid_permit(clerk, "10.00", at(date(2026, 12, 1)))
    Refund.objects.create(
        channel=Refund.Channel.RECORDED,
        payment=refunded,
        amount=refunded.amount,
        reason="Paid twice",
        refunded_by=clerk,
        refunded_at=at(TODAY),
    )
    assert fees_taken(TODAY) == (Decimal("125.00"), Decimal("150.00"))


def test_charges_outstanding_are_the_unpaid_charges_less_what_was_paid_on_them(clerk):
    owing = charge(amount="80.00")
    ChargePayment.objects.create(
        charge=owing,
        amount=Decimal("30.00"),
        method=ChargePayment.Method.CASH,
        receipt_number="RC-PART-1",
        received_by=clerk,
        received_at=at(TODAY),
    )
    charge(amount="20.00", status=SpecialCharge.Status.DELINQUENT)
    paid_charge(clerk, "75.00", at(TODAY))  # paid: not outstanding
    assert charges_outstanding() == (2, Decimal("70.00"))


def test_average_days_to_issue_is_the_mean_of_this_years_issued_permits():
    assert average_days_to_issue(TODAY) is None
    issued_permit(submitted=at(date(2026, 3, 2)), issued_on=date(2026, 3, 2))  # 0 days
    issued_permit(submitted=at(date(2026, 3, 2)), issued_on=date(2026, 3, 5))  # 3 days
    issued_permit(submitted=at(date(2025, 12, 1)), issued_on=date(2025, 12, 9))  # last year's
    assert average_days_to_issue(TODAY) == 1.5


@pytest.mark.parametrize("persona", ["clerk", "board_member", "president"])
def test_the_clerk_and_the_board_read_the_figures_each_linking_to_its_list(client, request, persona):
    started(at(TODAY), status=Status.UNDER_REVIEW)
    client.force_login(request.getfixturevalue(persona))
    page = client.get(PAGE).content.decode()
    assert "Key figures, December 1, 2026" in page
    assert f'href="{reverse("permits:office")}?status=under_review"' in page
    assert f'href="{reverse("reports:report", args=["time-to-issue"])}?year=2026"' in page
    assert f'href="{reverse("ledger:charges")}"' in page
    assert page.count('role="img"') == 2 and "<svg" in page


@pytest.mark.parametrize("persona", ["dpw_director", "inspector", "police_chief", "resident"])
def test_no_one_else_reads_the_figures(client, request, persona):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(PAGE).status_code == 403


def test_the_figures_cost_the_same_queries_at_any_number_of_records(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)
    started(at(TODAY))
    paid_permit(clerk, "50.00", at(TODAY))
    charge()
    with django_assert_max_num_queries(20) as few:
        client.get(PAGE)
    for day in range(1, 20):
        started(at(date(2026, 11, day)), status=Status.ISSUED, kind="sidewalk")
        paid_permit(clerk, "5.00", at(date(2026, 10, day)))
        charge()
        issued_permit(submitted=at(date(2026, 2, day)), issued_on=date(2026, 3, day))
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(PAGE)


def test_the_start_pages_of_the_clerk_and_the_board_link_the_figures(client, clerk, board_member, inspector):
    client.force_login(clerk)
    assert f'href="{PAGE}"' in client.get(reverse("admin:index")).content.decode()
    client.force_login(board_member)
    assert f'href="{PAGE}"' in client.get(reverse("permits:workspace")).content.decode()
    client.force_login(inspector)
    assert f'href="{PAGE}"' not in client.get(reverse("permits:workspace")).content.decode()
