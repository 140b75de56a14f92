"""Who sees the enforcement cases in the back office besides the Clerk-Treasurer (permits.role_permissions): "any
Village enforcement official" works them (§ 303-6D/E/F). The registers stay the clerk's."""

from permits.roles import Role

OFFICIALS = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.BUILDING_INSPECTOR, Role.POLICE_CHIEF)
ADMIN_ROLES = {
    "obstructions.case": OFFICIALS,
    "obstructions.casestep": OFFICIALS,
    "obstructions.streetnumber": OFFICIALS,
    "obstructions.materialsauthorization": OFFICIALS,
}
