"""What each role's start page counts (permits.workspace.sources), at its boundaries, and for whom."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from permits.models import Permit, PermitKind, Status
from permits.street_opening import work_sources as so_sources
from permits.workspace import sources as workspace
from tests.factories import PermitFactory

pytestmark = pytest.mark.django_db
TODAY = date(2026, 5, 4)


def box(user, title, today=TODAY):
    found = [b for b in workspace.work_for(user, today=today) if b.source.title.startswith(title)]
    return found[0] if found else None


def submitted(kind=PermitKind.STREET_OPENING, **fields):
    permit = PermitFactory(kind=kind, **fields)
    Permit.objects.filter(pk=permit.pk).update(status=Status.SUBMITTED, submitted_at=timezone.now(), **fields)
    return permit


def test_303_4g_insurance_warned_30_days_ahead():
    assert so_sources.insurance_warned_through(date(2026, 5, 4)) == date(2026, 6, 3)


@pytest.mark.parametrize(
    ("today", "ending"),
    [(date(2026, 11, 30), False), (date(2026, 12, 1), True), (date(2026, 12, 31), True), (date(2027, 1, 1), False)],
)
def test_303_4h5_annual_bonds_shown_from_december_1(today, ending):
    assert so_sources.is_bond_year_ending(today) is ending


def test_303_4b_the_dpw_sees_only_the_street_openings_it_checks_the_clerk_sees_every_type(clerk, dpw_director):
    so = submitted()
    sidewalk = submitted(kind=PermitKind.SIDEWALK, number="SW-2026-0901")
    clerk_rows = [r.label for r in box(clerk, "Applications to check").rows]
    dpw_rows = [r.label for r in box(dpw_director, "Applications to check").rows]
    assert any(so.number in r for r in clerk_rows) and any(sidewalk.number in r for r in clerk_rows)
    assert any(so.number in r for r in dpw_rows) and not any(sidewalk.number in r for r in dpw_rows)


def test_applications_to_check_oldest_first_and_counted_past_the_rows_shown(clerk):
    first = submitted()
    Permit.objects.filter(pk=first.pk).update(submitted_at=timezone.now() - timedelta(days=3))
    for _ in range(workspace.ROWS_SHOWN + 1):
        submitted()
    found = box(clerk, "Applications to check")
    assert found.count == workspace.ROWS_SHOWN + 2
    assert len(found.rows) == workspace.ROWS_SHOWN
    assert found.rows[0].label.startswith(first.number)


def test_303_4f2_fees_to_collect_one_cent_due_is_listed_paid_in_full_is_not(clerk):
    owing = submitted(fee_amount=Decimal("50.00"))
    paid = submitted(fee_amount=Decimal("50.00"))
    from permits import services

    services.record_payment(permit=owing, amount=Decimal("49.99"), method="cash", by=clerk)
    services.record_payment(permit=paid, amount=Decimal("50.00"), method="cash", by=clerk)
    rows = box(clerk, "Fees to collect").rows
    assert [r.label for r in rows] == [f"{owing.number}: $0.01 due"]
    assert rows[0].url == reverse("admin:permits_permit_payment", args=[owing.pk])


def test_fees_to_collect_is_the_clerks_only(dpw_director, inspector, board_member, police_chief):
    for user in (dpw_director, inspector, board_member, police_chief):
        assert box(user, "Fees to collect") is None


def test_303_4a_permits_to_issue_for_the_clerk_and_the_dpw_not_the_inspector(clerk, dpw_director, inspector):
    permit = submitted()
    Permit.objects.filter(pk=permit.pk).update(status=Status.APPROVED, approved_on=TODAY)
    assert box(clerk, "Permits to issue").count == 1
    assert box(dpw_director, "Permits to issue").count == 1
    assert box(inspector, "Permits to issue") is None


def test_the_board_and_police_see_no_application_queues(board_member, president, police_chief):
    for user in (board_member, president, police_chief):
        titles = [b.source.title for b in workspace.work_for(user, today=TODAY)]
        assert not any(t.startswith(("Applications", "Fees", "Permits to issue")) for t in titles), titles


def test_303_4g_insurance_ending_on_the_30th_day_is_shown_the_31st_is_not(issued, clerk, dpw_director):
    so = issued.street_opening
    today = timezone.localdate()
    so.insurance_expires = today + timedelta(days=31)
    so.save(update_fields=["insurance_expires"])
    assert box(clerk, "Insurance ending", today).count == 0
    so.insurance_expires = today + timedelta(days=30)
    so.save(update_fields=["insurance_expires"])
    assert box(dpw_director, "Insurance ending", today).count == 1


def test_303_4h5_the_years_bonds_are_shown_in_december(bond, clerk):
    assert box(clerk, "Annual bonds", date(2026, 11, 30)).count == 0
    found = box(clerk, "Annual bonds", date(2026, 12, 1))
    assert found.count == 1 and found.rows[0].url == reverse("admin:permits_annualbond_change", args=[bond.pk])


def test_303_1c8_completion_asked_for_is_an_inspection_due_for_the_dpw(issued, inspector, clerk):
    from permits.street_opening.models import StreetOpening

    assert box(inspector, "Street opening inspections").count == 0
    StreetOpening.objects.filter(permit=issued).update(completion_requested_at=timezone.now())
    found = box(inspector, "Street opening inspections")
    assert found.count == 1 and found.rows[0].url == reverse("permits:field_permit", args=[issued.number])
    assert box(clerk, "Street opening inspections") is None  # the field pages are the DPW's


def test_recent_actions_are_the_users_own_timeline_rows(under_review, clerk, dpw_director):
    assert [e.permit_id for e in workspace.recent_actions(clerk)] == [under_review.pk]
    assert list(workspace.recent_actions(dpw_director)) == []


def test_records_grouped_by_task_put_every_model_in_a_group():
    apps = [{"app_label": "permits", "models": [{"object_name": "Payment", "name": "Payments"}]}]
    apps.append({"app_label": "permits", "models": [{"object_name": "Mystery", "name": "Mysteries"}]})
    groups = dict(workspace.grouped_records(apps))
    assert [m["name"] for m in groups["Money: fees, payments, charges and the tax roll"]] == ["Payments"]
    assert [m["name"] for m in groups["Other records"]] == ["Mysteries"]


def test_start_page_queries_do_not_grow_with_the_rows(client, clerk, django_assert_max_num_queries):
    def queries_for_clerk_index():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("admin:index")).status_code == 200
        return len(ctx)

    client.force_login(clerk)
    submitted(fee_amount=Decimal("50.00"))
    few = queries_for_clerk_index()
    for _ in range(12):
        submitted(fee_amount=Decimal("50.00"))
    Permit.objects.update(fee_amount=F("fee_amount"))
    with django_assert_max_num_queries(few):
        client.get(reverse("admin:index"))


def test_staff_start_page_queries_do_not_grow_with_the_rows(client, dpw_director, django_assert_max_num_queries):
    client.force_login(dpw_director)
    submitted()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        client.get(reverse("permits:workspace"))
    for _ in range(12):
        submitted()
    with django_assert_max_num_queries(len(ctx)):
        assert client.get(reverse("permits:workspace")).status_code == 200


def test_the_work_page_is_for_staff_with_a_403_that_says_so(client, resident):
    client.force_login(resident)
    response = client.get(reverse("permits:workspace"))
    assert response.status_code == 403
    assert "Village staff" in response.content.decode()


# Every source counted in one query, each count capped; a notice announced for today's last minute is due.


@pytest.mark.parametrize(("planned", "due"), [((23, 59), True), ((0, 0), False)])
def test_303_1c3_work_announced_for_today_is_due_tomorrows_is_not(issued, inspector, planned, due):
    from zoneinfo import ZoneInfo

    from permits.street_opening.field.models import PermitteeNotice

    day = TODAY if due else TODAY + timedelta(days=1)
    at = timezone.datetime(day.year, day.month, day.day, *planned, tzinfo=ZoneInfo("America/Chicago"))
    PermitteeNotice.objects.create(
        permit=issued, kind="dpw_excavation", planned_work_at=at, due_by=at - timedelta(days=1)
    )
    assert box(inspector, "Street opening inspections").count == (1 if due else 0)


def test_a_count_past_the_cap_says_so(clerk, monkeypatch):
    monkeypatch.setattr(workspace, "COUNT_CAP", 3)
    for _ in range(3):
        submitted()
    assert (box(clerk, "Applications to check").count, box(clerk, "Applications to check").shown_count) == (3, "3")
    submitted()
    found = box(clerk, "Applications to check")
    assert (found.count, found.capped, found.shown_count, len(found.rows)) == (3, True, "3+", 4)


def test_the_boards_matters_are_counted_together(clerk):
    from sidewalks import services as sidewalk_services
    from tests.factories import ParcelFactory
    from tests.sidewalks.conftest import cold_weather_request

    cold_weather_request(clerk)  # § 303-3D(9): for one permit, until its last day
    sidewalk_services.request_board_waiver(kind="width_thickness", parcel=ParcelFactory(), reason="Frontage", by=clerk)
    found = box(clerk, "Items for the Board's next agenda")
    assert found.count == 2 and len(found.rows) == 1  # the rows of the first matter with any: the width waiver


def test_clerk_start_page_counts_every_source_in_one_query(client, clerk, django_assert_max_num_queries):
    client.force_login(clerk)
    for _ in range(workspace.ROWS_SHOWN + 3):
        submitted(fee_amount=Decimal("50.00"))
    with django_assert_max_num_queries(15):
        assert client.get(reverse("admin:index")).status_code == 200


def test_the_permit_boxes_rows_are_read_together_each_box_its_own_oldest_first(clerk, django_assert_max_num_queries):
    """The first rows of the permit boxes come from one query of keys and one of rows (not one query a
    box: 16 on the clerk's start page), each box keeping its own rows, oldest first."""
    now = timezone.now()
    checks = [submitted(fee_amount=Decimal("10.00")) for _ in range(workspace.ROWS_SHOWN + 1)]
    for n, permit in enumerate(checks):
        Permit.objects.filter(pk=permit.pk).update(submitted_at=now - timedelta(days=n))
    deciding = [submitted() for _ in range(2)]
    Permit.objects.filter(pk__in=[p.pk for p in deciding]).update(status=Status.UNDER_REVIEW)
    issuing = [submitted() for _ in range(2)]
    Permit.objects.filter(pk=issuing[0].pk).update(status=Status.APPROVED, approved_on=TODAY)
    Permit.objects.filter(pk=issuing[1].pk).update(status=Status.APPROVED, approved_on=TODAY - timedelta(days=1))
    with django_assert_max_num_queries(4):  # the roles, the counts, the four boxes' keys, their rows (was 2 + 4)
        boxes = {b.source.title: b for b in workspace.work_for(clerk, today=TODAY)}
    oldest = [p.number for p in reversed(checks)][: workspace.ROWS_SHOWN]
    assert [r.label.split(":")[0] for r in boxes["Applications to check"].rows] == oldest
    assert [r.label.split(":")[0] for r in boxes["Fees to collect"].rows] == oldest
    assert {r.label.split(":")[0] for r in boxes["Applications to approve or deny"].rows} == {
        p.number for p in deciding
    }
    assert [r.label.split(":")[0] for r in boxes["Permits to issue"].rows] == [issuing[1].number, issuing[0].number]


def test_a_box_showing_5_of_6_applications_links_to_all_6(client, clerk, dpw_director):
    for _ in range(workspace.ROWS_SHOWN + 1):
        submitted()
    found = box(clerk, "Applications to check")
    assert found.count == 6 and len(found.rows) == 5
    assert found.url == reverse("permits:office") + "?status=submitted"
    client.force_login(clerk)
    index = client.get(reverse("admin:index")).content.decode()
    assert f'<a href="{found.url}" class="section">Applications to check: 6</a>' in index
    listed = client.get(found.url).content.decode()
    assert all(permit.number in listed for permit in Permit.objects.all())
    client.force_login(dpw_director)
    start = client.get(reverse("permits:workspace")).content.decode()
    assert "The oldest 5 of 6." in start and f'href="{found.url}"' in start


@pytest.mark.parametrize(
    ("title", "status"),
    [("Applications to approve or deny", "under_review"), ("Permits to issue", "approved")],
)
def test_the_permit_boxes_link_to_the_office_list_of_their_status(clerk, title, status):
    found = box(clerk, title)
    assert found.url == f"{reverse('permits:office')}?status={status}"


def test_a_board_row_opens_the_item_not_the_boards_index():
    from urllib.parse import urlencode

    from permits.board.matters import matters
    from permits.ledger.models import ChargeHearing
    from permits.street_privilege.models import SidewalkObstruction, StreetPrivilege

    permit = Permit(number="SP-2026-0007")
    obstruction = SidewalkObstruction(privilege=StreetPrivilege(permit=permit))
    assert workspace._matter_url(obstruction) == permit.get_absolute_url()
    # A subject with no page of its own: its matter's list in the Board queue.
    key = next(m.key for m in matters() if m.model == "permits.ChargeHearing")
    expected = f"{reverse('board:queue')}?{urlencode({'matter': key})}"
    assert workspace._matter_url(ChargeHearing()) == expected
    assert expected != reverse("board:board")
