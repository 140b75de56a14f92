"""The street privilege permit in the registry (permits.kinds): § 303-7, Wis. Stat. § 66.0425."""

from permits.edits import BEFORE_DECISION, EditPolicy
from permits.kinds import PERMIT_READERS, ApiRoute, PermitType, RequiredDocument, WorkQueue
from permits.models import PermitKind
from permits.roles import Role
from permits.street_privilege import api, demo, services, urls, workflow

# Who sees the type's models in the back office besides the Clerk-Treasurer (permits.role_permissions): the
# application, its recommendations and cost lines by whoever sees permits.
ADMIN_ROLES = {
    "permits.streetprivilege": PERMIT_READERS,
    "permits.recommendation": PERMIT_READERS,
    "permits.costline": PERMIT_READERS,
    # § 303-7F: the Board's notice to the adjoining owner
    "permits.sidewalkobstruction": (Role.DPW_DIRECTOR, Role.BOARD, Role.PRESIDENT),
}

# § 303-7A: the Building Inspector grants it (the Clerk-Treasurer keeps the record); the Director of Public Works and
# the Chief of Police advise and never change it. The street is never changed: the one-third measure is of its
# recorded width (§ 303-7D(1)) and the advice of its place. Once granted, the grant covers the place and the dates;
# its last day is § 303-7E's (the Building Inspector's earlier date, services.set_earlier_termination).
EDIT_POLICY = EditPolicy(
    editors=(Role.BUILDING_INSPECTOR, Role.CLERK),
    citation="§ 303-7A",
    why_closed="the street is the application's (its one-third measure and advice are of that street, § 303-7D(1)), "
    "and a grant covers the place and the dates applied for, ending on § 303-7E's day: another street or period "
    "is a new application",
    open_in=dict.fromkeys(BEFORE_DECISION, frozenset({"location_description", "start_date", "end_date"})),
)

PERMIT_TYPE = PermitType(
    required_documents=(
        RequiredDocument(
            "insurance",
            "A certificate of liability insurance, if the Village's officials make it a condition",
            "§ 303-7A",
            "on the permit page once required, before the permit is issued",
        ),
    ),
    kind=PermitKind.STREET_PRIVILEGE,
    title="Street privilege permit",
    label="Street privilege (moving a building, construction materials)",
    citation="§ 303-7",
    pdf_url="permits:street_privilege_pdf",
    who_needs_it="You will move a building along a street, or keep construction materials on a street or sidewalk "
    "while you build (at most 1/3 of the street; an occupied sidewalk keeps a fenced temporary walk at least 4 feet "
    "wide). Issued by the Building Inspector after the Director of Public Works and the Chief of Police advise, once "
    "he has recorded whether a building permit is required (and seen it if so); a bond of up to $10,000 (§ 303-7B).",
    prefix="SP",
    fee_code=services.FEE_CODE,
    apply_url="permits:street_privilege_apply",
    detail_template="permits/street_privilege/_detail.html",
    urls=tuple(urls.urlpatterns),
    work_queues=(
        WorkQueue(
            "Street privilege permits (§ 303-7)",
            "permits:street_privilege_queue",
            (Role.BUILDING_INSPECTOR, Role.DPW_DIRECTOR, Role.POLICE_CHIEF, Role.CLERK),
        ),
    ),
    demo_loaders=(demo.load,),
    api_routes=(ApiRoute("street-privilege-permits", api.StreetPrivilegeViewSet, "street-privilege"),),
    authority=workflow.AUTHORITY,
    blockers=workflow.blockers,
    cleared_by=workflow.CLEARED_BY,
    validity="§ 303-7E",  # expired by the nightly job only, after the last valid day
    stamps=workflow.stamps,
    edit_policy=EDIT_POLICY,
    edit_rules=services.check_back_office_edit,
    admin_roles=ADMIN_ROLES,
)
