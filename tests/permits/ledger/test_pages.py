"""Pages: who may see and do what, the public report form, and query counts that do not grow with the rows."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from permits.ledger.models import ChargePayment, SpecialCharge, TaxRollBatch
from permits.ledger.services import mark_delinquent_charges
from sidewalks.models import SnowCase, Snowfall
from sidewalks.snow import services as snow
from tests.factories import ParcelFactory
from tests.permits.ledger.conftest import LATE, make_charge, make_delinquent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


# --- Charges: clerk and owner ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_charges_deep_page_joins_and_annotates_only_its_own_rows(client, clerk):
    """The parcel join and the paid-total subquery ran for every row a deep page skipped; the page's keys
    are read first, then its rows."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    charges = [make_charge(ParcelFactory(), by=clerk) for _ in range(27)]
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("ledger:charges"), {"page": 2})
    assert [c.number for c in response.context["page"]] == [c.number for c in reversed(charges[:2])]
    offset = [q["sql"] for q in queries.captured_queries if "OFFSET" in q["sql"]]
    assert len(offset) == 1 and "JOIN" not in offset[0] and "sidewalks_chargepayment" not in offset[0]


def test_a_charge_search_lists_its_first_pages_then_asks_for_more_words(client, clerk, monkeypatch):
    """A search counts its matches up to SEARCH_PAGES pages (a common surname matched a share of every
    parcel, so counting up to 40 pages grew with the data); the page's rows are read by key, not searched again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from permits import paging
    from permits.paging import SEARCH_PAGES

    monkeypatch.setattr(paging, "PAGE_SIZE", 2)
    brandts = [make_charge(ParcelFactory(owner_name="Olga Brandt"), by=clerk) for _ in range(2 * SEARCH_PAGES + 1)]
    make_charge(ParcelFactory(owner_name="Someone Else"), by=clerk)
    client.force_login(clerk)
    with CaptureQueriesContext(connection) as queries:
        first = client.get(reverse("ledger:charges"), {"q": "brandt"})
    assert first.context["page"].paginator.capped and first.context["page"].paginator.num_pages == SEARCH_PAGES
    assert f"Page 1 of {SEARCH_PAGES}+ (more match: add words, or choose a status)" in first.content.decode()
    rows = [q["sql"] for q in queries.captured_queries if "sidewalks_chargepayment" in q["sql"]]
    assert len(rows) == 1 and "parcel_id" not in rows[0].rsplit("WHERE", 1)[1]  # by key, not searched again
    # Four pages' keys are one short read (paging.FEW_KEYS): no count planned and run beside them.
    assert not any("COUNT(" in q["sql"] for q in queries.captured_queries)
    deepest = client.get(reverse("ledger:charges"), {"q": "brandt", "page": SEARCH_PAGES + 1}).context["page"]
    assert deepest.number == SEARCH_PAGES
    assert [c.number for c in deepest] == [c.number for c in reversed(brandts[1:3])]
    # Without a search, the list counts its pages as far as MAX_PAGES.
    unsearched = client.get(reverse("ledger:charges")).context["page"].paginator
    assert not unsearched.capped and unsearched.count == 2 * SEARCH_PAGES + 2
    # A search with few matches counts them exactly.
    few = client.get(reverse("ledger:charges"), {"q": "someone"}).context["page"].paginator
    assert not few.capped and few.count == 1


def test_clerk_sees_every_charge_with_a_fixed_number_of_queries(client, clerk, django_assert_max_num_queries):
    for _ in range(3):
        make_charge(ParcelFactory(), by=clerk)
    client.force_login(clerk)
    with django_assert_max_num_queries(12) as few:
        assert client.get(reverse("ledger:charges")).status_code == 200
    for _ in range(12):
        make_charge(ParcelFactory(), by=clerk)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(reverse("ledger:charges"))
    assert response.status_code == 200 and b"SC-2026-0015" in response.content


def test_parcel_page_links_work_records_with_fixed_queries(
    client, parcel, dpw_director, clerk, django_assert_max_num_queries
):
    snowfall = snow.record_snowfall(stopped_at=timezone.now() - timedelta(hours=48), by=dpw_director)
    for _ in range(2):
        case = snow.report_snow_case(address=parcel.site_address, by=dpw_director)
        snow.log_village_clearing(case=case, by=dpw_director)
    client.force_login(clerk)
    url = reverse("ledger:parcel_charges", args=[parcel.tax_key])
    with django_assert_max_num_queries(14) as few:
        response = client.get(url)
    assert reverse("sidewalks:snow_case", args=[case.number]).encode() in response.content
    for _ in range(6):
        case = snow.report_snow_case(address=parcel.site_address, by=dpw_director)
        snow.log_village_clearing(case=case, by=dpw_director)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url).status_code == 200
    assert snowfall.cases.count() == 8


def test_resident_sees_own_parcels_charges_only(client, resident, parcel, other_parcel, clerk):
    mine = make_charge(parcel, by=clerk)
    theirs = make_charge(other_parcel, by=clerk)
    client.force_login(resident)
    listing = client.get(reverse("ledger:charges"))
    assert mine.number.encode() in listing.content and theirs.number.encode() not in listing.content
    assert client.get(reverse("ledger:parcel_charges", args=[parcel.tax_key])).status_code == 200
    assert client.get(reverse("ledger:parcel_charges", args=[other_parcel.tax_key])).status_code == 404
    assert client.get(reverse("ledger:charge_detail", args=[mine.number])).status_code == 200
    assert client.get(reverse("ledger:charge_detail", args=[theirs.number])).status_code == 404
    assert client.get(reverse("ledger:charge_bill_pdf", args=[theirs.number])).status_code == 404


def test_owner_can_open_the_snow_case_behind_the_charge(client, resident, parcel, dpw_director):
    snow.record_snowfall(stopped_at=timezone.now() - timedelta(hours=30), by=dpw_director)
    case = snow.report_snow_case(address=parcel.site_address, by=dpw_director)
    snow.log_village_clearing(case=case, by=dpw_director)
    client.force_login(resident)
    response = client.get(reverse("sidewalks:snow_case", args=[case.number]))
    assert response.status_code == 200 and b"Log Village clearing" not in response.content


def test_outsider_gets_404_and_anonymous_goes_to_login(client, outsider, parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    assert client.get(reverse("ledger:charge_detail", args=[charge.number])).status_code == 302
    client.force_login(outsider)
    assert client.get(reverse("ledger:charge_detail", args=[charge.number])).status_code == 404
    assert client.get(reverse("ledger:parcel_charges", args=[parcel.tax_key])).status_code == 404


@pytest.mark.slow
def test_bill_pdf(client, resident, parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    client.force_login(resident)
    response = client.get(reverse("ledger:charge_bill_pdf", args=[charge.number]))
    assert response["Content-Type"] == "application/pdf" and response.content[:5] == b"%PDF-"


def test_clerk_records_payment_on_the_page_and_partial_is_refused(client, clerk, parcel):
    charge = make_charge(parcel, by=clerk)
    client.force_login(clerk)
    url = reverse("ledger:charge_payment", args=[charge.number])
    response = client.post(url, {"amount": "10.00", "method": "cash"})
    assert response.status_code == 400 and "installments" in response.content.decode()
    assert not ChargePayment.objects.exists()
    assert client.post(url, {"amount": "75.00", "method": "cash"}).status_code == 302
    charge.refresh_from_db()
    assert charge.status == SpecialCharge.Status.PAID


def test_resident_cannot_record_a_payment(client, resident, parcel, clerk):
    charge = make_charge(parcel, by=clerk)
    client.force_login(resident)
    response = client.post(
        reverse("ledger:charge_payment", args=[charge.number]), {"amount": "75.00", "method": "cash"}
    )
    assert response.status_code == 403


# --- Tax roll (clerk) ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_clerk_builds_certifies_and_downloads_the_roll(
    client, clerk, parcel, django_capture_on_commit_callbacks, monkeypatch
):
    from theresa_permits.celery import app

    monkeypatch.setitem(
        app.conf, "task_always_eager", True
    )  # the build runs here, not on a worker (see the worker tests)
    charge = make_charge(parcel, by=clerk, today=timezone.localdate() - timedelta(days=60))
    mark_delinquent_charges()
    year = timezone.localdate().year
    client.force_login(clerk)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ledger:tax_roll_build"), {"year": year})
    assert response.status_code == 302
    page = client.get(reverse("ledger:tax_roll", args=[year]))
    assert charge.number.encode() in page.content
    # The draft's PDF is the worker's (it renders once the build commits), never rendered by the download.
    draft_pdf = client.get(reverse("ledger:tax_roll_file", args=[year, "pdf"]))
    assert b"".join(draft_pdf.streaming_content)[:5] == b"%PDF-"
    with django_capture_on_commit_callbacks(execute=True):  # the certified roll's PDF: the worker again
        assert client.post(reverse("ledger:tax_roll_certify", args=[year])).status_code == 302
    assert TaxRollBatch.objects.get(year=year).state == "certified"
    csv_response = client.get(reverse("ledger:tax_roll_file", args=[year, "csv"]))
    body = b"".join(csv_response.streaming_content).decode()
    assert body.startswith("tax_key,owner,source,description,amount,citation")
    assert parcel.tax_key in body
    pdf = client.get(reverse("ledger:tax_roll_file", args=[year, "pdf"]))
    assert b"".join(pdf.streaming_content)[:5] == b"%PDF-"


def test_tax_roll_page_queries_do_not_grow(client, clerk, django_assert_max_num_queries):
    from permits.ledger.tax_roll import build_tax_roll

    for _ in range(2):
        make_delinquent(ParcelFactory(), by=clerk)
    build_tax_roll(year=2026, today=LATE)
    client.force_login(clerk)
    with django_assert_max_num_queries(20) as few:
        client.get(reverse("ledger:tax_roll", args=[2026]))
    for _ in range(8):
        make_delinquent(ParcelFactory(), by=clerk)
    build_tax_roll(year=2026, today=LATE)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(reverse("ledger:tax_roll", args=[2026])).status_code == 200


@pytest.mark.parametrize("persona", ["inspector", "dpw_director", "board_member", "resident"])
def test_only_the_clerk_reaches_the_tax_roll(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("ledger:tax_rolls")).status_code == 403
    assert client.post(reverse("ledger:tax_roll_certify", args=[2026])).status_code == 403


# --- Snow: public form and DPW pages -------------------------------------------------------------------------------


def _answer(client):
    form = client.get(reverse("sidewalks:snow_report")).context["form"]
    return {"challenge": form.initial["challenge"], "answer": sum(form.question)}


def test_anyone_reports_an_uncleared_walk_without_logging_in(client, parcel):
    response = client.post(reverse("sidewalks:snow_report"), {"address": parcel.site_address, **_answer(client)})
    assert response.status_code == 302
    case = SnowCase.objects.get()
    assert case.parcel == parcel and case.reported_via == "public"
    assert case.number.encode() in client.get(response["Location"]).content


def test_wrong_sum_is_refused_with_a_message(client, parcel):
    data = {"address": parcel.site_address, **_answer(client)}
    data["answer"] += 1
    response = client.post(reverse("sidewalks:snow_report"), data)
    assert response.status_code == 400 and b"not the right sum" in response.content
    assert not SnowCase.objects.exists()


def test_honeypot_filled_is_refused(client, parcel):
    data = {"address": parcel.site_address, "website": "http://spam", **_answer(client)}
    assert client.post(reverse("sidewalks:snow_report"), data).status_code == 400
    assert not SnowCase.objects.exists()


def test_public_form_is_rate_limited(client, parcel):
    for _ in range(5):
        data = {"address": parcel.site_address, **_answer(client)}
        assert client.post(reverse("sidewalks:snow_report"), data).status_code == 302
    data = {"address": parcel.site_address, **_answer(client)}
    assert client.post(reverse("sidewalks:snow_report"), data).status_code == 429
    assert SnowCase.objects.count() == 1  # five reports of one walk: one case


def test_dpw_records_snowfall_and_logs_clearing_on_the_pages(client, dpw_director, parcel):
    client.force_login(dpw_director)
    stopped = timezone.localtime() - timedelta(hours=30)
    response = client.post(reverse("sidewalks:snow"), {"snowfall-stopped_at": stopped.strftime("%Y-%m-%dT%H:%M")})
    assert response.status_code == 302 and Snowfall.objects.count() == 1
    response = client.post(reverse("sidewalks:snow"), {"report-address": parcel.site_address})
    case = SnowCase.objects.get()
    assert response["Location"] == case.get_absolute_url()
    too_soon = (stopped + timedelta(hours=23, minutes=59)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("sidewalks:snow_case_clear", args=[case.number]), {"at": too_soon})
    assert response.status_code == 400 and "§ 303-8B" in response.content.decode()
    on_time = (stopped + timedelta(hours=24)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("sidewalks:snow_case_clear", args=[case.number]), {"at": on_time})
    assert response.status_code == 302
    assert SpecialCharge.objects.get().amount == Decimal("75.00")


def test_resident_cannot_log_clearing_on_the_page(client, resident, parcel, dpw_director):
    snow.record_snowfall(stopped_at=timezone.now() - timedelta(hours=30), by=dpw_director)
    case = snow.report_snow_case(address=parcel.site_address)
    client.force_login(resident)
    response = client.post(reverse("sidewalks:snow_case_clear", args=[case.number]), {"at": "2026-01-01T00:00"})
    assert response.status_code == 403
    assert client.get(reverse("sidewalks:snow")).status_code == 403


def test_snow_office_queries_do_not_grow(client, dpw_director, django_assert_max_num_queries):
    snow.record_snowfall(stopped_at=timezone.now() - timedelta(hours=5), by=dpw_director)
    snow.report_snow_case(address=ParcelFactory().site_address)
    client.force_login(dpw_director)
    with django_assert_max_num_queries(15) as few:
        client.get(reverse("sidewalks:snow"))
    for _ in range(10):
        snow.report_snow_case(address=ParcelFactory().site_address)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(reverse("sidewalks:snow")).status_code == 200


@pytest.mark.usefixtures("board_designations")
def test_rubbish_pages(client, inspector, parcel):
    client.force_login(inspector)
    served = timezone.localtime() - timedelta(hours=30)
    response = client.post(
        reverse("sidewalks:rubbish_cases"),
        {
            "tax_key": parcel.tax_key,
            "description": "Gravel spilled",
            "served_to": "Occupant",
            "served_method": "Posted on the door",
            "served_at": served.strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 302
    case_url = response["Location"]
    removed = (served + timedelta(hours=25)).strftime("%Y-%m-%dT%H:%M")
    assert client.post(case_url, {"at": removed, "cost": "90.00"}).status_code == 302
    assert SpecialCharge.objects.get().source == "rubbish"


# --- Back office and hearings ---------------------------------------------------------------------------------------


def test_clerk_sees_charges_read_only_in_the_back_office(client, clerk, parcel):
    charge = make_charge(parcel, by=clerk)
    client.force_login(clerk)
    listing = client.get(reverse("admin:permits_specialcharge_changelist"))
    assert listing.status_code == 200 and charge.number.encode() in listing.content
    assert reverse("ledger:charges").encode() in listing.content
    assert client.get(reverse("admin:permits_specialcharge_add")).status_code == 403
    assert client.post(reverse("admin:permits_specialcharge_delete", args=[charge.pk])).status_code == 403
    assert client.get(reverse("admin:permits_specialcharge_change", args=[charge.pk])).status_code == 200


def test_clerk_records_a_hearing_on_the_charge_page(client, clerk, parcel):
    charge = make_charge(parcel, by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR, citation="§ 303-3B(1)")
    client.force_login(clerk)
    page = client.get(reverse("ledger:charge_detail", args=[charge.number]))
    assert b"cannot be certified to the tax roll yet" in page.content
    response = client.post(
        reverse("ledger:charge_hearing", args=[charge.number]),
        {"hearing_on": "2026-06-21", "published_on": "2026-06-02", "mailed_on": "2026-06-11"},
        follow=True,
    )
    assert (
        "does not allow billing or certification" in response.content.decode()
        and "19 days" in response.content.decode()
    )
    assert charge.hearings.count() == 1


def test_inspector_cannot_record_a_hearing(client, inspector, parcel, clerk):
    charge = make_charge(parcel, by=clerk, source=SpecialCharge.Source.SIDEWALK_REPAIR)
    client.force_login(inspector)
    response = client.post(
        reverse("ledger:charge_hearing", args=[charge.number]),
        {"hearing_on": "2026-06-21", "published_on": "2026-06-01", "mailed_on": "2026-06-11"},
    )
    assert response.status_code == 403


def test_draft_download_leaves_out_a_charge_paid_since_the_build(client, clerk, parcel, other_parcel):
    from permits.ledger.services import record_charge_payment
    from permits.ledger.tax_roll import build_tax_roll

    paid = make_delinquent(parcel, by=clerk)
    kept = make_delinquent(other_parcel, by=clerk)
    build_tax_roll(year=2026, today=LATE)
    record_charge_payment(charge=paid, amount="75.00", method="cash", by=clerk, today=LATE)
    client.force_login(clerk)
    response = client.get(reverse("ledger:tax_roll_file", args=[2026, "csv"]))
    body = response.content.decode()
    assert kept.number in body and paid.number not in body
    assert "draft" in response["Content-Disposition"]
    assert client.get(reverse("ledger:tax_roll_file", args=[2026, "xls"])).status_code == 404


@pytest.mark.slow
@pytest.mark.usefixtures("board_designations")
def test_rubbish_and_snowfall_lists_queries_do_not_grow(client, inspector, dpw_director, django_assert_max_num_queries):
    snowfall = snow.record_snowfall(stopped_at=timezone.now() - timedelta(hours=5), by=dpw_director)

    def add_rows(n):
        for _ in range(n):
            parcel = ParcelFactory()
            snow.serve_rubbish_notice(
                parcel=parcel, description="Dirt", served_to="Occupant", served_method="Mail", by=inspector
            )
            snow.report_snow_case(address=parcel.site_address)

    add_rows(2)
    client.force_login(inspector)
    urls = [reverse("sidewalks:rubbish_cases"), snowfall.get_absolute_url()]
    counts = []
    for url in urls:
        with django_assert_max_num_queries(15) as few:
            assert client.get(url).status_code == 200
        counts.append(len(few.captured_queries))
    add_rows(8)
    for url, count in zip(urls, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert client.get(url).status_code == 200


def test_draft_roll_pdf_is_never_rendered_in_the_request(client, clerk, parcel, monkeypatch):
    """A 10,000-line roll renders for longer than gunicorn's timeout: the worker renders it, the page
    says it is being prepared until then."""
    from permits.ledger import tax_roll

    charge = make_charge(parcel, by=clerk, today=timezone.localdate() - timedelta(days=60))
    mark_delinquent_charges()
    year = timezone.localdate().year
    tax_roll.build_tax_roll(year=year)  # in the test's transaction: the worker's render has not run
    assert TaxRollBatch.objects.get(year=year).lines.filter(charge=charge).exists()
    monkeypatch.setattr(tax_roll, "render_roll_pdf", lambda batch: pytest.fail("rendered in the request"))
    client.force_login(clerk)
    response = client.get(reverse("ledger:tax_roll_file", args=[year, "pdf"]))
    assert response.status_code == 302 and response.url == reverse("ledger:tax_roll", args=[year])
    page = client.get(response.url)
    assert b"being prepared" in page.content


def test_back_office_charges_list_reads_no_distinct_over_every_charge(
    client, clerk, parcel, django_assert_max_num_queries
):
    """The year links of a date hierarchy were a DISTINCT over the whole ledger on every page; the list is
    narrowed by its "incurred" date filter instead, in queries that do not grow with the charges."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    charge = make_charge(parcel, by=clerk)
    client.force_login(clerk)
    url = reverse("admin:permits_specialcharge_changelist")
    with django_assert_max_num_queries(15) as few:
        assert client.get(url).status_code == 200
    for _ in range(3):
        make_charge(parcel, by=clerk)
    with CaptureQueriesContext(connection) as queries:
        listing = client.get(url)
    assert len(queries.captured_queries) <= len(few.captured_queries)
    assert not [q["sql"] for q in queries.captured_queries if "DISTINCT" in q["sql"]]
    day = charge.incurred_on.isoformat()
    narrowed = client.get(url, {"incurred_on__gte": day, "incurred_on__lt": "2999-01-01"})
    assert narrowed.status_code == 200 and charge.number.encode() in narrowed.content
    assert listing.status_code == 200
