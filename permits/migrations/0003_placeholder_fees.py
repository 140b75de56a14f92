"""Seed the fee schedule with clearly labelled placeholders: Chapter 167's amounts are set by Board resolution, and
the Clerk-Treasurer replaces these in the back office (Fee items) before going live."""

import datetime
from decimal import Decimal

from django.db import migrations

PLACEHOLDERS = [
    ("street_opening", "Street opening / excavation permit", "50.00", "§ 303-4F(2)"),
    ("street_opening_renewal", "Street opening permit renewal (30 days)", "25.00", "§ 303-4E"),
    ("backfill_retest", "Backfill compaction retest", "75.00", "§ 303-5E(5)"),
    ("sidewalk", "Sidewalk permit", "25.00", "§ 303-3C"),
    ("street_privilege", "Street privilege permit", "50.00", "§ 303-7C"),
    ("street_use", "Street use permit", "25.00", "§ 303-15E"),
    ("snow_removal", "Village snow and ice removal, per clearing", "75.00", "§ 303-8B"),
]


def seed(apps, schema_editor):
    FeeItem = apps.get_model("permits", "FeeItem")
    for code, name, amount, citation in PLACEHOLDERS:
        FeeItem.objects.get_or_create(
            code=code,
            effective_from=datetime.date(2026, 1, 1),
            defaults={
                "name": name,
                "amount": Decimal(amount),
                "citation": citation,
                "basis": "PLACEHOLDER: not adopted by the Board. Replace with the Chapter 167 amount and its basis.",
                "is_placeholder": True,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("permits", "0002_staff_groups")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
