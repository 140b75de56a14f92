"""A permit's timeline (read by the applicant, and on the public status page) names a Village office, never a staff
member's own address; the Notice row keeps the address for the office's record."""

import pytest

from permits import services
from permits.models import Notice, PermitEvent, Status
from tests.factories import UserFactory
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db
TEMPLATE = "street_privilege_recommendation_requested"


def notice_events(permit) -> list[str]:
    return list(permit.events.filter(kind=PermitEvent.Kind.NOTICE).values_list("reason", flat=True))


@pytest.fixture
def submitted(contractor):
    return permit_in(Status.SUBMITTED, applicant=contractor)


def test_a_notice_to_a_staff_member_names_their_office(submitted, dpw_director):
    services.send_notice(submitted, to=dpw_director.email.upper(), template=TEMPLATE, context={"permit": submitted})
    (reason,) = notice_events(submitted)
    assert reason.startswith("Notice sent to the Director of Public Works: Street privilege permit")
    assert dpw_director.email.lower() not in reason.lower()
    assert Notice.objects.get(permit=submitted).to == dpw_director.email.upper()  # the record keeps the address


def test_the_clerks_office_address_is_the_clerk_treasurer(submitted, settings):
    settings.CLERK_EMAIL = "clerk-office@theresa.example"
    services.send_notices([(submitted, "clerk-office@theresa.example", TEMPLATE, {"permit": submitted})])
    assert notice_events(submitted)[0].startswith("Notice sent to the Clerk-Treasurer: ")


def test_a_staff_account_without_a_role_is_the_village_office(submitted):
    admin = UserFactory(email="it@theresa.example", is_staff=True)
    services.send_notices([(submitted, admin.email, TEMPLATE, {"permit": submitted})])
    assert notice_events(submitted)[0].startswith("Notice sent to the Village office: ")


def test_a_notice_to_the_applicant_still_names_the_address(submitted, contractor):
    services.send_notice(submitted, to=contractor.email, template=TEMPLATE, context={"permit": submitted})
    assert notice_events(submitted)[0].startswith(f"Notice sent to {contractor.email}: ")


def test_the_applicants_permit_page_shows_no_staff_address(client, submitted, contractor, dpw_director):
    services.send_notices([(submitted, dpw_director.email, TEMPLATE, {"permit": submitted})])
    client.force_login(contractor)
    page = client.get(submitted.get_absolute_url())
    assert page.status_code == 200
    assert b"the Director of Public Works" in page.content and dpw_director.email.encode() not in page.content


def test_the_office_names_cost_one_query_however_many_notices(submitted, dpw_director, django_assert_num_queries):
    staff = [UserFactory(email=f"s{n}@theresa.example", is_staff=True) for n in range(5)]
    with django_assert_num_queries(1):
        names = services.offices_by_address()
    assert {names[s.email] for s in staff} == {"the Village office"}
