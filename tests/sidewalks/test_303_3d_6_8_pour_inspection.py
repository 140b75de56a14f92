"""§ 303-3D(6) (sawing of joints is prohibited) and § 303-3D(8) (the driveway-approach thickness) on the pour
inspection, from the inspector's phone form, with each failure cited."""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from sidewalks import services
from sidewalks.models import SidewalkInspection
from tests.sidewalks.conftest import GOOD, PASSING, TODAY, at, stand

POUR_DAY = TODAY + timedelta(days=5)


def pour(permit, by, **changes):
    return services.record_inspection(
        permit=permit, stage="pour", by=by, inspected_at=at(POUR_DAY), **{**PASSING["pour"], **changes}
    )


def test_303_3d_6_sawn_joints_fail_the_pour_inspection(issued, inspector):
    inspection = pour(issued, inspector, sawn_joints=True)
    assert inspection.result == "failed"
    assert "§ 303-3D(6)" in inspection.citations and "Sawing of joints is prohibited" in inspection.findings
    assert inspection.sawn_joints is True


def test_303_3d_6_tooled_joints_pass(issued, inspector):
    assert pour(issued, inspector, sawn_joints=False).result == "passed"


def test_303_3d_8_a_residential_driveway_approach_just_below_six_inches_fails(issued, inspector):
    inspection = pour(issued, inspector, driveway_thickness_inches=Decimal("5.99"))
    assert inspection.result == "failed" and "§ 303-3D(8)(a)" in inspection.citations
    assert "driveway approaches" in inspection.findings


def test_303_3d_8_a_residential_driveway_approach_at_six_inches_passes(issued, inspector):
    inspection = pour(issued, inspector, driveway_thickness_inches=Decimal("6"))
    assert inspection.result == "passed" and inspection.driveway_thickness_inches == Decimal("6")


def test_303_3d_8_a_walk_across_a_driveway_must_have_it_measured(issued, inspector):
    measures = {k: v for k, v in PASSING["pour"].items() if k != "driveway_thickness_inches"}
    inspection = services.record_inspection(
        permit=issued, stage="pour", by=inspector, inspected_at=at(POUR_DAY), **measures
    )
    assert inspection.result == "failed" and "§ 303-3D(8)" in inspection.citations


def test_303_3d_8_a_walk_without_a_driveway_needs_no_driveway_measure(contractor, home, clerk, inspector):
    from permits.services import record_payment

    permit = services.apply_for_sidewalk_permit(
        applicant=contractor, parcel=home, today=TODAY, **{**GOOD, "driveway_length_feet": Decimal("0")}
    )
    record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
    permit.refresh_from_db()
    services.issue_sidewalk_permit(permit=stand(permit, clerk), by=clerk, today=TODAY)
    measures = {k: v for k, v in PASSING["pour"].items() if k != "driveway_thickness_inches"}
    assert (
        services.record_inspection(
            permit=permit, stage="pour", by=inspector, inspected_at=at(POUR_DAY), **measures
        ).result
        == "passed"
    )


def test_303_3d_8_b_commercial_driveway_approach_needs_seven_inches(contractor, shop, clerk, inspector):
    from permits.services import record_payment

    permit = services.apply_for_sidewalk_permit(
        applicant=contractor,
        parcel=shop,
        today=TODAY,
        **{**GOOD, "width_feet": Decimal("5"), "thickness_inches": Decimal("5"), "driveway_thickness_inches": 7},
    )
    record_payment(permit=permit, amount=permit.fee_amount, method="cash", by=clerk)
    permit.refresh_from_db()
    services.issue_sidewalk_permit(permit=stand(permit, clerk), by=clerk, today=TODAY)
    thin = pour(permit, inspector, driveway_thickness_inches=Decimal("6.99"))
    assert thin.result == "failed" and "§ 303-3D(8)(b)" in thin.citations
    assert pour(permit, inspector, driveway_thickness_inches=Decimal("7")).result == "passed"


def phone_data(**changes):
    data = {"stage": "pour"}
    for key, value in {**PASSING["pour"], **changes}.items():
        if key in ("sawn_joints", "diagonal_joints"):
            data[key] = "yes" if value else "no"
        elif value is True:
            data[key] = "on"
        elif value is not False:
            data[key] = str(value)
    return data


def test_303_3d_6_and_8_are_asked_on_the_inspectors_phone_form(client, issued, inspector):
    client.force_login(inspector)
    url = reverse("sidewalks:inspect", args=[issued.number])
    with time_machine.travel(datetime(2026, 6, 6, 10, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        page = client.get(url, {"stage": "pour"}).content.decode()
        assert 'name="sawn_joints"' in page and 'name="driveway_thickness_inches"' in page
        assert "§ 303-3D(6)" in page and "§ 303-3D(8)" in page
        response = client.post(url, phone_data(sawn_joints=True, driveway_thickness_inches="5.5"))
    assert response.status_code == 302
    inspection = SidewalkInspection.objects.get(permit=issued)
    assert inspection.result == "failed"
    assert "§ 303-3D(6)" in inspection.citations and "§ 303-3D(8)(a)" in inspection.citations


def test_303_3d_6_the_phone_form_refuses_an_unanswered_sawing_question(client, issued, inspector):
    client.force_login(inspector)
    data = phone_data()
    del data["sawn_joints"]
    with time_machine.travel(datetime(2026, 6, 6, 10, tzinfo=ZoneInfo("America/Chicago")), tick=False):
        response = client.post(reverse("sidewalks:inspect", args=[issued.number]), data)
    assert response.status_code == 400 and not SidewalkInspection.objects.exists()


@pytest.mark.parametrize("role", ["contractor", "clerk", "board_member"])
def test_303_3d_only_the_villages_inspectors_record_the_pour_inspection(request, issued, role):
    with pytest.raises(PermissionDenied):
        pour(issued, request.getfixturevalue(role))
