"""The applicant's side: the street opening's spring Monday and its valid application, the sidewalk
permit's fixtures, reused from their own folders."""

from tests.permits.street_opening.conftest import bond, spring, street  # noqa: F401
from tests.sidewalks.conftest import elm, good, home, issued, submitted  # noqa: F401
