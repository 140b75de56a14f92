from django.db import migrations

# PostgreSQL only: the trigram indexes the searches still lacked after 0016, each on UPPER(col::text), the
# expression Django's icontains and iexact compare (a gin_trgm_ops index serves LIKE and, since PostgreSQL 14, =).
# With them every column a search box reads (permits.text_search) is found through an index.
TRIGRAM_INDEXES = [
    ("parcel_tax_key_trgm", "permits_parcel", "tax_key"),
    ("charge_number_trgm", "sidewalks_specialcharge", "number"),
    ("charge_description_trgm", "sidewalks_specialcharge", "description"),
    ("street_name_trgm", "permits_street", "name"),
    ("user_first_name_trgm", "auth_user", "first_name"),
    ("user_username_trgm", "auth_user", "username"),
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
        ("permits", "0026_applicant"),
    ]

    operations = [
        migrations.RunPython(add_trigram_indexes, drop_trigram_indexes),
    ]
