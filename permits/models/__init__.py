"""Models of the permit core (core.py) and of each street permit (one module each)."""

from permits.models.core import (
    NUMBER_PREFIX,
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
    Status,
    Street,
)
from permits.models.street_opening import (
    AnnualBond,
    ApplicantRevocation,
    DiggersTicket,
    EmergencyDetermination,
    EmergencyReport,
    MoratoriumException,
    Renewal,
    StreetImprovement,
    StreetOpening,
    Surface,
)
from permits.models.street_opening_field import (  # noqa: F401,E402
    DefectNotice,
    Guarantee,
    Inspection,
    PavementRestoration,
    PermitteeNotice,
)
