"""Seed the unit prices the Village uses to estimate a sidewalk order (§ 303-3E, Wis. Stat. § 66.0907) as clearly
labelled PLACEHOLDERS in the fee schedule: the Clerk-Treasurer replaces them with the Board's adopted prices."""

import datetime
from decimal import Decimal

from django.db import migrations

PLACEHOLDERS = [
    (
        "sidewalk_replace_sqft",
        "Sidewalk replacement by the Village, per square foot",
        "12.00",
        "§ 303-3B(1); § 303-3E(2)",
    ),
    ("sidewalk_repair_block", "Sidewalk block repair by the Village, per block", "150.00", "§ 303-3B(1); § 303-3E(1)"),
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
                "basis": "PLACEHOLDER: not adopted by the Board. Replace with the unit price the Board sets and its "
                "basis (the Village's contract price for sidewalk work).",
                "is_placeholder": True,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("sidewalks", "0002_sidewalk_permits_surveys_orders"), ("permits", "0003_placeholder_fees")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
