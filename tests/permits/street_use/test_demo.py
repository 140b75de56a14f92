"""The street use demo: a petition in progress, a granted and issued permit, this week's granted Highland Avenue
closure (the street map's conflict); loading twice adds nothing."""

import pytest

from permits.models import Permit, PermitKind, Status

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_demo_has_a_petition_in_progress_and_a_granted_permit(settings):
    from django.core.management import call_command

    call_command("load_demo", verbosity=0)
    permits = {p.location_description: p for p in Permit.objects.filter(kind=PermitKind.STREET_USE)}
    from permits.street_use import demo

    in_progress, granted = permits[demo.IN_PROGRESS], permits[demo.GRANTED]
    count = in_progress.street_use.petition
    assert in_progress.status == Status.SUBMITTED and 0 < count.counted < count.required
    assert granted.status == Status.ISSUED and granted.street_use.decision_motion.carried
    assert permits[demo.HIGHLAND].status == Status.APPROVED  # this week's closure on the street map, granted
    call_command("load_demo", verbosity=0)
    assert Permit.objects.filter(kind=PermitKind.STREET_USE).count() == 3
