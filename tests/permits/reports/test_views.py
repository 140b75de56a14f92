"""The reports' pages, CSVs and PDFs: who reads them, what they download, bad filters, and a constant query count."""

import csv
import io
from datetime import date, timedelta

import pytest
from django.urls import reverse

from permits.ledger.models import SpecialCharge
from permits.reports import rules
from permits.street_opening.field.models import Inspection
from tests.factories import PermitFactory
from tests.permits.reports.conftest import TODAY, at, charge, issued_permit, paid_charge, paid_permit

pytestmark = pytest.mark.django_db
SLUGS = list(rules.REPORT_SLUGS)


def _get(client, user, name, slug, **params):
    client.force_login(user)
    return client.get(reverse(name, args=[slug]), params)


# --- who reads which report --------------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["clerk", "board_member", "president"])
@pytest.mark.parametrize("slug", SLUGS)
def test_the_clerk_and_the_board_read_every_report_and_its_files(request, client, persona, slug):
    user = request.getfixturevalue(persona)
    for name in ("reports:report", "reports:csv"):
        assert _get(client, user, name, slug).status_code == 200


@pytest.mark.parametrize("persona", ["dpw_director", "inspector"])
def test_the_dpw_reads_the_inspections_report(request, client, persona):
    user = request.getfixturevalue(persona)
    assert _get(client, user, "reports:report", "inspections").status_code == 200
    assert _get(client, user, "reports:csv", "inspections").status_code == 200


@pytest.mark.parametrize("persona", ["dpw_director", "inspector"])
@pytest.mark.parametrize("slug", [s for s in SLUGS if s != "inspections"])
def test_the_dpw_may_not_read_the_money_and_case_reports(request, client, persona, slug):
    user = request.getfixturevalue(persona)
    for name in ("reports:report", "reports:csv", "reports:pdf"):
        response = _get(client, user, name, slug)
        assert response.status_code == 403


@pytest.mark.parametrize(
    "persona", ["resident", "outsider", "contractor", "contractor_staff", "building_inspector", "police_chief"]
)
@pytest.mark.parametrize("slug", SLUGS)
def test_applicants_and_other_staff_may_not_read_a_report(request, client, persona, slug):
    user = request.getfixturevalue(persona)
    for name in ("reports:report", "reports:csv", "reports:pdf"):
        assert _get(client, user, name, slug).status_code == 403
    assert client.get(reverse("reports:index")).status_code == 403


def test_a_visitor_not_logged_in_is_sent_to_log_in(client):
    response = client.get(reverse("reports:report", args=["fees"]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_an_unknown_report_is_not_found(client, clerk):
    assert _get(client, clerk, "reports:report", "salaries").status_code == 404


def test_the_reports_page_lists_what_the_role_may_read(client, clerk, inspector):
    client.force_login(clerk)
    page = client.get(reverse("reports:index")).content.decode()
    assert all(reverse("reports:report", args=[s]) in page for s in SLUGS)
    client.force_login(inspector)
    page = client.get(reverse("reports:index")).content.decode()
    assert reverse("reports:report", args=["inspections"]) in page
    assert reverse("reports:report", args=["fees"]) not in page


def test_the_navigation_links_the_reports_for_readers_only(
    client, clerk, board_member, inspector, resident, police_chief
):
    link = f'href="{reverse("reports:index")}"'
    for user, shown in [
        (clerk, True),
        (board_member, True),
        (inspector, True),
        (resident, False),
        (police_chief, False),
    ]:
        client.force_login(user)
        assert (link in client.get(reverse("permits:my_applications")).content.decode()) is shown, user


# --- what the page and the files show ----------------------------------------------------------------------------


def test_fees_page_shows_the_chart_with_its_text_and_the_table(client, clerk):
    paid_permit(clerk, "50.00", at(date(2026, 3, 2)))
    page = _get(client, clerk, "reports:report", "fees", year="2026").content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and 'role="img"' in page
    assert '<title id="chart-title">Collected per month, 2026</title>' in page
    assert "Collected: $50.00 in all, most in Mar ($50.00)" in page
    assert '<th scope="row">Street opening or excavation</th>' in page


def test_fees_csv_has_a_filename_and_plain_numbers(client, clerk):
    paid_permit(clerk, "1250.00", at(date(2026, 3, 2)))
    paid_charge(clerk, "75.00", at(date(2026, 4, 1)))
    response = _get(client, clerk, "reports:csv", "fees", year="2026")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="theresa-fees-2026.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1][0] == "Fee item" and rows[1][-1] == "Total"
    assert rows[-1] == ["All fee items", "0.00", "0.00", "1250.00", "75.00", *["0.00"] * 8, "2", "1325.00"]


def test_permits_csv_narrowed_to_a_type_says_so_in_its_name(client, board_member):
    PermitFactory(kind="sidewalk")
    response = _get(client, board_member, "reports:csv", "permits", year="2026", kind="sidewalk")
    assert response["Content-Disposition"] == (
        'attachment; filename="theresa-permits-2026-sidewalk-construction-or-repair.csv"'
    )
    assert "Sidewalk construction or repair: Draft" in response.content.decode()


def test_time_to_issue_table_shows_the_median_and_the_bands(client, president):
    for days in (2, 9, 40):
        issued_permit(submitted=at(date(2026, 5, 1)), issued_on=date(2026, 5, 1) + timedelta(days=days))
    rows = list(csv.reader(io.StringIO(_get(client, president, "reports:csv", "time-to-issue").content.decode())))
    assert rows[1] == [
        "Type",
        "Issued",
        "Median days",
        "Mean days",
        "Longest",
        "0–7 days",
        "8–14 days",
        "15–30 days",
        "31–60 days",
        "61+ days",
    ]
    assert rows[2] == ["Street opening or excavation", "3", "9", "17.0", "40", "1", "1", "0", "1", "0"]


def test_open_cases_page_counts_today_by_age(client, clerk):
    charge(billed_on=TODAY - timedelta(days=30))
    charge(billed_on=TODAY - timedelta(days=31), status=SpecialCharge.Status.DELINQUENT)
    rows = list(csv.reader(io.StringIO(_get(client, clerk, "reports:csv", "open-cases").content.decode())))
    assert ["Special charges unpaid (Wis. Stat. § 66.0627)", "1", "1", "0", "0", "2", "150.00"] in rows


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_every_report_downloads_as_a_pdf(client, clerk, slug):
    paid_permit(clerk, "50.00", at(date(2026, 3, 2)))
    response = _get(client, clerk, "reports:pdf", slug)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert response["Content-Disposition"].startswith(f'attachment; filename="theresa-{slug}-')


# --- bad filters: a message naming the field and the rule, no report -----------------------------------------------


@pytest.mark.parametrize(
    ("year", "message"),
    [
        ("2019", "Year: the reports cover 2020 through 2026; 2019 is outside them."),
        ("2027", "Year: the reports cover 2020 through 2026; 2027 is outside them."),
        ("twenty", "Year: enter the year as a number, e.g. 2026."),
    ],
)
def test_a_year_outside_the_records_is_refused_by_name(client, clerk, year, message):
    response = _get(client, clerk, "reports:report", "fees", year=year)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert "Download CSV" not in page
    csv_response = _get(client, clerk, "reports:csv", "fees", year=year)
    assert csv_response.status_code == 400 and message in csv_response.content.decode()


def test_the_first_year_and_this_year_are_accepted(client, clerk):
    assert _get(client, clerk, "reports:report", "fees", year=str(rules.FIRST_YEAR)).status_code == 200
    assert _get(client, clerk, "reports:report", "fees", year=str(TODAY.year)).status_code == 200


def test_an_unknown_permit_type_is_refused_by_name(client, clerk):
    response = _get(client, clerk, "reports:report", "permits", year="2026", kind="hot_dog_stand")
    assert response.status_code == 400
    assert "Permit type: choose one of the types listed (or all types)." in response.content.decode()


def test_inspections_may_be_narrowed_to_the_inspected_types_only(client, clerk):
    assert _get(client, clerk, "reports:report", "inspections", kind="sidewalk").status_code == 200
    assert _get(client, clerk, "reports:report", "inspections", kind="street_use").status_code == 400


# --- the query count does not grow with the records ---------------------------------------------------------------


def _world(clerk, inspector, n):
    for i in range(n):
        day = date(2026, 1 + i % 12, 1 + i % 27)
        paid_permit(clerk, "50.00", at(day), fee_code=f"fee_{i % 5}")
        paid_charge(clerk, "75.00", at(day))
        permit = issued_permit(submitted=at(day), issued_on=day + timedelta(days=i % 70))
        Inspection.objects.create(permit=permit, kind="backfill", inspector=inspector, at=at(day), result="pass")
        charge(billed_on=TODAY - timedelta(days=i * 7))


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_a_report_costs_the_same_queries_for_one_record_and_for_forty(
    client, clerk, inspector, slug, django_assert_max_num_queries
):
    client.force_login(clerk)
    url = reverse("reports:report", args=[slug])
    _world(clerk, inspector, 1)
    client.get(url)  # warm the session and the user's roles
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    _world(clerk, inspector, 39)
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert client.get(url).status_code == 200
    assert len(one.captured_queries) <= 8


def test_a_fee_item_named_like_a_formula_is_text_in_the_csv(client, clerk):
    from tests.factories import FeeItemFactory

    FeeItemFactory(code="odd_fee", name='=HYPERLINK("http://example.com")', effective_from=date(2020, 1, 1))
    paid_permit(clerk, "5.00", at(date(2026, 2, 2)), fee_code="odd_fee")
    rows = list(csv.reader(io.StringIO(_get(client, clerk, "reports:csv", "fees").content.decode())))
    assert rows[2][0] == '\'=HYPERLINK("http://example.com")'
    assert rows[2][2] == "5.00"  # numbers stay numbers


def test_tax_roll_report_says_whether_the_roll_is_certified(client, clerk):
    from django.utils import timezone

    from permits.ledger.models import TaxRollBatch

    page = _get(client, clerk, "reports:report", "tax-roll", year="2026").content.decode()
    assert "No special-charges roll has been built for 2026 yet." in page
    TaxRollBatch.objects.create(year=2026)
    page = _get(client, clerk, "reports:report", "tax-roll", year="2026").content.decode()
    assert "Draft: not certified yet (Wis. Stat. § 70.65)" in page
    TaxRollBatch.objects.filter(year=2026).update(
        state="certified", certified_by=clerk, certified_at=timezone.now(), transferred_on=date(2026, 12, 1)
    )
    page = _get(client, clerk, "reports:report", "tax-roll", year="2026").content.decode()
    assert "Certified on December 1, 2026, transferred to the treasurer on December 1, 2026." in page
