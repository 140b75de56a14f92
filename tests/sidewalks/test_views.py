"""Sidewalk pages: apply, the permit page, the inspector's phone page, surveys and orders; roles and query counts."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from permits.models import Permit, Status
from sidewalks import services
from sidewalks.models import SidewalkOrder, SidewalkSurvey
from tests.factories import ParcelFactory
from tests.sidewalks.conftest import GOOD, PASSING, POSTED, TODAY, stand

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("frozen")]


def apply_data(**kw):
    data = {**POSTED, "driveway_length_feet": "12", "concrete_psi": "4000", "sacks_per_cubic_yard": "6"}
    return {**data, "pour_date": "2026-06-05", **kw}


def test_apply_page_is_linked_from_the_permit_chooser(client, contractor):
    client.force_login(contractor)
    assert reverse("sidewalks:apply") in client.get(reverse("permits:apply")).content.decode()


def test_contractor_applies_through_the_form(client, contractor, contractor_org, home):
    client.force_login(contractor)
    response = client.post(reverse("sidewalks:apply"), apply_data(organization=contractor_org.pk))
    permit = Permit.objects.get()
    assert response.status_code == 302 and response.url == reverse("sidewalks:permit", args=[permit.number])
    assert permit.organization == contractor_org and permit.status == Status.SUBMITTED
    page = client.get(response.url).content.decode()
    assert "101 Elm Street" in page and "Not inspected" in page


def test_form_shows_every_broken_rule_on_its_field_with_its_section(client, resident, shop):
    client.force_login(resident)
    response = client.post(
        reverse("sidewalks:apply"), apply_data(parcel=shop.tax_key, material="bituminous", pour_date="2026-06-03")
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert set(form.errors) == {"material", "pour_date", "width_feet", "thickness_inches", "driveway_thickness_inches"}
    assert "§ 303-3C" in form.errors["pour_date"][0] and "§ 303-3D(8)(b)" in form.errors["width_feet"][0]
    assert not Permit.objects.exists()


def test_the_form_has_an_error_summary_linking_each_broken_rule_to_its_field(client, resident, shop):
    client.force_login(resident)
    response = client.post(
        reverse("sidewalks:apply"), apply_data(parcel=shop.tax_key, material="bituminous", pour_date="2026-06-03")
    )
    page = response.content.decode()
    summary = page[page.index('id="form-errors"') : page.index("</div>", page.index('id="form-errors"'))]
    assert "The application cannot be submitted yet" in summary
    for field in ("material", "pour_date", "width_feet", "thickness_inches", "driveway_thickness_inches"):
        assert f'href="#id_{field}"' in summary
    assert "§ 303-3D(8)(b)" in summary
    assert page.index('id="form-errors"') < page.index('name="material"')


def test_unknown_tax_key_is_an_error_on_the_parcel_field(client, resident, home):
    client.force_login(resident)
    response = client.post(reverse("sidewalks:apply"), apply_data(parcel="nope"))
    assert "No parcel has the tax key number nope" in response.context["form"].errors["parcel"][0]


def test_clerk_records_the_fee_and_issues_from_the_permit_page(client, clerk, submitted):
    client.force_login(clerk)
    url = reverse("sidewalks:permit", args=[submitted.number])
    assert "Issue the permit" in client.get(url).content.decode()
    client.post(reverse("sidewalks:payment", args=[submitted.number]), {"amount": "25.00", "method": "cash"})
    client.post(reverse("sidewalks:issue", args=[submitted.number]))
    submitted.refresh_from_db()
    assert submitted.status == Status.ISSUED


def test_contractor_cannot_issue_their_own_permit(client, contractor, submitted):
    client.force_login(contractor)
    assert "Issue the permit" not in client.get(reverse("sidewalks:permit", args=[submitted.number])).content.decode()
    assert client.post(reverse("sidewalks:issue", args=[submitted.number])).status_code == 403


def test_outsider_cannot_see_the_permit(client, outsider, submitted):
    client.force_login(outsider)
    assert client.get(reverse("sidewalks:permit", args=[submitted.number])).status_code == 404


def test_inspector_passes_each_stage_from_the_phone_page(client, inspector, issued, frozen):
    frozen.move_to(datetime(2026, 6, 6, 10, tzinfo=ZoneInfo("America/Chicago")))  # the pour day (§ 303-3C)
    client.force_login(inspector)
    url = reverse("sidewalks:inspect", args=[issued.number])
    for stage, measures in PASSING.items():
        data = {
            "stage": stage,
            **{k: ("on" if v is True else "" if v is False else str(v)) for k, v in measures.items()},
        }
        for radio in ("sawn_joints", "diagonal_joints"):  # § 303-3D(6): radio questions, answered every time
            if radio in measures:
                data[radio] = "yes" if measures[radio] else "no"
        response = client.post(url, data)
        assert response.status_code == 302, response.context["form"].errors
    client.post(reverse("sidewalks:complete", args=[issued.number]), {"next": "inspect"})
    issued.refresh_from_db()
    assert issued.status == Status.COMPLETED, list(issued.sidewalk_inspections.values_list("stage", "findings"))


def test_failed_inspection_is_shown_with_its_citation(client, inspector, issued):
    client.force_login(inspector)
    url = reverse("sidewalks:inspect", args=[issued.number])
    response = client.post(
        url,
        {"stage": "subgrade", "grading_inches": "2", "subgrade_inches": "2", "subgrade_material": "gravel"},
        follow=True,
    )
    assert "§ 303-3D(3)" in response.content.decode()
    assert "stays open" in response.content.decode()


def test_resident_cannot_inspect(client, resident, home, clerk, issued):
    issued.parcel.owners.add(resident)
    client.force_login(resident)
    assert client.get(reverse("sidewalks:inspect", args=[issued.number])).status_code in (403, 404)
    client.force_login(issued.applicant)
    assert client.get(reverse("sidewalks:inspect", args=[issued.number])).status_code == 403


def test_parcel_search_finds_by_address_owner_or_tax_key(client, resident, home, shop):
    client.force_login(resident)
    for q in ("101 Elm", "olsen", "266-1116-0001"):
        page = client.get(reverse("sidewalks:parcel_search"), {"q": q}).content.decode()
        assert "101 Elm Street" in page and "200 Elm Street" not in page


def test_parcel_search_query_count_does_not_grow(client, resident, elm, django_assert_max_num_queries):
    client.force_login(resident)
    for n in range(30):
        ParcelFactory(street=elm, site_address=f"{300 + n} Elm Street")
    with django_assert_max_num_queries(8):
        client.get(reverse("sidewalks:parcel_search"), {"q": "Elm"})


# --- Surveys and orders ----------------------------------------------------------------------------------------------


def test_inspector_surveys_block_by_block_and_proposes_orders(client, inspector, elm, home):
    client.force_login(inspector)
    response = client.post(
        reverse("sidewalks:surveys"), {"street": elm.pk, "surveyed_on": "2026-06-01", "block_area_sqft": "20"}
    )
    survey = SidewalkSurvey.objects.get()
    assert response.url == survey.get_absolute_url()
    for n, vertical in enumerate(["1", "1", "0.2"], start=1):
        client.post(
            survey.get_absolute_url(),
            {
                "parcel": home.pk,
                "block_number": n,
                "vertical_inches": vertical,
                "horizontal_inches": "0",
                "deterioration_inches": "0",
            },
        )
    assert survey.blocks.filter(defective=True).count() == 2
    client.post(reverse("sidewalks:propose", args=[survey.pk]))
    order = SidewalkOrder.objects.get()
    assert (order.work, order.quantity, order.estimated_cost) == ("repair", Decimal("2"), Decimal("300.00"))


def test_resident_cannot_see_surveys_or_orders(client, resident):
    client.force_login(resident)
    assert client.get(reverse("sidewalks:surveys")).status_code == 403
    assert client.get(reverse("sidewalks:orders")).status_code == 403


def test_clerk_cannot_record_survey_blocks(client, clerk, elm, inspector):
    survey = services.start_survey(street=elm, by=inspector, surveyed_on=TODAY)
    client.force_login(clerk)
    assert client.post(survey.get_absolute_url(), {}).status_code == 403


def make_orders(inspector, street, count):
    survey = services.start_survey(street=street, by=inspector, surveyed_on=TODAY)
    for n in range(count):
        parcel = ParcelFactory(street=street, site_address=f"{500 + n} Elm Street")
        services.record_block(survey=survey, parcel=parcel, block_number=1, vertical_inches=Decimal("1"), by=inspector)
    return services.propose_orders(survey=survey, by=inspector, today=TODAY)


def test_orders_and_surveys_lists_query_counts_do_not_grow(
    client, clerk, inspector, elm, django_assert_max_num_queries
):
    make_orders(inspector, elm, 3)
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as orders_once:
        client.get(reverse("sidewalks:orders"))
    orders_baseline = len(orders_once.captured_queries)  # read now: each request resets the query log
    with CaptureQueriesContext(connection) as surveys_once:
        client.get(reverse("sidewalks:surveys"))
    surveys_baseline = len(surveys_once.captured_queries)
    assert orders_baseline and surveys_baseline
    make_orders(inspector, elm, 20)
    make_orders(inspector, elm, 3)
    with django_assert_max_num_queries(orders_baseline):
        client.get(reverse("sidewalks:orders"))
    with django_assert_max_num_queries(surveys_baseline):
        client.get(reverse("sidewalks:surveys"))


def test_clerk_adopts_serves_and_charges_through_the_pages(client, clerk, dpw_director, inspector, elm):
    from tests.board_world import vote

    [order] = make_orders(inspector, elm, 1)
    client.force_login(clerk)
    response = client.post(reverse("sidewalks:orders"), {"order": [order.pk], "motion": ""})
    assert "motion" in response.context["form"].errors  # no motion, no adoption
    motion = vote(clause="303-3B(3)", ayes=5, held_on=date(2026, 6, 1), number="2026-31", clerk=clerk)
    client.post(reverse("sidewalks:orders"), {"order": [order.pk], "motion": motion.pk})
    order.refresh_from_db()
    assert order.status == "adopted" and order.resolution_number == "2026-31" and order.adopted_on == date(2026, 6, 1)
    response = client.post(
        reverse("sidewalks:order_act", args=[order.number, "serve"]),
        {"method": "personal", "served_on": "2026-06-01", "proof": ""},
    )
    assert response.status_code == 400 and "Wis. Stat. § 66.0907" in response.context["serve_form"].errors["proof"][0]
    client.post(
        reverse("sidewalks:order_act", args=[order.number, "serve"]),
        {"method": "personal", "served_on": "2026-06-01", "proof": "Affidavit of service by Officer Reinke"},
    )
    client.force_login(dpw_director)
    response = client.post(
        reverse("sidewalks:order_act", args=[order.number, "village"]), {"cost": "180", "done_on": "2026-06-22"}
    )
    # served June 1: the 20th day is Sunday June 21, so the owner has Monday June 22 too (Wis. Stat. § 990.001(4))
    assert response.status_code == 400 and "June 22, 2026" in response.content.decode()
    client.post(
        reverse("sidewalks:order_act", args=[order.number, "village"]), {"cost": "180", "done_on": "2026-06-23"}
    )
    with time_machine.travel(datetime(2026, 6, 23, 12, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        client.force_login(clerk)  # three weeks on: the first session has expired
        client.post(reverse("sidewalks:order_act", args=[order.number, "charge"]))
    order.refresh_from_db()
    assert order.status == "charged" and order.charge.amount == Decimal("180.00")
    page = client.get(order.get_absolute_url()).content.decode()
    assert order.charge.number in page


def test_core_permit_page_is_the_sidewalk_page(client, contractor, submitted):
    """One page per permit: both addresses show the same content (no second page to find)."""
    import re

    client.force_login(contractor)
    core = client.get(reverse("permits:detail", args=[submitted.number])).content.decode()
    sidewalk = client.get(reverse("sidewalks:permit", args=[submitted.number])).content.decode()
    assert "101 Elm Street (tax key 266-1116-0001)" in core and "Not inspected" in core
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    assert token.sub("", core) == token.sub("", sidewalk)


def test_dpw_proposes_replacing_an_illegal_walk_from_the_page(client, dpw_director, shop):
    client.force_login(dpw_director)
    url = reverse("sidewalks:order_illegal")
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "parcel": shop.tax_key,
            "frontage_feet": "50",
            "width_feet": "4",
            "thickness_inches": "5",
            "material": "concrete",
        },
    )
    order = SidewalkOrder.objects.get()
    assert response.url == order.get_absolute_url() and order.reason == "illegal"
    assert "§ 303-3F" in client.get(response.url).content.decode()


def test_resident_cannot_open_the_illegal_sidewalk_page(client, resident):
    client.force_login(resident)
    assert client.get(reverse("sidewalks:order_illegal")).status_code == 403


def test_owner_of_record_sees_their_order_and_may_apply_but_not_act(client, resident, inspector, elm, home, outsider):
    [order] = [o for o in make_orders(inspector, elm, 1)]
    order.parcel.owners.add(resident)
    client.force_login(resident)
    page = client.get(order.get_absolute_url()).content.decode()
    assert order.number in page and "Record service" not in page
    assert client.post(reverse("sidewalks:order_act", args=[order.number, "charge"])).status_code == 403
    client.force_login(outsider)
    assert client.get(order.get_absolute_url()).status_code == 404


def test_inspectors_list_shows_issued_work_with_a_fixed_query_count(
    client, inspector, clerk, contractor, contractor_org, elm, django_assert_max_num_queries
):
    from permits.services import record_payment

    def issue_one(n):
        parcel = ParcelFactory(street=elm, site_address=f"{700 + n} Elm Street")
        permit = services.apply_for_sidewalk_permit(
            applicant=contractor, organization=contractor_org, parcel=parcel, today=TODAY, **GOOD
        )
        record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
        permit.refresh_from_db()
        return services.issue_sidewalk_permit(permit=stand(permit, clerk), by=clerk, today=TODAY)

    first = issue_one(0)
    client.force_login(inspector)
    with CaptureQueriesContext(connection) as once:
        page = client.get(reverse("sidewalks:to_inspect")).content.decode()
    baseline = len(once.captured_queries)
    assert f"Inspect {first.number}" in page
    for n in range(1, 8):
        issue_one(n)
    with django_assert_max_num_queries(baseline):
        client.get(reverse("sidewalks:to_inspect"))


def test_resident_cannot_open_the_inspectors_list(client, resident):
    client.force_login(resident)
    assert client.get(reverse("sidewalks:to_inspect")).status_code == 403


def test_clerk_withdraws_an_order_from_its_page(client, clerk, inspector, elm):
    [order] = make_orders(inspector, elm, 1)
    client.force_login(clerk)
    url = reverse("sidewalks:order_act", args=[order.number, "withdraw"])
    assert client.post(url, {"reason": ""}).status_code == 400
    client.post(url, {"reason": "The Board did not adopt it"})
    order.refresh_from_db()
    assert order.status == "withdrawn"
