from django.db import migrations, models

# The enforcement cases in the staff search (obstructions/search_sources.py) found through trigram indexes
# (PostgreSQL only; each on UPPER(col::text), the expression Django's icontains compares, as permits 0016 and 0028),
# and listed newest first from an index of that order.
TRIGRAM_INDEXES = [
    ("case_number_trgm", "obstructions_case", "number"),
    ("case_address_trgm", "obstructions_case", "reported_address"),
    ("case_what_trgm", "obstructions_case", "what"),
]


def add_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in TRIGRAM_INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _table, _column in TRIGRAM_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("obstructions", "0002_registers"),
    ]

    operations = [
        migrations.RunPython(add_trigram_indexes, drop_trigram_indexes),
        migrations.AddIndex(
            model_name="case",
            index=models.Index(fields=["-opened_at", "-id"], name="case_opened_at_idx"),
        ),
    ]
