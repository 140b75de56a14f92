"""Permit and receipt numbers: PREFIX-YEAR-NNNN, per prefix and per year, never reused, safe under concurrency."""

import datetime

import pytest

from permits.models import Permit, PermitKind
from permits.services import create_permit, next_number
from tests.concurrency import at_once, on_postgresql

JAN = datetime.date(2026, 1, 2)


@pytest.mark.django_db
def test_first_permit_of_the_year_is_0001(resident):
    permit = create_permit(kind=PermitKind.STREET_OPENING, applicant=resident, today=JAN)
    assert permit.number == "SO-2026-0001"
    assert permit.status == "draft"


@pytest.mark.django_db
def test_numbers_count_per_prefix_and_per_year(resident):
    numbers = [
        create_permit(kind=PermitKind.STREET_OPENING, applicant=resident, today=JAN).number,
        create_permit(kind=PermitKind.STREET_OPENING, applicant=resident, today=JAN).number,
        create_permit(kind=PermitKind.SIDEWALK, applicant=resident, today=JAN).number,
        create_permit(kind=PermitKind.STREET_PRIVILEGE, applicant=resident, today=JAN).number,
        create_permit(kind=PermitKind.STREET_USE, applicant=resident, today=JAN).number,
        create_permit(
            kind=PermitKind.STREET_OPENING,
            applicant=resident,
            today=datetime.date(2027, 1, 1),
        ).number,
        create_permit(
            kind=PermitKind.STREET_OPENING,
            applicant=resident,
            today=datetime.date(2026, 12, 31),
        ).number,
    ]
    assert numbers == [
        "SO-2026-0001",
        "SO-2026-0002",
        "SW-2026-0001",
        "SP-2026-0001",
        "SU-2026-0001",
        "SO-2027-0001",
        "SO-2026-0003",
    ]


@pytest.mark.django_db
def test_a_number_is_never_reused_even_after_its_draft_is_deleted(resident):
    create_permit(kind=PermitKind.STREET_OPENING, applicant=resident, today=JAN)
    second = create_permit(kind=PermitKind.STREET_OPENING, applicant=resident, today=JAN)
    Permit.objects.filter(pk=second.pk).delete()
    third = create_permit(kind=PermitKind.STREET_OPENING, applicant=resident, today=JAN)
    assert third.number == "SO-2026-0003"


@pytest.mark.django_db
def test_numbers_past_9999_keep_counting():
    from permits.models import NumberSequence

    NumberSequence.objects.create(prefix="SO", year=2026, last_value=9999)
    assert next_number("SO", 2026) == "SO-2026-10000"


@pytest.mark.django_db
def test_create_permit_refuses_an_organization_the_applicant_is_not_on(resident, contractor_org):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        create_permit(
            kind=PermitKind.STREET_OPENING,
            applicant=resident,
            organization=contractor_org,
            today=JAN,
        )
    assert not Permit.objects.exists()


@on_postgresql
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_concurrent_numbers_are_distinct_on_postgresql():
    threads_count, per_thread = 8, 10
    batches, errors = at_once(threads_count, lambda: [next_number("SO", 2026) for _ in range(per_thread)])
    assert not errors, errors
    results = [number for batch in batches for number in batch]
    assert len(results) == threads_count * per_thread
    assert len(set(results)) == len(results)
    assert sorted(results) == [f"SO-2026-{n:04d}" for n in range(1, threads_count * per_thread + 1)]


@on_postgresql
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_concurrent_create_permit_gives_distinct_numbers_on_postgresql():
    from tests.factories import UserFactory

    user = UserFactory()
    created, errors = at_once(6, lambda: create_permit(kind=PermitKind.SIDEWALK, applicant=user, today=JAN).number)
    assert not errors, errors
    assert sorted(created) == [f"SW-2026-{n:04d}" for n in range(1, 7)]
