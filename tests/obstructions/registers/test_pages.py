"""The registers' pages: who may read and record, the § 303-11 list by year and its CSV, bad input, query counts."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from obstructions.registers import services
from obstructions.registers.models import Grade, HigherStandard, ImprovementRequest
from permits.board.clauses import Clause
from tests import board_world
from tests.factories import ParcelFactory, StreetFactory

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
PAGES = ["grades", "improvements", "improvements_csv", "higher_standards", "terrace_approvals"]
READERS = ["clerk", "dpw_director", "inspector", "building_inspector", "board_member", "president"]
STRANGERS = ["resident", "outsider", "contractor", "police_chief"]


@pytest.fixture(autouse=True)
def autumn():
    with time_machine.travel(datetime(2026, 10, 1, 10, tzinfo=CHICAGO), tick=False):
        yield


def url(name, **query):
    base = reverse(f"obstructions:registers:{name}")
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("who", READERS)
def test_staff_and_the_board_read_the_registers(client, request, name, who):
    client.force_login(request.getfixturevalue(who))
    assert client.get(url(name)).status_code == 200


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("who", STRANGERS)
def test_the_public_and_the_police_do_not(client, request, name, who):
    client.force_login(request.getfixturevalue(who))
    assert client.get(url(name)).status_code == 403


@pytest.mark.parametrize("name", PAGES)
def test_anonymous_is_sent_to_sign_in(client, name):
    assert client.get(url(name)).status_code == 302


@pytest.mark.parametrize("who", ["dpw_director", "board_member", "president", "inspector"])
def test_303_11_only_the_clerk_receives_requests(client, request, who):
    client.force_login(request.getfixturevalue(who))
    response = client.post(url("improvements"), {"kind": "sidewalk", "location": "x", "petitioners": "y"})
    assert response.status_code == 403 and not ImprovementRequest.objects.exists()


@pytest.mark.parametrize("who", ["dpw_director", "board_member"])
def test_303_1a_only_the_clerk_records_a_grade_on_the_page(client, request, who):
    street = StreetFactory(name="Bare Road", grade=False)
    client.force_login(request.getfixturevalue(who))
    response = client.post(url("grades"), {"street": street.pk, "way": "street", "description": "x"})
    assert response.status_code == 403 and not Grade.objects.filter(street=street).exists()


def post_request(client, presented: str, **kw):
    data = {
        "kind": "curb_and_gutter",
        "location": "Cedar Court",
        "petitioners": "Braun, Eric",
        "signatures": "4",
        "presented_at": presented,
    }
    return client.post(url("improvements"), data | kw, follow=True)


def test_303_11_a_september_16_petition_is_listed_for_the_year_after_next(client, clerk):
    client.force_login(clerk)
    response = post_request(client, "2026-09-16T08:00")
    assert response.redirect_chain[-1][0].endswith("?year=2028")
    assert "Cedar Court" in response.content.decode() and "considered for 2028" in response.content.decode()
    assert "Cedar Court" not in client.get(url("improvements", year=2027)).content.decode()


def test_303_11_a_september_15_petition_late_in_the_evening_is_listed_for_next_year(client, clerk):
    client.force_login(clerk)
    post_request(client, "2026-09-15T23:59")
    assert ImprovementRequest.objects.get().consideration_year == 2027


def test_303_11_the_csv_lists_the_year_for_the_budget_meeting(client, clerk):
    client.force_login(clerk)
    post_request(client, "2026-09-15T09:00", location="=HYPERLINK(1)")
    post_request(client, "2026-09-16T09:00", location="Maple Lane")
    response = client.get(url("improvements_csv", year=2027))
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/csv")
    assert "'=HYPERLINK(1)" in body and "Maple Lane" not in body
    assert body.splitlines()[0].startswith("Considered for,Improvement")


def test_303_11_bad_input_names_the_field_and_stores_nothing(client, clerk):
    client.force_login(clerk)
    response = post_request(client, "2027-01-01T09:00", signatures="0", petitioners="")
    form = response.context["form"]
    assert {"signatures", "petitioners"} <= set(form.errors)
    assert not ImprovementRequest.objects.exists()


def test_303_11_a_request_presented_in_the_future_is_refused(client, clerk):
    client.force_login(clerk)
    response = post_request(client, "2026-10-02T09:00")
    assert "§ 303-11" in " ".join(response.context["form"].errors["presented_at"])
    assert not ImprovementRequest.objects.exists()


def receive_requests(clerk, count, *, kind, street, first_at, own_streets=False):
    """`count` requests an hour apart, numbered along `street`; with own_streets each names a street of its own (each
    row of the list then has a street to show)."""
    for i in range(count):
        services.receive_improvement_request(
            kind=kind,
            location=f"{i} {street}",
            petitioners="x",
            by=clerk,
            presented_at=first_at + timedelta(hours=i),
            **({"street": StreetFactory(name=f"{street} {i}")} if own_streets else {}),
        )


def test_303_11_the_list_is_paged_with_constant_queries(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)
    receive_requests(clerk, 3, kind="sidewalk", street="Elm", first_at=datetime(2026, 3, 1, tzinfo=CHICAGO))
    with django_assert_max_num_queries(12) as few:
        client.get(url("improvements", year=2027))
    receive_requests(
        clerk, 40, kind="storm_sewer", street="Oak", first_at=datetime(2026, 4, 1, tzinfo=CHICAGO), own_streets=True
    )
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url("improvements", year=2027))
    assert len(response.context["page"].object_list) == 25


def test_303_1a_the_grade_register_is_paged_with_constant_queries(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)
    StreetFactory(name="A Street")
    with django_assert_max_num_queries(40) as few:
        client.get(url("grades"))
    for i in range(30):
        StreetFactory(name=f"B {i:02d} Street")
    with django_assert_max_num_queries(len(few.captured_queries) + 1):  # the form's street list is one query more
        response = client.get(url("grades"))
    assert len(response.context["page"].object_list) == 25


def test_303_1a_the_clerk_records_a_board_grade_on_the_page(client, clerk):
    street = StreetFactory(name="Bare Road", grade=False)
    motion = board_world.vote(clause=Clause.GRADE, ayes=4, number="2026-61", held_on=date(2026, 9, 8))
    client.force_login(clerk)
    response = client.post(
        url("grades"), {"street": street.pk, "way": "street", "description": "Profile 9", "motion": motion.pk}
    )
    assert response.status_code == 302
    assert services.grade_in_force(street).resolution_number == "2026-61"


def test_303_1a_a_grade_without_motion_or_earlier_resolution_is_refused_on_the_page(client, clerk):
    street = StreetFactory(name="Bare Road", grade=False)
    client.force_login(clerk)
    response = client.post(url("grades"), {"street": street.pk, "way": "street", "description": "Profile 9"})
    assert response.status_code == 200 and "§ 303-1A(1)" in response.content.decode()
    assert not Grade.objects.filter(street=street).exists()


def test_303_1b_the_clerk_records_the_dpw_alteration_on_the_page(client, clerk, dpw_director):
    grade = services.grade_in_force(StreetFactory(name="Henni Street"))
    client.force_login(clerk)
    response = client.post(
        url("grades"),
        {"form": "alteration", "grade": grade.pk, "description": "Raised 2 in", "authorized_by": dpw_director.pk},
    )
    assert response.status_code == 302
    assert services.grade_in_force(grade.street).basis == Grade.Basis.DPW_ALTERATION


def test_303_1b_an_alteration_with_no_authority_is_refused_on_the_page(client, clerk):
    grade = services.grade_in_force(StreetFactory(name="Henni Street"))
    client.force_login(clerk)
    response = client.post(url("grades"), {"form": "alteration", "grade": grade.pk, "description": "Raised"})
    assert "§ 303-1B" in response.content.decode()
    grade.refresh_from_db()
    assert grade.in_force


def test_303_3d_11_the_clerk_records_a_higher_standard_on_the_page(client, clerk):
    parcel = ParcelFactory(street=StreetFactory(name="Main Street"))
    motion = board_world.vote(clause=Clause.HIGHER_STANDARD, ayes=4, number="2026-70", held_on=date(2026, 9, 8))
    client.force_login(clerk)
    response = client.post(
        url("higher_standards"),
        {"street": parcel.street.pk, "parcel": parcel.pk, "min_width_feet": "6", "motion": motion.pk},
    )
    assert response.status_code == 302
    assert HigherStandard.objects.get().min_width_feet == Decimal("6")


def test_303_3d_11_a_standard_that_sets_nothing_is_refused_on_the_page(client, clerk):
    street = StreetFactory(name="Main Street")
    motion = board_world.vote(clause=Clause.HIGHER_STANDARD, ayes=4, number="2026-71", held_on=date(2026, 9, 8))
    client.force_login(clerk)
    response = client.post(url("higher_standards"), {"street": street.pk, "motion": motion.pk})
    assert "Set at least one minimum the Board required (§ 303-3D(11))" in response.content.decode()
    assert not HigherStandard.objects.exists()


@pytest.mark.parametrize("model", ["grade", "improvementrequest", "higherstandard", "gradeapplication"])
def test_the_admin_has_no_add_form_for_the_registers(admin_client, model):
    assert admin_client.get(reverse(f"admin:obstructions_{model}_add")).status_code == 403
    assert admin_client.get(reverse(f"admin:obstructions_{model}_changelist")).status_code == 200


def test_303_9b_the_boards_designee_records_a_terrace_approval_on_its_page(client, dpw_director, clerk):
    board_world.designate(Clause.TERRACE_SURFACE, role="Director of Public Works", starts_on=date(2026, 1, 5))
    house = ParcelFactory(site_address="305 Main Street")
    client.force_login(dpw_director)
    response = client.post(url("terrace_approvals"), {"parcel": house.pk, "area": ""})
    assert response.status_code == 200 and "area" in response.context["form"].errors  # nothing stored
    client.post(url("terrace_approvals"), {"parcel": house.pk, "area": "Brick pavers by the drive"})
    assert services.terrace_approval_for(house, date(2026, 10, 1)).area == "Brick pavers by the drive"


def test_303_9b_a_reader_who_is_not_the_designee_may_not_record(client, inspector):
    house = ParcelFactory()
    client.force_login(inspector)
    assert client.post(url("terrace_approvals"), {"parcel": house.pk, "area": "Pavers"}).status_code == 403
    assert services.terrace_approval_for(house, date(2026, 10, 1)) is None


def test_303_9b_the_approvals_page_does_not_grow_its_queries(client, clerk, django_assert_max_num_queries):
    motion = board_world.vote(clause="303-9", ayes=5, held_on=date(2026, 9, 1), number="2026-9", clerk=clerk)
    for _ in range(12):
        services.record_terrace_approval(parcel=ParcelFactory(), area="Pavers", motion=motion, by=clerk)
    client.force_login(clerk)
    with django_assert_max_num_queries(20):
        assert client.get(url("terrace_approvals")).status_code == 200
