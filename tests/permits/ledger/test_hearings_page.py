"""Wis. Stat. § 66.0627(3)(b): one Board hearing recorded at once for many sidewalk-repair charges, by the clerk."""

from datetime import date

import pytest
from django.urls import reverse

from permits.ledger.models import ChargeHearing, SpecialCharge
from permits.ledger.rules import hearing_notice_field_errors
from tests.factories import ParcelFactory
from tests.permits.conftest import OTHER_STAFF
from tests.permits.ledger.conftest import make_charge

pytestmark = pytest.mark.django_db
HEARING = {"hearing_on": "2026-06-21", "published_on": "2026-06-01", "mailed_on": "2026-06-11", "place": "Village Hall"}


def url(**query):
    from urllib.parse import urlencode

    return reverse("ledger:hearings") + ("?" + urlencode(query) if query else "")


def repair(parcel, clerk, **kw):
    return make_charge(parcel, by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR, citation="§ 303-3B(1)", **kw)


def test_66_0627_3_b_field_errors_at_the_boundaries():
    hearing = date(2026, 6, 21)
    assert hearing_notice_field_errors(hearing, date(2026, 6, 1), date(2026, 6, 11)) == {}  # 20 and 10 days: enough
    errors = hearing_notice_field_errors(hearing, date(2026, 6, 2), date(2026, 6, 12))  # 19 and 9 days: too late
    assert set(errors) == {"published_on", "mailed_on"}
    assert "19 days" in errors["published_on"] and "§ 66.0627(3)(b)" in errors["published_on"]
    assert "9 days" in errors["mailed_on"] and "§ 66.0627(3)(b)" in errors["mailed_on"]
    assert set(hearing_notice_field_errors(hearing, date(2026, 5, 31), date(2026, 6, 12))) == {"mailed_on"}


def test_66_0627_3_b_clerk_records_one_hearing_for_several_charges(client, clerk, parcel, other_parcel):
    first, second, third = repair(parcel, clerk), repair(other_parcel, clerk), repair(parcel, clerk)
    snow = make_charge(parcel, by=clerk)  # snow and ice needs no hearing: not listed
    client.force_login(clerk)
    page = client.get(url(year=2026)).content.decode()
    assert first.number in page and second.number in page and snow.number not in page
    response = client.post(url(year=2026), {**HEARING, "charges": [first.number, second.number]})
    assert response.status_code == 302
    hearing = ChargeHearing.objects.get()
    assert set(hearing.charges.all()) == {first, second} and hearing.recorded_by == clerk
    listed = client.get(url(year=2026)).content.decode()  # covered charges leave the default list
    assert first.number not in listed and third.number in listed
    assert first.number in client.get(url(year=2026, uncovered=0)).content.decode()


def test_66_0627_3_b_published_19_days_before_is_refused_naming_the_field(client, clerk, parcel):
    charge = repair(parcel, clerk)
    client.force_login(clerk)
    response = client.post(
        url(year=2026), {**HEARING, "published_on": "2026-06-02", "mailed_on": "2026-06-12", "charges": [charge.number]}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "19 days" in form.errors["published_on"][0] and "§ 66.0627(3)(b)" in form.errors["published_on"][0]
    assert "9 days" in form.errors["mailed_on"][0] and "§ 66.0627(3)(b)" in form.errors["mailed_on"][0]
    assert not ChargeHearing.objects.exists()
    assert f'value="{charge.number}" id="charge-{charge.number}" checked' in response.content.decode()


def test_66_0627_3_b_no_charge_checked_is_refused(client, clerk, parcel):
    repair(parcel, clerk)
    client.force_login(clerk)
    response = client.post(url(year=2026), HEARING)
    assert response.status_code == 400 and "charges" in response.context["form"].errors
    assert not ChargeHearing.objects.exists()


def test_66_0627_3_b_charge_not_needing_a_hearing_is_refused(client, clerk, parcel):
    snow = make_charge(parcel, by=clerk)
    client.force_login(clerk)
    response = client.post(url(year=2026), {**HEARING, "charges": [snow.number]})
    assert response.status_code == 400 and "charges" in response.context["form"].errors
    assert not ChargeHearing.objects.exists()


@pytest.mark.parametrize("persona", [*OTHER_STAFF, "resident", "outsider", "contractor"])
def test_66_0627_3_b_only_the_clerk_records_hearings(client, request, clerk, parcel, persona):
    charge = repair(parcel, clerk)
    client.force_login(request.getfixturevalue(persona))
    assert client.get(url()).status_code == 403
    assert client.post(url(year=2026), {**HEARING, "charges": [charge.number]}).status_code == 403
    assert not ChargeHearing.objects.exists()


def test_hearings_page_anonymous_goes_to_login(client):
    response = client.get(url())
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.slow
def test_hearings_page_is_paginated_and_queries_do_not_grow(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)

    def add(n):
        for _ in range(n):
            repair(ParcelFactory(), clerk)

    add(2)
    with django_assert_max_num_queries(12) as few:
        assert client.get(url(year=2026)).status_code == 200
    add(30)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url(year=2026))
    assert response.context["page"].paginator.num_pages == 2 and len(response.context["page"]) == 25
    assert client.get(url(year=2026, page=2)).context["page"].number == 2


def test_hearings_page_linked_from_the_charges_and_charge_pages(client, clerk, parcel):
    charge = repair(parcel, clerk)
    client.force_login(clerk)
    assert reverse("ledger:hearings") in client.get(reverse("ledger:charges")).content.decode()
    assert reverse("ledger:hearings") in client.get(charge.get_absolute_url()).content.decode()


def test_hearings_page_counts_the_hearings_of_the_rows_shown_in_fixed_queries(
    client, clerk, django_assert_max_num_queries
):
    """Each row's hearings and each recent hearing's charges are counted for the rows shown, with no GROUP
    BY over the year's charges joined to every hearing (nor over every charge of every hearing)."""
    from datetime import date

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from permits.ledger.services import record_hearing

    twice, once = repair(ParcelFactory(), clerk), repair(ParcelFactory(), clerk)
    never = repair(ParcelFactory(), clerk)
    for day in (21, 22):
        record_hearing(
            hearing_on=date(2026, 6, day),
            published_on=date(2026, 6, 1),
            mailed_on=date(2026, 6, 11),
            charges=[twice, once] if day == 21 else [twice],
            by=clerk,
            today=date(2026, 6, day),
        )
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(year=2026, uncovered=0))
    baseline = len(queries.captured_queries)  # read now: each request resets the query log
    counts = {charge.number: charge.hearing_count for charge in response.context["page"]}
    assert counts == {twice.number: 2, once.number: 1, never.number: 0}
    assert [h.charge_count for h in response.context["recent"]] == [1, 2]  # latest first
    joined = 'JOIN "sidewalks_chargehearing_charges"'
    assert not [q["sql"] for q in queries.captured_queries if "GROUP BY" in q["sql"] and joined in q["sql"]]
    uncovered = client.get(url(year=2026)).context["page"]
    assert [(c.number, c.hearing_count) for c in uncovered] == [(never.number, 0)]
    for _ in range(30):
        repair(ParcelFactory(), clerk)
    with django_assert_max_num_queries(baseline):
        assert len(client.get(url(year=2026, uncovered=0)).context["page"]) == 25
