"""§ 303-8 snow and ice and § 303-2 rubbish on sidewalks: the notices, the Village's removal and its charges to the
tax roll. Its models are the sidewalks app's (imported by sidewalks.models)."""
