"""Boundaries of the input limits (permits.input_limits, OWASP ASVS V5.1.4): dates within 10 years of today, text
lengths, coordinates, integers within their column, JSON bodies of bounded depth, query strings without NUL."""

import json
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.test import Client
from rest_framework.exceptions import ParseError

from permits.api.parsers import MAX_DEPTH, JSONObjectParser
from permits.input_limits import date_window, plausible_year, posted_ids
from permits.middleware import field_with_nul, without_nul
from permits.models import ApplicationDraft, Status
from permits.street_opening.forms import StreetOpeningForm
from sidewalks.forms import BlockForm, SidewalkApplicationForm
from tests.hostile.conftest import api, web
from tests.hostile.test_corpus import SO_API, SW_API, SW_BODY, post_json
from tests.permits.street_opening.test_api import body as so_body

TODAY = date(2026, 5, 4)  # the `spring` fixture's day
EARLIEST, LATEST = date_window(TODAY)


def test_the_window_is_ten_years_each_way():
    assert (EARLIEST, LATEST) == (date(2016, 5, 4), date(2036, 5, 4))
    assert date_window(date(2028, 2, 29)) == (date(2018, 2, 28), date(2038, 2, 28))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2026", 2026),
        ("2016", 2016),
        ("2036", 2036),
        ("2015", None),
        ("2037", None),
        ("-1", None),
        ("0", None),
        ("99999", None),
        ("abc", None),
        ("", None),
        (None, None),
        (" 2030 ", 2030),
    ],
)
def test_plausible_year_for_year_query_parameters(raw, expected):
    assert plausible_year(raw, today=TODAY) == expected


def errors_by_field(response) -> dict:
    return {e["field"]: e["message"] for e in response.json()["errors"]}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("day", "ok"),
    [(LATEST, True), (LATEST + timedelta(days=1), False), (EARLIEST, True), (EARLIEST - timedelta(days=1), False)],
)
def test_api_date_window_boundaries_name_the_field(spring, street, bond, contractor, day, ok):
    response = post_json(api(contractor), SO_API, so_body(insurance_expires=day.isoformat()))
    messages = errors_by_field(response) if response.status_code == 400 else {}
    if ok:
        assert "insurance_expires" not in messages or "10 years" not in messages["insurance_expires"]
    else:
        assert response.status_code == 400
        assert messages["insurance_expires"].startswith(
            "insurance_expires: give a date between May 4, 2016 and May 4, 2036"
        )


@pytest.mark.django_db
@pytest.mark.parametrize(("day", "ok"), [(LATEST, True), (LATEST + timedelta(days=1), False)])
def test_sidewalk_form_pour_date_window_names_the_field(spring, home, resident, day, ok):
    form = SidewalkApplicationForm({**SW_BODY, "pour_date": day.isoformat()}, user=resident, today=TODAY)
    form.is_valid()
    if ok:
        assert "10 years" not in " ".join(form.errors.get("pour_date", []))
    else:
        assert form.errors["pour_date"] == [
            "Planned pour date: give a date between May 4, 2016 and May 4, 2036 (no date more than 10 years from "
            "today is plausible, OWASP ASVS V5.1.4)"
        ]


@pytest.mark.django_db
@pytest.mark.parametrize(("length", "ok"), [(2000, True), (2001, False)])
def test_description_of_at_most_2000_characters_on_the_form(spring, street, contractor, length, ok):
    form = StreetOpeningForm({"work_description": "x" * length, "method": "y" * length}, user=contractor)
    form.is_valid()
    if ok:
        assert "work_description" not in form.errors and "method" not in form.errors
    else:
        assert form.errors["work_description"] == [
            f"Nature of the work: at most 2,000 characters ({length} given, OWASP ASVS V5.1.4)"
        ]
        assert form.errors["method"][0].startswith("Method of the work: at most 2,000 characters")


@pytest.mark.django_db
@pytest.mark.parametrize(("length", "ok"), [(2000, True), (2001, False)])
def test_description_of_at_most_2000_characters_in_the_api(spring, street, bond, contractor, length, ok):
    response = post_json(api(contractor), SO_API, so_body(work_description="x" * length))
    if ok:
        assert response.status_code == 201, response.json()
    else:
        assert response.status_code == 400 and "work_description" in errors_by_field(response)


@pytest.mark.django_db
def test_sidewalk_api_work_description_over_2000_is_refused(spring, home, resident):
    response = post_json(api(resident), SW_API, {**SW_BODY, "work_description": "x" * 2001})
    assert response.status_code == 400 and "work_description" in errors_by_field(response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "ok"),
    [
        ("map_latitude", "90", True),
        ("map_latitude", "90.000001", False),
        ("map_latitude", "-90", True),
        ("map_longitude", "180", True),
        ("map_longitude", "-180.000001", False),
        ("map_longitude", "-88.6", True),
    ],
)
def test_map_point_within_the_globe(spring, street, contractor, field, value, ok):
    form = StreetOpeningForm({field: value}, user=contractor)
    form.is_valid()
    assert (field not in form.errors) is ok


@pytest.mark.django_db
@pytest.mark.parametrize(("value", "ok"), [("32767", True), ("32768", False), ("0", False)])
def test_survey_block_number_fits_its_smallint_column(street, value, ok):
    form = BlockForm({"block_number": value}, street=street)
    form.is_valid()
    assert ("block_number" not in form.errors) is ok


@pytest.mark.django_db
@pytest.mark.parametrize(("value", "ok"), [("2147483647", True), ("2147483648", False)])
def test_sidewalk_concrete_psi_fits_its_integer_column(spring, home, resident, value, ok):
    form = SidewalkApplicationForm({**SW_BODY, "concrete_psi": value}, user=resident, today=TODAY)
    form.is_valid()
    assert ("concrete_psi" not in form.errors) is ok
    response = post_json(api(resident), SW_API, {**SW_BODY, "concrete_psi": int(value)})
    assert ("concrete_psi" not in errors_by_field(response) if response.status_code == 400 else True) is ok


def nested(levels: int) -> bytes:
    return json.dumps({"a": json.loads("[" * (levels - 1) + "]" * (levels - 1))}).encode()


def parse(raw: bytes):
    import io

    return JSONObjectParser().parse(io.BytesIO(raw), "application/json", {})


def test_json_body_depth_boundary():
    assert parse(nested(MAX_DEPTH))["a"] is not None
    with pytest.raises(ParseError, match="nested too deeply"):
        parse(nested(MAX_DEPTH + 1))
    with pytest.raises(ParseError, match="nested too deeply"):
        parse(b"[" * 100_000 + b"]" * 100_000)


@pytest.mark.parametrize(
    ("raw", "kind"), [(b"[]", "a list"), (b'"x"', "a string"), (b"4", "a number"), (b"null", "null")]
)
def test_json_body_must_be_an_object(raw, kind):
    with pytest.raises(ParseError, match=f"one JSON object .* not {kind} "):
        parse(raw)


def test_nul_is_dropped_from_query_strings_only_where_present():
    query = QueryDict("q=a%00b&status=sub%00mitted&status=x&k%00=1")
    clean = without_nul(query)
    assert clean.getlist("status") == ["submitted", "x"] and clean["q"] == "ab" and clean["k"] == "1"
    plain = QueryDict("q=ab")
    assert without_nul(plain) is plain


@pytest.mark.django_db
@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_inspection_notice_and_order_date_fields_refuse_the_years_9999_and_1(spring, day):
    from permits.street_opening.field.forms import TemporaryPavementForm, VillageRepairForm
    from permits.street_opening.forms import TicketForm
    from sidewalks.forms import ServeForm, VillageWorkForm

    cases = [
        (TemporaryPavementForm({"placed_on": day}), "placed_on", "Temporary surface placed on: give a date"),
        (VillageRepairForm({"repaired_on": day}), "repaired_on", "Village repaired on: give a date"),
        (TicketForm({"number": "1", "requested_at": f"{day}T23:59"}), "requested_at", "Time the locate was requested"),
        (ServeForm({"method": "personal", "served_on": day}), "served_on", "Date of service: give a date"),
        (VillageWorkForm({"cost": "10", "done_on": day}), "done_on", "Work done on: give a date"),
    ]
    for form, field, message in cases:
        assert not form.is_valid()
        assert form.errors[field][0].startswith(message), (field, form.errors[field])


@pytest.mark.parametrize(
    ("values", "ids"),
    [(["1", " 7 "], [1, 7]), (["2147483647"], [2147483647]), ([], [])],
)
def test_posted_ids_within_the_id_column(values, ids):
    assert posted_ids(values, "order") == ids


@pytest.mark.parametrize("bad", ["2147483648", "1" + "0" * 20, "abc", "0", "-1", "", "1.5", "\u0661"])
def test_posted_ids_refuse_what_is_not_an_id_naming_the_field(bad):
    with pytest.raises(ValidationError) as refused:
        posted_ids(["1", bad], "order")
    assert refused.value.violations[0].field == "order"
    assert refused.value.messages[0].startswith("order: ")


def test_field_with_nul_names_the_first_such_field():
    assert field_with_nul(QueryDict("a=1&reason=x%00y&b=%00")) == "reason"
    assert field_with_nul(QueryDict("a%00b=1")) == "a\\x00b"
    assert field_with_nul(QueryDict("a=1&b=2")) is None


@pytest.mark.django_db
def test_nul_in_a_posted_reason_is_a_400_naming_it_and_nothing_changes(spring, street, contractor):
    from tests.permits.conftest import permit_in

    permit = permit_in(Status.SUBMITTED, applicant=contractor)
    response = web(contractor).post(f"/permits/{permit.number}/withdraw/", {"confirm": "yes", "reason": "a\x00b"})
    assert response.status_code == 400
    assert "reason: contains a NUL character" in response.content.decode()
    permit.refresh_from_db()
    assert permit.status == Status.SUBMITTED


@pytest.mark.django_db
@pytest.mark.parametrize(("length", "ok"), [(2000, True), (2001, False)])
def test_a_draft_field_over_2000_characters_is_refused_by_name(spring, street, contractor, length, ok):
    body = {"save_draft": "1", "location_description": "x" * length}
    response = web(contractor).post("/street-openings/apply/", body)
    assert ApplicationDraft.objects.filter(applicant=contractor).exists() == ok
    if not ok:
        assert response.status_code == 400
        assert "location_description: at most 2,000 characters (2001 given" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("length", "refused"), [(254, False), (255, True), (200_000, True)])
def test_login_box_holds_at_most_254_characters(settings, length, refused):
    settings.AXES_ENABLED = True  # axes stores what was typed on a failure, in a 255-character column
    response = Client().post("/accounts/login/", {"login": "u" * length, "password": "wrong"})
    assert response.status_code < 500
    errors = response.context["form"].errors
    assert ("login" in errors and "at most 254 characters" in errors["login"][0]) == refused


@pytest.mark.django_db
def test_a_choice_of_records_refuses_an_id_past_the_column():
    from permits.board.forms import AttendanceForm
    from permits.board.models import Term

    form = AttendanceForm({"present": ["1" + "0" * 20]}, seated=Term.objects.all())
    assert not form.is_valid() and "present" in form.errors


@pytest.mark.parametrize(("lift", "ok"), [("0.01", True), ("0", False)])
def test_compaction_lift_of_0_inches_is_refused_on_the_form_not_by_the_column(lift, ok):
    from permits.street_opening.field.forms import CompactionForm

    form = CompactionForm({"lift_inches": lift, "compaction_percent": "95", "mechanical": "on"})
    assert form.is_valid() == ok, form.errors
    assert ("lift_inches" in form.errors) != ok
