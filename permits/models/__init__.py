"""Models of the permit core (core.py), of the ledger (permits/ledger/models.py) and of the Village Board
(permits/board/models.py).

Each permit type keeps its models in its own package (permits/<type>/models.py) with the `permits` app label and
their tables; they are loaded here from the registry's list, so that Django finds them while it loads the app.
"""

from permits.board import models as board_models  # noqa: F401  (the Village Board: roster, meetings, votes)
from permits.kinds import import_type_modules
from permits.ledger import models as ledger_models  # noqa: F401  (the core's ledger: its models load with the app)
from permits.models.applicant import ApplicationDraft, NoticePreference, ParcelLinkRequest
from permits.models.core import (
    Document,
    FeeItem,
    JobRun,
    Membership,
    Notice,
    NumberSequence,
    Organization,
    Parcel,
    Payment,
    Permit,
    PermitEvent,
    PermitKind,
    StateChange,
    Status,
    Street,
)
from permits.models.office_calendar import OfficeClosure
from permits.online_payments import models as online_payment_models  # noqa: F401  (online card payments load with the app)
from permits.streetmap import models as streetmap_models  # noqa: F401  (segments, placements: the street map)

__all__ = [
    "ApplicationDraft",
    "NoticePreference",
    "ParcelLinkRequest",
    "Document",
    "FeeItem",
    "JobRun",
    "Membership",
    "Notice",
    "NumberSequence",
    "OfficeClosure",
    "Organization",
    "Parcel",
    "Payment",
    "Permit",
    "PermitEvent",
    "PermitKind",
    "StateChange",
    "Status",
    "Street",
]


import_type_modules("models")
