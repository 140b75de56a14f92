"""Snow and the tax roll in a real browser, with axe-core (WCAG 2.1 A/AA) on every page visited: a resident reports an
uncleared walk through the public form; the DPW, on a phone, clears it once 24 hours have passed and the owner is
billed; the clerk builds and certifies the special-charges roll and downloads the CSV; the owner sees the charge.

Times are seeded through the database (the snowfall stopped 30 hours ago; the bill is back-dated), never through the
browser's clock."""

import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from permits.ledger import rules as charge_rules
from permits.ledger.models import SpecialCharge, TaxRollBatch
from permits.ledger.services import add_charge
from permits.ledger.tasks import mark_delinquent_charges
from permits.models import FeeItem
from permits.roles import Role
from sidewalks.models import RubbishCase, SnowCase, Snowfall
from tests.browser import steps
from tests.factories import ParcelFactory, StreetFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PHONE = {"width": 375, "height": 812}


def _log_in(page, live_server, username, password="correct-horse-battery"):
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_login").fill(username)  # the allauth form's field ids: stable across label wording
    page.locator("#id_password").fill(password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_load_state()
    assert "/accounts/login/" not in page.url


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _sidewalk_repair_charge(parcel, clerk):
    """The Village replaced the walk: a special tax (Wis. Stat. § 66.0907) that waits for the Board's hearing."""
    return add_charge(
        parcel=parcel,
        source="sidewalk_repair",
        route="special_tax_66_0907",
        amount=Decimal("480.00"),
        incurred_on=timezone.localdate(),
        description="Sidewalk replaced by the Village",
        citation="§ 303-3B(1)",
        by=clerk,
    )


def test_snow_report_clearing_charge_and_certified_tax_roll(page, browser, live_server, axe_check, monkeypatch):
    from theresa_permits.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)  # the roll builds in the request's commit hook
    FeeItem.objects.get_or_create(
        code="snow_removal",
        effective_from=timezone.localdate() - timedelta(days=365),
        defaults={
            "name": "Village snow and ice removal",
            "amount": Decimal("75.00"),
            "citation": "§ 303-8B",
            "basis": "test",
        },
    )
    dpw, owner = steps.person("dpw", Role.DPW_DIRECTOR), steps.person("owner")
    steps.person("clerk", Role.CLERK)
    parcel = ParcelFactory(
        site_address="102 Highland Avenue",
        street=StreetFactory(name="Highland Avenue"),
        owner_name="Anderson, Mark & Linda",
        tax_key="266-1116-1000",
        corner_lot=True,
    )
    parcel.owners.add(owner)

    # 0. The DPW, on a phone, records the snowfall on its snow page: the snow stopped 30 hours ago (§ 303-8A: the
    # owners' 24 hours run from then).
    phone = browser.new_page(viewport=PHONE)
    _log_in(phone, live_server, "dpw")
    phone.goto(f"{live_server.url}/sidewalks/snow/")
    stopped = timezone.localtime(timezone.now() - timedelta(hours=30))
    phone.get_by_label("Snow stopped at").fill(f"{stopped:%Y-%m-%dT%H:%M}")
    phone.get_by_label("Inches").fill("6.0")
    phone.get_by_role("button", name="Record snowfall").click()
    expect(phone.get_by_text(re.compile(r"Snowfall ending .* recorded\."))).to_be_visible()
    axe_check(phone, "snowfall recorded (DPW)")
    phone.close()
    assert Snowfall.objects.get().recorded_by == dpw

    # 1. A resident, not logged in, reports the walk: a typo in the street's name is refused with the street meant
    # (§ 303-8A: a walk of the Village), nothing stored; the right address is taken.
    page.goto(f"{live_server.url}/sidewalks/snow/report/")
    axe_check(page, "public snow report form")

    def send(address):
        page.get_by_label("Address of the uncleared sidewalk").fill(address)
        label = page.get_by_text(re.compile(r"what is \d+ plus \d+\?")).first.inner_text()
        a, b = map(int, re.search(r"what is (\d+) plus (\d+)\?", label).groups())
        page.get_by_label(re.compile("Anti-spam check")).fill(str(a + b))
        page.get_by_role("button", name="Send report").click()

    send("102 Highlnd Avenue")
    expect(page.get_by_text("Did you mean: Highland Avenue?")).to_be_visible()
    axe_check(page, "snow report refused with a suggestion")
    assert not SnowCase.objects.exists()
    send("102 highland avenue")
    expect(page.get_by_role("heading", name=re.compile("your report was received"))).to_be_visible()
    axe_check(page, "snow report received")
    case = SnowCase.objects.get()
    assert case.parcel == parcel and case.reported_via == "public"

    # 1a. The reporter follows the report on its own link: status and deadline, nothing about the owner.
    page.locator("a[href*='/snow/follow/']").click()
    expect(page.get_by_role("heading", name=f"Your snow report {case.number}")).to_be_visible()
    expect(page.get_by_text("Not yet decided")).to_be_visible()
    assert "Anderson" not in page.content()
    axe_check(page, "reporter's follow page")
    follow_url = page.url

    # 1b. The owner has no email on file: the § 303-8B notice is a letter, not yet given. The clerk prints the batch
    # of waiting letters, mails them and records the mailing date (the notice is given that day).
    assert SnowCase.objects.get().owner_notified_at is None
    clerk_page = browser.new_page()
    _log_in(clerk_page, live_server, "clerk")
    clerk_page.goto(f"{live_server.url}/office/")
    clerk_page.get_by_role("link", name="Letters to mail").click()
    expect(clerk_page.get_by_text("1 letter waiting")).to_be_visible()
    expect(clerk_page.get_by_role("rowheader", name=re.compile("Anderson, Mark & Linda"))).to_be_visible()
    axe_check(clerk_page, "letters to mail")
    batch = clerk_page.request.get(f"{live_server.url}/office/letters/batch.pdf")
    assert batch.ok and batch.headers["content-type"] == "application/pdf" and batch.body().startswith(b"%PDF")
    clerk_page.get_by_label(re.compile("Mailed: .* to Anderson, Mark & Linda")).check()
    clerk_page.get_by_label("Mailed on").fill(timezone.localdate().isoformat())
    clerk_page.get_by_role("button", name="Record the checked letters as mailed").click()
    expect(clerk_page.get_by_text(re.compile(r"1 letter recorded as mailed on"))).to_be_visible()
    expect(clerk_page.get_by_text("No letters are waiting to be mailed.")).to_be_visible()
    axe_check(clerk_page, "letters mailed")
    clerk_page.close()
    assert SnowCase.objects.get().owner_notified_at is not None

    # 2. The DPW, on a phone, opens the case and logs the clearing (30 hours after the snow stopped).
    phone = browser.new_page(viewport=PHONE)
    _log_in(phone, live_server, "dpw")
    phone.goto(f"{live_server.url}/sidewalks/snow/")
    axe_check(phone, "DPW snow page")
    assert _fits_the_phone(phone)
    phone.get_by_role("link", name=re.compile(case.number)).click()
    expect(phone.get_by_text("Yes: 24 hours have passed")).to_be_visible()
    axe_check(phone, "snow case")
    assert _fits_the_phone(phone)
    phone.get_by_role("button", name="Log clearing and bill the owner").click()
    expect(phone.get_by_text(re.compile(r"Clearing logged; charge SC-\d{4}-\d{4} of \$75\.00"))).to_be_visible()
    axe_check(phone, "snow case cleared")
    charge = SpecialCharge.objects.get()
    assert charge.work_record == case and charge.status == "billed"
    phone.close()

    # 2a. The reporter's page shows the outcome (and still nothing about the owner or the bill's amount).
    page.goto(follow_url)
    expect(page.get_by_text(re.compile("Cleared by the Village on"))).to_be_visible()
    assert "Anderson" not in page.content() and "75.00" not in page.content()
    axe_check(page, "reporter's follow page with the outcome")

    # The bill goes unpaid: back-date it through the database (the clock of the world, not anyone's step) and let
    # the nightly job (no person's step: the beat schedule runs it) mark it delinquent.
    today = timezone.localdate()
    SpecialCharge.objects.filter(pk=charge.pk).update(
        billed_on=today - timedelta(days=60), due_on=today - timedelta(days=30)
    )
    assert mark_delinquent_charges(today.isoformat()) == 1
    charge.refresh_from_db()
    year = charge_rules.roll_year_for(charge.delinquent_on, settings.TAX_ROLL_CUTOFF)

    # 3. The clerk builds the roll, previews it, certifies it and downloads the CSV.
    _log_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/tax-roll/")
    axe_check(page, "tax rolls")
    page.get_by_label("Tax year").fill(str(year))
    page.get_by_role("button", name="Build or rebuild the roll").click()
    expect(page.get_by_role("heading", name=f"Special-charges tax roll {year}")).to_be_visible()
    expect(page.get_by_role("rowheader", name="266-1116-1000")).to_be_visible()
    axe_check(page, "tax roll draft")
    page.get_by_role("button", name=f"Certify the {year} roll").click()
    assert page.get_by_text(f"The {year} special-charges roll is certified and frozen.").is_visible()
    axe_check(page, "tax roll certified")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download CSV for the county").click()
    csv_text = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert csv_text.startswith("tax_key,owner,source,description,amount,citation")
    assert "266-1116-1000" in csv_text and "75.00" in csv_text and "§ 303-8B" in csv_text
    assert TaxRollBatch.objects.get(year=year).state == "certified"
    charge.refresh_from_db()
    assert charge.status == "certified"
    page.get_by_role("button", name="Log out").click()

    # 4. The owner sees the charge on their parcel, why, and the snow case it came from.
    _log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/charges/parcel/266-1116-1000/")
    expect(page.get_by_role("heading", name="Special charges on 102 Highland Avenue")).to_be_visible()
    axe_check(page, "owner's parcel charges")
    page.get_by_role("link", name=re.compile(case.number)).click()
    expect(page.get_by_role("heading", name=f"Snow case {case.number}")).to_be_visible()
    axe_check(page, "owner's view of the snow case")


def test_charge_pages_and_rubbish_pages_are_accessible(page, browser, live_server, axe_check, board_designations):
    dpw, clerk = steps.person("dpw", Role.DPW_DIRECTOR), steps.person("clerk", Role.CLERK)
    parcel = ParcelFactory(site_address="204 Main Street", owner_email="owner@example.com")
    snowfall = Snowfall.objects.create(stopped_at=timezone.now() - timedelta(hours=3), recorded_by=dpw)
    served = timezone.localtime(timezone.now() - timedelta(hours=30))
    repair = _sidewalk_repair_charge(parcel, clerk)

    # The DPW on a phone, the Board's designee for § 303-2: serves the notice (handed over 30 hours ago) on the
    # rubbish page, then records the Village's removal on the notice's page; then the snowfall's page.
    phone = browser.new_page(viewport=PHONE)
    _log_in(phone, live_server, "dpw")
    phone.goto(f"{live_server.url}/sidewalks/rubbish/")
    axe_check(phone, "rubbish notices")
    phone.get_by_label("Tax key number of the premises").fill(parcel.tax_key)
    phone.get_by_label("Rubbish or dirt found").fill("Broken pallets across the walk")
    phone.get_by_label("Owner or occupant notified").fill("Occupant")
    phone.get_by_label("How the notice was served").fill("Personal delivery")
    phone.get_by_label("Served at").fill(f"{served:%Y-%m-%dT%H:%M}")
    phone.get_by_role("button", name="Record notice").click()
    case = RubbishCase.objects.get()
    expect(phone.get_by_text(f"Notice {case.number} recorded.")).to_be_visible()
    assert case.created_by == dpw
    axe_check(phone, "rubbish notice")
    phone.get_by_label("Cost to the Village ($)").fill("140.00")
    phone.get_by_role("button", name="Log removal and bill the owner").click()
    expect(phone.get_by_text(re.compile(r"Removal logged; charge SC-\d{4}-\d{4} of \$140\.00"))).to_be_visible()
    axe_check(phone, "rubbish notice after removal")
    phone.goto(f"{live_server.url}{snowfall.get_absolute_url()}")
    axe_check(phone, "snowfall")
    phone.close()

    # The clerk: every charge, one charge with its payment and hearing forms, the parcel's page.
    _log_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/charges/")
    axe_check(page, "all charges")
    page.get_by_role("link", name=repair.number).click()
    expect(page.get_by_text("cannot be certified to the tax roll yet")).to_be_visible()
    # Wis. Stat. § 66.0627(3)(b): before its hearing the charge is not billed and nothing is due.
    expect(page.get_by_text(re.compile("awaiting the Board's hearing"))).to_be_visible()
    expect(page.get_by_text("Nothing is due yet")).to_be_visible()
    axe_check(page, "sidewalk repair charge awaiting its hearing")
    # The clerk records the Board's hearing on the charge's page: held yesterday with timely notices, billed now.
    today = timezone.localdate()
    page.get_by_label("Board hearing date").fill((today - timedelta(days=1)).isoformat())
    page.get_by_label("Class 1 notice published on").fill((today - timedelta(days=25)).isoformat())
    page.get_by_label("Notice mailed on").fill((today - timedelta(days=15)).isoformat())
    page.get_by_role("button", name="Record hearing").click()
    expect(page.get_by_text("Hearing recorded.")).to_be_visible()
    axe_check(page, "sidewalk repair charge")
    repair.refresh_from_db()
    assert repair.status == "billed"
    page.get_by_label("Amount ($)").fill("100.00")
    page.get_by_role("button", name="Record payment").click()
    expect(page.get_by_text("not payable in installments").first).to_be_visible()
    axe_check(page, "charge payment refused")
    page.get_by_label("Amount ($)").fill("480.00")
    page.get_by_role("button", name="Record payment").click()
    expect(page.get_by_text(re.compile(r"Payment recorded: receipt RC-\d{4}-\d{4}"))).to_be_visible()
    axe_check(page, "charge paid")
    page.goto(f"{live_server.url}/charges/parcel/{parcel.tax_key}/")
    axe_check(page, "parcel charges (clerk)")
    assert SpecialCharge.objects.filter(status="paid").count() == 1


def test_hearing_for_many_charges_receipt_link_and_unoccupied_lot(page, browser, live_server, axe_check):
    """Wis. Stat. § 66.0627(3)(b): the clerk records one hearing for two charges; the receipt of a payment is linked
    from the charge page; § 303-8B: the DPW flags a lot unoccupied, and no written notice goes out."""
    from datetime import date

    from permits.ledger.models import ChargeHearing
    from permits.ledger.services import record_charge_payment
    from permits.models import Notice
    from sidewalks.snow import services as snow

    dpw, clerk = steps.person("dpw", Role.DPW_DIRECTOR), steps.person("clerk", Role.CLERK)
    today = timezone.localdate()
    repairs = [_sidewalk_repair_charge(ParcelFactory(site_address=f"{n} Main Street"), clerk) for n in (10, 12)]
    paid = add_charge(
        parcel=ParcelFactory(site_address="14 Main Street"),
        source="snow_ice",
        route="special_charge_66_0627",
        amount=Decimal("75.00"),
        incurred_on=today,
        description="Snow removed",
        citation="§ 303-8B",
        by=clerk,
        today=today,
    )
    payment = record_charge_payment(charge=paid, amount="75.00", method="cash", by=clerk)

    _log_in(page, live_server, "clerk")
    page.goto(f"{live_server.url}/charges/")
    page.get_by_role("link", name="Board hearings").click()
    expect(page.get_by_role("heading", name="Board hearings on sidewalk-repair charges")).to_be_visible()
    axe_check(page, "Board hearings for many charges")
    for charge in repairs:
        page.get_by_label(re.compile(f"Include {charge.number}")).check()
    hearing = date(today.year, 6, 21)
    page.get_by_label("Board hearing date").fill(hearing.isoformat())
    page.get_by_label("Class 1 notice published on").fill(date(today.year, 6, 2).isoformat())  # 19 days: too late
    page.get_by_label("Notice mailed on").fill(date(today.year, 6, 11).isoformat())
    page.get_by_role("button", name="Record the hearing for the checked charges").click()
    expect(page.get_by_text(re.compile(r"published 19 days before the hearing"))).to_be_visible()
    axe_check(page, "Board hearing refused with field errors")
    assert not ChargeHearing.objects.exists()
    page.get_by_label("Class 1 notice published on").fill(date(today.year, 6, 1).isoformat())
    page.get_by_role("button", name="Record the hearing for the checked charges").click()
    expect(page.get_by_text("recorded for 2 charges")).to_be_visible()
    axe_check(page, "Board hearing recorded")
    assert set(ChargeHearing.objects.get().charges.all()) == set(repairs)

    page.goto(f"{live_server.url}{paid.get_absolute_url()}")
    link = page.get_by_role("link", name=f"Receipt {payment.receipt_number} (PDF)")
    expect(link).to_be_visible()
    axe_check(page, "charge page with receipt link")
    pdf = page.request.get(f"{live_server.url}{link.get_attribute('href')}")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and pdf.body()[:5] == b"%PDF-"
    page.get_by_role("button", name="Log out").click()

    # § 303-8B: the DPW, on a phone, flags a reported lot as unoccupied; the case page says no notice is needed.
    Snowfall.objects.create(stopped_at=timezone.now() - timedelta(hours=3), recorded_by=dpw)
    StreetFactory(name="Empty Lot Road")  # § 303-8A: a street of the register with no lot on the roll
    case = snow.report_snow_case(address="999 Empty Lot Road", at=timezone.now())
    phone = browser.new_page(viewport=PHONE)
    _log_in(phone, live_server, "dpw")
    phone.goto(f"{live_server.url}{case.get_absolute_url()}")
    phone.get_by_label("Unoccupied lot or abandoned property").check()
    phone.get_by_role("button", name="Save occupancy").click()
    assert phone.get_by_text("Not required: unoccupied lot or abandoned property").is_visible()
    axe_check(phone, "snow case of an unoccupied lot")
    assert _fits_the_phone(phone)
    case.refresh_from_db()
    assert case.unoccupied and not Notice.objects.filter(template="snow_case_notice").exists()
    phone.close()
