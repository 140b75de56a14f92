"""Models of the sidewalks app: the special-charge ledger, tax roll, snow and rubbish (charges.py) and sidewalk
permits, surveys and Board orders (sidewalk.py). The app imports the core from permits/, never the other way round."""

from .charges import (  # noqa: F401  (explicit names for readers and linters)
    ChargeHearing,
    ChargePayment,
    RubbishCase,
    SnowCase,
    Snowfall,
    SpecialCharge,
    TaxRollBatch,
    TaxRollLine,
)
from .sidewalk import BoardWaiver, SidewalkInspection, SidewalkOrder, SidewalkPermit, SidewalkSurvey, SurveyBlock  # noqa: F401
