import pytest

from permits.demo import load_demo
from sidewalks import demo as sidewalk_demo
from sidewalks.models import SidewalkInspection, SidewalkOrder, SidewalkPermit, SurveyBlock

pytestmark = pytest.mark.django_db


def counts():
    return [m.objects.count() for m in (SidewalkPermit, SidewalkInspection, SurveyBlock, SidewalkOrder)]


def test_demo_loader_makes_permits_a_survey_and_orders_and_is_idempotent():
    load_demo(password="demo-password-123")
    sidewalk_demo.load()
    first = counts()
    assert first[0] == 2 and first[1] == 2 and first[2] == 14 and first[3] >= 1
    assert SidewalkOrder.objects.filter(work="replace").exists()  # 4 of 5 blocks defective on the first parcel
    sidewalk_demo.load()
    assert counts() == first


def test_demo_has_a_curb_and_gutter_order_and_a_minor_repair_once():
    from sidewalks.models import MinorRepairAuthority, MinorSidewalkRepair

    load_demo(password="demo-password-123")
    sidewalk_demo.load()
    sidewalk_demo.load()
    assert SidewalkOrder.objects.filter(element="curb_gutter", status="proposed").count() == 1
    assert MinorRepairAuthority.objects.get().limit == 100
    assert MinorSidewalkRepair.objects.get().charge.status == "billed"


@pytest.mark.slow
def test_demo_inspections_passed_because_the_permit_was_obtained_three_days_before(db):
    """§ 303-3C in the demo: the half-inspected permit was issued three days before the work the inspector saw."""
    from django.core.management import call_command

    from sidewalks.models import SidewalkInspection

    call_command("load_demo")
    inspections = SidewalkInspection.objects.all()
    assert inspections and all(i.result == "passed" for i in inspections)
