"""The enforcement pages: who may open each, the phone journey through the forms, bad input, constant queries."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from obstructions import services
from obstructions.models import Case, StreetNumber
from permits.ledger.models import SpecialCharge
from tests.obstructions.conftest import at

SEEN = at(2026, 5, 4, 8, 0)
STAFF = ["clerk", "dpw_director", "inspector", "building_inspector", "police_chief", "board_member", "president"]


def new_case(by, parcel, kind="obstruction_sidewalk"):
    return services.open_case(kind=kind, address=parcel.site_address, what="Sandwich board", seen_at=SEEN, by=by)


def post_case(client, **fields):
    """The open-a-case form, posted: a sidewalk obstruction seen at SEEN unless the test says otherwise."""
    data = {"kind": "obstruction_sidewalk", "seen_at": "2026-05-04T08:00", **fields}
    return client.post(reverse("obstructions:open_case"), data)


@pytest.mark.parametrize("persona", STAFF)
def test_village_staff_see_the_case_queue(persona, client, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("obstructions:cases")).status_code == 200


@pytest.mark.parametrize("persona", ["resident", "contractor"])
def test_others_may_not_see_the_case_queue_or_a_case(persona, client, request, inspector, house):
    case = new_case(inspector, house)
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("obstructions:cases")).status_code == 403
    assert client.get(case.get_absolute_url()).status_code == 403
    assert client.get(reverse("obstructions:numbers")).status_code == 403


def test_anonymous_is_sent_to_log_in(client, db):
    response = client.get(reverse("obstructions:cases"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_clerk_may_not_serve_an_obstruction_notice_through_the_page(client, clerk, inspector, house):
    case = new_case(inspector, house)
    client.force_login(clerk)
    response = client.post(
        reverse("obstructions:case_serve", args=[case.number]),
        {"served_to": "owner", "served_how": "personal", "served_at": "2026-05-04T09:30"},
    )
    assert response.status_code == 403
    case.refresh_from_db()
    assert case.status == Case.Status.OPEN


def test_inspector_opens_a_case_from_the_form(client, inspector, house):
    client.force_login(inspector)
    response = post_case(client, address="305 main street", what="Bricks", temporary_design="on")
    case = Case.objects.get()
    assert response.status_code == 302 and response["Location"] == case.get_absolute_url()


def test_bench_leaving_two_point_nine_feet_opens_a_case_and_three_feet_closes_it(client, inspector, shop):
    client.force_login(inspector)
    bench = {"address": shop.site_address, "what": "Bench", "is_fixture": "on", "temporary_design": "on"}
    post_case(client, **bench, clear_width_feet="2.9")
    post_case(client, **bench, clear_width_feet="3.0")
    assert list(Case.objects.order_by("pk").values_list("status", flat=True)) == ["open", "excepted"]


def test_fixture_without_a_measured_width_names_the_field(client, inspector, shop):
    client.force_login(inspector)
    response = post_case(client, address=shop.site_address, what="Bench", is_fixture="on")
    assert response.status_code == 400
    assert "§ 303-6C(3)" in response.context["form"].errors["clear_width_feet"][0]
    assert not Case.objects.exists()


def test_unknown_address_names_the_field_and_stores_nothing(client, inspector, house):
    client.force_login(inspector)
    response = post_case(client, kind="terrace", address="1 Nowhere", what="Weeds", detail="weeds")
    assert response.status_code == 400 and "address" in response.context["form"].errors
    assert not Case.objects.exists()


def test_the_journey_serve_wait_remove_bill(client, inspector, house):
    case = new_case(inspector, house)
    client.force_login(inspector)
    with time_machine.travel(at(2026, 5, 4, 10, 0), tick=False):
        response = client.post(
            reverse("obstructions:case_serve", args=[case.number]),
            {"served_to": "owner", "served_how": "personal", "served_at": "2026-05-04T09:30"},
        )
        assert response.status_code == 302
    with time_machine.travel(at(2026, 5, 5, 9, 40), tick=False):
        early = client.post(
            reverse("obstructions:case_remove", args=[case.number]),
            {"removed_at": "2026-05-05T09:29", "cost": "185.00", "description": "Sandwich board"},
        )
        assert early.status_code == 400 and "§ 303-6F(1)" in early.context["removal_form"].errors["removed_at"][0]
        done = client.post(
            reverse("obstructions:case_remove", args=[case.number]),
            {"removed_at": "2026-05-05T09:30", "cost": "185.00", "description": "Sandwich board"},
        )
        assert done.status_code == 302
        page = client.get(case.get_absolute_url())
    assert SpecialCharge.objects.get().due_on.isoformat() == "2026-05-18"
    assert b"May 18, 2026" in page.content


def test_street_number_notice_too_early_on_the_page_names_the_day(client, clerk, house):
    with time_machine.travel(at(2026, 5, 1, 10, 0), tick=False):
        case = services.open_case(
            kind="street_number",
            address=house.site_address,
            what="No number",
            seen_at=at(2026, 5, 1, 9, 0),
            by=clerk,
            neglect_recorded_on=at(2026, 5, 1, 9, 0).date(),
        )
    client.force_login(clerk)
    with time_machine.travel(at(2026, 5, 21, 12, 0), tick=False):
        response = client.post(
            reverse("obstructions:case_serve", args=[case.number]),
            {"served_to": "owner", "served_how": "mail", "served_at": "2026-05-21T11:00"},
        )
    assert response.status_code == 400
    assert "May 22, 2026" in response.context["serve_form"].errors["served_at"][0]


def test_clerk_assigns_a_number_on_the_page(client, clerk, house):
    client.force_login(clerk)
    response = client.post(
        reverse("obstructions:numbers"),
        {"address": house.site_address, "number": "305", "building": "Principal building", "map_reference": "Sheet 3"},
    )
    assert response.status_code == 302 and StreetNumber.objects.count() == 1


def test_inspector_may_not_assign_a_number_on_the_page(client, inspector, house):
    client.force_login(inspector)
    response = client.post(
        reverse("obstructions:numbers"),
        {"address": house.site_address, "number": "305", "building": "Principal building", "map_reference": "Sheet 3"},
    )
    assert response.status_code == 403 and not StreetNumber.objects.exists()


def test_case_queue_queries_do_not_grow_with_rows(client, inspector, house, django_assert_max_num_queries):
    client.force_login(inspector)
    new_case(inspector, house)
    with django_assert_max_num_queries(8) as few:
        client.get(reverse("obstructions:cases"))
    for _ in range(15):
        new_case(inspector, house)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("obstructions:cases"))


def test_numbers_page_queries_do_not_grow_with_rows(client, clerk, main_street, django_assert_max_num_queries):
    from tests.factories import ParcelFactory

    client.force_login(clerk)
    parcels = [ParcelFactory(street=main_street) for _ in range(12)]
    services.assign_street_number(parcel=parcels[0], number=1, map_reference="S1", by=clerk)
    with django_assert_max_num_queries(8) as few:
        client.get(reverse("obstructions:numbers"))
    for i, parcel in enumerate(parcels[1:], start=2):
        services.assign_street_number(parcel=parcel, number=i, map_reference="S1", by=clerk)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("obstructions:numbers"))


def test_public_complaint_opens_a_case(client, house):
    form = client.get(reverse("obstructions:complaint")).context["form"]
    a, b = form.question
    response = client.post(
        reverse("obstructions:complaint"),
        {
            "address": house.site_address,
            "details": "Trailer on the walk",
            "contact": "",
            "answer": a + b,
            "challenge": form.initial["challenge"],
        },
    )
    assert response.status_code == 302
    case = Case.objects.get()
    assert (case.via, case.parcel, case.opened_by) == ("public", house, None)


def test_public_complaint_rate_limited(client, house):
    for _ in range(services_limit()):
        client.post(reverse("obstructions:complaint"), {"address": "x"})
    assert client.post(reverse("obstructions:complaint"), {"address": "x"}).status_code == 429


def services_limit():
    from obstructions.views import COMPLAINTS_PER_HOUR

    return COMPLAINTS_PER_HOUR


def test_public_complaint_wrong_sum_names_the_field(client, db):
    form = client.get(reverse("obstructions:complaint")).context["form"]
    response = client.post(
        reverse("obstructions:complaint"),
        {"address": "1 Main", "details": "x", "answer": 0, "challenge": form.initial["challenge"]},
    )
    assert response.status_code == 400 and "answer" in response.context["form"].errors
    assert not Case.objects.exists()


def test_photo_only_to_staff(client, inspector, resident, house):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.upload_samples import JPEG

    case = new_case(inspector, house)
    step = services.add_photo(
        case=case, upload=SimpleUploadedFile("a.jpg", JPEG, content_type="image/jpeg"), by=inspector
    )
    url = reverse("obstructions:case_photo_file", args=[case.number, step.pk])
    client.force_login(inspector)
    assert client.get(url)["Content-Type"] == "image/jpeg"
    client.force_login(resident)
    assert client.get(url).status_code == 403


def test_deadline_shown_after_serving(client, inspector, house):
    case = new_case(inspector, house)
    with time_machine.travel(at(2026, 5, 4, 10, 0), tick=False):
        services.serve_notice(
            case=case, served_to="occupant", served_how="posted", served_at=at(2026, 5, 4, 9, 30), by=inspector
        )
    client.force_login(inspector)
    page = client.get(case.get_absolute_url())
    assert b"May 5, 2026 9:30 AM" in page.content
    assert (case.seen_at + timedelta(0)) == SEEN


def test_303_14b_display_findings_from_the_form(client, clerk, house):
    client.force_login(clerk)
    data = {
        "kind": "street_number",
        "address": house.site_address,
        "what": "Numbers",
        "seen_at": "2026-05-01T09:00",
        "neglect_recorded_on": "2026-05-01",
        "background_inches": "3",
        "contrasting": "on",
        "by_front_entrance": "on",
        "visible_from_street": "on",
        "temporary_design": "on",
    }
    post_case(client, **data, numeral_inches="2.4")
    post_case(client, **data, numeral_inches="2.5")
    assert list(Case.objects.order_by("pk").values_list("status", flat=True)) == ["open", "excepted"]


def test_photos_uploaded_with_the_new_case(client, inspector, house):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.upload_samples import JPEG, PNG

    client.force_login(inspector)
    photos = [
        SimpleUploadedFile("a.jpg", JPEG, content_type="image/jpeg"),
        SimpleUploadedFile("b.png", PNG, content_type="image/png"),
    ]
    response = post_case(client, address=house.site_address, what="Bricks", temporary_design="on", photos=photos)
    assert response.status_code == 302
    assert Case.objects.get().steps.filter(kind="photo").count() == 2


def test_bad_photo_names_the_photos_field_and_stores_nothing(client, inspector, house):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(inspector)
    photo = SimpleUploadedFile("a.jpg", b"<html>not a photo</html>", content_type="image/jpeg")
    response = post_case(client, address=house.site_address, what="Bricks", photos=[photo])
    assert response.status_code == 400 and response.context["form"].errors["photos"]
    assert not Case.objects.exists()


def test_public_complaint_matched_to_a_parcel_and_section(client, inspector, house):
    case = services.report_case(address="305  MAIN street", what="Brush in the ditch")
    client.force_login(inspector)
    response = client.post(
        reverse("obstructions:case_match", args=[case.number]), {"address": house.site_address, "kind": "drainage"}
    )
    assert response.status_code == 302
    case.refresh_from_db()
    assert (case.parcel, case.kind) == (house, "drainage")
