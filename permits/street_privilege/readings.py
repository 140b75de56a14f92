"""The readings chosen for the street privilege permit where Chapter 303 can be read more than one way."""

from permits.readings import Reading

TOPIC = "Street privilege permits (§ 303-7)"
READINGS = (
    Reading(
        "§ 303-7A",
        TOPIC,
        'The applicant "has obtained a building permit if required by this Code": whether one is required is the '
        "Building Inspector's determination (Chapter 132 is his code), recorded on the permit, not the applicant's "
        "answer. The permit is not issued until that determination is recorded and, where he found one required, "
        "until the building permit has been shown to him (he records its number).",
    ),
    Reading(
        "§ 303-7D(1)",
        TOPIC,
        '"Not more than 1/3 of any street or alley" is measured against the whole width of the street as the '
        "Clerk-Treasurer or the Director of Public Works recorded it on the street register, never a width the "
        "applicant types; exactly a third passes. On a street with no width on record the application is refused "
        "until one is recorded.",
    ),
    Reading(
        "§ 303-6B(1), § 303-6B(2)",
        TOPIC,
        "A street privilege permit is the exception of § 303-6B(1) and is held to its own § 303-7D conditions (a "
        "third of the street; sidewalk traffic kept, or a temporary walk at least four feet wide fenced at least four "
        "feet high on both sides). § 303-6B(2)'s limits (half the sidewalk, a third of the traveled street, gutters "
        "flowing) belong to building materials the Building Inspector authorizes without a § 303-7 permit, and "
        "except them only for the dates he authorized.",
    ),
)
