"""Street privilege pages, for each role that may and may not: apply, the permit page's panel, the Village actions
page and its actions, the queue (paged, a constant number of queries), the permit PDF."""

from decimal import Decimal as D

import pytest
from django.urls import reverse

from permits.models import Permit, Status
from tests.permits.street_privilege.conftest import materials_data

pytestmark = pytest.mark.django_db

STAFF = ["clerk", "dpw_director", "police_chief", "building_inspector", "board_member"]


def form_body(street, **overrides):
    data = {
        "purpose": "materials",
        "street": street.pk,
        "location_description": "In front of 204 Main Street",
        "start_date": "2027-03-15",
        "end_date": "2027-04-15",
        "building_permit_number": "B-1",
        "occupied_street_feet": "12.0",
        "lighted_at_night": "on",
    }
    data.update(overrides)
    return data


def test_anonymous_is_sent_to_log_in(client):
    response = client.get(reverse("permits:street_privilege_apply"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_chooser_offers_the_online_application(client, contractor):
    from permits import kinds

    assert kinds.get_type("street_privilege").apply_url == "permits:street_privilege_apply"
    assert "street_privilege" not in {t.kind for t in kinds.OFFICE_ONLY_TYPES}


def test_builder_applies_on_the_web(client, contractor, main_street):
    client.force_login(contractor)
    assert client.get(reverse("permits:street_privilege_apply")).status_code == 200
    response = client.post(reverse("permits:street_privilege_apply"), form_body(main_street))
    permit = Permit.objects.get(kind="street_privilege")
    assert response.status_code == 302 and response["Location"] == permit.get_absolute_url()
    page = client.get(permit.get_absolute_url())
    assert b"Street privilege" in page.content and b"Ask the Village Board to waive the bond" in page.content


def test_303_7d1_the_form_asks_no_street_width_and_names_the_register_when_none(client, contractor, main_street):
    client.force_login(contractor)
    page = client.get(reverse("permits:street_privilege_apply")).content.decode()
    assert 'name="street_width_feet"' not in page and 'name="sidewalk_width_feet"' not in page
    main_street.width_feet = main_street.traveled_width_feet = None
    main_street.save()
    response = client.post(reverse("permits:street_privilege_apply"), form_body(main_street))
    assert response.status_code == 400
    html = response.content.decode()
    assert "No width of Main Street is on record" in html
    assert "/obstructions/registers/streets/" in html and 'href="#id_street"' in html


def test_the_web_form_shows_every_broken_rule_at_once(client, contractor, main_street):
    client.force_login(contractor)
    response = client.post(
        reverse("permits:street_privilege_apply"),
        form_body(main_street, occupied_street_feet="12.1", lighted_at_night="", sidewalk_occupied="on"),
    )
    assert response.status_code == 400
    html = response.content.decode()
    for cite in ("§ 303-7D(1)", "§ 303-7D(2)", "§ 303-7D(3)"):
        assert cite in html
    assert 'href="#id_occupied_street_feet"' in html
    assert not Permit.objects.filter(kind="street_privilege").exists()


@pytest.mark.parametrize("persona", STAFF)
def test_staff_open_the_village_actions_page(client, world, persona, request):
    permit = world.walk("under_review")
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_privilege_manage", args=[permit.number])).status_code == 200


@pytest.mark.parametrize("persona", ["contractor", "outsider", "resident"])
def test_the_public_cannot_open_the_village_actions_page(client, world, persona, request):
    permit = world.walk("under_review")
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_privilege_manage", args=[permit.number])).status_code == 403


def test_an_outsider_does_not_see_the_permit(client, world, outsider):
    permit = world.walk("issued")
    client.force_login(outsider)
    assert client.get(permit.get_absolute_url()).status_code == 404
    assert client.get(reverse("permits:street_privilege_pdf", args=[permit.number])).status_code == 404


def act(client, permit, action, **data):
    return client.post(reverse("permits:street_privilege_act", args=[permit.number, action]), data)


def test_officials_take_the_permit_to_issue_on_the_pages(
    client, world, building_inspector, dpw_director, police_chief, clerk
):
    permit = world.walk("submitted")
    client.force_login(building_inspector)
    act(client, permit, "review")
    client.force_login(dpw_director)
    act(client, permit, "recommend", recommended="yes", conditions="Barricades")
    act(client, permit, "bond", bond_amount="5000.00")
    client.force_login(police_chief)
    act(client, permit, "recommend", recommended="no", conditions="Escort", insurance_required="on")
    act(client, permit, "cost", description="Police escort", amount="80.00")
    client.force_login(building_inspector)
    act(client, permit, "grant", conditions="7 a.m. to 7 p.m.")
    act(client, permit, "issue")  # refused: the bond is not filed nor the fee paid
    assert Permit.objects.get(pk=permit.pk).status == Status.APPROVED
    client.force_login(clerk)
    act(client, permit, "file_bond", surety="Badger State Surety Co.")
    act(client, permit, "payment", amount="140.00", method="cash")
    client.force_login(building_inspector)
    response = act(client, permit, "issue")  # refused: the Chief's insurance condition is not met (§ 303-7A)
    assert "Proof of liability insurance" in client.get(response["Location"]).content.decode()
    assert Permit.objects.get(pk=permit.pk).status == Status.APPROVED
    client.force_login(permit.applicant)  # the applicant files the certificate on the permit page
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from tests.upload_samples import PDF

    certificate = SimpleUploadedFile("coi.pdf", PDF, content_type="application/pdf")
    client.post(reverse("permits:upload", args=[permit.number]), {"kind": "insurance", "upload": certificate})
    client.force_login(building_inspector)
    response = act(client, permit, "issue")  # refused: no building permit determination yet (§ 303-7A)
    assert "has not recorded whether a building permit is required" in client.get(response["Location"]).content.decode()
    act(client, permit, "building_permit", required="yes", shown_number="")
    response = act(client, permit, "issue")  # refused: required and not shown (§ 303-7A)
    assert "has not been shown to the Building Inspector" in client.get(response["Location"]).content.decode()
    assert Permit.objects.get(pk=permit.pk).status == Status.APPROVED
    act(client, permit, "building_permit", required="yes", shown_number="B-2027-014")
    act(client, permit, "issue")
    permit.refresh_from_db()
    assert permit.status == Status.ISSUED and permit.fee_amount == D("140.00")
    assert permit.street_privilege.building_permit_shown_number == "B-2027-014"


def test_the_refusal_names_what_is_missing(client, world, building_inspector):
    permit = world.walk("under_review")
    client.force_login(building_inspector)
    response = act(client, permit, "grant")
    page = client.get(response["Location"])
    assert "advisory recommendation is not recorded yet (§ 303-7A)" in page.content.decode()


def test_a_bad_bond_amount_is_refused_naming_the_field(client, world, dpw_director):
    permit = world.walk("approved")
    client.force_login(dpw_director)
    response = act(client, permit, "bond", bond_amount="10000.01")
    assert "more than the $10,000 the ordinance allows (§ 303-7B)" in client.get(response["Location"]).content.decode()
    assert Permit.objects.get(pk=permit.pk).street_privilege.bond_amount is None


def test_the_clerk_cannot_revoke_on_the_page(client, world, clerk):
    permit = world.walk("issued")
    client.force_login(clerk)
    act(client, permit, "revoke", reason="x")
    assert Permit.objects.get(pk=permit.pk).status == Status.ISSUED


def test_the_chief_revokes_on_the_page(client, world, police_chief):
    permit = world.walk("issued")
    client.force_login(police_chief)
    act(client, permit, "revoke", reason="Obstruction not lighted")
    assert Permit.objects.get(pk=permit.pk).status == Status.REVOKED


def test_the_applicant_asks_for_a_waiver_and_reports_done(client, world, contractor):
    permit = world.walk("approved")
    client.force_login(contractor)
    client.post(reverse("permits:street_privilege_waiver", args=[permit.number]))
    assert Permit.objects.get(pk=permit.pk).street_privilege.bond_waiver_requested_at is not None
    issued = world.walk("issued", data=materials_data(world.street, location_description="At 220 Main Street"))
    client.post(reverse("permits:street_privilege_done", args=[issued.number]))
    assert Permit.objects.get(pk=issued.pk).status == Status.COMPLETED


def test_the_issued_permit_pdf(client, world, contractor):
    permit = world.walk("issued")
    client.force_login(contractor)
    response = client.get(reverse("permits:street_privilege_pdf", args=[permit.number]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_pdf_shows_conditions_route_and_end_date(world, main_street):
    from django.template.loader import render_to_string

    from permits.pdf import render_pdf  # noqa: F401  (the view renders this template)

    permit = world.walk("issued")
    sp = permit.street_privilege
    html = render_to_string(
        "pdf/street_privilege_permit.html",
        {
            "permit": Permit.objects.get(pk=permit.pk),
            "sp": sp,
            "recommendations": sp.recommendations.all(),
            "cost_lines": sp.cost_lines.all(),
        },
    )
    assert "June 10, 2027" in html and "Barricades" in html and "proof of liability insurance" in html
    assert "7 a.m. to 7 p.m." in html


def test_no_pdf_before_issue(client, world, contractor):
    permit = world.walk("approved")
    client.force_login(contractor)
    assert client.get(reverse("permits:street_privilege_pdf", args=[permit.number])).status_code == 404


@pytest.mark.parametrize("persona", ["building_inspector", "dpw_director", "police_chief", "clerk"])
def test_the_queue_is_open_to_the_officials(client, world, persona, request):
    world.walk("submitted")
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_privilege_queue")).status_code == 200


@pytest.mark.parametrize("persona", ["contractor", "outsider", "inspector"])
def test_the_queue_is_closed_to_others(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("permits:street_privilege_queue")).status_code == 403


def test_the_queue_is_paged_with_constant_queries(
    client, world, main_street, building_inspector, django_assert_max_num_queries
):
    for n in range(3):
        world.apply(materials_data(main_street, location_description=f"At {300 + n} Main Street"))
    client.force_login(building_inspector)
    url = reverse("permits:street_privilege_queue")
    client.get(url)
    with django_assert_max_num_queries(12) as few:
        client.get(url)
    for n in range(30):
        world.apply(materials_data(main_street, location_description=f"At {400 + n} Main Street"))
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url)
    assert len(response.context["page"].object_list) == 25
    assert client.get(url + "?page=2").context["page"].number == 2


def test_the_queue_filters_by_status(client, world, building_inspector):
    world.walk("submitted")
    client.force_login(building_inspector)
    response = client.get(reverse("permits:street_privilege_queue") + "?status=issued")
    assert list(response.context["page"].object_list) == []


def test_the_office_page_links_the_queue(client, building_inspector):
    client.force_login(building_inspector)
    response = client.get(reverse("permits:office"))
    assert reverse("permits:street_privilege_queue").encode() in response.content


def test_earlier_termination_on_the_grant_form(client, world, building_inspector):
    permit = world.walk("under_review")
    world.recommend(permit)
    client.force_login(building_inspector)
    act(client, permit, "grant", earlier_termination_on="2099-01-01")
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW


def test_303_7c_each_cost_is_a_line_on_the_receipt(world, police_chief, clerk):
    from django.template.loader import render_to_string

    from permits import services
    from permits.street_privilege import services as sp

    permit = world.walk("approved")
    sp.add_cost(permit=permit, by=police_chief, description="Police escort, 2 hours", amount=D("80.00"))
    permit.refresh_from_db()
    payment = services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=clerk)
    html = render_to_string("pdf/receipt.html", {"payment": payment, "permit": Permit.objects.get(pk=permit.pk)})
    assert "Police escort, 2 hours: $80.00" in html and "Total $140.00" in html


def test_the_rules_page_states_the_readings_of_303_7a_and_303_6b(client):
    html = client.get(reverse("permits:rules")).content.decode()
    assert "is the Building Inspector&#x27;s determination" in html
    assert "never a width the applicant types" in html
    assert "except them only for the dates he authorized" in html
