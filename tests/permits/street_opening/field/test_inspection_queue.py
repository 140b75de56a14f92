"""The inspector's list at scale: the paged queue keeps permits_to_inspect's order (work announced today,
then completion requested oldest first, then by number) on every page, in a constant number of queries."""

import datetime

import pytest
from django.core.paginator import Paginator

from permits.street_opening.field import services as field_work
from permits.street_opening.models import StreetOpening
from tests.permits.street_opening.field.test_field_work import announce_backfill_on_june_10, at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("board_designations")]
TODAY = datetime.date(2026, 6, 10)


def test_the_paged_queue_keeps_the_lists_order_across_pages(make_issued, contractor):
    permits = [make_issued() for _ in range(7)]
    announce_backfill_on_june_10(permits[5], contractor)
    announce_backfill_on_june_10(permits[2], contractor)
    for permit, day in ((permits[6], 3), (permits[1], 1)):  # § 303-4H(3): completion requested, oldest first
        StreetOpening.objects.filter(permit=permit).update(completion_requested_at=at(2026, 6, day, 9))
    expected = [p.number for p in field_work.permits_to_inspect(today=TODAY)]
    queue = field_work.InspectionQueue(today=TODAY)
    paged = []
    paginator = Paginator(queue, 3)
    for number in paginator.page_range:
        paged += [p.number for p in paginator.page(number)]
    assert paginator.count == 7
    assert paged == expected
    assert paged[:4] == [permits[2].number, permits[5].number, permits[1].number, permits[6].number]
    [row] = queue[0:1]
    assert row.work_today  # the page's rows carry the list's annotations


def test_the_queues_page_queries_do_not_grow_with_the_open_permits(
    make_issued, contractor, django_assert_max_num_queries
):
    first = [make_issued() for _ in range(3)]
    announce_backfill_on_june_10(first[0], contractor)
    with django_assert_max_num_queries(6) as few:
        list(Paginator(field_work.InspectionQueue(today=TODAY), 2).page(2))
    for _ in range(6):
        make_issued()
    with django_assert_max_num_queries(len(few.captured_queries)):
        rows = list(Paginator(field_work.InspectionQueue(today=TODAY), 2).page(3))
    assert len(rows) == 2


def test_the_queue_counts_one_row_past_the_page_cap_not_every_open_permit(make_issued):
    """The inspector's list does not count every open street opening on every page;
    the capped paginator needs one row past its cap."""
    from permits.paging import CappedPaginator

    for _ in range(5):
        make_issued()
    assert field_work.InspectionQueue(today=TODAY).count() == 5
    paginator = CappedPaginator(field_work.InspectionQueue(today=TODAY, count_at_most=3), 1, max_pages=2)
    assert paginator.count == 2 and paginator.capped and paginator.num_pages == 2
    assert len(paginator.get_page(99)) == 1  # a deeper page is the last capped one
