"""The public lookup (permits/lookup.py): by number or address, only what the Village publishes, no personal data,
paged, query count fixed, rate-limited per connection."""

from datetime import date

import pytest
from django.urls import reverse

from permits.lookup import LOOKUPS_PER_HOUR, PUBLISHED_STATUSES, lookup_permits
from permits.models import Permit, Status
from tests.factories import ParcelFactory, PermitFactory, StreetFactory, UserFactory

LOOKUP = reverse("permits:lookup")
pytestmark = pytest.mark.django_db


def permit_in(status, **fields):
    permit = PermitFactory(**fields)
    Permit.objects.filter(pk=permit.pk).update(status=status, issued_on=date(2026, 5, 4))
    return permit


@pytest.mark.parametrize("status", list(Status))
def test_a_permit_is_found_by_number_only_when_published(client, status):
    permit = permit_in(status)
    response = client.get(LOOKUP, {"q": permit.number.lower()})
    assert response.status_code == 200
    found = permit.get_public_url() in response.content.decode()
    assert found == (status in PUBLISHED_STATUSES)
    assert found == (
        status not in {Status.DRAFT, Status.SUBMITTED, Status.UNDER_REVIEW, Status.WITHDRAWN, Status.DENIED}
    )


def test_the_number_is_matched_exactly_not_as_a_part():
    permit_in(Status.ISSUED, number="SO-2026-0012")
    assert list(lookup_permits("SO-2026-001")) == []
    assert [p.number for p in lookup_permits(" so-2026-0012 ")] == ["SO-2026-0012"]


def test_an_address_finds_the_permits_at_it_by_parcel_or_location():
    henni = StreetFactory(name="Henni Street")
    parcel = ParcelFactory(site_address="118 Henni Street", street=henni)
    on_parcel = permit_in(Status.COMPLETED, street=henni, parcel=parcel, location_description="Driveway apron")
    by_location = permit_in(Status.ACTIVE, street=henni, location_description="In front of 118 Henni Street")
    elsewhere = permit_in(Status.ISSUED, street=henni, location_description="In front of 200 Henni Street")
    denied_here = permit_in(Status.DENIED, street=henni, location_description="In front of 118 Henni Street")
    found = {p.number for p in lookup_permits("118 henni")}
    assert found == {on_parcel.number, by_location.number}
    assert elsewhere.number not in found and denied_here.number not in found


def test_the_page_shows_no_name_phone_or_email(client):
    applicant = UserFactory(first_name="Wilhelmina", last_name="Zastrow", email="wz@example.com")
    permit = permit_in(Status.ISSUED, applicant=applicant)
    page = client.get(LOOKUP, {"q": permit.number}).content.decode()
    assert permit.number in page and permit.get_public_url() in page
    assert "Zastrow" not in page and "wz@example.com" not in page


def test_nothing_found_says_so_and_points_to_the_office(client):
    page = client.get(LOOKUP, {"q": "999 Nowhere Road"}).content.decode()
    assert "No published permit has that number or address" in page
    assert 'id="village-office"' in page


def test_a_one_letter_search_is_refused_naming_the_field(client):
    response = client.get(LOOKUP, {"q": "x"})
    assert response.status_code == 400
    assert "Permit number or address" in response.content.decode()


def test_the_lookup_is_paged_and_its_query_count_does_not_grow(client, django_assert_max_num_queries):
    street = StreetFactory(name="Milwaukee Street")
    for _ in range(3):
        permit_in(Status.ISSUED, street=street)
    with django_assert_max_num_queries(10) as few:
        client.get(LOOKUP, {"q": "Milwaukee"})
    for _ in range(30):
        permit_in(Status.ISSUED, street=street)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(LOOKUP, {"q": "Milwaukee"})
    assert "Page 1 of 2" in response.content.decode()
    assert "Page 2 of 2" in client.get(LOOKUP, {"q": "Milwaukee", "page": 2}).content.decode()


def test_lookups_past_the_hourly_limit_are_refused(client):
    for _ in range(LOOKUPS_PER_HOUR):
        assert client.get(LOOKUP, {"q": "Elm"}).status_code == 200
    response = client.get(LOOKUP, {"q": "Elm"})
    assert response.status_code == 429
    assert "Too many lookups from your connection" in response.content.decode()
    assert client.get(LOOKUP).status_code == 200  # the blank form is not counted


def test_the_lookup_is_linked_from_the_home_page_and_the_public_header(client):
    page = client.get(reverse("home")).content.decode()
    assert page.count(f'href="{LOOKUP}"') == 2


@pytest.mark.parametrize("status", [s for s in Status if s != Status.DRAFT])
def test_the_status_page_shows_no_more_than_the_lookup_would(client, status):
    permit = permit_in(status, location_description="in front of 118 Mill St., the Jansens' house")
    Permit.objects.filter(pk=permit.pk).update(expires_on=date(2026, 6, 3))
    permit.refresh_from_db()
    page = client.get(permit.get_public_url()).content.decode()
    assert permit.number in page and permit.get_status_display() in page
    published = status in PUBLISHED_STATUSES
    assert ("the Jansens&#x27; house" in page) == published
    assert ("Jun 3, 2026" in page) == published
    assert (permit.applicant.email in page) is False


def test_the_status_page_of_a_draft_is_not_found(client):
    assert client.get(permit_in(Status.DRAFT).get_public_url()).status_code == 404
