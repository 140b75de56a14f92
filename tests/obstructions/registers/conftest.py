"""The street opening arrangements the register tests reuse (a frozen spring Monday, the contractor's annual bond)."""

from tests.permits.street_opening.conftest import bond, spring  # noqa: F401  (fixtures)
