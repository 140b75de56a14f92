"""The street register's widths (§ 303-7D(1), § 303-6B(2)): who records them (the Clerk-Treasurer or the Director of
Public Works, on the page; never in the admin), what the register holds at its boundaries, and the page itself."""

from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from obstructions.registers import services
from permits.errors import RulesBroken
from permits.models import Street
from tests.factories import StreetFactory

pytestmark = pytest.mark.django_db
URL = "/obstructions/registers/streets/"


@pytest.fixture
def bare_street(db):
    """A street the register has no widths for yet."""
    return StreetFactory(name="Cedar Court", width_feet=None, traveled_width_feet=None, sidewalk_width_feet=None)


def record(by, street, width="24.0", traveled="22.0", sidewalk="4.0"):
    return services.record_street_widths(
        street=street,
        by=by,
        width_feet=D(width) if width is not None else None,
        traveled_width_feet=D(traveled) if traveled is not None else None,
        sidewalk_width_feet=D(sidewalk) if sidewalk is not None else None,
    )


def test_the_register_page_is_where_the_messages_send_people():
    assert reverse("obstructions:registers:street_widths") == URL


@pytest.mark.parametrize("persona", ["clerk", "dpw_director"])
def test_303_7d1_the_clerk_or_the_dpw_director_records_the_widths(persona, bare_street, request):
    who = request.getfixturevalue(persona)
    street = record(who, bare_street)
    assert (street.width_feet, street.traveled_width_feet, street.sidewalk_width_feet) == (
        D("24.0"),
        D("22.0"),
        D("4.0"),
    )
    assert street.widths_recorded_by == who and street.widths_recorded_at is not None
    assert street.history.count() == 2  # created, then recorded: the earlier widths stay in its history


@pytest.mark.parametrize("persona", ["building_inspector", "inspector", "police_chief", "contractor", "resident"])
def test_303_7d1_nobody_else_records_widths(persona, bare_street, request):
    with pytest.raises(PermissionDenied):
        record(request.getfixturevalue(persona), bare_street)
    assert Street.objects.get(pk=bare_street.pk).width_feet is None


def test_303_6b2_a_traveled_portion_as_wide_as_the_street_passes(clerk, bare_street):
    assert record(clerk, bare_street, width="24.0", traveled="24.0").traveled_width_feet == D("24.0")


def test_303_6b2_a_traveled_portion_a_tenth_wider_than_the_street_fails(clerk, bare_street):
    with pytest.raises(RulesBroken) as broken:
        record(clerk, bare_street, width="24.0", traveled="24.1")
    assert [v.code for v in broken.value.violations] == ["wider_than_street"]
    assert Street.objects.get(pk=bare_street.pk).width_feet is None


def test_the_widths_are_more_than_zero_and_the_sidewalk_may_be_none(clerk, bare_street):
    with pytest.raises(RulesBroken) as broken:
        record(clerk, bare_street, width="0", traveled=None, sidewalk="0")
    assert {v.field for v in broken.value.violations} == {"width_feet", "traveled_width_feet", "sidewalk_width_feet"}
    assert record(clerk, bare_street, sidewalk=None).sidewalk_width_feet is None  # no sidewalk along it


def test_the_database_refuses_a_traveled_width_wider_than_the_street(bare_street):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Street.objects.filter(pk=bare_street.pk).update(width_feet=D("20.0"), traveled_width_feet=D("20.1"))


@pytest.mark.parametrize("persona", ["clerk", "dpw_director", "building_inspector", "board_member"])
def test_staff_read_the_street_register(client, persona, bare_street, request, django_assert_max_num_queries):
    StreetFactory.create_batch(5)
    client.force_login(request.getfixturevalue(persona))
    with django_assert_max_num_queries(12):
        page = client.get(URL).content.decode()
    assert "Cedar Court" in page and "Not recorded" in page


@pytest.mark.parametrize("persona", ["resident", "contractor", "police_chief"])
def test_others_do_not_read_the_street_register(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(URL).status_code == 403


def test_the_clerk_records_widths_on_the_page(client, clerk, bare_street):
    client.force_login(clerk)
    body = {"street": bare_street.pk, "width_feet": "24.0", "traveled_width_feet": "22.0", "sidewalk_width_feet": ""}
    response = client.post(URL, body)
    assert response.status_code == 302
    street = Street.objects.get(pk=bare_street.pk)
    assert (street.width_feet, street.sidewalk_width_feet) == (D("24.0"), None)
    assert "No sidewalk" in client.get(URL).content.decode()


def test_the_page_shows_the_refusal_on_its_field(client, clerk, bare_street):
    client.force_login(clerk)
    body = {"street": bare_street.pk, "width_feet": "24.0", "traveled_width_feet": "30.0"}
    response = client.post(URL, body)
    assert response.status_code == 200
    assert "cannot be wider than the street" in response.content.decode()
    assert Street.objects.get(pk=bare_street.pk).width_feet is None


def test_a_reader_may_not_post_widths(client, building_inspector, bare_street):
    client.force_login(building_inspector)
    body = {"street": bare_street.pk, "width_feet": "24.0", "traveled_width_feet": "22.0"}
    assert client.post(URL, body).status_code == 403
    assert "Record a street" not in client.get(URL).content.decode()


def test_the_admin_shows_the_widths_read_only(admin_client, bare_street):
    record_url = reverse("admin:permits_street_change", args=[bare_street.pk])
    response = admin_client.post(record_url, {"name": bare_street.name, "notes": "", "width_feet": "99.0"})
    assert response.status_code in (200, 302)
    assert Street.objects.get(pk=bare_street.pk).width_feet is None
