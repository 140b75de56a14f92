"""One page per permit; for the applicant, what still blocks the next step (the same blockers staff
see, from the type's `blockers` hook) with a link to fix each; withdraw; the fee before applying; the permit PDF."""

from datetime import date

import pytest
from django.urls import reverse

from permits import permit_page
from permits.applicant import applications
from permits.models import Status
from permits.street_opening import services as so
from tests.permits.street_opening.conftest import file_certificate, valid_data

CERTIFICATE = "Upload the certificate of insurance on the permit page"


@pytest.fixture
def no_certificate(spring, street, contractor, contractor_org, bond):
    """A submitted street opening whose certificate of insurance is not yet on file (§ 303-4G)."""
    return so.apply_for_street_opening(applicant=contractor, organization=contractor_org, data=valid_data(street))


def test_303_4g_applicant_sees_the_missing_certificate_with_a_link_to_upload_it(client, contractor, no_certificate):
    client.force_login(contractor)
    page = client.get(no_certificate.get_absolute_url()).content.decode()
    assert "What still blocks approval" in page and CERTIFICATE in page
    assert f'href="{no_certificate.get_absolute_url()}#upload-heading">Upload the document' in page
    assert 'id="upload-heading"' in page


def test_303_4g_the_checklist_is_the_blockers_staff_see(dpw_director, no_certificate):
    from permits.workflow import blockers_for

    items = permit_page.checklist(no_certificate, today=date(2026, 5, 4))
    assert [i.violation for i in items] == blockers_for(no_certificate, Status.APPROVED, today=date(2026, 5, 4))
    assert any(i.violation.citation == "§ 303-4G" for i in items)


def test_303_4g_uploading_the_certificate_clears_it_from_the_checklist(client, contractor, no_certificate):
    file_certificate(no_certificate, contractor)
    client.force_login(contractor)
    page = client.get(no_certificate.get_absolute_url()).content.decode()
    assert CERTIFICATE not in page
    assert "Nothing blocks approval" in page


def test_staff_see_the_same_checklist_without_the_applicants_fix_links(client, clerk, no_certificate):
    client.force_login(clerk)
    page = client.get(no_certificate.get_absolute_url()).content.decode()
    assert CERTIFICATE in page and "The applicant sees this list too." in page
    assert ">Upload the document<" not in page


def test_182_0175_missing_ticket_links_to_adding_one(contractor, no_certificate):
    from permits.errors import Violation
    from permits.street_opening.workflow import fix_link

    link = fix_link(no_certificate, Violation("diggers_hotline_ticket", "required", "Wis. Stat. § 182.0175", "x"))
    assert link == (
        reverse("permits:street_opening_add_ticket", args=[no_certificate.number]),
        "Add a Diggers Hotline ticket",
    )


def test_303_3c_unpaid_fee_blocks_the_sidewalk_permits_issue_on_the_applicants_checklist(
    client, contractor, submitted, clerk, settings
):
    from permits import workflow

    settings.ONLINE_PAYMENT_VARIANT = "card"  # card payments on (production mode turns them off without a provider)

    workflow.transition(submitted, Status.UNDER_REVIEW, by=clerk, today=date(2026, 6, 1))
    workflow.transition(submitted, Status.APPROVED, by=clerk, today=date(2026, 6, 1))
    client.force_login(contractor)
    page = client.get(submitted.get_absolute_url()).content.decode()
    assert "What still blocks the permit&#x27;s issue" in page or "What still blocks the permit's issue" in page
    pay = reverse("online_payments:pay_permit", args=[submitted.number])
    assert "Record the fee payment of $25.00" in page and f'<a href="{pay}">Pay the fee online' in page


def _approved_unpaid(submitted, clerk):
    from permits import workflow

    workflow.transition(submitted, Status.UNDER_REVIEW, by=clerk, today=date(2026, 6, 1))
    return workflow.transition(submitted, Status.APPROVED, by=clerk, today=date(2026, 6, 1))


def test_303_3c_the_clerk_whose_step_it_is_gets_the_page_that_clears_the_blocker(client, submitted, clerk):
    permit = _approved_unpaid(submitted, clerk)
    client.force_login(clerk)
    page = client.get(permit.get_absolute_url()).content.decode()
    assert f'<a href="{reverse("sidewalks:permit", args=[permit.number])}">Clear it on its page' in page


def test_303_3c_staff_whose_step_it_is_not_get_no_page_to_clear_it(client, submitted, clerk, dpw_director):
    permit = _approved_unpaid(submitted, clerk)
    client.force_login(dpw_director)
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "Record the fee payment of $25.00" in page and "Clear it on its page" not in page


def test_the_applicant_is_told_which_office_clears_a_blocker_that_is_not_theirs():
    from permits.kinds import CALENDAR, Clearer
    from permits.roles import Role

    assert permit_page._who_clears(Clearer((Role.DPW_DIRECTOR, Role.CLERK), "x", "")) == (
        "The Director of Public Works or the Clerk-Treasurer records this"
    )
    assert permit_page._who_clears(Clearer((CALENDAR,), "x", "")) == "This clears when its day comes"
    assert permit_page._who_clears(None) == "The Village records this"


def test_outsider_cannot_see_the_permit_page(client, outsider, no_certificate):
    client.force_login(outsider)
    assert client.get(no_certificate.get_absolute_url()).status_code == 404


# --- Withdraw -----------------------------------------------------------------------------------------------------


def test_applicant_withdraws_a_submitted_application_after_confirming(client, contractor, submitted):
    client.force_login(contractor)
    assert "Withdraw the application" in client.get(submitted.get_absolute_url()).content.decode()
    client.post(reverse("permits:withdraw", args=[submitted.number]), {"confirm": "yes", "reason": "Plans changed"})
    submitted.refresh_from_db()
    assert submitted.status == Status.WITHDRAWN
    assert submitted.events.filter(to_status=Status.WITHDRAWN, reason="Plans changed", actor=contractor).exists()


def test_withdraw_without_confirmation_changes_nothing(client, contractor, submitted):
    client.force_login(contractor)
    response = client.post(reverse("permits:withdraw", args=[submitted.number]), {"reason": "oops"}, follow=True)
    submitted.refresh_from_db()
    assert submitted.status == Status.SUBMITTED and "tick the box to confirm" in response.content.decode()


def test_organization_staff_may_withdraw_the_companys_application(client, contractor_staff, submitted):
    client.force_login(contractor_staff)
    client.post(reverse("permits:withdraw", args=[submitted.number]), {"confirm": "yes"})
    submitted.refresh_from_db()
    assert submitted.status == Status.WITHDRAWN


def test_issued_permit_cannot_be_withdrawn(client, contractor, issued):
    client.force_login(contractor)
    assert "Withdraw the application" not in client.get(issued.get_absolute_url()).content.decode()
    response = client.post(reverse("permits:withdraw", args=[issued.number]), {"confirm": "yes"}, follow=True)
    issued.refresh_from_db()
    assert issued.status == Status.ISSUED and "it cannot become withdrawn" in response.content.decode()


@pytest.mark.parametrize("who", ["dpw_director", "inspector", "building_inspector", "police_chief", "board_member"])
def test_staff_other_than_the_clerk_cannot_withdraw_an_application(client, request, who, submitted):
    client.force_login(request.getfixturevalue(who))
    client.post(reverse("permits:withdraw", args=[submitted.number]), {"confirm": "yes"})
    submitted.refresh_from_db()
    assert submitted.status == Status.SUBMITTED


def test_outsider_cannot_withdraw(client, outsider, submitted):
    client.force_login(outsider)
    assert client.post(reverse("permits:withdraw", args=[submitted.number]), {"confirm": "yes"}).status_code == 404


# --- The fee before applying ----------------------------------------------------------------------------------------


def test_303_4f2_street_opening_form_shows_the_fee_in_force_with_its_section(client, contractor):
    from django.utils import timezone

    from permits.fees import fee_in_force

    fee = fee_in_force("street_opening", timezone.localdate())
    client.force_login(contractor)
    page = client.get(reverse("permits:street_opening_apply")).content.decode()
    assert f"Fee if you apply today: ${fee.amount}" in page and fee.citation in page


def test_303_3c_sidewalk_form_shows_the_fee_in_force_with_its_section(client, resident):
    from django.utils import timezone

    from permits.fees import fee_in_force
    from sidewalks.services import FEE_CODE

    fee = fee_in_force(FEE_CODE, timezone.localdate())
    client.force_login(resident)
    page = client.get(reverse("sidewalks:apply")).content.decode()
    assert f"Fee if you apply today: ${fee.amount}" in page and fee.citation in page


def test_no_fee_in_force_shows_no_made_up_fee(db):
    from permits import kinds
    from permits.models import FeeItem

    FeeItem.objects.filter(code="street_opening").delete()
    assert permit_page.fee_preview(kinds.get_type("street_opening"), today=date(2026, 5, 4)) is None


# --- Drafts -------------------------------------------------------------------------------------------------------


def test_a_saved_draft_stores_no_permit_and_continues_prefilled(client, resident, home):
    from permits.models import ApplicationDraft, Permit

    client.force_login(resident)
    response = client.post(
        reverse("sidewalks:apply"), {"parcel": home.tax_key, "frontage_feet": "60", "save_draft": "1"}
    )
    assert response.status_code == 302 and not Permit.objects.exists()
    draft = ApplicationDraft.objects.get(applicant=resident)
    assert draft.data["frontage_feet"] == "60" and "csrfmiddlewaretoken" not in draft.data
    listing = client.get(reverse("permits:my_applications")).content.decode()
    assert f"?draft={draft.pk}" in listing
    page = client.get(reverse("sidewalks:apply") + f"?draft={draft.pk}").content.decode()
    assert 'value="60"' in page and f'name="draft" value="{draft.pk}"' in page


def test_another_persons_draft_is_never_opened(client, resident, outsider, home):
    draft = applications.save_draft(applicant=resident, kind="sidewalk", data={"frontage_feet": "77"})
    client.force_login(outsider)
    assert 'value="77"' not in client.get(reverse("sidewalks:apply") + f"?draft={draft.pk}").content.decode()
    assert client.post(reverse("permits:delete_draft", args=[draft.pk])).status_code == 404


def test_submitting_a_draft_deletes_it(client, contractor, contractor_org, home, good):
    import time_machine

    from permits.models import ApplicationDraft, Permit
    from tests.sidewalks.conftest import TODAY, at

    draft = applications.save_draft(applicant=contractor, kind="sidewalk", data={"parcel": home.tax_key})
    client.force_login(contractor)
    with time_machine.travel(at(TODAY), tick=False):
        post = {k: str(v) for k, v in good.items()}
        post.update(parcel=home.tax_key, organization=str(contractor_org.pk), draft=str(draft.pk))
        response = client.post(reverse("sidewalks:apply"), post)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Permit.objects.count() == 1 and not ApplicationDraft.objects.exists()


def test_draft_count_is_limited(resident):
    from django.core.exceptions import ValidationError

    for _ in range(applications.MAX_DRAFTS):
        applications.save_draft(applicant=resident, kind="sidewalk", data={})
    with pytest.raises(ValidationError):
        applications.save_draft(applicant=resident, kind="sidewalk", data={})


# --- The permit PDF ---------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_303_3c_issued_sidewalk_permit_has_its_pdf_on_the_page(client, contractor, issued):
    client.force_login(contractor)
    url = reverse("sidewalks:permit_pdf", args=[issued.number])
    assert url in client.get(issued.get_absolute_url()).content.decode()
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_303_3c_no_pdf_before_issue(client, contractor, submitted):
    client.force_login(contractor)
    assert client.get(reverse("sidewalks:permit_pdf", args=[submitted.number])).status_code == 404


def test_outsider_gets_no_sidewalk_pdf(client, outsider, issued):
    client.force_login(outsider)
    assert client.get(reverse("sidewalks:permit_pdf", args=[issued.number])).status_code == 404


def test_every_online_type_names_its_permit_pdf():
    from permits import kinds

    assert all(t.pdf_url for t in kinds.online_types())
