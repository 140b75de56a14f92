"""§ 303-3C (with § 303-3B(1)): a sidewalk permit is the abutting owner's. It is filed by the owner of record (an
account linked to the parcel), the owner's agent (the owner's written authorization, accepted by the Clerk-Treasurer)
or the Village's contractor (a contract the clerk confirms in the register); it is issued only when that standing
holds, on every path: the issue verb, the workflow (jobs, the shell, the admin's actions), the page and the API."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from permits import workflow
from permits.errors import RulesBroken
from permits.models import Permit, Status
from permits.services import record_payment, upload_document
from sidewalks import rules, services
from tests.sidewalks.conftest import GOOD, TODAY, authorization

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen")]


def file(applicant, parcel, **kw):
    permit = services.apply_for_sidewalk_permit(applicant=applicant, parcel=parcel, today=TODAY, **{**GOOD, **kw})
    return permit


def paid(permit, clerk):
    record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
    permit.refresh_from_db()
    return permit


def status_of(permit):
    return Permit.objects.values_list("status", flat=True).get(pk=permit.pk)


# --- The rule ---------------------------------------------------------------------------------------------------------


def test_303_3c_owner_standing_holds_only_for_the_linked_owner_of_record():
    assert rules.check_standing(standing="owner", owner_of_record=True, accepted=False) == []
    [v] = rules.check_standing(standing="owner", owner_of_record=False, accepted=False, owner_name="Olsen, Olga")
    assert v.citation == "§ 303-3C" and v.code == "not_owner_of_record" and "Olsen, Olga" in v.message
    assert "§ 303-3C" in v.message


def test_303_3c_agent_and_contractor_standing_hold_only_once_the_clerk_accepted_them():
    for standing, code in (("agent", "authorization_not_accepted"), ("village_contractor", "contract_not_confirmed")):
        assert rules.check_standing(standing=standing, owner_of_record=False, accepted=True) == []
        [v] = rules.check_standing(standing=standing, owner_of_record=False, accepted=False)
        assert v.code == code and "§ 303-3C" in v.message
    assert rules.check_standing(standing="neighbour", owner_of_record=True, accepted=True)[0].code == "standing_unknown"


# --- Issue refused until the standing holds ---------------------------------------------------------------------------


def test_303_3c_a_stranger_claiming_to_be_the_owner_is_never_issued_a_permit(contractor, home, clerk):
    permit = paid(file(contractor, home), clerk)
    with pytest.raises(RulesBroken) as exc:
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)
    assert "not_owner_of_record" in {v.code for v in exc.value.violations}
    assert status_of(permit) == Status.SUBMITTED  # nothing moved, not even to review


def test_303_3c_the_linked_owner_of_record_is_issued_the_permit(resident, home, clerk):
    home.owners.add(resident)
    permit = paid(file(resident, home), clerk)
    services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)
    assert status_of(permit) == Status.ISSUED


def test_303_3c_an_owner_unlinked_before_issue_is_refused(resident, home, clerk):
    home.owners.add(resident)
    permit = paid(file(resident, home), clerk)
    home.owners.remove(resident)
    with pytest.raises(RulesBroken, match="not linked to the parcel"):
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)


def test_303_3c_an_agent_is_refused_until_the_clerk_accepts_the_written_authorization(contractor, home, clerk):
    permit = paid(file(contractor, home, standing="agent", authorization=authorization()), clerk)
    with pytest.raises(RulesBroken, match="written authorization"):
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)
    detail = services.accept_standing(permit=permit, by=clerk, document=permit.documents.get())
    assert detail.standing_accepted_by == clerk and detail.standing_document.original_name == "authorization.pdf"
    services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)
    assert status_of(permit) == Status.ISSUED
    assert permit.events.filter(reason__contains="accepted on the owner's written authorization").exists()


def test_303_3c_an_agents_standing_needs_a_document_of_this_permit(contractor, home, clerk):
    permit = file(contractor, home, standing="agent")
    other = file(contractor, home, standing="agent", authorization=authorization())
    with pytest.raises(RulesBroken) as exc:
        services.accept_standing(permit=permit, by=clerk, document=None)
    assert exc.value.violations[0].code == "authorization_required"
    with pytest.raises(RulesBroken, match="uploaded with this application"):
        services.accept_standing(permit=permit, by=clerk, document=other.documents.get())
    assert permit.sidewalk.standing_accepted_at is None


def test_303_3c_the_villages_contractor_needs_the_contract_confirmed(contractor, home, clerk):
    from datetime import timedelta

    from permits.village_contracts import record_contract

    permit = paid(file(contractor, home, standing="village_contractor"), clerk)
    with pytest.raises(RulesBroken, match="contract"):
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)
    with pytest.raises(RulesBroken, match="number of the Village's contract"):
        services.accept_standing(permit=permit, by=clerk, reference="  ")
    # A number the register does not hold is no contract (a typed number used to be enough)
    with pytest.raises(RulesBroken, match="No contract numbered VC-2026-04 is in the Village's register"):
        services.accept_standing(permit=permit, by=clerk, reference="VC-2026-04")
    record_contract(
        number="VC-2026-04",
        contractor="Brandt Excavating",
        work="Sidewalk replacement, Elm Street",
        parcels=[home],
        starts_on=TODAY - timedelta(days=30),
        ends_on=TODAY + timedelta(days=1),
        by=clerk,
    )
    services.accept_standing(permit=permit, by=clerk, reference="VC-2026-04")
    # The contract must still run on the day of issue: the day after its last day it does not
    with pytest.raises(RulesBroken, match="not on June 3, 2026"):
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY + timedelta(days=2))
    services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY + timedelta(days=1))
    assert status_of(permit) == Status.ISSUED and permit.sidewalk.standing_reference == "VC-2026-04"


def test_303_3c_an_owners_standing_is_the_link_not_a_clerks_acceptance(contractor, home, clerk):
    permit = file(contractor, home)
    with pytest.raises(RulesBroken, match="link to the parcel"):
        services.accept_standing(permit=permit, by=clerk, reference="anything")


@pytest.mark.parametrize("persona", ["contractor", "inspector", "dpw_director", "resident"])
def test_303_3c_only_the_clerk_accepts_a_filers_standing(persona, request, contractor, home):
    permit = file(contractor, home, standing="agent", authorization=authorization())
    with pytest.raises(PermissionDenied):
        services.accept_standing(permit=permit, by=request.getfixturevalue(persona), document=permit.documents.get())


def test_303_3c_the_workflow_refuses_the_issue_too_for_jobs_the_shell_and_the_admin(contractor, home, clerk):
    permit = paid(file(contractor, home), clerk)
    workflow.transition(permit, Status.UNDER_REVIEW, by=clerk, today=TODAY)
    workflow.transition(permit, Status.APPROVED, by=clerk, today=TODAY)
    with pytest.raises(ValidationError, match="§ 303-3C"):
        workflow.transition(permit, Status.ISSUED, by=None, today=TODAY)
    assert status_of(permit) == Status.APPROVED


def test_303_3c_an_agent_filing_on_the_page_must_upload_the_authorization(client, contractor, home):
    from tests.sidewalks.test_views import apply_data

    client.force_login(contractor)
    response = client.post(reverse("sidewalks:apply"), apply_data(standing="agent"))
    assert response.status_code == 400 and "§ 303-3C" in response.context["form"].errors["authorization"][0]
    response = client.post(
        reverse("sidewalks:apply"), {**apply_data(standing="agent"), "authorization": authorization()}
    )
    permit = Permit.objects.get()
    assert response.status_code == 302 and permit.sidewalk.standing == "agent"
    assert permit.documents.get().original_name == "authorization.pdf"


# --- The clerk's review page -------------------------------------------------------------------------------------


def test_303_3c_the_clerks_page_shows_the_owner_of_record_and_the_standing(client, contractor, home, clerk):
    permit = paid(file(contractor, home, standing="agent", authorization=authorization()), clerk)
    client.force_login(clerk)
    page = client.get(reverse("sidewalks:permit", args=[permit.number])).content.decode()
    assert "Owner of record" in page and "Olsen, Olga" in page
    assert "The owner&#x27;s agent" in page and "Accept the authorization" in page
    response = client.post(
        reverse("sidewalks:accept_standing", args=[permit.number]), {"document": permit.documents.get().pk}
    )
    assert response.status_code == 302
    page = client.get(reverse("sidewalks:permit", args=[permit.number])).content.decode()
    assert "The filer's standing holds." in page and "Accept the authorization" not in page


def test_303_3c_the_page_refuses_a_contract_without_its_number(client, contractor, home, clerk):
    permit = file(contractor, home, standing="village_contractor")
    client.force_login(clerk)
    response = client.post(reverse("sidewalks:accept_standing", args=[permit.number]), {"reference": ""})
    assert response.status_code == 400
    assert "§ 303-3C" in response.context["standing_form"].errors["reference"][0]


def test_303_3c_only_the_clerk_accepts_on_the_page(client, contractor, home):
    permit = file(contractor, home, standing="village_contractor")
    client.force_login(contractor)
    response = client.post(reverse("sidewalks:accept_standing", args=[permit.number]), {"reference": "VC-1"})
    assert response.status_code == 403
    assert permit.sidewalk.standing_accepted_at is None


def test_303_3c_the_api_files_with_a_standing_and_shows_the_owner_of_record(contractor, home, clerk):
    from tests.sidewalks.test_api import URL, payload

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=contractor)[0].key}")
    body = client.post(URL, payload(standing="agent"), format="json").json()
    assert body["standing"] == "agent" and body["owner_of_record"] == "Olsen, Olga"
    assert body["standing_accepted_at"] is None
    permit = paid(Permit.objects.get(number=body["number"]), clerk)
    upload_document(permit=permit, kind="other", upload=authorization(), by=contractor)  # uploaded afterwards
    with pytest.raises(RulesBroken, match="written authorization"):
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=TODAY)


def test_303_3c_the_rules_page_says_who_is_an_agent_and_when_a_cold_waiver_ends(client):
    page = client.get(reverse("permits:rules")).content.decode()
    assert "authorized in writing" in page and "contract register" in page  # § 303-3C
    assert "for one emergency on one permit, with a last day" in page  # § 303-3D(9)
    assert "read as at least six inches" in page  # § 303-3D(7)
    for section in ("§ 303-3D(3)", "§ 303-3D(6)", "§ 303-3D(11)"):
        assert section in page, section


def test_303_3c_the_applicants_checklist_says_how_to_make_the_standing_hold(client, contractor, home, clerk):
    permit = paid(file(contractor, home), clerk)
    workflow.transition(permit, Status.UNDER_REVIEW, by=clerk, today=TODAY)
    workflow.transition(permit, Status.APPROVED, by=clerk, today=TODAY)
    client.force_login(contractor)
    page = client.get(reverse("sidewalks:permit", args=[permit.number])).content.decode()
    assert "not linked to the parcel" in page and reverse("permits:parcel_link_request") in page
