"""A valid street opening with warnings is not refused in red just to tick "I read the warnings": the
acknowledgement is on the first submit."""

import pytest
from django.urls import reverse

from permits.models import Permit, Status
from tests.permits.street_opening.conftest import repaved_in_2023
from tests.permits.street_opening.test_pages import form_data

APPLY = reverse("permits:street_opening_apply")
LABEL = "If this application gets warnings, I have read them and still want to submit"


@pytest.fixture
def repaved(street, clerk):
    """§ 303-5I: the street was repaved within five years, which warns (never refuses) an application."""
    return repaved_in_2023(street, clerk)


def test_the_acknowledgement_is_on_the_form_before_any_submit(spring, client, contractor, contractor_org, bond):
    client.force_login(contractor)
    page = client.get(APPLY).content.decode()
    assert LABEL in page and 'name="acknowledge_warnings"' in page


def test_303_5i_valid_application_with_a_warning_ticked_on_the_first_submit_goes_in(
    spring, client, contractor, contractor_org, street, bond, repaved
):
    client.force_login(contractor)
    first = client.post(APPLY, form_data(street, contractor_org, acknowledge_warnings="on"))
    assert first.status_code == 302
    permit = Permit.objects.get()
    assert permit.status == Status.SUBMITTED
    assert permit.events.filter(reason__contains="Warning at filing").exists()  # kept on the timeline


def test_303_5i_unticked_the_warning_is_a_warning_to_confirm_not_a_red_error(
    spring, client, contractor, contractor_org, street, bond, repaved
):
    client.force_login(contractor)
    page = client.post(APPLY, form_data(street, contractor_org)).content.decode()
    assert not Permit.objects.exists()
    assert 'id="form-warnings"' in page and "Everything else is in order" in page
    assert 'id="form-errors"' not in page  # no red box for a valid application


def test_a_real_error_with_a_warning_still_shows_the_red_box(
    spring, client, contractor, contractor_org, street, bond, repaved
):
    client.force_login(contractor)
    page = client.post(APPLY, form_data(street, contractor_org, method="")).content.decode()
    assert 'id="form-errors"' in page and "§ 303-4B" in page
    assert not Permit.objects.exists()


def test_a_valid_application_without_warnings_needs_no_tick(spring, client, contractor, contractor_org, street, bond):
    client.force_login(contractor)
    assert client.post(APPLY, form_data(street, contractor_org)).status_code == 302


def test_303_4g_a_rule_broken_with_a_warning_points_to_the_warnings_where_they_are(
    spring, client, contractor, contractor_org, street, bond, repaved
):
    """The error summary sits above the warnings: its line about them cannot say "above"."""
    client.force_login(contractor)
    page = client.post(APPLY, form_data(street, contractor_org, insurance_per_person="499999")).content.decode()
    assert 'id="form-errors"' in page and 'id="form-warnings"' in page
    assert page.index('id="form-errors"') < page.index('id="form-warnings"')
    assert "Read the warnings under “Before you submit: warnings” at the top of the form" in page
    assert "warnings above" not in page
    assert not Permit.objects.exists()
