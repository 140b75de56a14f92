"""Organization staff by invitation (permits/accounts/invitations.py; OWASP ASVS V2.1, no account enumeration): the
manager
invites an email, the invitee accepts while logged in with that verified email, and only then joins."""

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail, signing
from django.core.exceptions import PermissionDenied
from django.test import TestCase
from django.urls import reverse

from permits.accounts import invitations
from permits.models import Membership, Notice, Status
from permits.models.core import Invitation
from tests.factories import OrganizationFactory, UserFactory
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def org_url(org):
    return reverse("permits:organization", args=[org.pk])


def verified(user, email=None):
    EmailAddress.objects.create(user=user, email=email or user.email, verified=True, primary=True)
    return user


def last_notice():
    return Notice.objects.filter(template="organization_invitation").order_by("-pk").first()


def link_in_last_mail() -> str:
    # The notice's record (permits.Notice) is what was sent: with a real worker (PostgreSQL + Redis) the mail itself
    # leaves in another process, so the link is read from the record, which the email's body is rendered once into.
    body = last_notice().body
    match = re.search(r"https?://\S+/account/invitations/\S+/", body)
    assert match, body
    return match.group(0).split("://", 1)[1].split("/", 1)[1].join(["/", ""])


def invite(client, manager, org, email):
    client.force_login(manager)
    # Notices go out on commit (permits.services.send_notice): run that callback now.
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(org_url(org), {"email": email}, follow=True)


@pytest.fixture
def newcomer(db):
    return verified(UserFactory(username="newcomer", email="newcomer@example.com"))


def assert_link_refused(client, newcomer, url, why):
    """The link answers 404 saying why, and the newcomer joined nothing."""
    client.force_login(newcomer)
    refused = client.post(url)
    assert refused.status_code == 404 and why in refused.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()


def test_owasp_v2_1_manager_invites_and_the_invitee_joins_only_after_accepting(client, contractor, contractor_org):
    permit = permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)
    newcomer = verified(UserFactory(username="newcomer", email="new.comer@example.com"))

    response = invite(client, contractor, contractor_org, "New.Comer@EXAMPLE.com")
    assert invitations.sent_message("new.comer@example.com") in response.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()  # not before accepting
    assert last_notice().to == "new.comer@example.com"
    assert contractor_org.name in last_notice().subject
    if settings.CELERY_TASK_ALWAYS_EAGER:  # embedded mode: the mail itself went out on commit
        assert mail.outbox[-1].to == ["new.comer@example.com"]
    url = link_in_last_mail()
    assert "new.comer@example.com" in client.get(org_url(contractor_org)).content.decode()  # listed as pending

    client.force_login(newcomer)
    page = client.get(url)
    assert page.status_code == 200 and "Accept and join" in page.content.decode()
    assert client.post(url).status_code == 302
    membership = Membership.objects.get(user=newcomer, organization=contractor_org)
    assert membership.is_manager is False
    invitation = Invitation.objects.get(email="new.comer@example.com")
    assert invitation.accepted_by == newcomer and invitation.accepted_at is not None
    assert client.get(permit.get_absolute_url()).status_code == 200
    # The link is used up: a second accept adds nothing and the same user is sent to the organization.
    assert client.post(url).status_code == 302
    assert Membership.objects.filter(user=newcomer).count() == 1


def test_owasp_v2_1_the_answer_is_the_same_for_no_account_an_account_and_a_member(
    client, contractor, contractor_staff, contractor_org
):
    verified(contractor_staff)
    UserFactory(username="exists", email="exists@example.com")
    answers = []
    for email in ["nobody@example.com", "exists@example.com", contractor_staff.email]:
        response = invite(client, contractor, contractor_org, email)
        assert response.status_code == 200
        html = response.content.decode()
        answers.append([str(m).replace(email, "EMAIL") for m in response.context["messages"]])
        assert invitations.sent_message(email) in html
        assert "No account uses that email" not in html and "That person is already on your staff" not in html
        assert response.context["form"].errors == {}
    assert answers[0] == answers[1] == answers[2] == [invitations.sent_message("EMAIL")]
    assert contractor_org.memberships.count() == 2  # nobody was added directly
    # The email with an account and the one without got the same invitation; the current member got none.
    sent = Notice.objects.filter(template="organization_invitation").values_list("to", flat=True)
    assert sorted(sent) == ["exists@example.com", "nobody@example.com"]


def test_owasp_v2_1_a_logged_in_user_whose_verified_email_differs_cannot_accept(client, contractor, contractor_org):
    invite(client, contractor, contractor_org, "invitee@example.com")
    url = link_in_last_mail()
    other = verified(UserFactory(username="other", email="other@example.com"))
    client.force_login(other)
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert not Membership.objects.filter(user=other).exists()
    # An unverified address on the account is not enough either (mandatory verification).
    EmailAddress.objects.create(user=other, email="invitee@example.com", verified=False)
    assert client.post(url).status_code == 403
    assert not Membership.objects.filter(user=other).exists()


def test_owasp_v2_1_accepting_needs_a_login(client, contractor, contractor_org):
    invite(client, contractor, contractor_org, "invitee@example.com")
    url = link_in_last_mail()
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_owasp_v2_1_forged_expired_and_revoked_links_find_nothing(
    client, contractor, contractor_org, time_machine, newcomer
):
    invite(client, contractor, contractor_org, "newcomer@example.com")
    url = link_in_last_mail()
    client.force_login(newcomer)

    forged = reverse("permits:invitation_accept", args=[signing.dumps("guessed", salt="other")])
    assert client.post(forged).status_code == 404

    time_machine.move_to(invitations.INVITATION_MAX_AGE + timedelta(days=1) + Invitation.objects.get().created_at)
    assert_link_refused(client, newcomer, url, "expired")  # signed in again: the session aged too


def test_owasp_v2_1_manager_withdraws_an_invitation_and_its_link_stops_working(
    client, contractor, contractor_org, newcomer
):
    invite(client, contractor, contractor_org, "newcomer@example.com")
    url = link_in_last_mail()
    invitation = Invitation.objects.get()
    response = client.post(reverse("permits:invitation_revoke", args=[invitation.pk]), follow=True)
    assert "withdrawn" in response.content.decode()
    assert not Invitation.objects.exists()
    assert_link_refused(client, newcomer, url, "withdrawn")


def test_owasp_v2_1_a_second_invitation_replaces_the_first_link(client, contractor, contractor_org, newcomer):
    invite(client, contractor, contractor_org, "newcomer@example.com")
    first = link_in_last_mail()
    invite(client, contractor, contractor_org, "newcomer@example.com")
    second = link_in_last_mail()
    assert Invitation.objects.count() == 1
    client.force_login(newcomer)
    assert client.post(first).status_code == 404
    assert client.post(second).status_code == 302


def test_owasp_v2_1_a_non_manager_cannot_invite_list_or_withdraw(client, contractor, contractor_staff, contractor_org):
    invite(client, contractor, contractor_org, "pending@example.com")
    invitation = Invitation.objects.get()
    client.force_login(contractor_staff)
    html = client.get(org_url(contractor_org)).content.decode()
    assert "pending@example.com" not in html and "Invite a staff member" not in html
    assert client.post(org_url(contractor_org), {"email": "other@example.com"}).status_code == 403
    assert client.post(reverse("permits:invitation_revoke", args=[invitation.pk])).status_code == 403
    assert Invitation.objects.count() == 1
    with pytest.raises(PermissionDenied):
        invitations.invite(organization=contractor_org, email="x@example.com", by=contractor_staff)


@pytest.mark.parametrize(
    "who", ["outsider", "resident", "clerk", "dpw_director", "inspector", "police_chief", "board_member", "president"]
)
def test_owasp_v2_1_no_one_outside_the_organization_invites_or_withdraws(
    who, persona, client, contractor, contractor_org
):
    invite(client, contractor, contractor_org, "pending@example.com")
    invitation = Invitation.objects.get()
    client.force_login(persona(who))
    assert client.post(org_url(contractor_org), {"email": "x@example.com"}).status_code == 404
    assert client.post(reverse("permits:invitation_revoke", args=[invitation.pk])).status_code == 404
    assert Invitation.objects.count() == 1


def test_owasp_v2_1_a_manager_of_another_organization_cannot_withdraw(client, contractor, contractor_org):
    invite(client, contractor, contractor_org, "pending@example.com")
    invitation = Invitation.objects.get()
    rival = UserFactory(username="rival")
    Membership.objects.create(user=rival, organization=OrganizationFactory(name="Rival LLC"), is_manager=True)
    client.force_login(rival)
    assert client.post(reverse("permits:invitation_revoke", args=[invitation.pk])).status_code == 404
    assert Invitation.objects.count() == 1


@pytest.mark.parametrize("bad", ["", "not-an-email", "a@b", "x" * 250 + "@example.com"])
def test_owasp_v2_1_bad_email_names_the_field_and_stores_nothing(bad, client, contractor, contractor_org):
    client.force_login(contractor)
    response = client.post(org_url(contractor_org), {"email": bad})
    assert response.status_code == 200
    assert response.context["form"].errors["email"]
    assert not Invitation.objects.exists() and not Notice.objects.exists()


def test_owasp_v2_1_an_accepted_invitation_cannot_be_withdrawn(client, contractor, contractor_org, newcomer):
    invite(client, contractor, contractor_org, "newcomer@example.com")
    url = link_in_last_mail()
    client.force_login(newcomer)
    client.post(url)
    invitation = Invitation.objects.get()
    client.force_login(contractor)
    response = client.post(reverse("permits:invitation_revoke", args=[invitation.pk]), follow=True)
    assert "already accepted" in response.content.decode()
    assert Membership.objects.filter(user=newcomer).exists()
