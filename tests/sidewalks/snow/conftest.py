"""The snow and rubbish tests bill through the core ledger: they share its parcel fixtures."""

from tests.permits.ledger.conftest import other_parcel, parcel  # noqa: F401  (fixtures)
