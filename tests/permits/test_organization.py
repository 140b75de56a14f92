"""Contractor and utility organizations: the manager invites staff (permits/accounts/invitations.py, tested in
tests/permits/test_invitations.py), who then see the organization's applications."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.accounts.invitations import invite
from permits.models import Membership, Status
from tests.factories import UserFactory
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def org_url(org):
    return reverse("permits:organization", args=[org.pk])


def test_an_invited_staff_member_who_accepted_sees_the_orgs_applications(client, contractor, contractor_org):
    from allauth.account.models import EmailAddress

    from permits.accounts.invitations import accept

    permit = permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)
    newcomer = UserFactory(username="newcomer", email="New.Comer@example.com")
    EmailAddress.objects.create(user=newcomer, email=newcomer.email, verified=True, primary=True)
    client.force_login(newcomer)
    assert client.get(permit.get_absolute_url()).status_code == 404

    invitation = invite(organization=contractor_org, email="new.comer@EXAMPLE.com", by=contractor)
    assert not Membership.objects.filter(user=newcomer).exists()
    membership = accept(invitation=invitation, user=newcomer)
    assert membership.is_manager is False

    assert client.get(permit.get_absolute_url()).status_code == 200
    assert permit.number in client.get(reverse("permits:my_applications")).content.decode()
    assert client.get(org_url(contractor_org)).status_code == 200


def test_the_org_page_lists_its_staff_and_shows_the_add_form_to_the_manager(
    client, contractor, contractor_staff, contractor_org
):
    client.force_login(contractor)
    html = client.get(org_url(contractor_org)).content.decode()
    assert contractor_staff.email in html and contractor.email in html
    assert "Invite a staff member" in html
    client.force_login(contractor_staff)
    html = client.get(org_url(contractor_org)).content.decode()
    assert "Invite a staff member" not in html


def test_a_non_manager_cannot_add_staff(client, contractor_staff, contractor_org):
    other = UserFactory(email="other@example.com")
    client.force_login(contractor_staff)
    response = client.post(org_url(contractor_org), {"email": "other@example.com"})
    assert response.status_code == 403
    assert not Membership.objects.filter(user=other).exists()
    with pytest.raises(PermissionDenied):
        invite(organization=contractor_org, email=other.email, by=contractor_staff)


@pytest.mark.parametrize("who", ["outsider", "resident", "clerk", "police_chief"])
def test_an_outsider_gets_404_on_the_org_page(who, persona, client, contractor, contractor_org):
    client.force_login(persona(who))
    assert client.get(org_url(contractor_org)).status_code == 404
    assert client.post(org_url(contractor_org), {"email": "x@example.com"}).status_code == 404


@pytest.mark.parametrize(
    "email",
    ["not-an-email", "", "<script>alert(1)</script>@x.com", "a" * 300 + "@x.com"],
)
def test_adding_a_malformed_email_is_refused(client, contractor, contractor_org, email):
    client.force_login(contractor)
    response = client.post(org_url(contractor_org), {"email": email})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in html
    assert contractor_org.memberships.count() == 1


def test_staff_of_a_company_can_apply_for_it_and_others_cannot(contractor_staff, contractor_org, resident):
    from permits.models import PermitKind
    from permits.services import create_permit

    permit = create_permit(
        kind=PermitKind.STREET_OPENING,
        applicant=contractor_staff,
        organization=contractor_org,
    )
    assert permit.organization == contractor_org
    with pytest.raises(PermissionDenied):
        create_permit(
            kind=PermitKind.STREET_OPENING,
            applicant=resident,
            organization=contractor_org,
        )
