"""The field pages: who may open them, the forms, and fixed query counts on the inspector's list."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from permits.models import Status
from permits.paging import PAGE_SIZE
from permits.street_opening.field import services as field_work
from permits.street_opening.field.models import Guarantee, Inspection, PermitteeNotice
from tests.permits.street_opening.conftest import complete_work
from tests.permits.street_opening.field.conftest import board_finds_defect
from tests.upload_samples import PNG

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]


def _list_url():
    return reverse("permits:field_inspections")


def test_inspector_sees_issued_permits_to_inspect(client, inspector, issued_permit):
    client.force_login(inspector)
    response = client.get(_list_url())
    assert response.status_code == 200
    assert issued_permit.number in response.content.decode()


@pytest.mark.parametrize("persona", ["contractor", "outsider", "clerk"])
def test_others_cannot_open_the_inspectors_list(client, persona, request):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(_list_url()).status_code == 403


def test_inspector_list_query_count_does_not_grow_with_rows(
    client, inspector, make_issued, django_assert_max_num_queries
):
    make_issued()
    client.force_login(inspector)
    client.get(_list_url())  # warm the session and role caches
    with django_assert_max_num_queries(12) as few:
        client.get(_list_url())
    for _ in range(8):
        make_issued()
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(_list_url())
    assert response.content.decode().count("Inspect SO-") == 9


@pytest.mark.slow
def test_inspector_list_is_paginated(client, inspector, make_issued):
    for _ in range(PAGE_SIZE + 1):
        make_issued()
    client.force_login(inspector)
    page1 = client.get(_list_url()).content.decode()
    page2 = client.get(_list_url() + "?page=2").content.decode()
    assert page1.count("Inspect SO-") == PAGE_SIZE and page2.count("Inspect SO-") == 1
    assert "Page 1 of 2" in page1


def _inspect_url(permit, kind="compaction"):
    return reverse("permits:field_inspect", args=[permit.number, kind])


def test_inspector_logs_a_failing_compaction_and_sees_the_section(client, inspector, issued_permit):
    client.force_login(inspector)
    assert client.get(_inspect_url(issued_permit)).status_code == 200
    response = client.post(
        _inspect_url(issued_permit),
        {"lift_inches": "12", "compaction_percent": "94.9", "mechanical": "on"},
        follow=True,
    )
    page = response.content.decode()
    assert "FAILED" in page and "§ 303-5E(4)" in page and "§ 303-5E(5)" in page
    inspection = Inspection.objects.get()
    assert inspection.result == "fail" and str(inspection.compaction_percent) == "94.9"


def test_inspector_logs_a_passing_compaction(client, inspector, issued_permit):
    client.force_login(inspector)
    response = client.post(
        _inspect_url(issued_permit),
        {"lift_inches": "12", "compaction_percent": "95.0", "mechanical": "on"},
        follow=True,
    )
    assert "passed" in response.content.decode()
    assert Inspection.objects.get().result == "pass"


def test_bad_input_names_the_field_and_stores_nothing(client, inspector, issued_permit):
    client.force_login(inspector)
    response = client.post(_inspect_url(issued_permit), {"lift_inches": "twelve", "compaction_percent": ""})
    assert response.status_code == 400
    assert not Inspection.objects.exists()


def test_contractor_may_not_open_an_inspection_form(client, contractor, issued_permit):
    client.force_login(contractor)
    assert client.get(_inspect_url(issued_permit)).status_code == 403
    assert (
        client.post(_inspect_url(issued_permit), {"lift_inches": "12", "compaction_percent": "99"}).status_code == 403
    )


def test_outsider_cannot_see_the_field_record(client, outsider, issued_permit):
    client.force_login(outsider)
    assert client.get(reverse("permits:field_permit", args=[issued_permit.number])).status_code == 404


def test_contractor_sees_notice_form_and_completion_button(client, contractor, issued_permit):
    client.force_login(contractor)
    page = client.get(reverse("permits:field_permit", args=[issued_permit.number])).content.decode()
    assert "Give a notice" in page and "Request completion" in page
    assert "Log an inspection" not in page


def _post_notice(client, permit, data, **options):
    return client.post(reverse("permits:field_notice", args=[permit.number]), data, **options)


def test_contractor_gives_a_late_notice_and_is_told_so(client, contractor, issued_permit):
    client.force_login(contractor)
    response = _post_notice(
        client,
        issued_permit,
        {
            "notice-kind": "dpw_excavation",
            "notice-planned_work_at": "2026-06-10T08:00",
            "notice-given_at": "2026-06-09T08:01",
            "notice-given_to": "DPW",
            "notice-method": "phone",
        },
        follow=True,
    )
    assert "late (§ 303-5B(4))" in response.content.decode()
    assert PermitteeNotice.objects.get().timeliness == "late"


def test_notice_form_errors_name_the_field(client, contractor, issued_permit):
    client.force_login(contractor)
    response = _post_notice(
        client,
        issued_permit,
        {
            "notice-kind": "dpw_excavation",
            "notice-planned_work_at": "",
            "notice-given_to": "",
            "notice-method": "phone",
        },
    )
    assert response.status_code == 400
    assert not PermitteeNotice.objects.exists()


def test_303_4h_3_contractor_requests_completion_and_the_permit_stays_open(client, contractor, issued_permit):
    client.force_login(contractor)
    response = client.post(reverse("permits:field_complete", args=[issued_permit.number]), follow=True)
    page = response.content.decode()
    assert "Completion requested" in page and "stays open until the DPW confirms it" in page
    issued_permit.refresh_from_db()
    assert issued_permit.status == Status.ISSUED
    assert not Guarantee.objects.filter(permit=issued_permit).exists()


def test_303_1c_8_inspector_confirms_completion_on_the_phone_page(client, contractor, inspector, issued_permit):
    client.force_login(contractor)
    client.post(reverse("permits:field_complete", args=[issued_permit.number]))
    client.force_login(inspector)
    url = reverse("permits:field_confirm_completion", args=[issued_permit.number])
    refused = client.post(url, {"decision": "confirm"}, follow=True).content.decode()
    assert "No final inspection of the restored surface has passed" in refused and "§ 303-1C(8)" in refused
    field_work.log_inspection(permit=issued_permit, kind="final", by=inspector, values={"surface_restored": True})
    confirmed = client.post(url, {"decision": "confirm"}, follow=True).content.decode()
    assert "guaranteed until" in confirmed
    issued_permit.refresh_from_db()
    assert issued_permit.status == Status.COMPLETED


def test_303_1c_8_contractor_cannot_confirm_completion(client, contractor, issued_permit):
    client.force_login(contractor)
    response = client.post(
        reverse("permits:field_confirm_completion", args=[issued_permit.number]), {"decision": "confirm"}
    )
    assert response.status_code == 403
    issued_permit.refresh_from_db()
    assert issued_permit.status == Status.ISSUED


def test_303_4h_2_dpw_director_gives_notice_of_faulty_work_on_a_phone_form(client, dpw_director, issued_permit):
    client.force_login(dpw_director)
    url = reverse("permits:field_defect", args=[issued_permit.number])
    assert client.get(url).status_code == 200
    today = timezone.localdate()
    response = client.post(
        url,
        {
            "defect": "Frozen lumps in the backfill",
            "work_to_be_done": "Re-excavate",
            "estimated_cost": "500.00",
            "deadline": (today + datetime.timedelta(days=2)).isoformat(),
            "served_on": today.isoformat(),
        },
        follow=True,
    )
    assert "Defect notice recorded" in response.content.decode()
    assert issued_permit.defect_notices.get().kind == "faulty_work"


def test_303_4h_4_clerk_records_the_boards_finding_on_the_form(client, contractor, clerk, issued_permit):
    from tests.permits.street_opening.field.conftest import board_finding

    complete_work(issued_permit, permittee=contractor)
    today = timezone.localdate()
    finding = board_finding(issued_permit, held_on=today, clerk=clerk)
    client.force_login(clerk)
    url = reverse("permits:field_defect", args=[issued_permit.number])
    data = {
        "defect": "Settled",
        "work_to_be_done": "Overlay",
        "estimated_cost": "500.00",
        "deadline": (today + datetime.timedelta(days=20)).isoformat(),
        "addressed_to": "permittee",
        "served_on": today.isoformat(),
    }
    refused = client.post(url, data)
    assert refused.status_code == 400 and not issued_permit.defect_notices.exists()  # the finding is required
    response = client.post(url, {**data, "finding": finding.pk}, follow=True)
    assert "Defect notice recorded" in response.content.decode()
    assert issued_permit.defect_notices.get().finding == finding


def test_permit_panel_links_to_the_field_record(issued_permit):
    from django.template.loader import render_to_string

    html = render_to_string("permits/street_opening/field/_permit_panel.html", {"permit": issued_permit})
    assert reverse("permits:field_permit", args=[issued_permit.number]) in html


def test_field_record_query_count_does_not_grow_with_inspections(
    client, inspector, issued_permit, django_assert_max_num_queries
):
    from decimal import Decimal as D

    from permits.street_opening.field import services as field_work

    values = {"lift_inches": D("12"), "compaction_percent": D("96")}
    field_work.log_inspection(permit=issued_permit, kind="compaction", by=inspector, values=values)
    url = reverse("permits:field_permit", args=[issued_permit.number])
    client.force_login(inspector)
    client.get(url)
    with django_assert_max_num_queries(30) as few:
        client.get(url)
    for _ in range(10):
        field_work.log_inspection(permit=issued_permit, kind="compaction", by=inspector, values=values)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(url)
    assert response.content.decode().count(">Pass<") == 11


def test_inspection_photo_is_kept_as_a_permit_document(client, inspector, issued_permit):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(inspector)
    photo = SimpleUploadedFile("lift.png", PNG, content_type="image/png")
    client.post(_inspect_url(issued_permit, "backfill"), {"largest_stone_inches": "9", "photo": photo})
    inspection = Inspection.objects.get()
    assert inspection.result == "fail" and inspection.photo.kind == "photo"
    assert inspection.photo.permit == issued_permit


def test_a_photo_that_is_not_an_image_is_refused_and_nothing_is_stored(client, inspector, issued_permit):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(inspector)
    fake = SimpleUploadedFile("lift.png", b"not an image at all", content_type="image/png")
    response = client.post(_inspect_url(issued_permit, "backfill"), {"largest_stone_inches": "6", "photo": fake})
    assert response.status_code == 400 and "Only PDF, JPEG and PNG" in response.content.decode()
    assert not Inspection.objects.exists() and not issued_permit.documents.exists()


def _noticed(permit, contractor, dpw_director, *, served_days_ago=40, deadline_days_ago=10):
    today = timezone.localdate()
    complete_work(permit, permittee=contractor, today=today - datetime.timedelta(days=100))
    served_on, deadline = (
        today - datetime.timedelta(days=served_days_ago),
        today - datetime.timedelta(days=deadline_days_ago),
    )
    return board_finds_defect(permit, deadline=deadline, served_on=served_on)


def test_dpw_director_records_the_village_repair_and_the_bill_adds_20_percent(
    client, contractor, dpw_director, issued_permit
):
    from permits.street_opening.field import services as field_work

    notice = _noticed(issued_permit, contractor, dpw_director)
    field_work.flag_defects_past_deadline(today=timezone.localdate())
    client.force_login(dpw_director)
    page = client.get(reverse("permits:field_permit", args=[issued_permit.number])).content.decode()
    assert "Record the Village" in page
    url = reverse("permits:field_village_repair", args=[issued_permit.number, notice.pk])
    response = client.post(
        url,
        {"repaired_on": timezone.localdate().isoformat(), "labor": "100.00", "materials": "50.00", "equipment": "0"},
        follow=True,
    )
    assert "Village repair billed: $180.00" in response.content.decode()


def test_inspector_marks_a_defect_corrected_but_the_contractor_may_not(
    client, contractor, dpw_director, inspector, issued_permit
):
    notice = _noticed(issued_permit, contractor, dpw_director, served_days_ago=5, deadline_days_ago=-20)
    url = reverse("permits:field_defect_corrected", args=[issued_permit.number, notice.pk])
    client.force_login(contractor)
    assert client.post(url).status_code == 403
    client.force_login(inspector)
    client.post(url)
    notice.refresh_from_db()
    assert notice.corrected_on == timezone.localdate()


def test_303_1c_4_inspector_finds_construction_covered_before_the_check(client, inspector, issued_permit):
    client.force_login(inspector)
    url = _inspect_url(issued_permit, "underground_depth")
    response = client.post(url, {"cover_feet": "3.5", "covered_before_check": "on"}, follow=True)
    assert "§ 303-1C(4)" in response.content.decode()
    assert Inspection.objects.get().citations == ["§ 303-1C(4)"]
