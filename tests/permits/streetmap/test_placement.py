"""Where each permit is: a drawn placement, the application's point, the address, a cross street, the street."""

import pytest

from permits.errors import RulesBroken
from permits.models import PermitKind
from permits.streetmap import geometry, placement
from permits.streetmap.models import Placement
from permits.streetmap.services import place_permit
from tests.factories import ParcelFactory, PermitFactory
from tests.permits.streetmap.conftest import opening

pytestmark = pytest.mark.django_db


def _on(permit):
    return [s.pk for s in placement.segments_for(permit, placement.SegmentIndex.load())]


def test_address_number_is_read_from_an_address_or_a_location():
    assert placement.address_number("102 Highland Avenue") == 102
    assert placement.address_number("In front of 118 Henni Street") == 118
    assert placement.address_number("Highland Avenue") is None


def test_the_address_range_places_a_permit_on_its_block(grid):
    permit = opening(grid["highland"], location="In front of 250 Highland Avenue")
    assert _on(permit) == [grid["highland_east"].pk]


def test_the_last_number_of_a_range_is_on_the_block_and_the_next_is_not(grid):
    assert _on(opening(grid["highland"], location="199 Highland Avenue")) == [grid["highland_west"].pk]
    assert _on(opening(grid["highland"], location="200 Highland Avenue")) == [grid["highland_east"].pk]


def test_the_parcel_address_places_a_sidewalk_permit(grid):
    parcel = ParcelFactory(site_address="120 Highland Avenue", street=grid["highland"])
    permit = PermitFactory(
        kind=PermitKind.SIDEWALK, number="SW-2026-0001", street=None, parcel=parcel, location_description=""
    )
    assert _on(permit) == [grid["highland_west"].pk]


def test_a_cross_street_places_a_permit_at_the_intersection(grid):
    permit = opening(grid["highland"], location="Highland Avenue at Main Street")
    assert _on(permit) == [grid["highland_east"].pk]


def test_without_address_the_permit_is_on_every_segment_of_its_street(grid):
    permit = opening(grid["highland"], location="Highland Avenue")
    assert sorted(_on(permit)) == sorted([grid["highland_west"].pk, grid["highland_east"].pk])


def test_the_point_drawn_on_the_application_wins_over_the_address(grid):
    permit = opening(grid["highland"], location="In front of 250 Highland Avenue", point=(-88.4535, 43.5156))
    assert _on(permit) == [grid["highland_west"].pk]


def test_touching_segments_adjoin_and_a_far_one_does_not(grid):
    west = grid["highland_west"]
    adjoining = set(west.adjoining.values_list("pk", flat=True))
    assert adjoining == {grid["highland_east"].pk, grid["milwaukee_south"].pk}
    assert grid["far_segment"].pk not in adjoining


def test_staff_place_a_permit_by_a_drawn_line(grid, dpw_director):
    permit = opening(grid["highland"], location="Highland Avenue")
    line = {"type": "LineString", "coordinates": [[-88.4515, 43.5156], [-88.4495, 43.5156]]}
    place_permit(permit=permit, by=dpw_director, drawn=line)
    permit.refresh_from_db()
    assert _on(permit) == [grid["highland_east"].pk]
    assert permit.events.filter(reason__startswith="Placed on the map").exists()


def test_a_point_drawn_far_from_the_street_still_goes_to_the_nearest_segment_of_that_street(grid, clerk):
    permit = opening(grid["highland"], location="Highland Avenue")
    place_permit(permit=permit, by=clerk, drawn={"type": "Point", "coordinates": [-88.4491, 43.5160]})
    assert _on(permit) == [grid["highland_east"].pk]


@pytest.mark.parametrize("persona", ["resident", "contractor", "police_chief", "board_member"])
def test_people_without_a_placing_role_cannot_place_a_permit(grid, persona, request):
    from django.core.exceptions import PermissionDenied

    permit = opening(grid["highland"])
    with pytest.raises(PermissionDenied):
        place_permit(permit=permit, by=request.getfixturevalue(persona), segment_ids=[grid["far_segment"].pk])


def test_a_bad_drawing_is_refused_naming_the_field(grid, clerk):
    permit = opening(grid["highland"])
    with pytest.raises(RulesBroken) as error:
        place_permit(permit=permit, by=clerk, drawn={"type": "Point", "coordinates": ["x", 1]})
    assert error.value.violations[0].field == "geometry"
    assert not Placement.objects.filter(permit=permit).exists()


def test_geojson_lines_are_checked_for_lon_lat_order():
    with pytest.raises(geometry.GeometryError, match="longitude, latitude"):
        geometry.line_from_geojson({"type": "LineString", "coordinates": [[43.5, -188.4], [43.6, -88.4]]})
