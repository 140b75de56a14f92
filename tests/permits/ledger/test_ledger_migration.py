"""The ledger moved from the sidewalks app into the core with a state-only migration: a charge recorded before the
move is the same row, in the same table, after it (permits 0009, sidewalks 0007)."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("permits", "0008_street_opening_lanes_and_emergency_underground"),
    ("sidewalks", "0006_snowcase_unoccupied_303_8b"),
]
AFTER = [("permits", "0009_ledger_moves_into_the_core"), ("sidewalks", "0007_ledger_moves_into_the_core")]


@pytest.mark.django_db(transaction=True)
def test_a_charge_recorded_before_the_move_is_the_same_row_after_it():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    street = old.get_model("permits", "Street").objects.create(name="Henni Street")
    parcel = old.get_model("permits", "Parcel").objects.create(
        tax_key="266-1116-0001", site_address="118 Henni Street", owner_name="Owner, Olga", street=street
    )
    OldCharge = old.get_model("sidewalks", "SpecialCharge")
    charge = OldCharge.objects.create(
        number="SC-2026-0001",
        parcel=parcel,
        source="snow_ice",
        route="special_charge_66_0627",
        amount="75.00",
        description="Snow and ice removed by the Village",
        citation="§ 303-8B",
        incurred_on=datetime.date(2026, 1, 12),
    )
    assert OldCharge._meta.db_table == "sidewalks_specialcharge"

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    NewCharge = new.get_model("permits", "SpecialCharge")
    assert NewCharge._meta.db_table == "sidewalks_specialcharge"
    moved = NewCharge.objects.get(pk=charge.pk)
    assert (moved.number, str(moved.amount), moved.parcel_id) == ("SC-2026-0001", "75.00", parcel.pk)
    with pytest.raises(LookupError):
        new.get_model("sidewalks", "SpecialCharge")

    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())  # leave the database as it was
