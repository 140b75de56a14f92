"""Conflict checks at review: same or adjoining segment, dates overlapping or within the DPW's margin, the § 303-5I
moratorium, Board repaving decisions, and street use closures over a street opening's work (§ 303-15A)."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from permits.models import PermitKind, Status
from permits.street_opening.models import StreetImprovement
from permits.streetmap import conflicts
from permits.streetmap.models import ConflictMargin, ConflictReview
from permits.streetmap.services import record_conflict_review, set_conflict_margin, street_use_blockers
from tests.permits.streetmap.conftest import TODAY, opening, street_use

pytestmark = pytest.mark.django_db

MAY_10, MAY_11, MAY_12 = date(2026, 5, 10), date(2026, 5, 11), date(2026, 5, 12)


# --- the pure rule -------------------------------------------------------------------------------------------


def test_works_ending_the_day_before_another_begins_do_not_conflict_without_a_margin():
    assert not conflicts.dates_conflict(MAY_11, MAY_12, date(2026, 5, 1), MAY_10, margin_days=0)


def test_works_ending_the_day_another_begins_conflict():
    assert conflicts.dates_conflict(MAY_11, MAY_12, date(2026, 5, 1), MAY_11, margin_days=0)


def test_a_margin_of_one_day_catches_work_ending_the_day_before():
    assert conflicts.dates_conflict(MAY_11, MAY_12, date(2026, 5, 1), MAY_10, margin_days=1)


def test_a_margin_of_one_day_does_not_catch_work_ending_two_days_before():
    assert not conflicts.dates_conflict(MAY_11, MAY_12, date(2026, 5, 1), date(2026, 5, 9), margin_days=1)


def test_an_open_end_reaches_indefinitely():
    assert conflicts.dates_conflict(MAY_11, None, date(2027, 1, 1), date(2027, 1, 2), margin_days=0)


# --- conflicts_for ----------------------------------------------------------------------------------------------


def test_a_permit_on_an_adjoining_segment_with_overlapping_dates_is_listed(grid, monday):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW, location="250 Highland Avenue", end=TODAY)
    other = opening(grid["milwaukee"], location="150 Milwaukee Street", end=TODAY + timedelta(days=1))
    assert [c.number for c in conflicts.conflicts_for(reviewed, today=TODAY)] == [other.number]


def test_a_permit_that_ended_the_day_before_is_not_listed(grid, monday):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW, location="250 Highland Avenue", end=TODAY)
    opening(
        grid["milwaukee"],
        location="150 Milwaukee Street",
        start=TODAY - timedelta(days=3),
        end=TODAY - timedelta(days=1),
    )
    assert conflicts.conflicts_for(reviewed, today=TODAY) == []


def test_a_permit_on_a_far_street_is_not_listed(grid, monday):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW, location="150 Highland Avenue", end=TODAY)
    far = opening(grid["far"], location="150 Far Road", end=TODAY)
    assert far.number not in [c.number for c in conflicts.conflicts_for(reviewed, today=TODAY)]


def test_closed_and_denied_permits_are_not_listed(grid, monday):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW, location="150 Highland Avenue", end=TODAY)
    done = opening(grid["highland"], status=Status.CLOSED, location="160 Highland Avenue", end=TODAY)
    denied = opening(grid["highland"], status=Status.DENIED, location="170 Highland Avenue", end=TODAY)
    numbers = [c.number for c in conflicts.conflicts_for(reviewed, today=TODAY)]
    assert done.number not in numbers and denied.number not in numbers


def test_the_dpw_margin_widens_the_check(grid, monday, dpw_director):
    reviewed = opening(
        grid["highland"], status=Status.UNDER_REVIEW, location="150 Highland Avenue", start=MAY_11, end=MAY_12
    )
    before = opening(grid["highland"], location="160 Highland Avenue", start=date(2026, 5, 5), end=date(2026, 5, 8))
    assert before.number not in [c.number for c in conflicts.conflicts_for(reviewed, today=TODAY)]
    set_conflict_margin(days=3, effective_from=TODAY, by=dpw_director)
    assert before.number in [c.number for c in conflicts.conflicts_for(reviewed, today=TODAY)]


def test_a_margin_effective_tomorrow_does_not_apply_today(dpw_director, monday):
    set_conflict_margin(days=5, effective_from=TODAY + timedelta(days=1), by=dpw_director)
    assert conflicts.margin_days(TODAY) == 0
    assert conflicts.margin_days(TODAY + timedelta(days=1)) == 5


@pytest.mark.parametrize("persona", ["clerk", "inspector", "board_member", "resident"])
def test_only_the_dpw_director_sets_the_margin(persona, request, monday):
    with pytest.raises(PermissionDenied):
        set_conflict_margin(days=2, effective_from=TODAY, by=request.getfixturevalue(persona))
    assert not ConflictMargin.objects.exists()


def _improvement(street, clerk, **fields):
    return StreetImprovement.objects.create(
        street=street, description="Repave", recorded_by=clerk, recorded_at=timezone.now(), **fields
    )


@pytest.mark.parametrize(
    "repaved_on, listed",
    [(date(2021, 5, 5), ["moratorium"]), (date(2021, 5, 4), [])],
    ids=["the-day-before-the-fifth-anniversary", "on-the-fifth-anniversary"],
)
def test_303_5i_moratorium_listed_until_the_fifth_anniversary(grid, clerk, monday, repaved_on, listed):
    _improvement(
        grid["highland"], clerk, decided_on=date(2021, 3, 1), work_begins_on=date(2021, 4, 15), repaved_on=repaved_on
    )
    reviewed = opening(
        grid["highland"], status=Status.UNDER_REVIEW, location="150 Highland Avenue", start=TODAY, end=TODAY
    )
    assert [c.what for c in conflicts.conflicts_for(reviewed, today=TODAY)] == listed


def test_303_5i_a_board_repaving_decision_not_yet_done_is_listed(grid, clerk, monday):
    _improvement(grid["highland"], clerk, decided_on=date(2026, 4, 20), work_begins_on=date(2026, 6, 1))
    reviewed = opening(
        grid["highland"], status=Status.UNDER_REVIEW, location="150 Highland Avenue", start=TODAY, end=TODAY
    )
    assert [c.what for c in conflicts.conflicts_for(reviewed, today=TODAY)] == ["repaving"]


# --- street use closures (§ 303-15A) ------------------------------------------------------------------------


def test_303_15a_street_use_closure_over_a_street_opening_is_refused(grid, monday):
    work = opening(grid["highland"], location="250 Highland Avenue", end=TODAY + timedelta(days=2))
    party = street_use(
        grid["highland"], status=Status.UNDER_REVIEW, start=TODAY + timedelta(days=1), end=TODAY + timedelta(days=1)
    )
    refused = street_use_blockers(party, today=TODAY)
    assert [v.citation for v in refused] == ["§ 303-15A"]
    assert work.number in refused[0].message


def test_303_15a_street_use_closure_accepted_by_the_dpw_is_not_refused(grid, monday, dpw_director):
    opening(grid["highland"], location="250 Highland Avenue", end=TODAY + timedelta(days=2))
    party = street_use(grid["highland"], status=Status.UNDER_REVIEW)
    record_conflict_review(permit=party, by=dpw_director, today=TODAY, accepts_closure=True)
    assert street_use_blockers(party, today=TODAY) == []


def test_303_15a_street_use_closure_after_the_work_ended_is_not_refused(grid, monday):
    opening(grid["highland"], location="250 Highland Avenue", start=TODAY, end=TODAY)
    party = street_use(
        grid["highland"], status=Status.UNDER_REVIEW, start=TODAY + timedelta(days=1), end=TODAY + timedelta(days=1)
    )
    assert street_use_blockers(party, today=TODAY) == []


def test_a_street_use_closure_is_marked_on_the_street_openings_review(grid, monday):
    reviewed = opening(
        grid["highland"], status=Status.UNDER_REVIEW, location="250 Highland Avenue", end=TODAY + timedelta(days=2)
    )
    party = street_use(grid["highland"])
    found = [c for c in conflicts.conflicts_for(reviewed, today=TODAY) if c.number == party.number]
    assert found and found[0].is_street_use_closure


# --- recording that the DPW saw them ---------------------------------------------------------------------------


def test_the_dpw_records_what_it_saw(grid, monday, dpw_director):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW, location="250 Highland Avenue", end=TODAY)
    other = opening(grid["highland"], location="260 Highland Avenue", end=TODAY)
    review = record_conflict_review(permit=reviewed, by=dpw_director, today=TODAY)
    assert other.number in review.conflicts[0]
    assert reviewed.events.filter(reason__contains="saw 1 conflict").exists()


@pytest.mark.parametrize("persona", ["clerk", "inspector", "building_inspector", "resident", "contractor"])
def test_only_the_dpw_director_records_the_conflicts_seen(grid, monday, persona, request):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW)
    with pytest.raises(PermissionDenied):
        record_conflict_review(permit=reviewed, by=request.getfixturevalue(persona), today=TODAY)
    assert not ConflictReview.objects.exists()


def test_the_street_opening_review_page_lists_a_conflicting_street_use_closure_for_the_dpw(
    grid, monday, client, dpw_director
):
    reviewed = opening(
        grid["highland"], status=Status.UNDER_REVIEW, location="250 Highland Avenue", end=TODAY + timedelta(days=2)
    )
    party = street_use(grid["highland"])
    client.force_login(dpw_director)
    page = client.get(reverse("permits:street_opening_manage", args=[reviewed.number])).content.decode()
    assert "Street use closure:" in page and party.number in page
    assert "Record that the DPW saw these" in page


def test_the_dpw_records_from_the_review_page(grid, monday, client, dpw_director):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW)
    client.force_login(dpw_director)
    back = reverse("permits:street_opening_manage", args=[reviewed.number])
    response = client.post(reverse("streetmap:conflicts_seen", args=[reviewed.number]), {"note": "Seen", "next": back})
    assert response.status_code == 302 and response["Location"] == back
    assert ConflictReview.objects.get(permit=reviewed).reviewed_by == dpw_director


def test_303_15a_the_dpw_accepts_a_street_use_closure_from_the_street_use_permit_page(
    grid, monday, client, dpw_director
):
    opening(grid["highland"], location="250 Highland Avenue", end=TODAY + timedelta(days=2))
    party = street_use(grid["highland"], status=Status.UNDER_REVIEW)
    page = reverse("permits:detail", args=[party.number])
    client.force_login(dpw_director)
    assert "I accept this street use closure" in client.get(page).content.decode()
    client.post(reverse("streetmap:conflicts_seen", args=[party.number]), {"accepts_closure": "on", "next": page})
    assert street_use_blockers(party, today=TODAY) == []


def test_the_conflicts_seen_link_does_not_redirect_off_site(grid, monday, client, dpw_director):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW)
    client.force_login(dpw_director)
    response = client.post(
        reverse("streetmap:conflicts_seen", args=[reviewed.number]), {"next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("permits:detail", args=[reviewed.number])


def test_the_applicant_does_not_see_the_conflict_checks(grid, monday, client, contractor):
    reviewed = opening(grid["highland"], status=Status.UNDER_REVIEW, applicant=contractor)
    client.force_login(contractor)
    page = client.get(reverse("permits:detail", args=[reviewed.number])).content.decode()
    assert "conflicts-heading" not in page
    assert client.post(reverse("streetmap:conflicts_seen", args=[reviewed.number])).status_code == 403


def test_kind_constant_is_the_registry_kind():
    assert conflicts.PermitKind.STREET_USE == PermitKind.STREET_USE
