"""Contractor and utility organizations: the manager adds staff, who then see the organization's applications."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from permits.accounts import add_member
from permits.models import Membership, Status
from tests.factories import UserFactory
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def org_url(org):
    return reverse("permits:organization", args=[org.pk])


def test_manager_adds_a_staff_member_by_email_who_then_sees_the_orgs_applications(client, contractor, contractor_org):
    permit = permit_in(Status.SUBMITTED, applicant=contractor, organization=contractor_org)
    newcomer = UserFactory(username="newcomer", email="New.Comer@example.com")
    client.force_login(newcomer)
    assert client.get(permit.get_absolute_url()).status_code == 404

    client.force_login(contractor)
    response = client.post(org_url(contractor_org), {"email": "new.comer@EXAMPLE.com"})
    assert response.status_code == 302
    membership = Membership.objects.get(user=newcomer, organization=contractor_org)
    assert membership.is_manager is False

    client.force_login(newcomer)
    assert client.get(permit.get_absolute_url()).status_code == 200
    assert permit.number in client.get(reverse("permits:my_applications")).content.decode()
    assert client.get(org_url(contractor_org)).status_code == 200


def test_the_org_page_lists_its_staff_and_shows_the_add_form_to_the_manager(
    client, contractor, contractor_staff, contractor_org
):
    client.force_login(contractor)
    html = client.get(org_url(contractor_org)).content.decode()
    assert contractor_staff.email in html and contractor.email in html
    assert "Add a staff member" in html
    client.force_login(contractor_staff)
    html = client.get(org_url(contractor_org)).content.decode()
    assert "Add a staff member" not in html


def test_a_non_manager_cannot_add_staff(client, contractor_staff, contractor_org):
    other = UserFactory(email="other@example.com")
    client.force_login(contractor_staff)
    response = client.post(org_url(contractor_org), {"email": "other@example.com"})
    assert response.status_code == 403
    assert not Membership.objects.filter(user=other).exists()
    with pytest.raises(PermissionDenied):
        add_member(organization=contractor_org, user=other, by=contractor_staff)


@pytest.mark.parametrize("who", ["outsider", "resident", "clerk", "police_chief"])
def test_an_outsider_gets_404_on_the_org_page(who, persona, client, contractor, contractor_org):
    client.force_login(persona(who))
    assert client.get(org_url(contractor_org)).status_code == 404
    assert client.post(org_url(contractor_org), {"email": "x@example.com"}).status_code == 404


def test_adding_an_unknown_email_is_refused_with_a_message(client, contractor, contractor_org):
    client.force_login(contractor)
    response = client.post(org_url(contractor_org), {"email": "nobody@example.com"})
    assert response.status_code == 200
    assert "No account uses that email" in response.content.decode()
    assert contractor_org.memberships.count() == 1


def test_adding_someone_already_on_staff_is_refused(client, contractor, contractor_staff, contractor_org):
    client.force_login(contractor)
    response = client.post(org_url(contractor_org), {"email": contractor_staff.email})
    assert "already on your staff" in response.content.decode()
    assert contractor_org.memberships.count() == 2


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
