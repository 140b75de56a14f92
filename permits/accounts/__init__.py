"""People and their logins: registration, the second factor for staff, the password hasher, organization
invitations, and the signed-in person's own account pages."""
