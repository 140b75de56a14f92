# Models for this app arrive with its issue; it imports the core from permits/, never the other way round.
from obstructions.registers.models import Grade, GradeApplication, HigherStandard, ImprovementRequest  # noqa: E402, F401  (the registers)
