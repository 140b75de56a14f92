"""A manager invites a colleague, who accepts in the browser (permits/accounts/invitations.py). axe-core on each
page."""

import re

import pytest
from playwright.sync_api import expect

from permits.models import Membership, Notice
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_owasp_v2_1_a_manager_invites_and_the_colleague_accepts(page, live_server, login, axe_check, contractor):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=contractor, email=contractor.email, verified=True, primary=True)
    colleague = UserFactory(username="colleague", email="colleague@example.com")
    EmailAddress.objects.create(user=colleague, email=colleague.email, verified=True, primary=True)
    org = contractor.memberships.get().organization

    login(page, "contractor")
    page.goto(f"{live_server.url}/organizations/{org.pk}/")
    axe_check(page, "organization page")
    page.get_by_label("Email of the person to invite").fill("colleague@example.com")
    page.get_by_role("button", name="Send invitation").click()
    expect(page.get_by_text("Invitation sent to colleague@example.com if")).to_be_visible()
    expect(page.get_by_role("cell", name="colleague@example.com", exact=True)).to_be_visible()
    axe_check(page, "organization page with a pending invitation")

    # The email as the Village recorded it (in production mode the Celery worker delivers it, not this process).
    notice = Notice.objects.filter(to="colleague@example.com").latest("created_at")
    path = re.search(r"/account/invitations/\S+/", notice.body).group(0)
    page.get_by_role("button", name="Log out").click()
    login(page, "colleague")
    page.goto(live_server.url + path)
    axe_check(page, "accept page")
    page.get_by_role("button", name=f"Accept and join {org.name}").click()
    expect(page.get_by_text(f"You joined {org.name}")).to_be_visible()
    axe_check(page, "joined")
    assert Membership.objects.filter(user=colleague, organization=org).exists()
