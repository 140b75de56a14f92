"""§ 303-8B written notice, and every notice the Village must give: a notice is given only when it was emailed or
mailed. An owner without email gets a printed letter (one PDF per owner, a batch for the clerk); the Clerk-Treasurer
records the mailing date; until then the notice is "not yet given" and no deadline runs from it."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from permits import letters
from permits.ledger.models import SpecialCharge
from permits.ledger.services import mark_delinquent_charges
from permits.models import Notice
from sidewalks.snow import services as snow
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import (
    make_charge,
    parcel,  # noqa: F401  (fixture)
)
from tests.sidewalks.snow.conftest import fee, snow_case_after  # noqa: F401  (fee: a fixture)

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)
BILLED = date(2026, 3, 2)


@pytest.fixture
def no_email(db):
    return ParcelFactory(
        owner_email="", owner_name="Nomail, Nora", owner_mailing_address="N123 County Road P\nTheresa, WI 53091"
    )


@pytest.fixture
def snow_case(dpw_director, no_email):
    return snow_case_after(STOPPED, no_email.site_address, dpw_director)


def backdate(notice, day):
    Notice.objects.filter(pk=notice.pk).update(created_at=datetime.combine(day, datetime.min.time(), tzinfo=CHICAGO))
    notice.refresh_from_db()
    return notice


# --- Snow: § 303-8B ---


def test_303_8b_owner_without_email_gets_a_letter_not_yet_given(snow_case):
    [letter] = Notice.objects.filter(template="snow_case_notice")
    assert letter.channel == Notice.Channel.MAIL and not letter.is_given
    assert letter.recipient_name == "Nomail, Nora" and "County Road P" in letter.mailing_address
    assert letter.record == snow_case
    snow_case.refresh_from_db()
    assert snow_case.owner_notified_at is None  # not "given" when nothing was sent
    assert mail.outbox == []


@pytest.mark.usefixtures("fee")
def test_303_8b_crew_may_not_clear_before_the_letter_is_mailed(snow_case, dpw_director, clerk):
    with pytest.raises(ValidationError, match="303-8B"):
        snow.log_village_clearing(case=snow_case, by=dpw_director, at=STOPPED + timedelta(hours=30))
    letter = backdate(Notice.objects.get(template="snow_case_notice"), STOPPED.date())
    letters.record_mailing(notices=[letter], mailed_on=STOPPED.date(), by=clerk, today=STOPPED.date())
    snow_case.refresh_from_db()
    assert snow_case.owner_notified_at is not None
    # Given on the mailing day; its hour unknown, the notice counts from that day's end (permits.notices.given).
    notified = timezone.localtime(snow_case.owner_notified_at)
    assert (notified.date(), notified.hour, notified.minute) == (STOPPED.date() + timedelta(days=1), 0, 0)
    snow.log_village_clearing(case=snow_case, by=dpw_director, at=STOPPED + timedelta(hours=30))


def test_303_8b_case_page_says_not_yet_given_until_mailed(client, snow_case, dpw_director):
    client.force_login(dpw_director)
    assert "Not yet given" in client.get(reverse("sidewalks:snow_case", args=[snow_case.number])).content.decode()


def test_303_8b_emailed_notice_is_given_at_once(dpw_director, parcel):  # noqa: F811
    with time_machine.travel(STOPPED + timedelta(hours=1), tick=False):
        snow.record_snowfall(stopped_at=STOPPED, by=dpw_director)
    case = snow.report_snow_case(address=parcel.site_address, at=STOPPED + timedelta(hours=2))
    case.refresh_from_db()
    notice = Notice.objects.get(template="snow_case_notice")
    assert notice.channel == Notice.Channel.EMAIL and notice.is_given and case.owner_notified_at is not None


# --- Bills: the due date runs from the day the bill is given ---


def test_303_8b_a_bill_by_letter_falls_due_30_days_after_it_is_mailed(no_email, clerk):
    charge = make_charge(no_email, by=clerk, today=BILLED)
    assert charge.status == SpecialCharge.Status.BILLED and charge.due_on is None
    mark_delinquent_charges(today=BILLED + timedelta(days=200))
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.BILLED  # no deadline runs from a bill not given
    mailed_on = BILLED + timedelta(days=5)
    letter = backdate(Notice.objects.get(template="special_charge_bill"), BILLED)
    letters.record_mailing(notices=[letter], mailed_on=mailed_on, by=clerk, today=mailed_on)
    charge.refresh_from_db()
    assert charge.due_on == mailed_on + timedelta(days=30)
    mark_delinquent_charges(today=charge.due_on)
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.BILLED
    mark_delinquent_charges(today=charge.due_on + timedelta(days=1))
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.DELINQUENT
    assert Notice.objects.filter(template="special_charge_delinquent", channel="mail").exists()


# --- Recording the mailing ---


def test_303_8b_mailing_date_cannot_be_in_the_future_or_before_the_letter(no_email, clerk):
    make_charge(no_email, by=clerk, today=BILLED)
    letter = backdate(Notice.objects.get(template="special_charge_bill"), BILLED)
    with pytest.raises(ValidationError, match="future"):
        letters.record_mailing(notices=[letter], mailed_on=BILLED + timedelta(days=1), by=clerk, today=BILLED)
    with pytest.raises(ValidationError, match="written after"):
        letters.record_mailing(notices=[letter], mailed_on=BILLED - timedelta(days=1), by=clerk, today=BILLED)
    assert letters.record_mailing(notices=[letter], mailed_on=BILLED, by=clerk, today=BILLED) == 1
    # A second record of the same letter changes nothing: one mailing date.
    assert letters.record_mailing(notices=[letter], mailed_on=BILLED, by=clerk, today=BILLED) == 0


@pytest.mark.parametrize("role", ["dpw_director", "inspector", "board_member", "resident"])
def test_303_8b_only_the_clerk_treasurer_records_mailing(request, no_email, clerk, role):
    make_charge(no_email, by=clerk, today=BILLED)
    letter = Notice.objects.get(template="special_charge_bill")
    with pytest.raises(PermissionDenied):
        letters.record_mailing(notices=[letter], mailed_on=timezone.localdate(), by=request.getfixturevalue(role))
    assert not Notice.objects.filter(mailed_on__isnull=False).exists()


@pytest.mark.parametrize("role", ["dpw_director", "resident"])
def test_303_8b_letters_page_and_pdfs_are_the_clerks(client, request, no_email, clerk, role):
    make_charge(no_email, by=clerk, today=BILLED)
    letter = Notice.objects.get(template="special_charge_bill")
    client.force_login(request.getfixturevalue(role))
    for url in (
        reverse("permits:letters"),
        reverse("permits:letter_pdf", args=[letter.pk]),
        reverse("permits:letters_batch_pdf"),
    ):
        assert client.get(url).status_code in (403, 404)


@pytest.mark.slow
def test_303_8b_clerk_prints_one_letter_and_the_batch_and_records_the_mailing(client, no_email, clerk):
    make_charge(no_email, by=clerk, today=BILLED)
    make_charge(ParcelFactory(owner_email="", owner_name="Second, Sam"), by=clerk, today=BILLED)
    first, second = letters.letters_to_mail()
    client.force_login(clerk)
    one = client.get(reverse("permits:letter_pdf", args=[first.pk]))
    batch = client.get(reverse("permits:letters_batch_pdf"))
    assert one["Content-Type"] == "application/pdf" and one.content.startswith(b"%PDF")
    assert batch.content.startswith(b"%PDF") and len(batch.content) > len(one.content)
    page = client.get(reverse("permits:letters")).content.decode()
    assert "Nomail, Nora" in page and "Second, Sam" in page and "2 letters waiting" in page
    refused = client.post(reverse("permits:letters"), {"mailed_on": timezone.localdate().isoformat()})
    assert refused.status_code == 400 and "Choose the letters" in refused.content.decode()
    response = client.post(
        reverse("permits:letters"), {"letters": [first.pk, second.pk], "mailed_on": timezone.localdate().isoformat()}
    )
    assert response.status_code == 302
    assert not letters.letters_to_mail().exists()
    assert all(n.is_given for n in Notice.objects.filter(channel="mail"))


def test_303_8b_letters_page_queries_do_not_grow_with_rows(client, clerk, django_assert_max_num_queries):
    for index in range(30):
        make_charge(ParcelFactory(owner_email="", owner_name=f"Owner {index}"), by=clerk, today=BILLED)
    client.force_login(clerk)
    with django_assert_max_num_queries(14):
        response = client.get(reverse("permits:letters"))
    assert response.status_code == 200 and "Page 1 of 2" in response.content.decode()
