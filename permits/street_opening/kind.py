"""The street opening permit in the registry (permits.kinds): § 303-4, § 303-5 and § 303-1C."""

from permits.edits import ALL, BEFORE_DECISION, EditPolicy
from permits.kinds import PERMIT_READERS, ApiRoute, PermitType, RequiredDocument, WorkQueue
from permits.models import PermitKind, Status
from permits.roles import Role
from permits.street_opening import api, demo, right_of_way, services, street_map_demo, urls, workflow
from permits.street_opening.field import demo as field_demo

# Who sees the type's models in the back office besides the Clerk-Treasurer (permits.role_permissions): the permit and
# its renewals by whoever sees permits; the field records by the DPW; the Board's decisions by the Board and the DPW.
FIELD = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)
BOARD = (Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT)
ADMIN_ROLES = {
    "permits.streetopening": PERMIT_READERS,
    "permits.diggersticket": PERMIT_READERS,
    "permits.renewalrequest": PERMIT_READERS,
    "permits.renewal": PERMIT_READERS,
    "permits.inspection": FIELD,
    "permits.permitteenotice": FIELD,
    "permits.pavementrestoration": FIELD,
    "permits.guarantee": FIELD,
    "permits.defectnotice": FIELD,
    "permits.annualbond": (Role.DPW_DIRECTOR,),
    "permits.bondamount": BOARD,
    "permits.emergencydetermination": BOARD,
    "permits.streetimprovement": BOARD,
    "permits.moratoriumexception": BOARD,
    "permits.applicantrevocation": BOARD,
    "permits.emergencyreport": (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR, Role.POLICE_CHIEF, Role.BOARD, Role.PRESIDENT),
}

# § 303-4A: the Clerk-Treasurer or the Director of Public Works. Once approved, the permit is for that street and
# place (§ 303-1C(2)): only its planned dates move, within the 30-day validity (services.check_back_office_edit).
EDIT_POLICY = EditPolicy(
    editors=(Role.CLERK, Role.DPW_DIRECTOR),
    citation="§ 303-4A",
    why_closed="an approved permit is for the street, place and work approved (§ 303-1C(2)); only its planned dates "
    "move, within the 30-day validity (§ 303-4D)",
    open_in={
        **dict.fromkeys(BEFORE_DECISION, ALL),
        **dict.fromkeys((Status.APPROVED, Status.ISSUED, Status.ACTIVE), frozenset({"start_date", "end_date"})),
    },
)

PERMIT_TYPE = PermitType(
    kind=PermitKind.STREET_OPENING,
    title="Street opening or excavation permit",
    label="Street opening or excavation",
    citation="§ 303-4",
    who_needs_it="You will dig in, tunnel under or open a street, alley, sidewalk, terrace or Village easement: "
    "utility lines, sewer or water laterals, any trench in the right-of-way. Not needed for work the Village does "
    "itself (§ 303-4C). No openings November 15 to April 1 except emergencies (§ 303-5A).",
    prefix="SO",
    fee_code=services.FEE_CODE,
    apply_url="permits:street_opening_apply",
    detail_template="permits/street_opening/_detail.html",
    urls=tuple(urls.urlpatterns),
    work_queues=(
        WorkQueue(
            "Street opening inspections",
            "permits:field_inspections",
            (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR),  # the field pages are the DPW's: the clerk's link was a 403
        ),
        WorkQueue(
            "Street opening approvals held (§ 303-4D)",
            "permits:street_opening_held_approvals",
            (Role.DPW_DIRECTOR, Role.CLERK),
        ),
        WorkQueue("Annual bonds (§ 303-4H(5))", "permits:street_opening_annual_bonds", (Role.CLERK,)),
    ),
    demo_loaders=(demo.load, field_demo.load, street_map_demo.load),
    api_routes=(ApiRoute("street-openings", api.StreetOpeningViewSet, "street-opening"),),
    authority=workflow.AUTHORITY,
    blockers=workflow.blockers,
    validity="§ 303-4D",  # expired by the nightly job only, after the last valid day
    stamps=workflow.stamps,
    expires=True,
    expire_lapsed=services.expire_lapsed_street_openings,
    edit_policy=EDIT_POLICY,
    edit_rules=services.check_back_office_edit,
    right_of_way=right_of_way.RIGHT_OF_WAY,
    pdf_url="permits:street_opening_pdf",
    fix_link=workflow.fix_link,
    required_documents=(
        RequiredDocument(
            "insurance",
            "A certificate of insurance showing the liability limits you enter",
            "§ 303-4G",
            "with the application or on the permit page once submitted, before approval",
        ),
        RequiredDocument(
            "bond",
            "A bond for this permit, unless your annual bond is on file with the Clerk-Treasurer for the work's year",
            "§ 303-4H(3), (5)",
            "with the application or on the permit page once submitted, before approval",
        ),
        RequiredDocument(
            "plans",
            "Complete plans of the work, for underground construction",
            "§ 303-1C(3)",
            "with the application or on the permit page once submitted, before approval",
        ),
    ),
    cleared_by=workflow.CLEARED_BY,
    admin_roles=ADMIN_ROLES,
    admin_editors={"permits.emergencyreport": (Role.DPW_DIRECTOR,), "permits.streetimprovement": (Role.DPW_DIRECTOR,)},
)
