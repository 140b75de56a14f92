"""The Clerk-Treasurer in the back office (Django admin): find a permit by number, change its status, record a
payment. axe-core on every page, Django's own admin pages included."""

import pytest
from playwright.sync_api import expect

from tests.upload_samples import PDF

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@pytest.fixture
def verified_emails():
    """Logging in needs a verified email (ACCOUNT_EMAIL_VERIFICATION = "mandatory"): mark the personas' verified."""
    from allauth.account.models import EmailAddress

    def verify(*users):
        for user in users:
            EmailAddress.objects.get_or_create(
                user=user,
                email=user.email,
                defaults={"verified": True, "primary": True},
            )

    return verify


@pytest.fixture
def permits(resident):
    from permits.models import Permit, Status
    from tests.permits.conftest import permit_in

    wanted = permit_in(Status.SUBMITTED, applicant=resident, number="SO-2026-0042")
    Permit.objects.filter(pk=wanted.pk).update(fee_amount="75.00")
    permit_in(Status.SUBMITTED, applicant=resident, number="SO-2026-0043")
    return wanted


def test_clerk_finds_a_permit_by_number_changes_its_status_and_records_a_payment(
    page, live_server, axe_check, login, clerk, permits, verified_emails
):
    verified_emails(clerk)
    login(page, "clerk")
    # The clerk's start page is the back office's index as a work list; the records are grouped by task.
    expect(page.get_by_role("heading", name="Today's work")).to_be_visible()
    axe_check(page, "admin index")
    # The office links are readable in the light theme (they were white on white) and leave "Log out" uncovered.
    link = page.locator(".office-links a", has_text="Village office")
    colour, background = link.evaluate(
        "a => [getComputedStyle(a).color, getComputedStyle(a.closest('nav')).backgroundColor]"
    )
    assert colour != background
    nav, logout = page.locator(".office-links").bounding_box(), page.locator("#logout-form").bounding_box()
    assert nav["y"] >= logout["y"] + logout["height"]

    page.get_by_text("Permits and applications (").click()
    page.locator('#content-main a[href="/admin/permits/permit/"]').first.click()
    expect(page.get_by_role("heading", name="Select permit to change")).to_be_visible()
    axe_check(page, "permit changelist")

    page.locator("#searchbar").fill("SO-2026-0042")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("link", name="SO-2026-0042")).to_be_visible()
    expect(page.get_by_role("link", name="SO-2026-0043")).to_have_count(0)
    axe_check(page, "permit search results")

    page.get_by_role("link", name="SO-2026-0042").click()
    expect(page.get_by_role("heading", name="SO-2026-0042").first).to_be_visible()
    axe_check(page, "permit change form")

    page.get_by_role("link", name="Change status").click()
    axe_check(page, "change status")
    page.get_by_label("New status").select_option(label="Under review")
    page.get_by_label("Reason").fill("Insurance certificate received")
    page.get_by_role("button", name="Change status").click()
    expect(page.get_by_text("SO-2026-0042 is now under review.")).to_be_visible()
    axe_check(page, "permit after status change")

    page.get_by_role("link", name="Record a payment").click()
    axe_check(page, "record payment")
    page.get_by_label("Amount").fill("75.00")
    page.get_by_label("Method").select_option(label="Check")
    page.get_by_label("Reference").fill("1042")
    page.get_by_role("button", name="Record payment and issue receipt").click()
    expect(page.get_by_text("Payment recorded; receipt R-")).to_be_visible()
    axe_check(page, "permit after payment")

    from permits.models import Payment, Permit

    permit = Permit.objects.get(number="SO-2026-0042")
    assert permit.status == "under_review"
    assert permit.events.get(to_status="under_review").reason == "Insurance certificate received"
    assert Payment.objects.get().reference == "1042"


def test_clerk_imports_the_assessment_roll(page, live_server, axe_check, login, clerk, tmp_path, verified_emails):
    from tests.factories import StreetFactory

    verified_emails(clerk)
    StreetFactory(name="Highland Avenue")
    roll = tmp_path / "roll.csv"
    roll.write_text(
        "tax_key,site_address,owner_name,owner_mailing_address,land_use,street,corner_lot\n"
        "266-1,101 Highland Avenue,Klein,Box 1,residential,Highland Avenue,no\n"
        "266-2,,Braun,Box 2,farm,Highland Avenue,no\n"
    )
    login(page, "clerk")
    page.goto(live_server.url + "/admin/permits/parcel/")
    axe_check(page, "parcel changelist")
    page.get_by_role("link", name="Import assessment roll (CSV)").click()
    axe_check(page, "parcel import")
    page.get_by_label("Assessment roll CSV file").set_input_files(str(roll))
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Nothing was imported").first).to_be_visible()
    axe_check(page, "parcel import preview with errors")


def test_office_and_permit_pages_for_staff(page, live_server, axe_check, login, dpw_director, permits, verified_emails):
    verified_emails(dpw_director)
    login(page, "dpw")
    # Staff land on their start page; every application is one click away in the Village office.
    expect(page.get_by_role("heading", name="Today's work", exact=True)).to_be_visible()
    page.get_by_role("link", name="Village office", exact=True).click()
    expect(page.get_by_role("heading", name="Village office: applications")).to_be_visible()
    axe_check(page, "office")
    page.get_by_role("link", name="SO-2026-0042").click()
    expect(page.get_by_role("heading", name="Timeline")).to_be_visible()
    axe_check(page, "permit page")


def test_applicant_permit_page_with_documents_and_receipts(
    page, live_server, axe_check, login, resident, clerk, permits, verified_emails
):
    from decimal import Decimal

    verified_emails(resident)
    from django.core.files.uploadedfile import SimpleUploadedFile

    from permits.services import record_payment, upload_document

    upload_document(
        permit=permits,
        kind="insurance",
        upload=SimpleUploadedFile("c.pdf", PDF),
        by=resident,
    )
    record_payment(permit=permits, amount=Decimal("75.00"), method="cash", by=clerk)
    login(page, "resident")
    page.get_by_role("link", name="SO-2026-0042").click()
    expect(page.get_by_role("heading", name="Payments and receipts")).to_be_visible()
    expect(page.get_by_text("paid $75.00")).to_be_visible()
    axe_check(page, "applicant permit page")
    page.get_by_label("Kind").select_option(label="Certificate of insurance")
    page.get_by_label("File (PDF, JPEG or PNG, at most 10 MB)").set_input_files(
        files=[
            {
                "name": "virus.pdf",
                "mimeType": "application/pdf",
                "buffer": b"MZ\x90\x00" + b"\0" * 64,
            }
        ]
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("Only PDF, JPEG and PNG files are accepted").first).to_be_visible()
    axe_check(page, "upload refused")
    page.goto(live_server.url + permits.get_public_url())
    axe_check(page, "public status page")
