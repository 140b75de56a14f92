"""Plain factories. Reading a test should not require reading these."""

import datetime
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from permits.models import FeeItem, Organization, Parcel, Permit, PermitKind, Street


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    first_name = "Pat"
    last_name = factory.Sequence(lambda n: f"Tester{n}")
    password = factory.django.Password("correct-horse-battery")


class OrganizationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organization

    name = factory.Sequence(lambda n: f"Digger {n} LLC")
    kind = Organization.Kind.CONTRACTOR


class StreetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Street
        django_get_or_create = ("name",)
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Elm {n} Street")
    # § 303-7D(1), § 303-6B(2): every test street has its widths on record unless the test says None.
    width_feet = Decimal("36.0")
    traveled_width_feet = Decimal("30.0")
    sidewalk_width_feet = Decimal("5.0")

    @factory.post_generation
    def grade(street, create, extracted, **kwargs):
        """§ 303-1A(1): no street is worked until its grade is recorded, so every test street has one (confirmed, as
        the register records grades established before it) unless the test asks for none: StreetFactory(grade=False).
        """
        if not create or extracted is False:
            return
        from django.utils import timezone

        from obstructions.registers.models import Grade

        if not Grade.objects.filter(street=street, way=Grade.Way.STREET, in_force=True).exists():
            Grade.objects.create(
                street=street,
                way=Grade.Way.STREET,
                basis=Grade.Basis.CONFIRMED,
                description=f"Test grade of {street}",
                resolution_number="1968-T",
                established_on=datetime.date(1968, 6, 3),
                recorded_by=UserFactory(username="grade-book"),
                recorded_at=timezone.now(),
            )


class ParcelFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Parcel

    tax_key = factory.Sequence(lambda n: f"266-9999-{n:04d}")
    site_address = factory.Sequence(lambda n: f"{100 + n} Elm Street")
    owner_name = "Owner, Olga"
    owner_mailing_address = "PO Box 1, Theresa, WI 53091"
    land_use = Parcel.LandUse.RESIDENTIAL
    street = factory.SubFactory(StreetFactory)


class FeeItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = FeeItem

    code = "street_opening"
    name = "Street opening permit"
    amount = Decimal("50.00")
    effective_from = datetime.date(2020, 1, 1)
    citation = "§ 303-4F(2)"
    basis = "test"


class PermitFactory(factory.django.DjangoModelFactory):
    """A draft permit; move it on with permits.workflow.transition."""

    class Meta:
        model = Permit

    kind = PermitKind.STREET_OPENING
    number = factory.Sequence(lambda n: f"SO-2026-{9000 + n}")
    applicant = factory.SubFactory(UserFactory)
    street = factory.SubFactory(StreetFactory)
    location_description = "In front of 123 Elm Street"
