"""Models of the sidewalks app: sidewalk permits, surveys and Board orders (sidewalk.py) and the owners' snow and
rubbish cases (snow.py). The app imports the core from permits/ (the ledger it bills through among it), never the
other way round."""

from sidewalks.models.minor_repair import MinorRepairAuthority, MinorSidewalkRepair
from sidewalks.models.sidewalk import (
    BoardWaiver,
    SidewalkInspection,
    SidewalkOrder,
    SidewalkPermit,
    SidewalkSurvey,
    SurveyBlock,
    WaiverRequest,
)
from sidewalks.snow.models import RubbishCase, SnowCase, Snowfall

__all__ = [
    "BoardWaiver",
    "MinorRepairAuthority",
    "MinorSidewalkRepair",
    "RubbishCase",
    "SidewalkInspection",
    "SidewalkOrder",
    "SidewalkPermit",
    "SidewalkSurvey",
    "SnowCase",
    "Snowfall",
    "SurveyBlock",
    "WaiverRequest",
]
