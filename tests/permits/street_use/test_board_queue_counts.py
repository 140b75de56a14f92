"""The Board queue counts every street use petition listed in a few queries (services.petition_counts),
with the same numbers as petition_count of each."""

from django.urls import reverse

from permits.street_use import services
from permits.street_use.models import StreetUse

from .conftest import TODAY, declare_all, sign, valid_data


def test_303_15f_petition_counts_match_petition_count_of_each(application, street, segment, roster, clerk, resident):
    sign(application, roster[:15], clerk)
    no_area = services.apply_for_street_use(applicant=resident, data=valid_data(street))
    uses = list(StreetUse.objects.filter(permit__in=[application, no_area]))
    counts = services.petition_counts(uses, on=TODAY)
    for su in uses:
        assert counts[su.pk] == services.petition_count(su, on=TODAY)
    assert counts[application.street_use.pk].counted == 15 and counts[no_area.street_use.pk].roster_size == 0


def test_board_queue_reads_street_use_petitions_without_a_query_per_row(
    application, street, segment, roster, clerk, resident, client, django_assert_max_num_queries
):
    from permits.models import Permit, Status

    def waiting_for_the_board():
        Permit.objects.filter(kind="street_use").update(status=Status.UNDER_REVIEW)

    declare_all(application, clerk)
    waiting_for_the_board()
    client.force_login(clerk)
    with django_assert_max_num_queries(15) as one:
        page = client.get(reverse("board:queue")).content.decode()
    assert "0 of 20 declared residents over 18 consented" in page
    for _ in range(5):
        services.apply_for_street_use(applicant=resident, data=valid_data(street, segment))
    waiting_for_the_board()
    with django_assert_max_num_queries(len(one.captured_queries)):
        page = client.get(reverse("board:queue")).content.decode()
    assert page.count("declared residents over 18 consented") == 6
