"""§ 303-4E: a renewal is granted once per request, however often it is posted.

"Renew" posted twice used to renew twice (two fees, +60 days), and eight simultaneous posts gave five renewals. The
permit row is locked, each period is renewed once (Renewal.previous_expires_on is unique per street opening), and a
renewed period is renewed again only once it has begun. The concurrency test needs PostgreSQL (the CI's production
pass); SQLite serializes every write.
"""

from datetime import date
from decimal import Decimal

import pytest
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from permits import services
from permits.errors import RulesBroken
from permits.models import Document, Permit
from permits.street_opening import lifecycle
from permits.street_opening import services as so
from permits.street_opening.models import Renewal
from tests.concurrency import at_once, on_postgresql
from tests.permits.street_opening.conftest import valid_data

BEGUN = date(2026, 5, 11)
FIRST_EXPIRY = date(2026, 6, 3)  # approved May 4: 30 days from approval (§ 303-4D)
RENEWED = date(2026, 7, 3)


@pytest.fixture
def issued_permit(fees, spring, street, contractor, contractor_org, bond, clerk, dpw_director):
    """Issued May 4, 2026, valid through June 3, fee $50.00 paid."""
    permit = so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))
    certificate = Document(
        permit=permit,
        kind=Document.Kind.INSURANCE,
        original_name="coi.pdf",
        content_type="application/pdf",
        extension="pdf",
        size=10,
        uploaded_by=contractor,
    )
    certificate.file.save("upload", ContentFile(b"%PDF-1.4\n"), save=False)
    certificate.save()
    so.begin_review(permit=permit, by=clerk)
    so.approve_street_opening(permit=permit, by=dpw_director, conditions="One lane open each way")
    services.record_payment(permit=permit, amount=permit.balance_due, method="cash", by=clerk)
    permit.refresh_from_db()
    so.issue_street_opening(permit=permit, by=clerk)
    permit.refresh_from_db()
    assert permit.expires_on == FIRST_EXPIRY
    ask(permit, contractor)
    return permit


def ask(permit, contractor, today=date(2026, 5, 12)):
    """§ 303-4E: the permittee's written request (the day after the work began), which a renewal grants."""
    return lifecycle.request_renewal(
        permit=permit, by=contractor, work_begun_on=BEGUN, reason="The lateral runs longer", today=today
    )


def renew(permit, by, today=None):
    return so.renew_street_opening(permit=permit, by=by, work_begun_on=BEGUN, today=today)


def pay(permit, clerk):
    """The renewal fee paid: the renewal takes effect (§ 303-4E)."""
    permit = fresh(permit)
    services.record_payment(permit=permit, amount=permit.balance_due, method="cash", by=clerk)


def fresh(permit):
    return Permit.objects.get(pk=permit.pk)


@pytest.mark.django_db
def test_303_4e_renew_posted_twice_renews_once_with_one_fee(issued_permit, clerk):
    fee_before = issued_permit.fee_amount
    first = renew(fresh(issued_permit), clerk)
    with pytest.raises(RulesBroken) as exc:
        renew(fresh(issued_permit), clerk)  # the second post finds the written request granted already
    [violation] = exc.value.violations
    assert violation.code == "renewal_not_requested" and violation.citation == "§ 303-4E"
    permit = fresh(issued_permit)
    assert Renewal.objects.filter(street_opening__permit=permit).count() == 1
    assert permit.fee_amount - fee_before == Decimal("25.00")  # one renewal fee, not two
    assert permit.expires_on == FIRST_EXPIRY  # not in effect before its fee is paid
    pay(permit, clerk)
    assert fresh(issued_permit).expires_on == RENEWED == first.new_expires_on


@pytest.mark.django_db
def test_303_4e_the_clerk_and_the_dpw_renewing_the_same_period_renew_once(issued_permit, clerk, dpw_director):
    renew(fresh(issued_permit), clerk)
    with pytest.raises(RulesBroken):
        renew(fresh(issued_permit), dpw_director)
    assert Renewal.objects.count() == 1


@pytest.mark.django_db
def test_303_4e_on_the_last_day_before_the_renewed_period_a_second_renewal_is_refused(issued_permit, clerk, contractor):
    renew(fresh(issued_permit), clerk)
    pay(issued_permit, clerk)
    with pytest.raises(RulesBroken) as exc:
        ask(fresh(issued_permit), contractor, today=FIRST_EXPIRY)
    assert "begins June 4, 2026" in exc.value.violations[0].message
    assert fresh(issued_permit).expires_on == RENEWED


@pytest.mark.django_db
def test_303_4e_once_the_renewed_period_has_begun_it_may_be_renewed(issued_permit, clerk, contractor):
    renew(fresh(issued_permit), clerk)
    pay(issued_permit, clerk)
    ask(fresh(issued_permit), contractor, today=date(2026, 6, 4))
    second = renew(fresh(issued_permit), clerk, today=date(2026, 6, 4))
    pay(issued_permit, clerk)
    # July 3 + 30 is Sunday August 2: the renewed validity runs to Monday (Wis. Stat. § 990.001(4))
    assert second.previous_expires_on == RENEWED and fresh(issued_permit).expires_on == date(2026, 8, 3)
    assert Renewal.objects.count() == 2


@pytest.mark.django_db
def test_303_4e_the_callers_copy_is_updated_to_the_renewal(issued_permit, clerk):
    permit = fresh(issued_permit)
    renew(permit, clerk)
    assert permit.expires_on == FIRST_EXPIRY and permit.fee_amount == fresh(issued_permit).fee_amount


@pytest.mark.django_db
def test_303_4e_a_refused_renewal_stores_nothing(issued_permit, clerk):
    renew(fresh(issued_permit), clerk)
    events = issued_permit.events.count()
    with pytest.raises(RulesBroken):
        renew(fresh(issued_permit), clerk)
    assert issued_permit.events.count() == events


@pytest.mark.django_db
def test_303_4e_the_database_refuses_renewing_one_period_twice(issued_permit, clerk):
    renewal = renew(fresh(issued_permit), clerk)
    with pytest.raises(IntegrityError), transaction.atomic():
        Renewal.objects.create(
            street_opening=renewal.street_opening,
            previous_expires_on=renewal.previous_expires_on,
            new_expires_on=renewal.new_expires_on,
            work_begun_on=BEGUN,
            granted_by=clerk,
            granted_at=renewal.granted_at,
        )


@on_postgresql
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_303_4e_eight_simultaneous_renewals_renew_once(issued_permit, clerk):
    fee_before = issued_permit.fee_amount
    results, errors = at_once(8, lambda: renew(fresh(issued_permit), clerk))
    assert len(results) == 1 and len(errors) == 7
    assert all(
        isinstance(e, RulesBroken) and e.violations[0].code in {"renewal_not_requested", "already_renewed"}
        for e in errors
    ), errors
    permit = fresh(issued_permit)
    assert Renewal.objects.filter(street_opening__permit=permit).count() == 1
    assert permit.expires_on == FIRST_EXPIRY and permit.fee_amount - fee_before == Decimal("25.00")
