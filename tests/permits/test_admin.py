"""The back office never goes around the workflow: status is read-only, actions call transition()."""

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

from permits.models import Permit, Status
from tests.permits.conftest import permit_in

pytestmark = pytest.mark.django_db


def test_status_and_audit_fields_are_read_only_in_the_admin():
    admin = site._registry[Permit]
    for field in (
        "number",
        "status",
        "fee_amount",
        "approved_on",
        "issued_on",
        "submitted_at",
    ):
        assert field in admin.readonly_fields


def test_posting_a_status_to_the_change_form_does_not_change_it(client, clerk, resident):
    permit = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(clerk)
    url = reverse("admin:permits_permit_change", args=[permit.pk])
    page = client.get(url)
    form = page.context["adminform"].form
    data = {name: (form[name].value() or "") for name in form.fields}
    for inline in page.context["inline_admin_formsets"]:
        fs = inline.formset
        data.update(
            {
                f"{fs.prefix}-TOTAL_FORMS": fs.total_form_count(),
                f"{fs.prefix}-INITIAL_FORMS": fs.initial_form_count(),
                f"{fs.prefix}-MIN_NUM_FORMS": 0,
                f"{fs.prefix}-MAX_NUM_FORMS": 1000,
            }
        )
        for i, f in enumerate(fs.forms):
            data[f"{fs.prefix}-{i}-id"] = f.instance.pk
            data[f"{fs.prefix}-{i}-permit"] = permit.pk
    data.update({"status": "approved", "fee_amount": "0.01", "location_description": "Moved"})
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    permit.refresh_from_db()
    assert permit.status == Status.SUBMITTED
    assert permit.location_description == "Moved"
    assert permit.history.count() >= 2  # django-simple-history keeps the field-level change


def test_admin_cannot_add_or_delete_permits(client, clerk, resident):
    permit = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(clerk)
    assert client.get(reverse("admin:permits_permit_add")).status_code == 403
    assert client.get(reverse("admin:permits_permit_delete", args=[permit.pk])).status_code == 403


def test_bulk_action_goes_through_the_workflow(client, clerk, resident):
    ok = permit_in(Status.APPROVED, applicant=resident)
    not_ready = permit_in(Status.SUBMITTED, applicant=resident)
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_permit_changelist"),
        {"action": "mark_issued", "_selected_action": [ok.pk, not_ready.pk]},
        follow=True,
    )
    html = response.content.decode()
    assert "1 permit(s) marked issued." in html
    assert "cannot become issued" in html
    assert Permit.objects.get(pk=ok.pk).status == Status.ISSUED
    assert Permit.objects.get(pk=not_ready.pk).status == Status.SUBMITTED
    assert ok.events.get(to_status=Status.ISSUED).actor == clerk


def test_bulk_issue_by_someone_without_authority_changes_nothing(client, dpw_director, resident):
    permit = permit_in(Status.APPROVED, applicant=resident)
    client.force_login(dpw_director)
    response = client.post(
        reverse("admin:permits_permit_changelist"),
        {"action": "mark_issued", "_selected_action": [permit.pk]},
        follow=True,
    )
    assert "You may not mark" in response.content.decode()
    assert Permit.objects.get(pk=permit.pk).status == Status.APPROVED


@pytest.mark.parametrize("who", ["clerk", "dpw_director", "police_chief"])
def test_change_status_page_offers_only_what_the_role_may_do(who, persona, client, resident):
    permit = permit_in(Status.UNDER_REVIEW, applicant=resident)
    client.force_login(persona(who))
    response = client.get(reverse("admin:permits_permit_status", args=[permit.pk]))
    offered = {value for value, _ in response.context["form"].fields["to"].choices}
    expected = {
        "clerk": {"approved", "denied", "withdrawn"},
        "dpw_director": {"approved", "denied"},
        "police_chief": set(),
    }[who]
    assert offered == expected


def test_change_status_page_records_the_reason(client, clerk, resident):
    permit = permit_in(Status.UNDER_REVIEW, applicant=resident)
    client.force_login(clerk)
    response = client.post(
        reverse("admin:permits_permit_status", args=[permit.pk]),
        {"to": "approved", "reason": "Bond on file"},
    )
    assert response.status_code == 302
    event = Permit.objects.get(pk=permit.pk).events.get(to_status=Status.APPROVED)
    assert event.actor == clerk and event.reason == "Bond on file"


@pytest.mark.parametrize("who", ["resident", "contractor"])
def test_public_users_cannot_reach_the_admin_status_page(who, persona, client, resident):
    permit = permit_in(Status.UNDER_REVIEW, applicant=resident)
    client.force_login(persona(who))
    response = client.post(reverse("admin:permits_permit_status", args=[permit.pk]), {"to": "withdrawn"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Permit.objects.get(pk=permit.pk).status == Status.UNDER_REVIEW


def test_admin_permit_list_reads_a_deep_page_keys_first_and_keeps_sorting(client, clerk, resident, settings):
    """The changelist's OFFSET walks the permits' keys only; the paid-total subquery and the joins run for the page's
    rows alone, not for every row the OFFSET skips. Sorting by a column still orders the page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    permits = [permit_in(Status.SUBMITTED, applicant=resident) for _ in range(5)]
    admin = site._registry[Permit]
    admin.list_per_page, per_page = 2, admin.list_per_page
    try:
        client.force_login(clerk)
        url = reverse("admin:permits_permit_changelist")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"p": 3})
        assert response.status_code == 200 and len(response.context["cl"].result_list) == 1
        offset = [q["sql"] for q in queries.captured_queries if "OFFSET" in q["sql"]]
        assert offset and not [sql for sql in offset if "permits_payment" in sql or "JOIN" in sql]
        ordered = client.get(url, {"o": "1"})  # by number, ascending
        numbers = [p.number for p in ordered.context["cl"].result_list]
        assert numbers == sorted(p.number for p in permits)[:2]
        descending = client.get(url, {"o": "-1", "p": "2"})
        assert [p.number for p in descending.context["cl"].result_list] == sorted(
            (p.number for p in permits), reverse=True
        )[2:4]
        assert all(hasattr(p, "paid_total") for p in descending.context["cl"].result_list)
    finally:
        admin.list_per_page = per_page
