"""Models of the sidewalks app: the special-charge ledger, tax roll, snow and rubbish (charges.py) and sidewalk
permits, surveys and Board orders (sidewalk.py). The app imports the core from permits/, never the other way round."""

from sidewalks.models.charges import (
    ChargeHearing,
    ChargePayment,
    RubbishCase,
    SnowCase,
    Snowfall,
    SpecialCharge,
    TaxRollBatch,
    TaxRollLine,
)
from sidewalks.models.sidewalk import (  # noqa: F401
    BoardWaiver,
    SidewalkInspection,
    SidewalkOrder,
    SidewalkPermit,
    SidewalkSurvey,
    SurveyBlock,
)
