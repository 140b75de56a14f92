"""The street use permit in the registry (permits.kinds): § 303-15."""

from permits.edits import ALL, BEFORE_DECISION, EditPolicy
from permits.kinds import PERMIT_READERS, ApiRoute, PermitType, RequiredDocument, WorkQueue
from permits.models import PermitKind, Status
from permits.roles import Role
from permits.street_use import api, demo, services, urls, workflow

# Who sees the type's models in the back office besides the Clerk-Treasurer (permits.role_permissions): the
# application by whoever sees permits (the petition's addresses, households and consents stay the clerk's).
ADMIN_ROLES = {
    "permits.streetuse": PERMIT_READERS,
    "permits.boardappearance": (Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT),  # § 303-15C: who appeared
}

# § 303-15F: the Clerk-Treasurer keeps the application and its petition. Before the Board decides, the street, portion
# and dates change only while nobody has consented (services.check_back_office_edit); once the Board has granted it,
# they are what its petition and decision covered (§ 303-15C): only the description of the event may be corrected.
EDIT_POLICY = EditPolicy(
    editors=(Role.CLERK,),
    citation="§ 303-15C",
    why_closed="the Board decided on the street, portion and dates its petition covered: others need a new petition "
    "(§ 303-15F) and a new decision",
    open_in={
        **dict.fromkeys(BEFORE_DECISION, ALL),
        **dict.fromkeys((Status.APPROVED, Status.ISSUED, Status.ACTIVE), frozenset({"work_description"})),
    },
)

PERMIT_TYPE = PermitType(
    required_documents=(
        RequiredDocument(
            "indemnity",
            "An indemnity and hold-harmless agreement, if the Village Board requires it",
            "§ 303-15G",
            "on the permit page once required, before the permit is issued",
        ),
        RequiredDocument(
            "insurance",
            "A certificate of general liability insurance, if the Village Board requires it",
            "§ 303-15G",
            "on the permit page once required, before the permit is issued",
        ),
        RequiredDocument(
            "bond",
            "A performance bond, if the Village Board requires it",
            "§ 303-15G",
            "on the permit page once required, before the permit is issued",
        ),
    ),
    kind=PermitKind.STREET_USE,
    title="Street use permit",
    label="Street use (block party, event)",
    citation="§ 303-15",
    pdf_url="permits:street_use_pdf",
    who_needs_it="You want to close part of a street for a block party or event (up to three days), with a "
    "petition signed by 75% of adult residents along it; the Village Board decides at a meeting you attend. "
    "Parades, races and events under a Chapter 245 permit do not need one.",
    prefix="SU",
    fee_code=services.FEE_CODE,
    apply_url="permits:street_use_apply",
    detail_template="permits/street_use/_detail.html",
    urls=tuple(urls.urlpatterns),
    work_queues=(
        WorkQueue(
            "Street use events (§ 303-15H)",
            "permits:street_use_in_progress",
            (*services.TERMINATORS, Role.CLERK),
        ),
    ),
    demo_loaders=(demo.load,),
    api_routes=(ApiRoute("street-use-permits", api.StreetUseViewSet, "street-use-permit"),),
    authority=workflow.AUTHORITY,
    blockers=workflow.blockers,
    cleared_by=workflow.CLEARED_BY,
    fix_link=workflow.fix_link,  # § 303-15F: the petition page, to share with the neighbours
    edit_policy=EDIT_POLICY,
    edit_rules=services.check_back_office_edit,  # § 303-15F: the consented street, portion and dates stay
    admin_roles=ADMIN_ROLES,
)
