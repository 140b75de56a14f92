"""Account verbs: what happens when someone registers, and organization staff."""

from django.db import transaction

from .models import Membership, Organization


@transaction.atomic
def complete_signup_details(*, user, data: dict) -> None:
    user.first_name = data["first_name"].strip()
    user.last_name = data["last_name"].strip()
    user.save(update_fields=["first_name", "last_name"])
    kind = data["applicant_type"]
    if kind in (Organization.Kind.CONTRACTOR, Organization.Kind.UTILITY):
        organization = Organization.objects.create(
            name=data["organization_name"].strip(), kind=kind, phone=data.get("phone", "")
        )
        Membership.objects.create(user=user, organization=organization, is_manager=True)


def add_member(*, organization: Organization, user, by) -> Membership:
    from django.core.exceptions import PermissionDenied

    if not organization.memberships.filter(user=by, is_manager=True).exists():
        raise PermissionDenied("Only a manager of the organization may add staff.")
    return Membership.objects.create(organization=organization, user=user)
