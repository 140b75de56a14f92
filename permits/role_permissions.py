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

# The core's models (app label `permits`) each role sees; a part's models come from the part (its PermitType record's
# `admin_roles`, or the `ADMIN_ROLES` of its admin_roles.py when it is not a permit type).
# Records behind a permit's own page: whoever sees permits sees these (its timeline, documents, street, requests
# for information).
PERMIT_RECORDS = {"permit", "permitevent", "document", "street", "informationrequest"}
# The street map (permits/streetmap): segments, placements, the DPW's conflict margin and its conflict reviews.
STREET_MAP = {"streetsegment", "placement", "conflictmargin", "conflictreview"}
# The Village Board's record (permits.board): the clerk keeps it; members and the DPW read it.
BOARD_RECORDS = {"seat", "term", "meeting", "attendance", "agendaitem", "motion", "vote", "designation"}

# role -> core models (lower-case model names) it may view in the back office; None means every model of
# app_labels(), the parts' included.
VIEW: dict[Role, set[str] | None] = {
    Role.CLERK: None,
    Role.DPW_DIRECTOR: PERMIT_RECORDS
    | BOARD_RECORDS
    | {"parcel", "organization", "feeitem", "specialcharge"}
    | STREET_MAP,
    Role.DPW_INSPECTOR: PERMIT_RECORDS,
    Role.BUILDING_INSPECTOR: PERMIT_RECORDS,
    Role.POLICE_CHIEF: PERMIT_RECORDS,
    # § 303-15H is done on the events page and the permit's page, not in the back office
    Role.POLICE_OFFICER: set(),
    Role.BOARD: PERMIT_RECORDS | {"chargehearing", "paymentperiod"} | BOARD_RECORDS,
    Role.PRESIDENT: PERMIT_RECORDS | {"chargehearing", "paymentperiod"} | BOARD_RECORDS,
}
# role -> core models it may change (and add) in the back office; None means every model it may view.
CHANGE: dict[Role, set[str] | None] = {
    Role.CLERK: None,
    Role.DPW_DIRECTOR: {"permit", "street", "parcel", "streetsegment", "conflictmargin"},
}


def part_roles(attribute: str) -> dict[str, tuple[str, ...]]:
    """Model label ("app_label.modelname") -> roles, of every part: `attribute` ("admin_roles" or "admin_editors")
    of each permit type's record, and the same name in upper case in the other parts' admin_roles.py."""
    from permits import kinds

    found: dict[str, tuple[str, ...]] = {}
    for permit_type in kinds.online_types():
        found.update(getattr(permit_type, attribute))
    for module in kinds.discover("admin_roles"):
        found.update(getattr(module, attribute.upper(), {}))
    return found


def _labels(role: Role, core: dict[Role, set[str] | None], attribute: str) -> set[str] | None:
    names = core.get(role, set())
    if names is None:
        return None
    parts = {label for label, roles in part_roles(attribute).items() if role in roles}
    return {f"permits.{name}" for name in names} | parts


def visible_models(role: Role) -> set[str] | None:
    """The "app_label.modelname" of every model `role` may view in the back office; None: every model."""
    return _labels(role, VIEW, "admin_roles")


def changeable_models(role: Role) -> set[str] | None:
    """The models `role` may change and add; None: every model it may view."""
    return _labels(role, CHANGE, "admin_editors")


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
    view, change = visible_models(role), changeable_models(role)
    wanted = []
    for perm in perms:
        action, name = _base_model(perm.codename)
        model = f"{perm.content_type.app_label}.{name}"
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
