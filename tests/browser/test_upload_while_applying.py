"""A contractor uploads the certificate of insurance while filling in the street opening form: the draft keeps it,
and submitting the application files it on the new permit. Pages only, axe-core on every page visited."""

from datetime import datetime

import pytest
from playwright.sync_api import expect

from permits.models import ApplicationDraft, Permit
from tests.browser import steps
from tests.factories import StreetFactory
from tests.upload_samples import PDF

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture(autouse=True)
def fee_schedule(db):
    steps.street_opening_fees()


@pytest.fixture
def march_2027():
    import time_machine

    with time_machine.travel(datetime(2027, 3, 20, 10, 0, tzinfo=steps.CHICAGO), tick=True):
        yield


def test_contractor_applies_with_the_certificate_uploaded_before_submitting(
    march_2027, page, live_server, axe_check, contractor, contractor_org, clerk, board_bond_amounts, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    steps.verified(contractor, clerk)
    StreetFactory(name="Henni Street")
    steps.annual_bond(contractor_org, 2027, recorded_by=clerk, recorded_at=datetime(2026, 1, 5, tzinfo=steps.CHICAGO))

    steps.sign_in(page, live_server, "contractor")
    page.get_by_role("link", name="Apply", exact=True).click()
    page.get_by_role("link", name="Start a street opening or excavation permit application").click()
    expect(page.get_by_role("heading", name="Upload documents now")).to_be_visible()
    axe_check(page, "street opening form with the upload box")

    steps.fill_application(page)
    page.get_by_label("Document", exact=True).select_option("insurance")
    page.get_by_label("File (PDF, JPEG or PNG, at most 10 MB)").set_input_files(
        files=[{"name": "certificate.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.get_by_role("button", name="Save draft and upload").click()
    expect(page.get_by_text('Draft saved, with "certificate.pdf"')).to_be_visible()
    expect(page.get_by_role("link", name="certificate.pdf")).to_be_visible()
    expect(page.get_by_role("button", name="Remove certificate.pdf")).to_be_visible()
    expect(page.get_by_label("Location on the street")).to_have_value("In front of 118 Henni Street")
    axe_check(page, "street opening form, certificate in the draft")
    assert ApplicationDraft.objects.get().documents.count() == 1

    page.get_by_role("button", name="Sign and submit the application").click()
    expect(page.get_by_role("heading", name="Before you submit: warnings")).to_be_visible()
    page.get_by_label("If this application gets warnings, I have read them and still want to submit").check()
    page.get_by_role("button", name="Sign and submit the application").click()

    permit = Permit.objects.get()
    expect(page.get_by_role("heading", name=f"Street opening or excavation {permit.number}")).to_be_visible()
    expect(page.get_by_text("certificate.pdf").first).to_be_visible()
    axe_check(page, "permit page with the certificate filed with the application")
    assert permit.documents.get().kind == "insurance" and not ApplicationDraft.objects.exists()
