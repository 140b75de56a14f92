"""GeoJSON in, shapely out: the few geometric questions the map asks (which segment is nearest a point, which
segments a drawn line runs along, which segments touch). Coordinates are [longitude, latitude] (RFC 7946)."""

from __future__ import annotations

from shapely.geometry import LineString, Point, shape

# About 5 m at Theresa's latitude: segments whose lines come this close share an intersection.
TOUCH_TOLERANCE_DEGREES = 0.00005
# About 25 m: a drawn line runs along a segment when it comes this close to it.
ALONG_TOLERANCE_DEGREES = 0.00025


class GeometryError(ValueError):
    pass


def line_from_geojson(geometry) -> LineString:
    """A LineString from a GeoJSON geometry, or GeometryError saying what is wrong with it."""
    if not isinstance(geometry, dict) or geometry.get("type") != "LineString":
        raise GeometryError('The geometry must be a GeoJSON LineString ({"type": "LineString", ...}).')
    coordinates = geometry.get("coordinates")
    if not isinstance(coordinates, list) or len(coordinates) < 2:
        raise GeometryError("A LineString needs at least two [longitude, latitude] positions.")
    for position in coordinates:
        if not (isinstance(position, list | tuple) and len(position) >= 2):
            raise GeometryError("Each position must be [longitude, latitude].")
        lon, lat = position[0], position[1]
        if not all(isinstance(v, int | float) for v in (lon, lat)):
            raise GeometryError("Longitude and latitude must be numbers.")
        if not (-180 <= lon <= 180 and -90 <= lat <= 90):
            raise GeometryError(f"Position {position} is outside [-180..180, -90..90] (is it [longitude, latitude]?).")
    return LineString([(p[0], p[1]) for p in coordinates])


def drawn_shape(geometry):
    """A Point or LineString drawn on the map (GeoJSON), as shapely."""
    if not isinstance(geometry, dict) or geometry.get("type") not in ("Point", "LineString"):
        raise GeometryError("Draw a point or a line.")
    if geometry["type"] == "LineString":
        return line_from_geojson(geometry)
    try:
        return shape(geometry)
    except Exception as error:  # shapely's own message is not for the public
        raise GeometryError("The point must be [longitude, latitude].") from error


def point(longitude: float, latitude: float) -> Point:
    return Point(float(longitude), float(latitude))


def nearest(target, lines: dict):
    """The key of the line in `lines` (key -> LineString) nearest `target`, or None when there are none."""
    if not lines:
        return None
    return min(lines, key=lambda key: lines[key].distance(target))


def along(line: LineString, lines: dict) -> list:
    """The keys of the lines `line` runs along (it comes within ALONG_TOLERANCE_DEGREES of them)."""
    return [key for key, other in lines.items() if other.distance(line) <= ALONG_TOLERANCE_DEGREES]


def touching_pairs(lines: dict) -> set[tuple]:
    """Every pair of keys (a, b), a < b, whose lines touch or cross."""
    keys = sorted(lines)
    return {
        (a, b)
        for i, a in enumerate(keys)
        for b in keys[i + 1 :]
        if lines[a].distance(lines[b]) <= TOUCH_TOLERANCE_DEGREES
    }
