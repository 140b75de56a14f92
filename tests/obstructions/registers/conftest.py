"""The street opening arrangements the register tests reuse (a frozen spring Monday, the contractor's annual bond, an
issued permit on Henni Street)."""

from tests.permits.street_opening.conftest import (  # noqa: F401  (fixtures)
    application,
    approved,
    bond,
    issued,
    spring,
    street,
    under_review,
)
