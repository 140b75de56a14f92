"""§ 303-8A: a public snow report names a walk of the Village (the parcel roll or the street register) or is refused
with suggestions; the reporter follows it on an unguessable page; only the DPW acts on it (§ 303-8B)."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from permits.workspace import sources as workspace
from sidewalks.models import SnowCase
from sidewalks.snow import rules as snow_rules
from sidewalks.snow import services as snow
from tests.factories import ParcelFactory, StreetFactory

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")
STOPPED = datetime(2026, 1, 13, 6, 0, tzinfo=CHICAGO)


@pytest.fixture
def highland(db):
    street = StreetFactory(name="Highland Avenue")
    for number in (98, 102, 110, 140):
        ParcelFactory(
            site_address=f"{number} Highland Avenue",
            street=street,
            owner_name="Owner, Olga",
            owner_email="olga@example.com",
        )
    return street


def _answer(client):
    form = client.get(reverse("sidewalks:snow_report")).context["form"]
    return {"challenge": form.initial["challenge"], "answer": sum(form.question)}


def _report(client, address):
    return client.post(reverse("sidewalks:snow_report"), {"address": address, **_answer(client)})


# --- The rules ----------------------------------------------------------------------------------------------------


def test_303_8a_split_address():
    assert snow_rules.split_address("  102   Highland Avenue ") == (102, "Highland Avenue")
    assert snow_rules.split_address("Highland Avenue") == (None, "Highland Avenue")
    assert snow_rules.split_address("102") == (None, "102")


def test_303_8a_closest_addresses_by_house_number():
    roll = ["98 Highland Avenue", "102 Highland Avenue", "110 Highland Avenue", "140 Highland Avenue"]
    assert snow_rules.closest_addresses(103, roll) == [
        "102 Highland Avenue",
        "98 Highland Avenue",
        "110 Highland Avenue",
    ]


def test_303_8a_close_street_names_a_typo_but_not_another_street():
    names = ["Highland Avenue", "Main Street", "Milwaukee Street"]
    assert snow_rules.close_street_names("highlnd avenue", names) == ["Highland Avenue"]
    assert snow_rules.close_street_names("Lakeshore Drive", names) == []


# --- The service (every path) -------------------------------------------------------------------------------------


def test_303_8a_address_on_the_roll_is_its_parcel(highland):
    parcel, street = snow.match_address("102 highland avenue")
    assert parcel.site_address == "102 Highland Avenue" and street == highland


def test_303_8a_number_not_on_the_roll_is_refused_with_the_closest_addresses(highland, dpw_director):
    with pytest.raises(ValidationError) as exc:
        snow.report_snow_case(address="104 Highland Avenue", by=dpw_director)
    message = exc.value.message_dict["address"][0]
    assert "§ 303-8A" in message and message.startswith("Address:")
    assert "102 Highland Avenue; 98 Highland Avenue; 110 Highland Avenue" in message
    assert not SnowCase.objects.exists()


def test_303_8a_street_not_on_the_register_is_refused_with_close_names(highland):
    with pytest.raises(ValidationError) as exc:
        snow.report_snow_case(address="102 Highlnd Avenue")
    assert "Did you mean: Highland Avenue?" in exc.value.message_dict["address"][0]
    assert not SnowCase.objects.exists()


def test_303_8a_nowhere_road_is_refused_without_suggestion(highland):
    with pytest.raises(ValidationError) as exc:
        snow.report_snow_case(address="9999 Nowhere Road")
    message = exc.value.message_dict["address"][0]
    assert "street register" in message and "Did you mean" not in message
    assert not SnowCase.objects.exists()


def test_303_8a_street_of_the_register_without_lots_is_matched_to_the_street(db):
    park = StreetFactory(name="Park Lane")
    case = snow.report_snow_case(address="Park Lane", at=STOPPED)
    assert case.street == park and case.parcel is None and case.follow_token


def test_303_8a_case_page_names_the_street_of_a_report_without_a_lot(client, db, dpw_director):
    StreetFactory(name="Park Lane")
    case = snow.report_snow_case(address="12 Park Lane", at=STOPPED)
    client.force_login(dpw_director)
    page = client.get(case.get_absolute_url())
    assert b"on Park Lane: no lot of the parcel roll at that number" in page.content
    assert b"Match the report to a parcel" in page.content


def test_303_8a_dpw_assigning_a_parcel_sets_its_street(db, dpw_director, highland):
    StreetFactory(name="Park Lane")
    case = snow.report_snow_case(address="Park Lane", at=STOPPED)
    parcel = highland.parcels.get(site_address="98 Highland Avenue")
    snow.assign_case(case=case, by=dpw_director, parcel=parcel)
    case.refresh_from_db()
    assert case.street == highland and case.parcel == parcel


def test_303_8a_each_case_has_its_own_unguessable_token(highland):
    one = snow.report_snow_case(address="98 Highland Avenue")
    two = snow.report_snow_case(address="102 Highland Avenue")
    assert len(one.follow_token) >= 32 and one.follow_token != two.follow_token


# --- The public page ----------------------------------------------------------------------------------------------


def test_303_8a_typo_on_the_form_names_the_field_and_the_closest_addresses(client, highland):
    response = _report(client, "104 Highland Avenue")
    assert response.status_code == 400
    assert "102 Highland Avenue" in response.context["form"].errors["address"][0]
    assert b'aria-describedby="' in response.content and b"id_address" in response.content
    assert not SnowCase.objects.exists()


def test_303_8a_reporter_follows_the_report_without_the_owners_data(client, highland, dpw_director):
    response = _report(client, "102 Highland Avenue")
    assert response.status_code == 302
    case = SnowCase.objects.get()
    thanks = client.get(response["Location"])
    follow = case.get_follow_url()
    assert follow.encode() in thanks.content
    page = client.get(follow)
    assert page.status_code == 200 and page["Referrer-Policy"] == "no-referrer"
    assert case.number.encode() in page.content and b"Not yet decided" in page.content
    for private in (b"Olga", b"olga@example.com", case.parcel.tax_key.encode()):
        assert private not in page.content


def test_303_8b_reporter_sees_the_deadline_and_the_village_clearing(client, highland, dpw_director):
    snow.record_snowfall(stopped_at=STOPPED, inches=Decimal("4"), by=dpw_director)
    case = snow.report_snow_case(address="102 Highland Avenue", at=STOPPED + timedelta(hours=2))
    page = client.get(case.get_follow_url())
    assert b"Jan 14, 2026 6:00 AM" in page.content  # the owner's 24 hours (§ 303-8A)
    snow.log_village_clearing(case=case, by=dpw_director, at=STOPPED + timedelta(hours=25))
    page = client.get(case.get_follow_url())
    assert b"Cleared by the Village on Jan 14, 2026" in page.content


def test_303_8a_follow_page_queries_are_bounded(client, highland, dpw_director, django_assert_max_num_queries):
    snow.record_snowfall(stopped_at=STOPPED, inches=Decimal("4"), by=dpw_director)
    case = snow.report_snow_case(address="102 Highland Avenue", at=STOPPED + timedelta(hours=2))
    with django_assert_max_num_queries(4):
        assert client.get(case.get_follow_url()).status_code == 200


def test_303_8a_follow_page_refuses_a_wrong_or_empty_token(client, highland):
    case = snow.report_snow_case(address="102 Highland Avenue")
    assert client.get(reverse("sidewalks:snow_follow", args=[case.follow_token[:-1] + "x"])).status_code == 404
    url = case.get_follow_url()
    SnowCase.objects.filter(pk=case.pk).update(follow_token="")  # a case filed before the links had none
    assert client.get(url).status_code == 404
    case.refresh_from_db()
    assert case.get_follow_url() == ""


def test_303_8a_refused_posts_count_toward_the_hourly_limit(client, highland):
    for _ in range(5):
        assert _report(client, "104 Highland Avenue").status_code == 400
    assert _report(client, "102 Highland Avenue").status_code == 429
    assert not SnowCase.objects.exists()


def test_303_8a_dpw_form_refuses_a_typo_with_the_suggestion(client, highland, dpw_director):
    client.force_login(dpw_director)
    response = client.post(reverse("sidewalks:snow"), {"report-address": "102 Highland Avenu"})
    assert response.status_code == 400
    assert "Did you mean: Highland Avenue?" in response.context["report_form"].errors["address"][0]
    assert not SnowCase.objects.exists()
    response = client.post(reverse("sidewalks:snow"), {"report-address": "102 Highland Avenue"})
    assert response.status_code == 302 and SnowCase.objects.get().parcel.site_address == "102 Highland Avenue"


# --- Who acts on a case -------------------------------------------------------------------------------------------


def _snow_box(user):
    today = STOPPED.date()
    return [b for b in workspace.work_for(user, today=today) if b.source.title.startswith("Snow and ice")]


def test_303_8_snow_cases_on_the_dpw_start_pages_not_the_chiefs(highland, dpw_director, inspector, police_chief):
    snow.report_snow_case(address="102 Highland Avenue")
    assert _snow_box(dpw_director) and _snow_box(inspector)
    assert _snow_box(police_chief) == []  # § 303-8 gives the police no step on a snow case


def test_303_8b_chief_and_clerk_may_not_clear_or_close(client, highland, police_chief, clerk):
    case = snow.report_snow_case(address="102 Highland Avenue")
    for user in (police_chief, clerk):
        client.force_login(user)
        assert b"Log clearing" not in client.get(case.get_absolute_url()).content
        url = reverse("sidewalks:snow_case_close", args=[case.number])
        assert client.post(url, {"status": "dismissed"}).status_code == 403
    case.refresh_from_db()
    assert case.status == SnowCase.Status.OPEN
