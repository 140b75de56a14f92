"""Models of the permit core (core.py), of the ledger (permits/ledger/models.py) and of the Village Board
(permits/board/models.py).

Each part keeps its models in its own package (permits/<type>/models.py, permits/ledger/models.py...); they are
loaded here from the registry's list (permits.kinds.discover), so that Django finds those with the `permits` app label
while it loads the app.
"""

from permits.kinds import discover
from permits.models.applicant import ApplicationDraft, InformationRequest, NoticePreference, ParcelLinkRequest
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
from permits.models.inspection_requests import InspectionKind, InspectionRequest, InspectionSlot
from permits.models.office_calendar import OfficeClosure, VillageOffice
from permits.models.village_contracts import VillageContract

__all__ = [
    "ApplicationDraft",
    "InformationRequest",
    "NoticePreference",
    "ParcelLinkRequest",
    "Document",
    "FeeItem",
    "JobRun",
    "Membership",
    "Notice",
    "NumberSequence",
    "InspectionKind",
    "InspectionRequest",
    "InspectionSlot",
    "OfficeClosure",
    "VillageOffice",
    "VillageContract",
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


discover("models")
