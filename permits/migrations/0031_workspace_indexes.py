"""The start pages' oldest-first work lists (permits.workspace) read the first rows of a status in the order
they waited, served by an index instead of sorting every permit of that status. Plain btree indexes, the same on
PostgreSQL and SQLite (the partial one too); raw SQL so that the Permit model's state is unchanged."""

from django.db import migrations

INDEXES = [
    ("permit_status_submitted_idx", "permits_permit", '"status", "submitted_at", "id"'),
    ("permit_status_approved_idx", "permits_permit", '"status", "approved_on", "id"'),
    ("permit_submitted_idx", "permits_permit", '"submitted_at", "id"'),
    # Each start page's "what I did lately": a user's newest timeline rows (the bench clerk wrote 100,000s of them)
    ("permitevent_actor_at_idx", "permits_permitevent", '"actor_id", "at" DESC, "id" DESC'),
    # The inspector's "inspections due": the few openings whose completion was asked for
    (
        "streetopening_completion_idx",
        "permits_streetopening",
        '"permit_id") WHERE ("completion_requested_at" IS NOT NULL',
    ),
    # "Insurance ending within 30 days" (§ 303-4G): the openings whose insurance ends by a day
    ("streetopening_insurance_idx", "permits_streetopening", '"insurance_expires"'),
    # The Board's § 303-5A matter reads the few openings that claim an emergency (partial: both databases have them)
    ("streetopening_emergency_idx", "permits_streetopening", '"permit_id") WHERE ("emergency"'),
]


class Migration(migrations.Migration):
    dependencies = [("permits", "0029_list_indexes")]

    operations = [
        migrations.RunSQL(f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({columns})", f"DROP INDEX IF EXISTS {name}")
        for name, table, columns in INDEXES
    ]
