"""Back-office (admin) permissions of each staff role, synced after every migrate.

Permissions exist only after post_migrate creates them, so the groups get theirs here rather than in the data
migration that creates the groups. Workflow authority (who may approve, issue, revoke) is in workflow.AUTHORITY.

Each role sees only the admin models its work needs (OWASP ASVS V4.1.3, least privilege): the Clerk-Treasurer keeps
the Village's records, so sees them all, email bodies (Notice) and job runs included; owners' mailing addresses
(Parcel) go to the clerk and the Director of Public Works only; the Chief of Police and the Board see permits, not
owners' notices. Field history (simple_history's Historical* models) follows the record: a role that may view a
model may view its history, and no role may change, add or delete history (a revert is not a service: it has no
rules, no authority and no timeline entry).
"""

from permits.roles import Role

# Public records are never deleted (Wis. Stat. § 19.21): reference records (fees, streets, parcels, organizations,
# bonds, Board decisions) are ended, not deleted. Only a person's membership of an organization may be removed.
DELETABLE = {"delete_membership"}

# Records behind a permit's own page: whoever sees permits sees these (its timeline, documents, street).
PERMIT_RECORDS = {
    "permit",
    "permitevent",
    "document",
    "street",
    "streetopening",
    "diggersticket",
    "renewal",
    "renewalrequest",
    "streetuse",  # § 303-15: the application (the register and the petition's signatures stay the clerk's)
    # Street privilege permits (permits/street_privilege): the application, its recommendations and cost lines.
    "streetprivilege",
    "recommendation",
    "costline",
}
SIDEWALK_PERMITS = {"sidewalkpermit", "sidewalkinspection"}
FIELD_RECORDS = {"inspection", "permitteenotice", "pavementrestoration", "guarantee", "defectnotice"}
SIDEWALK_WORK = {"sidewalksurvey", "surveyblock", "sidewalkorder", "snowfall", "snowcase", "rubbishcase"}
# The street map (permits/streetmap): segments, placements, the DPW's conflict margin and its conflict reviews.
STREET_MAP = {"streetsegment", "placement", "conflictmargin", "conflictreview"}
BOARD_RECORDS = {
    "streetimprovement",
    "emergencydetermination",
    "moratoriumexception",
    "applicantrevocation",
    "emergencyreport",
    "boardwaiver",
    # The Village Board's record (permits.board): the clerk keeps it; members and the DPW read it.
    "seat",
    "term",
    "meeting",
    "attendance",
    "agendaitem",
    "motion",
    "vote",
    "designation",
    "bondamount",
    "boardappearance",  # § 303-15C: who appeared for a street use permit
    "sidewalkobstruction",  # § 303-7F: the Board's notice to the adjoining owner
}

# The enforcement cases (obstructions/): "any Village enforcement official" works them (§ 303-6D/E/F).
ENFORCEMENT = {"case", "casestep", "streetnumber"}

# role -> models (lower-case model names) it may view in the back office; None means every model of app_labels().
VIEW: dict[Role, set[str] | None] = {
    Role.CLERK: None,
    Role.DPW_DIRECTOR: PERMIT_RECORDS
    | SIDEWALK_PERMITS
    | FIELD_RECORDS
    | SIDEWALK_WORK
    | BOARD_RECORDS
    | {"parcel", "organization", "feeitem", "annualbond", "specialcharge"}
    | STREET_MAP
    | ENFORCEMENT,
    Role.DPW_INSPECTOR: PERMIT_RECORDS
    | SIDEWALK_PERMITS
    | FIELD_RECORDS
    | SIDEWALK_WORK
    | {"emergencyreport"}
    | ENFORCEMENT,
    Role.BUILDING_INSPECTOR: PERMIT_RECORDS | SIDEWALK_PERMITS | ENFORCEMENT,
    Role.POLICE_CHIEF: PERMIT_RECORDS | {"sidewalkpermit", "emergencyreport", "snowfall", "snowcase"} | ENFORCEMENT,
    Role.BOARD: PERMIT_RECORDS | {"sidewalkpermit", "sidewalksurvey", "sidewalkorder", "chargehearing"} | BOARD_RECORDS,
    Role.PRESIDENT: PERMIT_RECORDS
    | {"sidewalkpermit", "sidewalksurvey", "sidewalkorder", "chargehearing"}
    | BOARD_RECORDS,
}
# role -> models it may change (and add) in the back office; None means every model it may view.
CHANGE: dict[Role, set[str] | None] = {
    Role.CLERK: None,
    Role.DPW_DIRECTOR: {"permit", "street", "parcel", "emergencyreport", "streetimprovement"}
    | {"streetsegment", "conflictmargin"},
}


def app_labels() -> set[str]:
    """The apps whose models the roles see: the core's and every part's (permits.kinds.PACKAGES)."""
    from django.apps import apps

    from permits import kinds

    return {"permits"} | {apps.get_containing_app_config(p).label for p in kinds.PACKAGES}


def _base_model(codename: str) -> tuple[str, str]:
    action, _, model = codename.partition("_")
    return action, model.removeprefix("historical")


def permissions_of(role: Role, perms) -> list:
    """The permissions (of `perms`) a role's group holds."""
    view, change = VIEW.get(role, set()), CHANGE.get(role, set())
    wanted = []
    for perm in perms:
        action, model = _base_model(perm.codename)
        is_history = perm.codename.partition("_")[2].startswith("historical")
        visible = view is None or model in view
        if not visible:
            continue
        if action == "view":
            wanted.append(perm)
        elif is_history:
            continue  # history is read, never written through the admin (no revert, § 303 services only)
        elif action in ("add", "change") and (change is None or (change and model in change)):
            wanted.append(perm)
        elif action == "delete" and perm.codename in DELETABLE and change is None:
            wanted.append(perm)
    return wanted


def _is_last_app(sender) -> bool:
    """post_migrate is sent once per app with models, in INSTALLED_APPS order; every app's permissions exist by the
    last one's. The sync ran 14 times a migrate and a test flush (1 s of each transactional test on PostgreSQL)."""
    from django.apps import apps

    with_models = [config for config in apps.get_app_configs() if config.models_module is not None]
    return sender is None or sender.label == with_models[-1].label


def sync_role_permissions(sender=None, **kwargs):
    if not _is_last_app(sender):
        return
    from django.contrib.auth.models import Group, Permission

    perms = list(Permission.objects.filter(content_type__app_label__in=app_labels()).select_related("content_type"))
    for role in Role:
        group, _ = Group.objects.get_or_create(name=role.value)
        group.permissions.set(permissions_of(role, perms))
