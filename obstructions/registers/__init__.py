"""The Clerk-Treasurer's registers of Chapter 303: the grades of streets, alleys and sidewalks (§ 303-1A, § 303-1B),
the requests for improvements (§ 303-11) and the higher sidewalk standards the Board required (§ 303-3D(11))."""
