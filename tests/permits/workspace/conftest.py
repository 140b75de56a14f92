from tests.permits.street_opening.conftest import (  # noqa: F401  (the street opening arrangements, reused)
    application,
    approved,
    bond,
    issued,
    spring,
    street,
    under_review,
)
