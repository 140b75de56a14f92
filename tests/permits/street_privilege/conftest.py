"""A street privilege world: the Chapter 167 fee, the street, a valid application of each purpose, and a permit
walked by the officials to any point of its life through the services."""

from datetime import date, timedelta
from decimal import Decimal as D

import pytest

from permits import services
from permits.street_privilege import services as sp
from tests.factories import FeeItemFactory, ParcelFactory, StreetFactory

FEE = D("60.00")


@pytest.fixture(autouse=True)
def fee(db):
    """The Chapter 167 `street_privilege` fee in force from June 1, 2026 (over the seeded placeholder)."""
    return FeeItemFactory(
        code="street_privilege",
        name="Street privilege permit",
        amount=FEE,
        effective_from=date(2026, 6, 1),
        citation="§ 303-7C",
    )


@pytest.fixture
def main_street(db):
    """Main Street, 36 ft wide on the street register (§ 303-7D(1): at most 12.0 ft occupied)."""
    return StreetFactory(name="Main Street", width_feet=D("36.0"), traveled_width_feet=D("30.0"))


@pytest.fixture
def abutting_parcel(main_street):
    return ParcelFactory(street=main_street, site_address="204 Main Street", owner_email="owner@example.com")


def materials_data(street, **overrides):
    data = {
        "purpose": "materials",
        "street": street,
        "location_description": "In front of 204 Main Street",
        "start_date": date(2027, 3, 15),
        "end_date": date(2027, 4, 15),
        "building_permit_number": "B-2027-014",
        "occupied_street_feet": D("12.0"),
        "sidewalk_occupied": True,
        "temporary_walk_width_feet": D("4.0"),
        "fence_height_feet": D("4.0"),
        "fenced_both_sides": True,
        "lighted_at_night": True,
    }
    return {**data, **overrides}


def move_data(street, **overrides):
    data = {
        "purpose": "move_building",
        "street": street,
        "location_description": "From 310 Main Street",
        "start_date": date(2027, 5, 1),
        "end_date": date(2027, 5, 2),
        "building_permit_number": "B-2027-020",
        "occupied_street_feet": D("12.0"),
        "lighted_at_night": True,
        "building_description": "Detached garage, 22 x 24 ft",
        "route_description": "Main Street east to Mill Street, north to 12 Mill Street",
        "overnight_stops": "None",
        "overnight_at_intersection_or_hydrant": False,
        "day_and_night_requested": True,
    }
    return {**data, **overrides}


@pytest.fixture
def world(main_street, contractor, contractor_org, clerk, dpw_director, police_chief, building_inspector):
    """walk(to, data=None, today=...): a materials (or given) application taken to `to` by the officials."""

    class World:
        street = main_street

        def apply(self, data=None, today=date(2027, 3, 1)):
            return sp.apply_for_street_privilege(
                applicant=contractor,
                organization=contractor_org,
                data=data or materials_data(main_street),
                today=today,
            )

        def recommend(self, permit):
            sp.record_recommendation(permit=permit, by=dpw_director, recommended=True, conditions="Barricades")
            sp.record_recommendation(
                permit=permit, by=police_chief, recommended=False, conditions="Escort", insurance_required=True
            )

        def determine(self, permit):
            """§ 303-7A: the Building Inspector finds a building permit required and records the one shown."""
            sp.record_building_permit_determination(
                permit=permit, by=building_inspector, required=True, shown_number="B-2027-014"
            )

        def file_insurance(self, permit):
            """The Chief's condition (§ 303-7A): the applicant's certificate of insurance, on the permit page."""
            from django.core.files.uploadedfile import SimpleUploadedFile

            from tests.upload_samples import PDF

            upload = SimpleUploadedFile("coi.pdf", PDF, content_type="application/pdf")
            services.upload_document(permit=permit, kind="insurance", by=permit.applicant, upload=upload)

        def bond_and_pay(self, permit):
            sp.set_bond(permit=permit, by=dpw_director, amount=D("5000.00"))
            sp.file_bond(permit=permit, by=clerk, surety="Badger State Surety Co.")
            permit.refresh_from_db()
            services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=clerk)

        def walk(self, to, data=None, today=date(2027, 3, 1)):
            permit = self.apply(data, today)
            if to == "submitted":
                return permit
            sp.begin_review(permit=permit, by=building_inspector, today=today)
            if to == "under_review":
                return permit
            self.recommend(permit)
            self.file_insurance(permit)
            self.determine(permit)
            sp.grant_street_privilege(permit=permit, by=building_inspector, conditions="7 a.m. to 7 p.m.", today=today)
            if to == "approved":
                return permit
            self.bond_and_pay(permit)
            sp.issue_street_privilege(permit=permit, by=building_inspector, today=today + timedelta(days=9))
            return permit

    return World()
