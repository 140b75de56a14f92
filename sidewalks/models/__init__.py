# Models for this app arrive with its issue; it imports the core from permits/, never the other way round.
