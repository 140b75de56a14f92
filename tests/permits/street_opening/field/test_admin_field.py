import datetime
from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import timezone

from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import DefectNotice
from tests.permits.street_opening.conftest import complete_work
from tests.permits.street_opening.field.conftest import record_defect

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]


@pytest.fixture
def field_records(issued_permit, inspector, contractor, dpw_director):
    field_work.log_inspection(
        permit=issued_permit,
        kind="compaction",
        by=inspector,
        values={"lift_inches": D("12"), "compaction_percent": D("96")},
    )
    today = timezone.localdate()
    complete_work(issued_permit, permittee=contractor, today=today - datetime.timedelta(days=10))
    return record_defect(issued_permit, dpw_director, deadline=today + datetime.timedelta(days=30), served_on=today)


@pytest.mark.parametrize("model", ["inspection", "permitteenotice", "pavementrestoration", "guarantee", "defectnotice"])
def test_admin_lists_field_records_read_only(admin_client, field_records, model):
    response = admin_client.get(reverse(f"admin:permits_{model}_changelist"))
    assert response.status_code == 200
    assert admin_client.get(reverse(f"admin:permits_{model}_add")).status_code == 403


def test_admin_action_marks_a_defect_corrected_through_the_service(admin_client, field_records):
    response = admin_client.post(
        reverse("admin:permits_defectnotice_changelist"),
        {"action": "mark_corrected_today", "_selected_action": [field_records.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert DefectNotice.objects.get().corrected_on is not None
