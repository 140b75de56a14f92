"""The sidewalk permit in the registry (permits.kinds): § 303-3C and § 303-3D. The sidewalks app's other work
(surveys and Board orders, snow and ice, rubbish) shows on the office page through this record's work queues."""

from permits.edits import ALL, EditPolicy
from permits.kinds import PERMIT_READERS, ApiRoute, PermitType, RequiredDocument, WorkQueue
from permits.models import PermitKind, Status
from permits.roles import Role
from sidewalks import api, demo, right_of_way, services, views, workflow
from sidewalks.snow import demo as snow_demo

DPW = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)

# Who sees the app's models in the back office besides the Clerk-Treasurer (permits.role_permissions).
ADMIN_ROLES = {
    "sidewalks.sidewalkpermit": PERMIT_READERS,
    "sidewalks.sidewalkinspection": (*DPW, Role.BUILDING_INSPECTOR),
    "sidewalks.sidewalksurvey": (*DPW, Role.BOARD, Role.PRESIDENT),
    "sidewalks.sidewalkorder": (*DPW, Role.BOARD, Role.PRESIDENT),
    "sidewalks.surveyblock": DPW,
    "sidewalks.snowfall": (*DPW, Role.POLICE_CHIEF),
    "sidewalks.snowcase": (*DPW, Role.POLICE_CHIEF),
    "sidewalks.rubbishcase": DPW,
    "sidewalks.boardwaiver": (Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT),
}

# § 303-3C: the Clerk-Treasurer reviews and issues sidewalk permits, and corrects an application until it is issued;
# an issued permit is for its place and pour date (the pour date moves at issue, services.issue_sidewalk_permit).
EDIT_POLICY = EditPolicy(
    editors=(Role.CLERK,),
    citation="§ 303-3C",
    why_closed="an issued permit is for the place and pour date it was issued for (the pour date moves at issue)",
    open_in=dict.fromkeys((Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED), ALL),
)

PERMIT_TYPE = PermitType(
    kind=PermitKind.SIDEWALK,
    title="Sidewalk permit",
    label="Sidewalk construction or repair",
    citation="§ 303-3C",
    who_needs_it="You will lay, remove, replace or repair a public sidewalk. Apply at least three days before the "
    "work (not needed under a contract with the Village).",
    prefix="SW",
    fee_code=services.FEE_CODE,
    apply_url="sidewalks:apply",
    detail_template="sidewalks/_detail.html",
    work_queues=(
        WorkQueue("Sidewalk inspections", "sidewalks:to_inspect", DPW),  # DPW inspectors only (the clerk's was a 403)
        WorkQueue("Sidewalk surveys", "sidewalks:surveys", (*DPW, Role.CLERK, Role.BOARD, Role.PRESIDENT)),
        WorkQueue("Sidewalk orders", "sidewalks:orders", (*DPW, Role.CLERK, Role.BOARD, Role.PRESIDENT)),
        # § 303-8: no police power on snow cases, so no queue for the Chief of Police (the clerk mails the notices).
        WorkQueue("Snow and ice", "sidewalks:snow", (*DPW, Role.CLERK)),
        WorkQueue("Rubbish", "sidewalks:rubbish_cases", (*DPW, Role.CLERK)),
        # Written notices to owners without email (snow notices, bills): printed, mailed, given (permits.letters).
        WorkQueue("Letters to mail", "permits:letters", (Role.CLERK,)),
    ),
    demo_loaders=(snow_demo.load, demo.load),
    api_routes=(ApiRoute("sidewalk-permits", api.SidewalkPermitViewSet, "sidewalk-permit"),),
    authority=workflow.AUTHORITY,
    blockers=workflow.blockers,
    cleared_by=workflow.CLEARED_BY,
    fix_link=workflow.fix_link,
    required_documents=(
        RequiredDocument(
            "other",
            "The owner's written authorization, if you file as the owner's agent",
            "§ 303-3C",
            "with this application (below)",
        ),
    ),  # § 303-3C: link the account, or upload the owner's authorization
    edit_policy=EDIT_POLICY,
    edit_rules=services.check_back_office_edit,  # § 303-1A(1): a street moved to needs its recorded grade
    right_of_way=right_of_way.RIGHT_OF_WAY,
    # One page per permit (permits:detail and sidewalks:permit show the same), and the permit PDF.
    page_template="sidewalks/permit.html",
    page_context=views.page_context,
    pdf_url="sidewalks:permit_pdf",
    admin_roles=ADMIN_ROLES,
)
