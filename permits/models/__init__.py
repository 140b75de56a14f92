"""Models of the permit core (core.py) and of each street permit (one module each)."""

from .core import (  # noqa: F401  (explicit names for readers and linters)
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
from .street_opening import (  # noqa: F401,E402
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
from .street_opening_field import DefectNotice, Guarantee, Inspection, PavementRestoration, PermitteeNotice  # noqa: F401,E402
