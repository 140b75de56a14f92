"""Notices at every step, emailed with absolute links from SITE_URL in the Village's name, logged
on the record; each person chooses which they get by email; account emails name no host and no username."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from permits import notices
from permits.applicant import applications
from permits.models import NoticePreference, PermitEvent, Status
from permits.services import send_notice
from sidewalks import services as sidewalk_services
from tests.sidewalks.conftest import TODAY

SITE = "https://permits.theresa.example"
EMAILS = Path(settings.BASE_DIR) / "templates" / "emails"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = SITE


def _links(body: str) -> list[str]:
    return re.findall(r"(?:https?://\S+|(?<![\w/])/[a-z][\w./-]*/\S*)", body)


def test_every_email_template_link_starts_at_site_url():
    """A link in an email is `{{ SITE_URL }}` followed by the path: never a relative path nobody can click."""
    bare = []
    for path in EMAILS.glob("*.txt"):
        text = path.read_text()
        for match in re.finditer(
            r"\{% url [^%]+%\}|\{\{ [\w.]*(get_absolute_url|status_url|get_public_url) \}\}", text
        ):
            before = text[: match.start()]
            if not before.endswith("{{ SITE_URL }}"):
                bare.append(f"{path.name}: {match.group(0)}")
    assert bare == []


def test_application_received_links_to_the_permit_on_the_configured_site(submitted, django_capture_on_commit_callbacks):
    notice = submitted.notices.get(template="application_received")
    assert f"{SITE}/permits/{submitted.number}/" in notice.body
    assert all(link.startswith(SITE) for link in _links(notice.body))


def test_step_notice_for_approval_is_sent_once_committed_with_an_absolute_link(
    clerk, submitted, django_capture_on_commit_callbacks
):
    from permits import workflow

    with django_capture_on_commit_callbacks(execute=True):
        workflow.transition(submitted, Status.UNDER_REVIEW, by=clerk, today=TODAY)
        workflow.transition(submitted, Status.APPROVED, by=clerk, today=TODAY, reason="Meets § 303-3D")
    notice = submitted.notices.get(template="permit_approved")
    assert notice.to == submitted.applicant.email
    assert "Village of Theresa" in notice.subject and f"{SITE}/permits/{submitted.number}/" in notice.body
    assert submitted.events.filter(kind=PermitEvent.Kind.NOTICE, reason__contains="approved").exists()


def test_approved_and_issued_in_one_go_sends_the_issued_notice_alone(
    clerk, submitted, django_capture_on_commit_callbacks
):
    from permits.services import record_payment

    record_payment(permit=submitted, amount=submitted.fee_amount, method="cash", by=clerk)
    submitted.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        sidewalk_services.issue_sidewalk_permit(permit=submitted, by=clerk, today=TODAY)
    templates = list(submitted.notices.values_list("template", flat=True))
    assert "sidewalk_permit_issued" in templates and "permit_approved" not in templates
    body = submitted.notices.get(template="sidewalk_permit_issued").body
    assert f"{SITE}{reverse('sidewalks:permit', args=[submitted.number])}" in body


def test_applicant_who_withdraws_is_not_emailed_but_the_clerk_withdrawing_tells_them(
    contractor, clerk, submitted, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        applications.withdraw_permit(permit=submitted, by=contractor)
    assert not submitted.notices.filter(template="permit_withdrawn").exists()


def test_clerk_withdrawing_an_application_tells_the_applicant(clerk, submitted, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        applications.withdraw_permit(permit=submitted, by=clerk, reason="Duplicate of SW-2026-0002")
    notice = submitted.notices.get(template="permit_withdrawn")
    assert "Duplicate of SW-2026-0002" in notice.body


def test_staff_ask_for_information_the_applicant_is_noticed_and_the_timeline_says_it(clerk, submitted):
    notice = applications.request_information(permit=submitted, by=clerk, message="Upload a sketch of the walk.")
    assert notice.template == "permit_needs_information" and "Upload a sketch of the walk." in notice.body
    assert f"{SITE}/permits/{submitted.number}/" in notice.body
    assert submitted.events.filter(reason="Information requested: Upload a sketch of the walk.").exists()


def test_applicant_cannot_ask_for_information(contractor, submitted):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        applications.request_information(permit=submitted, by=contractor, message="?")


def test_turned_off_topic_is_not_emailed_but_kept_on_the_timeline(contractor, submitted):
    notices.set_preferences(user=contractor, by_email=[])  # every optional topic off
    assert (
        send_notice(submitted, to=contractor.email.upper(), template="permit_approved", context={"permit": submitted})
        is None
    )
    assert not submitted.notices.filter(template="permit_approved").exists()
    assert submitted.events.filter(reason__startswith=f"Notice not emailed to {contractor.email.upper()}").exists()


def test_topic_left_on_is_emailed(contractor, submitted):
    notices.set_preferences(user=contractor, by_email=["approved"])
    assert send_notice(submitted, to=contractor.email, template="permit_approved", context={"permit": submitted})


def test_law_required_notice_cannot_be_turned_off(resident):
    notices.set_preferences(user=resident, by_email=[])
    assert not NoticePreference.objects.filter(user=resident, topic="charge_billed").exists()
    assert notices.email_turned_off([resident.email], "special_charge_bill") == set()
    assert notices.email_turned_off([resident.email], "field_defect_notice") == set()
    assert notices.email_turned_off([resident.email], "permit_approved") == {resident.email.lower()}


def test_every_email_template_has_a_topic():
    names = {p.name.removesuffix(".txt") for p in EMAILS.glob("*.txt") if not p.name.endswith("_subject.txt")}
    without = sorted(
        n
        for n in names
        if notices.topic_for(n) is None
        and n
        not in (
            "organization_invitation",
            "streetmap_issued",
            "streetmap_verify",
            "special_charge_hearing",
            "street_use_consent_code",  # § 303-15F: a neighbour's one-time consent code, asked for by that neighbour
            "staff_enrolment",  # a credential (the second factor's enrolment link), sent to its holder only
        )
    )
    assert without == []


def test_preferences_page_saves_the_choice_and_shows_required_topics_disabled(client, resident):
    client.force_login(resident)
    page = client.get(reverse("permits:notice_preferences")).content.decode()
    assert 'id="id_topic_charge_billed" checked disabled' in page and "Wis. Stat. § 66.0627(2)" in page
    response = client.post(reverse("permits:notice_preferences"), {"by_email": ["issued", "charge_billed"]})
    assert response.status_code == 302
    assert dict(NoticePreference.objects.filter(user=resident).values_list("topic", "by_email"))["submitted"] is False
    assert NoticePreference.objects.get(user=resident, topic="issued").by_email is True


def test_preferences_page_needs_a_login(client, db):
    assert client.get(reverse("permits:notice_preferences")).status_code == 302


# --- Account emails (allauth) -------------------------------------------------------------------------------------


def test_signup_email_is_in_the_villages_name_on_the_configured_site_without_a_username(client, db):
    from tests.permits.test_bad_input import signup

    signup(client)
    message = mail.outbox[-1]
    assert message.subject.startswith("Village of Theresa permits: ")
    assert "Village of Theresa permits" in message.body and "Village of Theresa permits" in message.from_email
    assert f"{SITE}/accounts/confirm-email/" in message.body
    assert (
        "testserver" not in message.body
        and "127.0.0.1" not in message.body
        and "example.com" not in message.body.replace("rita@example.com", "")
    )
    from django.contrib.auth import get_user_model

    username = get_user_model().objects.get(email="rita@example.com").username
    assert username not in message.body.replace("rita@example.com", "")


def test_password_reset_email_links_to_the_configured_site_and_names_no_username(client, resident):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=resident, email=resident.email, verified=True, primary=True)
    client.post(reverse("account_reset_password"), {"email": resident.email})
    message = mail.outbox[-1]
    assert f"{SITE}/accounts/password/reset/key/" in message.body
    assert "testserver" not in message.body and "username" not in message.body.lower()
    assert resident.username not in message.body.replace(resident.email, "")


def test_303_3d_each_sidewalk_inspection_result_is_noticed_to_the_applicant(issued, inspector):
    from datetime import timedelta

    from tests.sidewalks.conftest import PASSING, at

    sidewalk_services.record_inspection(
        permit=issued, stage="subgrade", by=inspector, inspected_at=at(TODAY + timedelta(days=5)), **PASSING["subgrade"]
    )
    bad = {**PASSING["forms"], "form_depth_inches": PASSING["forms"]["form_depth_inches"] - 2}
    sidewalk_services.record_inspection(
        permit=issued, stage="forms", by=inspector, inspected_at=at(TODAY + timedelta(days=5), 11), **bad
    )
    passed, failed = issued.notices.filter(template="sidewalk_inspection_result").order_by("created_at", "pk")
    assert "passed" in passed.subject.lower() and "failed" in failed.subject.lower()
    assert "§ 303-3D" in failed.body and f"{SITE}/permits/{issued.number}/" in failed.body
