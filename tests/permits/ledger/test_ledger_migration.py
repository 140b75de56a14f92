"""The ledger moved from the sidewalks app into the core with a state-only migration: a charge recorded before the
move is the same row, in the same table, after it (permits 0009, sidewalks 0007)."""

import datetime

import pytest
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import load_backend

BEFORE = [
    ("permits", "0008_street_opening_lanes_and_emergency_underground"),
    ("sidewalks", "0006_snowcase_unoccupied_303_8b"),
]
AFTER = [("permits", "0009_ledger_moves_into_the_core"), ("sidewalks", "0007_ledger_moves_into_the_core")]


SCRATCH = "ledger_move_check"


@pytest.fixture
def scratch(tmp_path):
    """A database of its own, empty: migrated forward from nothing to BEFORE, then to AFTER, then dropped. Taking the
    test database back from the newest migration to BEFORE and forward again unapplied and re-applied some forty
    migrations (100 s of the PostgreSQL pass); the two steps that matter take a few seconds from an empty one."""
    settings = dict(connection.settings_dict)
    if connection.vendor == "postgresql":
        settings["NAME"] = f"{connection.settings_dict['NAME']}_{SCRATCH}"
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')
            cursor.execute(f'CREATE DATABASE "{settings["NAME"]}"')
    else:
        settings["NAME"] = str(tmp_path / f"{SCRATCH}.sqlite3")
    # Made here, not in settings.DATABASES: Django's test case allows a connection created during the test.
    scratch = load_backend(settings["ENGINE"]).DatabaseWrapper(settings, SCRATCH)
    connections[SCRATCH] = scratch
    try:
        yield scratch
    finally:
        scratch.close()
        del connections[SCRATCH]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_charge_recorded_before_the_move_is_the_same_row_after_it(scratch):
    executor = MigrationExecutor(scratch)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    street = old.get_model("permits", "Street").objects.using(SCRATCH).create(name="Henni Street")
    parcel = (
        old.get_model("permits", "Parcel")
        .objects.using(SCRATCH)
        .create(tax_key="266-1116-0001", site_address="118 Henni Street", owner_name="Owner, Olga", street=street)
    )
    OldCharge = old.get_model("sidewalks", "SpecialCharge")
    charge = OldCharge.objects.using(SCRATCH).create(
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

    executor = MigrationExecutor(scratch)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    NewCharge = new.get_model("permits", "SpecialCharge")
    assert NewCharge._meta.db_table == "sidewalks_specialcharge"
    moved = NewCharge.objects.using(SCRATCH).get(pk=charge.pk)
    assert (moved.number, str(moved.amount), moved.parcel_id) == ("SC-2026-0001", "75.00", parcel.pk)
    with pytest.raises(LookupError):
        new.get_model("sidewalks", "SpecialCharge")

    assert MigrationExecutor(connection).migration_plan(executor.loader.graph.leaf_nodes()) == []  # untouched
