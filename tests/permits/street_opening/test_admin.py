from datetime import date

import pytest

from permits.street_opening.models import StreetImprovement
from tests.permits.street_opening.conftest import street_improvement

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "model",
    [
        "streetopening",
        "annualbond",
        "streetimprovement",
        "emergencyreport",
        "applicantrevocation",
        "diggersticket",
        "emergencydetermination",
        "moratoriumexception",
        "renewal",
    ],
)
def test_clerk_sees_the_street_opening_records(admin_client, application, model):
    assert admin_client.get(f"/admin/permits/{model}/").status_code == 200


def test_admin_refuses_a_board_decision_less_than_30_days_ahead(admin_client, street):
    response = admin_client.post(
        "/admin/permits/streetimprovement/add/",
        {"street": street.pk, "description": "Repave", "decided_on": "2026-05-04", "work_begins_on": "2026-05-20"},
    )
    assert response.status_code == 200 and "(§ 303-5I)" in response.content.decode()
    assert not StreetImprovement.objects.exists()


def test_admin_action_sends_the_notices(admin_client, street, clerk):
    improvement = street_improvement(street, clerk, decided_on=date(2026, 5, 4), work_begins_on=date(2026, 6, 15))
    admin_client.post(
        "/admin/permits/streetimprovement/", {"action": "send_notices", "_selected_action": [improvement.pk]}
    )
    improvement.refresh_from_db()
    assert improvement.notices_sent_at is not None


def test_no_deletes_of_public_records(admin_client, application):
    response = admin_client.get(f"/admin/permits/streetopening/{application.street_opening.pk}/delete/")
    assert response.status_code == 403


def test_admin_adds_a_board_decision_through_the_service(admin_client, street):
    response = admin_client.post(
        "/admin/permits/streetimprovement/add/",
        {"street": street.pk, "description": "Repave", "decided_on": "2026-05-04", "work_begins_on": "2026-06-15"},
    )
    assert response.status_code == 302
    improvement = StreetImprovement.objects.get()
    assert improvement.recorded_by.is_superuser and improvement.recorded_at


def test_the_back_office_shows_the_signed_undertakings_as_words_not_json(admin_client, application):
    opening = application.street_opening
    opening.statement_undertakings = ["indemnify", "fill_excavations"]
    opening.save(update_fields=["statement_undertakings"])
    page = admin_client.get(f"/admin/permits/streetopening/{opening.pk}/change/").content.decode()
    assert "Undertakings signed (§ 303-4H(1))" in page
    assert "<li>I will indemnify and save harmless the Village of Theresa" in page
    assert "<li>I will fill up and place in good and safe condition" in page
    assert '["indemnify"' not in page and "&quot;indemnify&quot;" not in page
