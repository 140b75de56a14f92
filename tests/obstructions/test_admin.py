"""The back office shows cases and numbers read-only; changes go through the services and pages."""

from django.urls import reverse

from obstructions import services
from obstructions.models import Case
from tests.obstructions.conftest import at


def test_case_is_read_only_in_the_admin(client, inspector, house):
    case = services.open_case(
        kind="obstruction_sidewalk", address=house.site_address, what="Bins", seen_at=at(2026, 5, 4, 8, 0), by=inspector
    )
    client.force_login(inspector)
    assert client.get(reverse("admin:obstructions_case_changelist")).status_code == 200
    url = reverse("admin:obstructions_case_change", args=[case.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"status": "complied", "what": "changed"})
    case.refresh_from_db()
    assert (case.status, case.what) == (Case.Status.OPEN, "Bins")
    assert client.get(reverse("admin:obstructions_case_add")).status_code == 403


def test_board_member_does_not_see_cases_in_the_admin(client, board_member):
    client.force_login(board_member)
    assert client.get(reverse("admin:obstructions_case_changelist")).status_code == 403


def test_clerk_sees_street_numbers_in_the_admin(client, clerk, house):
    services.assign_street_number(parcel=house, number=305, map_reference="Sheet 3", by=clerk)
    client.force_login(clerk)
    assert b"305 Main Street" in client.get(reverse("admin:obstructions_streetnumber_changelist")).content
