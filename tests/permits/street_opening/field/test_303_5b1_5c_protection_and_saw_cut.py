"""§ 303-5B(1) barriers, signs, warning lights and no open flame, and § 303-5C the saw-cut rules, recorded at an
inspection: each item missing fails the inspection with its section, and the failure holds completion."""

import pytest
from django.urls import reverse

from permits.street_opening import lifecycle
from permits.street_opening.field import rules as r
from permits.street_opening.field import services as field_work

pytestmark = pytest.mark.django_db

PROTECTED = {"barriers": True, "signs": True, "warning_lights": True, "open_flame": False}
CUT = {
    "surface": "bituminous",
    "saw_cut_straight": True,
    "final_saw_cut": True,
    "damaged_not_recut": False,
    "saw_cut_rectangular": True,
    "saw_cut_aligned": True,
    "vertical_face": None,
}


def _codes(violations):
    return [v.code for v in violations]


def test_303_5b1_a_protected_opening_passes():
    assert r.inspection_violations("protection", PROTECTED) == []


@pytest.mark.parametrize(
    "field, value, code",
    [
        ("barriers", False, "no_barriers"),
        ("signs", False, "no_signs"),
        ("warning_lights", False, "no_warning_lights"),
        ("open_flame", True, "open_flame"),
    ],
)
def test_303_5b1_each_missing_item_fails_with_its_section(field, value, code):
    got = r.inspection_violations("protection", {**PROTECTED, field: value})
    assert _codes(got) == [code]
    assert got[0].citation == "§ 303-5B(1)" and "§ 303-5B(1)" in got[0].message


def test_303_5c_a_neat_cut_passes_and_concrete_needs_its_vertical_face():
    assert r.inspection_violations("saw_cut", CUT) == []
    concrete = {**CUT, "surface": "concrete"}
    assert _codes(r.inspection_violations("saw_cut", {**concrete, "vertical_face": True})) == []
    got = r.inspection_violations("saw_cut", {**concrete, "vertical_face": False})
    assert _codes(got) == ["no_vertical_face"] and got[0].citation == "§ 303-5C(4)"


@pytest.mark.parametrize(
    "field, value, code, citation",
    [
        ("saw_cut_straight", False, "not_straight", "§ 303-5C(1)"),
        ("final_saw_cut", False, "no_final_saw_cut", "§ 303-5C(1)"),
        ("damaged_not_recut", True, "damaged_not_recut", "§ 303-5C(2)"),
        ("saw_cut_rectangular", False, "not_rectangular", "§ 303-5C(2)"),
        ("saw_cut_aligned", False, "not_aligned", "§ 303-5C(3)"),
    ],
)
def test_303_5c_each_saw_cut_rule_fails_with_its_section(field, value, code, citation):
    got = r.inspection_violations("saw_cut", {**CUT, field: value})
    assert _codes(got) == [code]
    assert got[0].citation == citation and citation in got[0].message


def test_303_5b1_a_failed_protection_inspection_is_recorded_and_holds_completion(issued_permit, inspector, contractor):
    failed = field_work.log_inspection(
        permit=issued_permit, kind="protection", by=inspector, values={**PROTECTED, "open_flame": True}
    )
    assert failed.result == "fail" and failed.citations == ["§ 303-5B(1)"] and failed.open_flame is True
    lifecycle.request_completion(permit=issued_permit, by=contractor)
    field_work.log_inspection(permit=issued_permit, kind="final", by=inspector, values={"surface_restored": True})
    assert lifecycle.completion_refusals(issued_permit)
    field_work.log_inspection(permit=issued_permit, kind="protection", by=inspector, values=PROTECTED)
    assert lifecycle.completion_refusals(issued_permit) == []


def test_303_5c_the_saw_cut_takes_the_surface_from_the_application(make_issued, inspector):
    permit = make_issued(surface="concrete", existing_pavement_inches=7)
    values = {k: v for k, v in CUT.items() if k != "surface"}
    inspection = field_work.log_inspection(permit=permit, kind="saw_cut", by=inspector, values=values)
    assert inspection.surface == "concrete" and inspection.result == "fail"
    assert [f["code"] for f in inspection.failures] == ["no_vertical_face"]


def test_303_5c_the_phone_form_records_the_saw_cut(client, inspector, issued_permit):
    client.force_login(inspector)
    url = reverse("permits:field_inspect", args=[issued_permit.number, "saw_cut"])
    assert client.get(url).status_code == 200
    data = {
        "surface": "concrete",
        "saw_cut_straight": "yes",
        "final_saw_cut": "yes",
        "saw_cut_rectangular": "yes",
        "saw_cut_aligned": "no",
    }
    assert client.post(url, data).status_code == 400  # concrete: the vertical face must be answered
    client.post(url, {**data, "vertical_face": "yes"})
    inspection = issued_permit.inspections.get(kind="saw_cut")
    assert inspection.result == "fail" and inspection.citations == ["§ 303-5C(3)"]


def test_303_5b1_the_phone_form_records_barriers_signs_and_lights(client, inspector, issued_permit):
    client.force_login(inspector)
    url = reverse("permits:field_inspect", args=[issued_permit.number, "protection"])
    client.post(url, {"barriers": "yes", "signs": "yes", "warning_lights": "yes"})
    assert issued_permit.inspections.get(kind="protection").result == "pass"
