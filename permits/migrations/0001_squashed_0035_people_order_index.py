"""permits: the schema as it stands, made once, then the data every new database needs (groups, placeholder fees,
the site's name, statutory closures, seats) and the raw-SQL indexes the model state does not hold. It replaces the
history it was squashed from, so a database already migrated through that history carries on from here."""

import datetime
import uuid
from decimal import Decimal
from urllib.parse import urlparse

import django.db.models.deletion
import django.db.models.functions.comparison
import phonenumber_field.modelfields
import simple_history.models
from django.conf import settings
from django.db import migrations, models

import permits.ledger.models
import permits.models.core

ROLES = [
    "Clerk-Treasurer",
    "Director of Public Works",
    "DPW Inspector",
    "Building Inspector",
    "Chief of Police",
    "Village Board",
    "Village President",
]


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


PLACEHOLDER_FEES = [
    ("street_opening", "Street opening / excavation permit", "50.00", "§ 303-4F(2)"),
    ("street_opening_renewal", "Street opening permit renewal (30 days)", "25.00", "§ 303-4E"),
    ("backfill_retest", "Backfill compaction retest", "75.00", "§ 303-5E(5)"),
    ("sidewalk", "Sidewalk permit", "25.00", "§ 303-3C"),
    ("street_privilege", "Street privilege permit", "50.00", "§ 303-7C"),
    ("street_use", "Street use permit", "25.00", "§ 303-15E"),
    ("snow_removal", "Village snow and ice removal, per clearing", "75.00", "§ 303-8B"),
]


def seed_placeholder_fees(apps, schema_editor):
    FeeItem = apps.get_model("permits", "FeeItem")
    for code, name, amount, citation in PLACEHOLDER_FEES:
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


def name_the_site(apps, schema_editor):
    Site = apps.get_model("sites", "Site")
    domain = urlparse(settings.SITE_URL).netloc or "127.0.0.1:8000"
    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": "Theresa Permits"})


SEED_YEARS = range(2025, 2036)


def seed_statutory_closures(apps, schema_editor):
    """The legal holidays of Wis. Stat. § 995.20 on the office-closure calendar (idempotent: a day already on it,
    as the clerk set it, is left alone)."""
    from permits.legal_holidays import legal_holidays

    OfficeClosure = apps.get_model("permits", "OfficeClosure")
    for year in SEED_YEARS:
        for day, name in legal_holidays(year).items():
            OfficeClosure.objects.get_or_create(day=day, defaults={"name": name, "source": "statute"})


# Wis. Stat. § 61.32: a village board is the village president and the trustees; Theresa's has seven seats (the
# President and six trustees). Seeded once, idempotent, as existing before any record kept here; the seat count is
# data the clerk maintains (Seat rows), never a constant. Waivers recorded before the roster are counted against it.
SEATS = [(1, "president")] + [(n, "trustee") for n in range(2, 8)]


BEFORE_ANY_RECORD = datetime.date(1900, 1, 1)


def seed_seats(apps, schema_editor):
    Seat = apps.get_model("permits", "Seat")
    if Seat.objects.exists():
        return
    for number, office in SEATS:
        Seat.objects.get_or_create(number=number, defaults={"office": office, "established_on": BEFORE_ANY_RECORD})


# PostgreSQL only: trigram indexes for the "contains" searches of the office and the admin. Each is on
# UPPER(col::text), the expression Django's icontains compares, so the planner can use it.
TRIGRAM_INDEXES = [
    ("permit_number_trgm", "permits_permit", "number"),
    ("permit_location_trgm", "permits_permit", "location_description"),
    ("organization_name_trgm", "permits_organization", "name"),
    ("parcel_address_trgm", "permits_parcel", "site_address"),
    ("parcel_owner_trgm", "permits_parcel", "owner_name"),
    ("user_last_name_trgm", "auth_user", "last_name"),
    ("user_email_trgm", "auth_user", "email"),
]


def add_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in TRIGRAM_INDEXES + MORE_TRIGRAM_INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _table, _column in TRIGRAM_INDEXES + MORE_TRIGRAM_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


# PostgreSQL only: the trigram indexes the searches still lacked after 0016, each on UPPER(col::text), the
# expression Django's icontains and iexact compare (a gin_trgm_ops index serves LIKE and, since PostgreSQL 14, =).
# With them every column a search box reads (permits.text_search) is found through an index.
MORE_TRIGRAM_INDEXES = [
    ("parcel_tax_key_trgm", "permits_parcel", "tax_key"),
    ("charge_number_trgm", "sidewalks_specialcharge", "number"),
    ("charge_description_trgm", "sidewalks_specialcharge", "description"),
    ("street_name_trgm", "permits_street", "name"),
    ("user_first_name_trgm", "auth_user", "first_name"),
    ("user_username_trgm", "auth_user", "username"),
]


# PostgreSQL only: the inspector's list reads the open street openings a page at a time in number order.
OPEN_STREET_OPENINGS = (
    "CREATE INDEX IF NOT EXISTS permit_open_street_opening_number ON permits_permit (number) "
    "WHERE kind = 'street_opening' AND status IN ('issued', 'active')"
)


def add_open_street_opening_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(OPEN_STREET_OPENINGS)


def drop_open_street_opening_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS permit_open_street_opening_number")


WORK_LIST_INDEXES = [
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
    initial = True
    replaces = [
        ("permits", "0001_initial"),
        ("permits", "0002_staff_groups"),
        ("permits", "0003_placeholder_fees"),
        ("permits", "0004_street_opening"),
        ("permits", "0005_street_opening_field"),
        ("permits", "0006_permittee_notice_one_pending"),
        ("permits", "0007_site_name"),
        ("permits", "0008_street_opening_lanes_and_emergency_underground"),
        ("permits", "0009_ledger_moves_into_the_core"),
        ("permits", "0010_money_recorded_once"),
        ("permits", "0011_organization_invitation"),
        ("permits", "0012_street_opening_lifecycle"),
        ("permits", "0013_office_calendar_utilities_revocation"),
        ("permits", "0014_village_board"),
        ("permits", "0015_notices_given_by_email_or_mail"),
        ("permits", "0016_indexes_for_scale"),
        ("permits", "0017_online_payments"),
        ("permits", "0018_streetmap"),
        ("permits", "0019_scale_fingerprint_and_inspection_queue"),
        ("permits", "0020_charge_payment_refunded"),
        ("permits", "0021_board_clauses_of_every_matter"),
        ("permits", "0022_street_privilege"),
        ("permits", "0023_street_use"),
        ("permits", "0024_board_agenda"),
        ("permits", "0026_applicant"),
        ("permits", "0027_reports"),
        ("permits", "0028_search_indexes"),
        ("permits", "0029_list_indexes"),
        ("permits", "0031_workspace_indexes"),
        ("permits", "0033_work2"),
        ("permits", "0034_in_effect_index"),
        ("permits", "0035_people_order_index"),
    ]
    dependencies = [
        ("auth", "__first__"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("sites", "0002_alter_domain_unique"),
    ]
    operations = [
        migrations.CreateModel(
            name="JobRun",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100)),
                ("started_at", models.DateTimeField()),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "state",
                    models.CharField(
                        choices=[("running", "Running"), ("finished", "Finished"), ("failed", "Failed")],
                        default="running",
                        max_length=10,
                    ),
                ),
                ("items_total", models.PositiveIntegerField(default=0)),
                ("items_done", models.PositiveIntegerField(default=0)),
                ("message", models.TextField(blank=True)),
            ],
            options={
                "ordering": ["-started_at"],
            },
        ),
        migrations.CreateModel(
            name="Street",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100, unique=True)),
                ("notes", models.TextField(blank=True)),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="CalendarToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("token", models.UUIDField(default=uuid.uuid4, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="calendar_token",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="ChargePayment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                (
                    "method",
                    models.CharField(
                        choices=[
                            ("cash", "Cash"),
                            ("check", "Check"),
                            ("card", "Card"),
                            ("tax_bill", "Collected on the tax bill"),
                        ],
                        max_length=10,
                    ),
                ),
                ("reference", models.CharField(blank=True, max_length=60)),
                ("receipt_number", models.CharField(editable=False, max_length=20, unique=True)),
                ("received_at", models.DateTimeField()),
                ("refunded", models.BooleanField(default=False, editable=False)),
                (
                    "received_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "db_table": "sidewalks_chargepayment",
                "ordering": ["-received_at"],
                "constraints": [],
            },
        ),
        migrations.CreateModel(
            name="ConflictMargin",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("days", models.PositiveSmallIntegerField()),
                ("effective_from", models.DateField()),
                ("set_at", models.DateTimeField()),
                ("note", models.CharField(blank=True, max_length=200)),
                (
                    "set_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-effective_from", "-set_at"],
            },
        ),
        migrations.CreateModel(
            name="Document",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("insurance", "Certificate of insurance"),
                            ("bond", "Bond"),
                            ("indemnity", "Indemnity agreement (§ 303-15G)"),
                            ("plans", "Plans"),
                            ("photo", "Photo"),
                            ("other", "Other"),
                        ],
                        max_length=20,
                    ),
                ),
                ("file", models.FileField(upload_to=permits.models.core.document_upload_to)),
                ("original_name", models.CharField(max_length=255)),
                ("content_type", models.CharField(max_length=60)),
                ("extension", models.CharField(max_length=5)),
                ("size", models.PositiveIntegerField()),
                ("uploaded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "uploaded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["uploaded_at"],
            },
        ),
        migrations.CreateModel(
            name="FeeItem",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("code", models.SlugField(help_text="Stable code the application looks fees up by", max_length=60)),
                ("name", models.CharField(max_length=200)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                ("effective_from", models.DateField()),
                ("effective_to", models.DateField(blank=True, null=True)),
                (
                    "citation",
                    models.CharField(help_text="Section that charges the fee, e.g. § 303-4F(2)", max_length=60),
                ),
                (
                    "basis",
                    models.TextField(
                        help_text="Why this amount bears a reasonable relationship to the service (Wis. Stat. § 66.0628)"
                    ),
                ),
                (
                    "is_placeholder",
                    models.BooleanField(
                        default=False,
                        help_text="Seeded amount not yet adopted by the Board: replace it with the Chapter 167 amount",
                    ),
                ),
            ],
            options={
                "ordering": ["code", "-effective_from"],
                "constraints": [
                    models.UniqueConstraint(fields=("code", "effective_from"), name="fee_item_unique_start"),
                    models.CheckConstraint(condition=models.Q(("amount__gte", 0)), name="fee_item_amount_not_negative"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("effective_to__isnull", True),
                            ("effective_to__gte", models.F("effective_from")),
                            _connector="OR",
                        ),
                        name="fee_item_period_in_order",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalFeeItem",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("code", models.SlugField(help_text="Stable code the application looks fees up by", max_length=60)),
                ("name", models.CharField(max_length=200)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                ("effective_from", models.DateField()),
                ("effective_to", models.DateField(blank=True, null=True)),
                (
                    "citation",
                    models.CharField(help_text="Section that charges the fee, e.g. § 303-4F(2)", max_length=60),
                ),
                (
                    "basis",
                    models.TextField(
                        help_text="Why this amount bears a reasonable relationship to the service (Wis. Stat. § 66.0628)"
                    ),
                ),
                (
                    "is_placeholder",
                    models.BooleanField(
                        default=False,
                        help_text="Seeded amount not yet adopted by the Board: replace it with the Chapter 167 amount",
                    ),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical fee item",
                "verbose_name_plural": "historical fee items",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalMeeting",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[("regular", "Regular meeting"), ("special", "Special meeting")],
                        default="regular",
                        max_length=10,
                    ),
                ),
                ("held_on", models.DateField()),
                ("title", models.CharField(blank=True, max_length=200)),
                ("agenda_published_on", models.DateField(blank=True, null=True)),
                ("attendance_recorded_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "locked_at",
                    models.DateTimeField(blank=True, editable=False, help_text="Minutes locked: the record", null=True),
                ),
                ("created_at", models.DateTimeField(blank=True, editable=False)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "locked_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical meeting",
                "verbose_name_plural": "historical meetings",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalOfficeClosure",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("day", models.DateField(db_index=True)),
                ("name", models.CharField(max_length=120)),
                (
                    "closed",
                    models.BooleanField(
                        default=True,
                        help_text="Untick when the office is open that day after all (it is then a business day).",
                    ),
                ),
                (
                    "source",
                    models.CharField(
                        choices=[
                            ("statute", "Legal holiday (Wis. Stat. § 995.20)"),
                            ("clerk", "Added by the Clerk-Treasurer"),
                        ],
                        default="clerk",
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("recorded_at", models.DateTimeField(blank=True, editable=False)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical office closure",
                "verbose_name_plural": "historical office closures",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalOrganization",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("name", models.CharField(db_index=True, max_length=200)),
                (
                    "kind",
                    models.CharField(
                        choices=[("contractor", "Contractor"), ("utility", "Utility company")], max_length=20
                    ),
                ),
                ("phone", models.CharField(blank=True, max_length=40)),
                ("address", models.TextField(blank=True)),
                (
                    "utility_facilities",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text="§ 303-5H: the utilities this organization owns or controls in or under Village streets, as the Clerk-Treasurer verified. Only such an organization (and its staff) may claim an emergency excavation.",
                    ),
                ),
                (
                    "utility_facilities_note",
                    models.CharField(
                        blank=True,
                        help_text="What it owns or controls, e.g. the gas mains on every Village street.",
                        max_length=300,
                    ),
                ),
                ("utility_recorded_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("created_at", models.DateTimeField(blank=True, editable=False)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "utility_recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical organization",
                "verbose_name_plural": "historical organizations",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalSeat",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(db_index=True, help_text="1 is the President's seat")),
                (
                    "office",
                    models.CharField(
                        choices=[("president", "Village President"), ("trustee", "Trustee")], max_length=20
                    ),
                ),
                ("established_on", models.DateField()),
                (
                    "abolished_on",
                    models.DateField(blank=True, help_text="The first day the seat no longer exists", null=True),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical seat",
                "verbose_name_plural": "historical seats",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalStreet",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("name", models.CharField(db_index=True, max_length=100)),
                ("notes", models.TextField(blank=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical street",
                "verbose_name_plural": "historical streets",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="Meeting",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[("regular", "Regular meeting"), ("special", "Special meeting")],
                        default="regular",
                        max_length=10,
                    ),
                ),
                ("held_on", models.DateField()),
                ("title", models.CharField(blank=True, max_length=200)),
                ("agenda_published_on", models.DateField(blank=True, null=True)),
                ("attendance_recorded_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "locked_at",
                    models.DateTimeField(blank=True, editable=False, help_text="Minutes locked: the record", null=True),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "locked_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-held_on", "-pk"],
                "indexes": [models.Index(fields=["-held_on"], name="board_meeting_held_on")],
            },
        ),
        migrations.CreateModel(
            name="AgendaItem",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("order", models.PositiveSmallIntegerField(default=1)),
                ("title", models.CharField(max_length=300)),
                (
                    "clause",
                    models.CharField(
                        choices=[
                            (
                                "303-2",
                                "§ 303-2: notify owners to remove rubbish or dirt from sidewalks, and cause its removal",
                            ),
                            ("303-4H(4)", "§ 303-4H(4): find street opening work defective within the guarantee year"),
                            ("303-5A", "§ 303-5A: determine a winter opening to be an emergency excavation"),
                            ("303-5I", "§ 303-5I: find an opening of a repaved street absolutely essential"),
                            ("303-4H(3)", "§ 303-4H(3), (5): determine the amount of guarantee and annual bonds"),
                            ("303-3D(8)(c)", "§ 303-3D(8)(c): waive the commercial sidewalk width and thickness"),
                            ("303-3D(9)", "§ 303-3D(9): waive the cold-weather pour rule for an emergency replacement"),
                            (
                                "303-3B(3)",
                                "§ 303-3B(3), Wis. Stat. § 66.0907: order sidewalks laid, rebuilt or repaired",
                            ),
                            ("66.0627", "Wis. Stat. § 66.0627(3)(b): hear objections to a special charge"),
                            ("303-7B", "§ 303-7B: waive the street privilege bond"),
                            ("303-7D(4)", "§ 303-7D(4): order a building move to continue day and night"),
                            ("303-7D(6)", "§ 303-7D(6): prescribe the route of a building move"),
                            ("303-7F", "§ 303-7F: notify the adjoining owner to remove a sidewalk obstruction"),
                            ("303-15C", "§ 303-15C: grant or deny a street use permit"),
                            ("303-1A", "§ 303-1A: establish the grade of a street, alley or sidewalk"),
                            ("303-1B", "§ 303-1B: alter an established grade"),
                            ("303-9", "§ 303-9: approve paving or covering an area of a terrace"),
                            ("303-3D(11)", "§ 303-3D(11): require a higher sidewalk standard at a location"),
                            ("303-11", "§ 303-11: consider the year's street and sidewalk improvement requests"),
                            ("other", "Other business"),
                        ],
                        default="other",
                        max_length=20,
                    ),
                ),
                ("description", models.TextField(blank=True)),
                ("subject_id", models.PositiveBigIntegerField(blank=True, null=True)),
                (
                    "subject_type",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="contenttypes.contenttype",
                    ),
                ),
                (
                    "meeting",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="items", to="permits.meeting"
                    ),
                ),
            ],
            options={
                "ordering": ["meeting", "order", "pk"],
                "indexes": [models.Index(fields=["subject_type", "subject_id"], name="board_item_subject")],
            },
        ),
        migrations.CreateModel(
            name="Membership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "is_manager",
                    models.BooleanField(default=False, help_text="May add and remove the organization's staff."),
                ),
                ("joined_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [],
            },
        ),
        migrations.CreateModel(
            name="Motion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("text", models.TextField()),
                (
                    "rule",
                    models.CharField(
                        choices=[
                            ("majority_present", "A majority of those present"),
                            ("three_fourths_entire", "Three-fourths of the entire Board (§ 303-3D(8)(c))"),
                        ],
                        default="majority_present",
                        max_length=30,
                    ),
                ),
                ("resolution_number", models.CharField(blank=True, max_length=40)),
                (
                    "outcome",
                    models.CharField(
                        choices=[("carried", "Carried"), ("failed", "Failed")], editable=False, max_length=10
                    ),
                ),
                (
                    "seats",
                    models.PositiveSmallIntegerField(editable=False, help_text="Seats on the entire Board that day"),
                ),
                ("present", models.PositiveSmallIntegerField(editable=False)),
                ("ayes", models.PositiveSmallIntegerField(editable=False)),
                ("nays", models.PositiveSmallIntegerField(editable=False)),
                ("abstentions", models.PositiveSmallIntegerField(default=0, editable=False)),
                ("needed", models.PositiveSmallIntegerField(editable=False, help_text="Ayes the rule needed")),
                ("recorded_at", models.DateTimeField()),
                (
                    "item",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="motions", to="permits.agendaitem"
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-item__meeting__held_on", "-pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("resolution_number", ""), _negated=True),
                        fields=("resolution_number",),
                        name="board_resolution_unique",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("ayes__lte", models.F("seats"))), name="board_motion_ayes_within_seats"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalDesignation",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                (
                    "clause",
                    models.CharField(
                        choices=[
                            (
                                "303-2",
                                "§ 303-2: notify owners to remove rubbish or dirt from sidewalks, and cause its removal",
                            ),
                            ("303-4H(4)", "§ 303-4H(4): find street opening work defective within the guarantee year"),
                            ("303-5A", "§ 303-5A: determine a winter opening to be an emergency excavation"),
                            ("303-5I", "§ 303-5I: find an opening of a repaved street absolutely essential"),
                            ("303-9", "§ 303-9: approve paving or covering an area of a terrace"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("Clerk-Treasurer", "Clerk"),
                            ("Director of Public Works", "Dpw Director"),
                            ("DPW Inspector", "Dpw Inspector"),
                            ("Building Inspector", "Building Inspector"),
                            ("Chief of Police", "Police Chief"),
                            ("Village Board", "Board"),
                            ("Village President", "President"),
                        ],
                        help_text="An office, instead of a person",
                        max_length=40,
                    ),
                ),
                ("starts_on", models.DateField()),
                ("ends_on", models.DateField(blank=True, help_text="The last day in force (inclusive)", null=True)),
                ("recorded_at", models.DateTimeField()),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "ended_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        help_text="The Board's motion that ended the designation (ends_on set from it)",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical designation",
                "verbose_name_plural": "historical designations",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalBondAmount",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("guarantee", "Guarantee or surety bond for one permit (§ 303-4H(3))"),
                            ("annual", "Annual bond (§ 303-4H(5))"),
                        ],
                        max_length=20,
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("effective_from", models.DateField()),
                (
                    "effective_until",
                    models.DateField(blank=True, help_text="The last day in force (inclusive)", null=True),
                ),
                ("recorded_at", models.DateTimeField()),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical bond amount",
                "verbose_name_plural": "historical bond amounts",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="Designation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "clause",
                    models.CharField(
                        choices=[
                            (
                                "303-2",
                                "§ 303-2: notify owners to remove rubbish or dirt from sidewalks, and cause its removal",
                            ),
                            ("303-4H(4)", "§ 303-4H(4): find street opening work defective within the guarantee year"),
                            ("303-5A", "§ 303-5A: determine a winter opening to be an emergency excavation"),
                            ("303-5I", "§ 303-5I: find an opening of a repaved street absolutely essential"),
                            ("303-9", "§ 303-9: approve paving or covering an area of a terrace"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("Clerk-Treasurer", "Clerk"),
                            ("Director of Public Works", "Dpw Director"),
                            ("DPW Inspector", "Dpw Inspector"),
                            ("Building Inspector", "Building Inspector"),
                            ("Chief of Police", "Police Chief"),
                            ("Village Board", "Board"),
                            ("Village President", "President"),
                        ],
                        help_text="An office, instead of a person",
                        max_length=40,
                    ),
                ),
                ("starts_on", models.DateField()),
                ("ends_on", models.DateField(blank=True, help_text="The last day in force (inclusive)", null=True)),
                ("recorded_at", models.DateTimeField()),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="board_designations",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "ended_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        help_text="The Board's motion that ended the designation (ends_on set from it)",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ended_designations",
                        to="permits.motion",
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="designations", to="permits.motion"
                    ),
                ),
            ],
            options={
                "ordering": ["clause", "-starts_on"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("user__isnull", False), ("role", "")),
                            models.Q(("user__isnull", True), models.Q(("role", ""), _negated=True)),
                            _connector="OR",
                        ),
                        name="board_designation_person_or_office",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("ends_on__isnull", True), ("ends_on__gte", models.F("starts_on")), _connector="OR"
                        ),
                        name="board_designation_ends_after",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="BondAmount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("guarantee", "Guarantee or surety bond for one permit (§ 303-4H(3))"),
                            ("annual", "Annual bond (§ 303-4H(5))"),
                        ],
                        max_length=20,
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("effective_from", models.DateField()),
                (
                    "effective_until",
                    models.DateField(blank=True, help_text="The last day in force (inclusive)", null=True),
                ),
                ("recorded_at", models.DateTimeField()),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="bond_amounts", to="permits.motion"
                    ),
                ),
            ],
            options={
                "ordering": ["kind", "-effective_from"],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("amount__gt", 0)), name="bond_amount_positive"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("effective_until__isnull", True),
                            ("effective_until__gte", models.F("effective_from")),
                            _connector="OR",
                        ),
                        name="bond_amount_until_after_from",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="NoticePreference",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("topic", models.CharField(max_length=40)),
                ("by_email", models.BooleanField(default=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notice_preferences",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("user", "topic"), name="notice_preference_once_per_topic")
                ],
            },
        ),
        migrations.CreateModel(
            name="NumberSequence",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("prefix", models.CharField(max_length=8)),
                ("year", models.PositiveIntegerField()),
                ("last_value", models.PositiveIntegerField(default=0)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("prefix", "year"), name="number_sequence_unique")],
            },
        ),
        migrations.CreateModel(
            name="OfficeClosure",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("day", models.DateField(unique=True)),
                ("name", models.CharField(max_length=120)),
                (
                    "closed",
                    models.BooleanField(
                        default=True,
                        help_text="Untick when the office is open that day after all (it is then a business day).",
                    ),
                ),
                (
                    "source",
                    models.CharField(
                        choices=[
                            ("statute", "Legal holiday (Wis. Stat. § 995.20)"),
                            ("clerk", "Added by the Clerk-Treasurer"),
                        ],
                        default="clerk",
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("recorded_at", models.DateTimeField(auto_now=True)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "office closure",
                "ordering": ["day"],
            },
        ),
        migrations.CreateModel(
            name="Organization",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200, unique=True)),
                (
                    "kind",
                    models.CharField(
                        choices=[("contractor", "Contractor"), ("utility", "Utility company")], max_length=20
                    ),
                ),
                ("phone", models.CharField(blank=True, max_length=40)),
                ("address", models.TextField(blank=True)),
                (
                    "utility_facilities",
                    models.JSONField(
                        blank=True,
                        default=list,
                        help_text="§ 303-5H: the utilities this organization owns or controls in or under Village streets, as the Clerk-Treasurer verified. Only such an organization (and its staff) may claim an emergency excavation.",
                    ),
                ),
                (
                    "utility_facilities_note",
                    models.CharField(
                        blank=True,
                        help_text="What it owns or controls, e.g. the gas mains on every Village street.",
                        max_length=300,
                    ),
                ),
                ("utility_recorded_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "members",
                    models.ManyToManyField(
                        related_name="organizations", through="permits.Membership", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "utility_recorded_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.AddField(
            model_name="membership",
            name="organization",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to="permits.organization"
            ),
        ),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "email",
                    models.EmailField(
                        help_text="Stored lower-cased; matched against the accepting user's verified emails.",
                        max_length=254,
                    ),
                ),
                ("token", models.CharField(editable=False, max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("accepted_at", models.DateTimeField(blank=True, null=True)),
                (
                    "accepted_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "invited_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="permits.organization",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("accepted_at__isnull", True)),
                        fields=("organization", "email"),
                        name="invitation_one_pending_per_email",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalAnnualBond",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("year", models.PositiveIntegerField()),
                ("surety", models.CharField(max_length=200)),
                ("bond_number", models.CharField(blank=True, max_length=60)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("recorded_at", models.DateTimeField()),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "principal_user",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="An individual applicant, when the bond is not an organization's",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.organization",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical annual bond",
                "verbose_name_plural": "historical annual bonds",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="AnnualBond",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("year", models.PositiveIntegerField()),
                ("surety", models.CharField(max_length=200)),
                ("bond_number", models.CharField(blank=True, max_length=60)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("recorded_at", models.DateTimeField()),
                (
                    "principal_user",
                    models.ForeignKey(
                        blank=True,
                        help_text="An individual applicant, when the bond is not an organization's",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="annual_bonds",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="annual_bonds",
                        to="permits.organization",
                    ),
                ),
            ],
            options={
                "ordering": ["-year"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("organization__isnull", False), ("principal_user__isnull", False), _connector="OR"
                        ),
                        name="annual_bond_has_principal",
                    ),
                    models.CheckConstraint(condition=models.Q(("amount__gt", 0)), name="annual_bond_amount_positive"),
                    models.UniqueConstraint(fields=("organization", "year"), name="annual_bond_one_per_org_year"),
                ],
            },
        ),
        migrations.CreateModel(
            name="Parcel",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tax_key", models.CharField(max_length=40, unique=True, verbose_name="tax key number")),
                ("site_address", models.CharField(max_length=200)),
                ("owner_name", models.CharField(max_length=200)),
                ("owner_mailing_address", models.TextField()),
                ("owner_email", models.EmailField(blank=True, max_length=254)),
                (
                    "land_use",
                    models.CharField(
                        choices=[
                            ("residential", "Residential"),
                            ("commercial", "Commercial"),
                            ("industrial", "Industrial"),
                        ],
                        max_length=20,
                    ),
                ),
                ("corner_lot", models.BooleanField(default=False)),
                (
                    "crosswalk_adjacent",
                    models.BooleanField(default=False, help_text="Next to a public crosswalk (§ 303-8A)"),
                ),
                (
                    "owners",
                    models.ManyToManyField(
                        blank=True,
                        help_text="Portal accounts of the owner of record",
                        related_name="parcels",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        help_text="Abutting street",
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="parcels",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "ordering": ["street__name", "site_address"],
                "indexes": [
                    models.Index(fields=["site_address"], name="permits_par_site_ad_577545_idx"),
                    models.Index(fields=["owner_name"], name="permits_par_owner_n_449451_idx"),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalRegisteredResident",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                ("birth_date", models.DateField(blank=True, null=True)),
                ("attested_adult", models.BooleanField(default=False, verbose_name="18 or over (attested)")),
                (
                    "email",
                    models.EmailField(
                        blank=True,
                        help_text="Optional: an online signature from it matches this resident",
                        max_length=254,
                    ),
                ),
                (
                    "resides_until",
                    models.DateField(blank=True, help_text="Moved out: the last day of residence", null=True),
                ),
                ("recorded_at", models.DateTimeField(blank=True, editable=False)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.parcel",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical registered resident (§ 303-15F)",
                "verbose_name_plural": "historical registered resident (§ 303-15F)s",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="ParcelLinkRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tax_bill_number", models.CharField(blank=True, max_length=40)),
                ("document", models.FileField(blank=True, upload_to="parcel-links/%Y/")),
                ("document_content_type", models.CharField(blank=True, max_length=60)),
                ("note", models.CharField(blank=True, max_length=300)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the Clerk-Treasurer"),
                            ("approved", "Approved"),
                            ("refused", "Refused"),
                        ],
                        default="pending",
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("requested_at", models.DateTimeField(auto_now_add=True)),
                ("decided_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("decision_reason", models.CharField(blank=True, editable=False, max_length=300)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="link_requests", to="permits.parcel"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="parcel_link_requests",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["requested_at"],
                "indexes": [models.Index(fields=["status", "requested_at"], name="permits_par_status_f1662c_idx")],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "pending")),
                        fields=("user", "parcel"),
                        name="parcel_link_one_pending",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("tax_bill_number", ""), _negated=True),
                            models.Q(("document", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="parcel_link_has_proof",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Permit",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.CharField(editable=False, max_length=20, unique=True)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("street_opening", "Street opening or excavation"),
                            ("sidewalk", "Sidewalk construction or repair"),
                            ("street_privilege", "Street privilege (moving a building, construction materials)"),
                            ("street_use", "Street use (block party, event)"),
                        ],
                        max_length=30,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("draft", "Draft"),
                            ("submitted", "Submitted"),
                            ("under_review", "Under review"),
                            ("approved", "Approved"),
                            ("issued", "Issued"),
                            ("active", "Work under way"),
                            ("completed", "Completed"),
                            ("closed", "Closed"),
                            ("denied", "Denied"),
                            ("withdrawn", "Withdrawn"),
                            ("expired", "Expired"),
                            ("revoked", "Revoked"),
                        ],
                        default="draft",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("location_description", models.CharField(blank=True, max_length=300)),
                ("work_description", models.TextField(blank=True)),
                ("start_date", models.DateField(blank=True, null=True)),
                ("end_date", models.DateField(blank=True, null=True)),
                ("fee_code", models.SlugField(blank=True, max_length=60)),
                ("fee_amount", models.DecimalField(decimal_places=2, default=Decimal("0.00"), max_digits=10)),
                (
                    "fee_basis",
                    models.CharField(blank=True, help_text="Fee item and effective date applied", max_length=300),
                ),
                ("public_token", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("submitted_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("approved_on", models.DateField(blank=True, editable=False, null=True)),
                ("issued_on", models.DateField(blank=True, editable=False, null=True)),
                ("expires_on", models.DateField(blank=True, null=True)),
                ("completed_on", models.DateField(blank=True, editable=False, null=True)),
                ("closed_on", models.DateField(blank=True, editable=False, null=True)),
                (
                    "applicant",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="permits", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="permits",
                        to="permits.organization",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="permits",
                        to="permits.parcel",
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="permits",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "indexes": [
                    models.Index(fields=["kind", "status"], name="permits_per_kind_17f0f8_idx"),
                    models.Index(fields=["applicant", "-created_at"], name="permits_per_applica_b30432_idx"),
                    models.Index(fields=["-created_at", "-id"], name="permit_created_at_idx"),
                    models.Index(fields=["organization", "-created_at"], name="permit_org_created_idx"),
                    models.Index(fields=["kind", "-created_at", "-id"], name="permit_kind_created_idx"),
                    models.Index(
                        condition=models.Q(("issued_on__isnull", False)),
                        fields=["issued_on"],
                        name="permit_issued_on_idx",
                    ),
                    models.Index(
                        django.db.models.functions.comparison.Coalesce(
                            "end_date", "expires_on", models.Value(datetime.date(9999, 12, 31))
                        ),
                        models.F("start_date"),
                        models.F("number"),
                        models.F("id"),
                        models.F("end_date"),
                        models.F("expires_on"),
                        condition=models.Q(("status__in", ["approved", "issued", "active"])),
                        name="permit_in_effect_idx",
                    ),
                    models.Index(
                        condition=models.Q(("kind", "sidewalk"), ("status__in", ["issued", "active"])),
                        fields=["id"],
                        name="permit_open_sidewalk_idx",
                    ),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "status__in",
                                [
                                    "draft",
                                    "submitted",
                                    "under_review",
                                    "approved",
                                    "issued",
                                    "active",
                                    "completed",
                                    "closed",
                                    "denied",
                                    "withdrawn",
                                    "expired",
                                    "revoked",
                                ],
                            )
                        ),
                        name="permit_status_known",
                    ),
                    models.CheckConstraint(condition=models.Q(("fee_amount__gte", 0)), name="permit_fee_not_negative"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("end_date__isnull", True),
                            ("start_date__isnull", True),
                            ("end_date__gte", models.F("start_date")),
                            _connector="OR",
                        ),
                        name="permit_end_not_before_start",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Payment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                (
                    "method",
                    models.CharField(choices=[("cash", "Cash"), ("check", "Check"), ("card", "Card")], max_length=10),
                ),
                ("reference", models.CharField(blank=True, help_text="Check number or card reference", max_length=60)),
                ("receipt_number", models.CharField(editable=False, max_length=20, unique=True)),
                ("received_at", models.DateTimeField()),
                ("note", models.CharField(blank=True, max_length=200)),
                (
                    "received_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="payments", to="permits.permit"
                    ),
                ),
            ],
            options={
                "ordering": ["-received_at"],
                "indexes": [models.Index(fields=["-received_at"], name="payment_received_at_idx")],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("amount__gt", 0)), name="payment_amount_positive"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("method", "cash"), models.Q(("reference", ""), _negated=True), _connector="OR"
                        ),
                        name="payment_check_or_card_has_reference",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("method__in", ["check", "card"])),
                        fields=("permit", "method", "reference"),
                        name="payment_reference_once",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PavementRestoration",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("temporary_placed_on", models.DateField(blank=True, null=True)),
                ("temporary_depth_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                ("permanent_due_on", models.DateField()),
                ("permanent_completed_on", models.DateField(blank=True, null=True)),
                ("overdue", models.BooleanField(default=False, editable=False)),
                ("overdue_flagged_on", models.DateField(blank=True, editable=False, null=True)),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="pavement_restoration",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("temporary_depth_inches__isnull", True), ("temporary_depth_inches__gt", 0), _connector="OR"
                        ),
                        name="restoration_temporary_depth_positive",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="OnlinePayment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("variant", models.CharField(max_length=255)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("waiting", "Waiting for confirmation"),
                            ("preauth", "Pre-authorized"),
                            ("confirmed", "Confirmed"),
                            ("rejected", "Rejected"),
                            ("refunded", "Refunded"),
                            ("error", "Error"),
                            ("input", "Input"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="waiting",
                        max_length=10,
                    ),
                ),
                (
                    "fraud_status",
                    models.CharField(
                        choices=[
                            ("unknown", "Unknown"),
                            ("accept", "Passed"),
                            ("reject", "Rejected"),
                            ("review", "Review"),
                        ],
                        default="unknown",
                        max_length=10,
                        verbose_name="fraud check",
                    ),
                ),
                ("fraud_message", models.TextField(blank=True, default="")),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("modified", models.DateTimeField(auto_now=True)),
                ("transaction_id", models.CharField(blank=True, max_length=255)),
                ("currency", models.CharField(max_length=10)),
                ("total", models.DecimalField(decimal_places=2, default="0.0", max_digits=9)),
                ("delivery", models.DecimalField(decimal_places=2, default="0.0", max_digits=9)),
                ("tax", models.DecimalField(decimal_places=2, default="0.0", max_digits=9)),
                ("description", models.TextField(blank=True, default="")),
                ("billing_first_name", models.CharField(blank=True, max_length=256)),
                ("billing_last_name", models.CharField(blank=True, max_length=256)),
                ("billing_address_1", models.CharField(blank=True, max_length=256)),
                ("billing_address_2", models.CharField(blank=True, max_length=256)),
                ("billing_city", models.CharField(blank=True, max_length=256)),
                ("billing_postcode", models.CharField(blank=True, max_length=256)),
                ("billing_country_code", models.CharField(blank=True, max_length=2)),
                ("billing_country_area", models.CharField(blank=True, max_length=256)),
                ("billing_email", models.EmailField(blank=True, max_length=254)),
                (
                    "billing_phone",
                    phonenumber_field.modelfields.PhoneNumberField(blank=True, max_length=128, region=None),
                ),
                ("customer_ip_address", models.GenericIPAddressField(blank=True, null=True)),
                ("extra_data", models.TextField(blank=True, default="")),
                ("message", models.TextField(blank=True, default="")),
                ("token", models.CharField(blank=True, default="", max_length=36)),
                ("captured_amount", models.DecimalField(decimal_places=2, default="0.0", max_digits=9)),
                (
                    "purpose",
                    models.CharField(choices=[("permit", "Permit fee"), ("charge", "Special charge")], max_length=10),
                ),
                (
                    "balance_amount",
                    models.DecimalField(
                        decimal_places=2,
                        help_text="The balance due when the payment was started (server-computed)",
                        max_digits=9,
                    ),
                ),
                ("convenience_fee", models.DecimalField(decimal_places=2, default=Decimal("0.00"), max_digits=9)),
                (
                    "paid_for",
                    models.CharField(help_text="What is paid for, with the fee item and its section", max_length=300),
                ),
                (
                    "outcome",
                    models.CharField(
                        choices=[
                            ("open", "Waiting for the card payment"),
                            ("recorded", "Paid and receipted"),
                            ("held", "Held for the Clerk-Treasurer (to refund)"),
                            ("failed", "Not paid (declined, cancelled or abandoned)"),
                            ("refunded", "Refunded"),
                        ],
                        default="open",
                        max_length=10,
                    ),
                ),
                ("outcome_message", models.TextField(blank=True)),
                ("settled_at", models.DateTimeField(blank=True, null=True)),
                (
                    "payer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "receipt_charge_payment",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="online_payment",
                        to="permits.chargepayment",
                    ),
                ),
                (
                    "receipt_payment",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="online_payment",
                        to="permits.payment",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="online_payments",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "ordering": ["-created"],
                "indexes": [
                    models.Index(fields=["outcome", "-created"], name="permits_onl_outcome_cd0f80_idx"),
                    models.Index(fields=["settled_at"], name="permits_onl_settled_ba1d73_idx"),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("transaction_id", ""), _negated=True),
                        fields=("variant", "transaction_id"),
                        name="online_payment_gateway_once",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("balance_amount__gt", 0)), name="online_payment_amount_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("convenience_fee__gte", 0)), name="online_payment_fee_not_negative"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Notice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "channel",
                    models.CharField(
                        choices=[("email", "Email"), ("mail", "Mailed letter")], default="email", max_length=10
                    ),
                ),
                ("to", models.EmailField(blank=True, max_length=254)),
                ("recipient_name", models.CharField(blank=True, max_length=200)),
                ("mailing_address", models.TextField(blank=True)),
                ("subject", models.CharField(max_length=200)),
                ("body", models.TextField()),
                ("template", models.CharField(max_length=100)),
                ("record_id", models.PositiveBigIntegerField(blank=True, editable=False, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                (
                    "mailed_on",
                    models.DateField(blank=True, editable=False, help_text="The day the letter was mailed", null=True),
                ),
                (
                    "mailed_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "record_type",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="contenttypes.contenttype",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="notices",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "indexes": [
                    models.Index(fields=["channel", "mailed_on", "created_at"], name="permits_not_channel_9b512a_idx"),
                    models.Index(fields=["record_type", "record_id"], name="permits_not_record__93528d_idx"),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("channel", "mail"), ("mailed_on__isnull", False)),
                            ("mailed_on__isnull", True),
                            _connector="OR",
                        ),
                        name="notice_only_letters_are_mailed",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("channel", "email"), models.Q(("to", ""), _negated=True)),
                            models.Q(("channel", "mail"), models.Q(("mailing_address", ""), _negated=True)),
                            _connector="OR",
                        ),
                        name="notice_has_an_address",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Inspection",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("backfill", "Backfill material (§ 303-5E(1))"),
                            ("compaction", "Compaction of a lift (§ 303-5E(4))"),
                            ("pavement", "Pavement replacement (§ 303-5G)"),
                            ("trench", "Trench limits (§ 303-5B(1))"),
                            ("underground_depth", "Underground depth before covering (§ 303-1C)"),
                            ("final", "Final: surface restored (§ 303-1C(8))"),
                        ],
                        max_length=20,
                    ),
                ),
                ("at", models.DateTimeField()),
                ("result", models.CharField(choices=[("pass", "Pass"), ("fail", "Fail")], max_length=4)),
                (
                    "failures",
                    models.JSONField(
                        blank=True, default=list, help_text="Every rule the work broke: field, code, citation, message"
                    ),
                ),
                ("notes", models.TextField(blank=True)),
                (
                    "retest_fee_charged",
                    models.BooleanField(default=False, help_text="§ 303-5E(5): retest charged to the permittee"),
                ),
                ("largest_stone_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                ("cinders_or_ashes", models.BooleanField(blank=True, null=True)),
                ("refuse", models.BooleanField(blank=True, null=True)),
                ("organic_matter", models.BooleanField(blank=True, null=True)),
                ("frozen_lumps", models.BooleanField(blank=True, null=True)),
                ("lift_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                (
                    "compaction_percent",
                    models.DecimalField(
                        blank=True,
                        decimal_places=1,
                        help_text="Dry density, % of the Modified Proctor maximum",
                        max_digits=5,
                        null=True,
                    ),
                ),
                ("mechanical", models.BooleanField(blank=True, null=True)),
                ("flooded", models.BooleanField(blank=True, null=True)),
                ("surface", models.CharField(blank=True, max_length=20)),
                (
                    "existing_pavement_inches",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True),
                ),
                ("three_inch_stone_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                (
                    "three_quarter_stone_inches",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True),
                ),
                ("depth_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                ("base_layer_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                ("top_layer_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                (
                    "straightedge_deviation_inches",
                    models.DecimalField(blank=True, decimal_places=3, max_digits=5, null=True),
                ),
                ("calcium_chloride", models.BooleanField(blank=True, null=True)),
                ("poured_on", models.DateField(blank=True, null=True)),
                ("opened_to_traffic_on", models.DateField(blank=True, null=True)),
                ("excavated_ahead_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=7, null=True)),
                ("unfilled_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=7, null=True)),
                ("special_permission", models.BooleanField(blank=True, null=True)),
                ("cover_feet", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ("surface_restored", models.BooleanField(blank=True, null=True)),
                ("recorded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "inspector",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "photo",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.document",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="inspections", to="permits.permit"
                    ),
                ),
            ],
            options={
                "ordering": ["-at", "-pk"],
                "indexes": [models.Index(fields=["permit", "kind", "-at"], name="permits_ins_permit__25a9fc_idx")],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("result__in", ["pass", "fail"])), name="inspection_result_known"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("compaction_percent__isnull", True), ("compaction_percent__gte", 0), _connector="OR"
                        ),
                        name="inspection_compaction_not_negative",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("lift_inches__isnull", True), ("lift_inches__gt", 0), _connector="OR"),
                        name="inspection_lift_positive",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalStreetUse",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("applicant_name", models.CharField(max_length=200)),
                ("applicant_address", models.CharField(max_length=300)),
                ("applicant_phone", models.CharField(max_length=40)),
                ("organization_name", models.CharField(blank=True, max_length=200)),
                ("organization_address", models.CharField(blank=True, max_length=300)),
                ("organization_phone", models.CharField(blank=True, max_length=40)),
                (
                    "organization_heads",
                    models.TextField(blank=True, help_text="Names, addresses and telephones of its heads"),
                ),
                ("responsible_name", models.CharField(max_length=200)),
                ("responsible_address", models.CharField(max_length=300)),
                ("responsible_phone", models.CharField(max_length=40)),
                ("starts_at", models.DateTimeField()),
                ("ends_at", models.DateTimeField()),
                ("expected_attendance", models.PositiveIntegerField()),
                ("petition_verified_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("petition_counted", models.PositiveSmallIntegerField(blank=True, editable=False, null=True)),
                ("petition_roster_size", models.PositiveSmallIntegerField(blank=True, editable=False, null=True)),
                ("conditions", models.TextField(blank=True, editable=False)),
                ("requires_indemnity", models.BooleanField(default=False, editable=False)),
                ("requires_insurance", models.BooleanField(default=False, editable=False)),
                ("requires_bond", models.BooleanField(default=False, editable=False)),
                ("terminated_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("terminated_by_label", models.CharField(blank=True, editable=False, max_length=200)),
                ("termination_reason", models.TextField(blank=True, editable=False)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "petition_verified_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "terminated_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "decision_motion",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical street use",
                "verbose_name_plural": "historical street uses",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalStreetOpening",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("method", models.TextField(help_text="How the work will be done (§ 303-4B)")),
                (
                    "surface",
                    models.CharField(
                        choices=[
                            ("bituminous", "Bituminous (asphalt) pavement"),
                            ("concrete", "Concrete pavement"),
                            ("gravel", "Gravel"),
                            ("sidewalk", "Sidewalk"),
                            ("terrace", "Terrace or grass"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "existing_pavement_inches",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True),
                ),
                (
                    "utility_interruption",
                    models.BooleanField(
                        default=False,
                        help_text="Utility service to private properties will be interrupted (§ 303-5B(5))",
                    ),
                ),
                ("near_existing_patch", models.BooleanField(default=False, help_text="§ 303-5C(2)")),
                (
                    "nearby_openings",
                    models.TextField(blank=True, help_text="Existing patches or other openings nearby (§ 303-5C(2))"),
                ),
                ("map_latitude", models.DecimalField(blank=True, decimal_places=6, max_digits=9, null=True)),
                ("map_longitude", models.DecimalField(blank=True, decimal_places=6, max_digits=9, null=True)),
                ("emergency", models.BooleanField(default=False)),
                ("emergency_began_on", models.DateField(blank=True, null=True)),
                ("late_filing_flagged_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("insurance_per_person", models.DecimalField(decimal_places=2, max_digits=12)),
                ("insurance_per_accident", models.DecimalField(decimal_places=2, max_digits=12)),
                ("insurance_property_damage", models.DecimalField(decimal_places=2, max_digits=12)),
                ("insurance_expires", models.DateField()),
                ("annual_bond", models.BooleanField(default=False)),
                (
                    "guarantee_bond_amount",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        help_text="The amount of the bond filed for this permit, as the Clerk-Treasurer recorded it (§ 303-4H(3))",
                        max_digits=12,
                        null=True,
                    ),
                ),
                ("statement_signed_by", models.CharField(max_length=200)),
                ("statement_signed_at", models.DateTimeField()),
                ("statement_undertakings", models.JSONField(default=list)),
                ("underground_utility", models.BooleanField(default=False)),
                ("underground_depth_feet", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ("plans_approved_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("emergency_work_approved_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "lanes_open_each_way",
                    models.PositiveSmallIntegerField(
                        default=1, help_text="Lanes of traffic kept open in each direction (§ 303-5B(3))"
                    ),
                ),
                (
                    "traffic_control",
                    models.CharField(
                        choices=[
                            ("none", "None"),
                            ("flagman", "Flagman"),
                            ("temporary_signal", "Temporary traffic signal"),
                        ],
                        default="none",
                        help_text="Flagman or temporary traffic signal when no lane is open each way (§ 303-5B(3))",
                        max_length=20,
                    ),
                ),
                ("lane_closure_approved_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("dpw_conditions", models.TextField(blank=True)),
                (
                    "work_begun_on",
                    models.DateField(blank=True, help_text="§ 303-4E: renewal only once work has begun", null=True),
                ),
                (
                    "expiry_reminder_for",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="The expiry date the 5-day reminder was sent for",
                        null=True,
                    ),
                ),
                (
                    "approval_held_until",
                    models.DateField(
                        blank=True, editable=False, help_text="The day the approval can come (§ 303-4D)", null=True
                    ),
                ),
                ("approval_held_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "opening_lapsed_on",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="The first day the street may no longer be opened (§ 303-4D)",
                        null=True,
                    ),
                ),
                ("completion_requested_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "approval_held_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "completion_requested_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "emergency_work_approved_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "lane_closure_approved_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "plans_approved_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical street opening",
                "verbose_name_plural": "historical street openings",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalPavementRestoration",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("temporary_placed_on", models.DateField(blank=True, null=True)),
                ("temporary_depth_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=6, null=True)),
                ("permanent_due_on", models.DateField()),
                ("permanent_completed_on", models.DateField(blank=True, null=True)),
                ("overdue", models.BooleanField(default=False, editable=False)),
                ("overdue_flagged_on", models.DateField(blank=True, editable=False, null=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical pavement restoration",
                "verbose_name_plural": "historical pavement restorations",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalDefectNotice",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("defect", models.TextField()),
                ("work_to_be_done", models.TextField()),
                ("estimated_cost", models.DecimalField(decimal_places=2, max_digits=12)),
                ("deadline", models.DateField()),
                (
                    "addressed_to",
                    models.CharField(
                        choices=[("permittee", "The permittee (contractor)"), ("surety", "The permittee's surety")],
                        max_length=20,
                    ),
                ),
                ("addressee_name", models.CharField(max_length=200)),
                ("addressee_email", models.EmailField(blank=True, max_length=254)),
                ("served_on", models.DateField()),
                ("recorded_at", models.DateTimeField()),
                ("corrected_on", models.DateField(blank=True, null=True)),
                (
                    "past_deadline_on",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="Flagged the day after the deadline passed uncorrected",
                        null=True,
                    ),
                ),
                ("village_repaired_on", models.DateField(blank=True, null=True)),
                ("repair_labor", models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True)),
                ("repair_materials", models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True)),
                ("repair_equipment", models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True)),
                ("billed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "finding",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="The Board's finding (§ 303-4H(4)); blank when its designee found the defect",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical defect notice",
                "verbose_name_plural": "historical defect notices",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="Guarantee",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("completed_on", models.DateField()),
                ("ends_on", models.DateField()),
                ("ended", models.BooleanField(default=False, editable=False)),
                ("ended_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="guarantee", to="permits.permit"
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("ends_on__gt", models.F("completed_on"))), name="guarantee_ends_after_start"
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="document",
            name="permit",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="documents", to="permits.permit"
            ),
        ),
        migrations.CreateModel(
            name="DefectNotice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("defect", models.TextField()),
                ("work_to_be_done", models.TextField()),
                ("estimated_cost", models.DecimalField(decimal_places=2, max_digits=12)),
                ("deadline", models.DateField()),
                (
                    "addressed_to",
                    models.CharField(
                        choices=[("permittee", "The permittee (contractor)"), ("surety", "The permittee's surety")],
                        max_length=20,
                    ),
                ),
                ("addressee_name", models.CharField(max_length=200)),
                ("addressee_email", models.EmailField(blank=True, max_length=254)),
                ("served_on", models.DateField()),
                ("recorded_at", models.DateTimeField()),
                ("corrected_on", models.DateField(blank=True, null=True)),
                (
                    "past_deadline_on",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="Flagged the day after the deadline passed uncorrected",
                        null=True,
                    ),
                ),
                ("village_repaired_on", models.DateField(blank=True, null=True)),
                ("repair_labor", models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True)),
                ("repair_materials", models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True)),
                ("repair_equipment", models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True)),
                ("billed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "finding",
                    models.ForeignKey(
                        blank=True,
                        help_text="The Board's finding (§ 303-4H(4)); blank when its designee found the defect",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="defect_notices", to="permits.permit"
                    ),
                ),
            ],
            options={
                "ordering": ["-served_on", "-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("estimated_cost__gte", 0)), name="defect_cost_not_negative"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("deadline__gt", models.F("served_on"))), name="defect_deadline_after_served"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("repair_labor__isnull", True), ("repair_labor__gte", 0), _connector="OR"),
                            models.Q(("repair_materials__isnull", True), ("repair_materials__gte", 0), _connector="OR"),
                            models.Q(("repair_equipment__isnull", True), ("repair_equipment__gte", 0), _connector="OR"),
                        ),
                        name="defect_repair_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="ConflictReview",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("conflicts", models.JSONField(default=list, help_text="What was listed when the DPW recorded it")),
                (
                    "accepts_closure",
                    models.BooleanField(
                        default=False, help_text="The DPW accepts a street use closure over a street opening's work"
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("reviewed_at", models.DateTimeField()),
                (
                    "reviewed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="conflict_reviews",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "ordering": ["-reviewed_at"],
            },
        ),
        migrations.CreateModel(
            name="ApplicantRevocation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("revoked_on", models.DateField()),
                ("until", models.DateField(help_text="The day the right returns (§ 303-4H(2))")),
                ("reason", models.TextField()),
                ("revoked_at", models.DateTimeField()),
                ("lifted_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "bound_users",
                    models.ManyToManyField(
                        blank=True,
                        help_text="§ 303-4H(2): the people the revocation also binds (the organization's staff when it was revoked, and who applied for the permit): they cannot apply in their own names or for another organization",
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "revoked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="revocations",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="revocations",
                        to="permits.organization",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        help_text="The permit whose deficiencies were not corrected",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "ordering": ["-revoked_on"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("organization__isnull", False), ("user__isnull", False), _connector="OR"),
                        name="revocation_has_subject",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("until__gt", models.F("revoked_on"))), name="revocation_until_after_start"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PermitEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("transition", "Status change"),
                            ("payment", "Payment"),
                            ("document", "Document"),
                            ("notice", "Notice"),
                            ("note", "Note"),
                        ],
                        default="transition",
                        max_length=20,
                    ),
                ),
                (
                    "from_status",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("draft", "Draft"),
                            ("submitted", "Submitted"),
                            ("under_review", "Under review"),
                            ("approved", "Approved"),
                            ("issued", "Issued"),
                            ("active", "Work under way"),
                            ("completed", "Completed"),
                            ("closed", "Closed"),
                            ("denied", "Denied"),
                            ("withdrawn", "Withdrawn"),
                            ("expired", "Expired"),
                            ("revoked", "Revoked"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "to_status",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("draft", "Draft"),
                            ("submitted", "Submitted"),
                            ("under_review", "Under review"),
                            ("approved", "Approved"),
                            ("issued", "Issued"),
                            ("active", "Work under way"),
                            ("completed", "Completed"),
                            ("closed", "Closed"),
                            ("denied", "Denied"),
                            ("withdrawn", "Withdrawn"),
                            ("expired", "Expired"),
                            ("revoked", "Revoked"),
                        ],
                        max_length=20,
                    ),
                ),
                ("actor_label", models.CharField(help_text="Who acted, as shown on the timeline", max_length=200)),
                ("at", models.DateTimeField()),
                ("reason", models.TextField(blank=True)),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="events", to="permits.permit"
                    ),
                ),
            ],
            options={
                "ordering": ["at", "pk"],
                "indexes": [models.Index(fields=["permit", "at"], name="permits_per_permit__e944a8_idx")],
            },
        ),
        migrations.CreateModel(
            name="PermitteeNotice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("dpw_excavation", "DPW, 24 hours before excavation (§ 303-5B(4))"),
                            ("affected_parties", "Affected parties, one business day before work (§ 303-5F)"),
                            ("utility_outage", "Private properties, 12 hours before a utility outage (§ 303-5B(5))"),
                            ("dpw_backfill", "Village, 4 hours before backfilling or restoring (§ 303-5F)"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "planned_work_at",
                    models.DateTimeField(help_text="When the step the notice announces is planned to begin"),
                ),
                ("due_by", models.DateTimeField(help_text="The latest moment the notice may be given")),
                ("given_at", models.DateTimeField(blank=True, null=True)),
                ("given_to", models.CharField(blank=True, max_length=300)),
                (
                    "method",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("phone", "Phone call"),
                            ("email", "Email"),
                            ("in_person", "In person"),
                            ("written", "Written notice (letter or door hanger)"),
                            ("portal", "This website"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "timeliness",
                    models.CharField(
                        choices=[
                            ("pending", "Not given yet"),
                            ("on_time", "On time"),
                            ("late", "Late"),
                            ("not_required", "Not required (emergency)"),
                        ],
                        default="pending",
                        max_length=20,
                    ),
                ),
                ("reminder_at", models.DateTimeField(blank=True, null=True)),
                ("reminder_sent_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="permittee_notices",
                        to="permits.permit",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["planned_work_at", "kind"],
                "indexes": [
                    models.Index(fields=["reminder_sent_at", "reminder_at"], name="permits_per_reminde_8196b5_idx")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("due_by__lte", models.F("planned_work_at"))), name="notice_due_before_work"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("given_at__isnull", True), ("timeliness", "pending")),
                            models.Q(("given_at__isnull", False), models.Q(("timeliness", "pending"), _negated=True)),
                            _connector="OR",
                        ),
                        name="notice_timeliness_matches_given",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("given_at__isnull", True)),
                        fields=("permit", "kind"),
                        name="notice_one_pending_per_kind",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Refund",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(choices=[("refund", "Refund"), ("void", "Void")], default="refund", max_length=10),
                ),
                (
                    "channel",
                    models.CharField(
                        choices=[
                            ("gateway", "Through the card gateway"),
                            ("recorded", "Recorded (cash or Village check)"),
                        ],
                        max_length=10,
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                ("reason", models.TextField()),
                (
                    "reference",
                    models.CharField(blank=True, help_text="Gateway refund id or Village check number", max_length=80),
                ),
                ("refunded_at", models.DateTimeField()),
                (
                    "charge_payment",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="refunds",
                        to="permits.chargepayment",
                    ),
                ),
                (
                    "online_payment",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="refunds",
                        to="permits.onlinepayment",
                    ),
                ),
                (
                    "payment",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="refunds",
                        to="permits.payment",
                    ),
                ),
                (
                    "refunded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-refunded_at"],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("amount__gt", 0)), name="refund_amount_positive"),
                    models.CheckConstraint(condition=models.Q(("reason", ""), _negated=True), name="refund_has_reason"),
                    models.UniqueConstraint(fields=("online_payment",), name="refund_online_payment_once"),
                    models.UniqueConstraint(fields=("payment",), name="refund_payment_once"),
                    models.UniqueConstraint(fields=("charge_payment",), name="refund_charge_payment_once"),
                ],
            },
        ),
        migrations.CreateModel(
            name="RegisteredResident",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                ("birth_date", models.DateField(blank=True, null=True)),
                ("attested_adult", models.BooleanField(default=False, verbose_name="18 or over (attested)")),
                (
                    "email",
                    models.EmailField(
                        blank=True,
                        help_text="Optional: an online signature from it matches this resident",
                        max_length=254,
                    ),
                ),
                (
                    "resides_until",
                    models.DateField(blank=True, help_text="Moved out: the last day of residence", null=True),
                ),
                ("recorded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="registered_residents",
                        to="permits.parcel",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "verbose_name": "registered resident (§ 303-15F)",
                "ordering": ["parcel__site_address", "name"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("birth_date__isnull", False), ("attested_adult", True), _connector="OR"),
                        name="registered_resident_age_known",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Seat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(help_text="1 is the President's seat", unique=True)),
                (
                    "office",
                    models.CharField(
                        choices=[("president", "Village President"), ("trustee", "Trustee")], max_length=20
                    ),
                ),
                ("established_on", models.DateField()),
                (
                    "abolished_on",
                    models.DateField(blank=True, help_text="The first day the seat no longer exists", null=True),
                ),
            ],
            options={
                "ordering": ["number"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("abolished_on__isnull", True),
                            ("abolished_on__gt", models.F("established_on")),
                            _connector="OR",
                        ),
                        name="board_seat_abolished_after_established",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("office", "president")), fields=("office",), name="board_seat_one_president"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalTerm",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                ("starts_on", models.DateField()),
                ("ends_on", models.DateField(blank=True, help_text="The last day of the term (inclusive)", null=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "seat",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.seat",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical member's term",
                "verbose_name_plural": "historical member's terms",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="SettlementDay",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("day", models.DateField(unique=True)),
                ("totals", models.JSONField(default=dict, help_text="Totals per method and per fee item, as built")),
                ("built_at", models.DateTimeField()),
                ("gateway_payout", models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True)),
                ("reconciled_at", models.DateTimeField(blank=True, null=True)),
                ("note", models.TextField(blank=True)),
                (
                    "reconciled_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-day"],
            },
        ),
        migrations.CreateModel(
            name="SpecialCharge",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.CharField(editable=False, max_length=20, unique=True)),
                (
                    "source",
                    models.CharField(
                        choices=[
                            ("snow_ice", "Snow and ice removal (§ 303-8B)"),
                            ("rubbish", "Rubbish or dirt removal (§ 303-2)"),
                            ("sidewalk_repair", "Sidewalk repair or replacement (§ 303-3)"),
                            ("obstruction_removal", "Obstruction removal (§ 303-6F)"),
                            ("permit_deficiency", "Repair of a permittee's deficient work (§ 303-4H(2))"),
                        ],
                        max_length=30,
                    ),
                ),
                (
                    "route",
                    models.CharField(
                        choices=[
                            ("special_charge_66_0627", "Special charge (Wis. Stat. § 66.0627)"),
                            ("special_tax_66_0907", "Special tax (Wis. Stat. § 66.0907; § 303-3B(3))"),
                            ("special_assessment_66_0703", "Special assessment (§ 303-3B(2); Wis. Stat. § 66.0703)"),
                        ],
                        max_length=40,
                    ),
                ),
                ("work_object_id", models.PositiveBigIntegerField(blank=True, editable=False, null=True)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                ("description", models.CharField(max_length=300)),
                (
                    "citation",
                    models.CharField(help_text="Section that authorises the charge, e.g. § 303-8B", max_length=80),
                ),
                ("incurred_on", models.DateField()),
                ("billed_on", models.DateField(blank=True, editable=False, null=True)),
                ("due_on", models.DateField(blank=True, editable=False, null=True)),
                ("delinquent_on", models.DateField(blank=True, editable=False, null=True)),
                ("paid_on", models.DateField(blank=True, editable=False, null=True)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Recorded, not billed yet"),
                            ("billed", "Billed"),
                            ("paid", "Paid"),
                            ("delinquent", "Delinquent"),
                            ("certified", "Certified to the tax roll"),
                            ("on_roll", "On the tax roll"),
                            ("paid_on_roll", "Paid on the tax roll"),
                        ],
                        default="billed",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="special_charges", to="permits.parcel"
                    ),
                ),
                (
                    "work_content_type",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="contenttypes.contenttype",
                    ),
                ),
            ],
            options={
                "db_table": "sidewalks_specialcharge",
                "ordering": ["-incurred_on", "-pk"],
                "indexes": [
                    models.Index(fields=["status", "due_on"], name="sidewalks_s_status_7dc7fd_idx"),
                    models.Index(fields=["parcel", "-incurred_on"], name="sidewalks_s_parcel__951b56_idx"),
                    models.Index(fields=["work_content_type", "work_object_id"], name="sidewalks_s_work_co_6d9a70_idx"),
                    models.Index(fields=["-incurred_on", "-id"], name="charge_incurred_on_idx"),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("amount__gte", 0)), name="special_charge_amount_not_negative"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "status__in",
                                ["pending", "billed", "paid", "delinquent", "certified", "on_roll", "paid_on_roll"],
                            )
                        ),
                        name="special_charge_status_known",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("due_on__isnull", True),
                            models.Q(("billed_on__isnull", False), ("due_on__gte", models.F("billed_on"))),
                            _connector="OR",
                        ),
                        name="special_charge_due_after_billed",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="onlinepayment",
            name="charge",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="online_payments",
                to="permits.specialcharge",
            ),
        ),
        migrations.AddField(
            model_name="chargepayment",
            name="charge",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="payments", to="permits.specialcharge"
            ),
        ),
        migrations.CreateModel(
            name="ChargeHearing",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("hearing_on", models.DateField(verbose_name="Board hearing date")),
                ("published_on", models.DateField(verbose_name="class 1 notice published on")),
                ("mailed_on", models.DateField(verbose_name="notice mailed on")),
                ("place", models.CharField(blank=True, max_length=200)),
                ("notes", models.TextField(blank=True)),
                ("recorded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        help_text="The Board's motion at the meeting that held the hearing (blank on hearings recorded before)",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                ("charges", models.ManyToManyField(blank=True, related_name="hearings", to="permits.specialcharge")),
            ],
            options={
                "db_table": "sidewalks_chargehearing",
                "ordering": ["-hearing_on"],
            },
        ),
        migrations.CreateModel(
            name="StateChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("record_id", models.PositiveBigIntegerField()),
                ("field", models.CharField(default="status", max_length=40)),
                ("from_state", models.CharField(max_length=40)),
                ("to_state", models.CharField(max_length=40)),
                ("actor_label", models.CharField(max_length=200)),
                ("at", models.DateTimeField()),
                ("reason", models.TextField(blank=True)),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "record_type",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="contenttypes.contenttype"
                    ),
                ),
            ],
            options={
                "ordering": ["at", "pk"],
                "indexes": [
                    models.Index(fields=["record_type", "record_id", "at"], name="permits_sta_record__479d35_idx")
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalStreetSegment",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("from_street", models.CharField(blank=True, max_length=100, verbose_name="from (cross street)")),
                ("to_street", models.CharField(blank=True, max_length=100, verbose_name="to (cross street)")),
                (
                    "address_from",
                    models.PositiveIntegerField(blank=True, null=True, verbose_name="lowest address number"),
                ),
                (
                    "address_to",
                    models.PositiveIntegerField(blank=True, null=True, verbose_name="highest address number"),
                ),
                (
                    "geometry",
                    models.JSONField(
                        help_text='A GeoJSON LineString: {"type": "LineString", "coordinates": [[lon, lat], ...]}'
                    ),
                ),
                (
                    "source_id",
                    models.CharField(
                        blank=True,
                        help_text="The feature's id in the imported GeoJSON (a re-import updates it)",
                        max_length=60,
                    ),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical street segment",
                "verbose_name_plural": "historical street segments",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalStreetImprovement",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("description", models.CharField(max_length=300)),
                ("decided_on", models.DateField(help_text="Date of the Board's determination")),
                ("work_begins_on", models.DateField(help_text="At least 30 days after the decision (§ 303-5I)")),
                ("repaved_on", models.DateField(blank=True, help_text="Starts the five-year moratorium", null=True)),
                ("notices_sent_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("recorded_at", models.DateTimeField()),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical street improvement",
                "verbose_name_plural": "historical street improvements",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalPermit",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("number", models.CharField(db_index=True, editable=False, max_length=20)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("street_opening", "Street opening or excavation"),
                            ("sidewalk", "Sidewalk construction or repair"),
                            ("street_privilege", "Street privilege (moving a building, construction materials)"),
                            ("street_use", "Street use (block party, event)"),
                        ],
                        max_length=30,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("draft", "Draft"),
                            ("submitted", "Submitted"),
                            ("under_review", "Under review"),
                            ("approved", "Approved"),
                            ("issued", "Issued"),
                            ("active", "Work under way"),
                            ("completed", "Completed"),
                            ("closed", "Closed"),
                            ("denied", "Denied"),
                            ("withdrawn", "Withdrawn"),
                            ("expired", "Expired"),
                            ("revoked", "Revoked"),
                        ],
                        default="draft",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("location_description", models.CharField(blank=True, max_length=300)),
                ("work_description", models.TextField(blank=True)),
                ("start_date", models.DateField(blank=True, null=True)),
                ("end_date", models.DateField(blank=True, null=True)),
                ("fee_code", models.SlugField(blank=True, max_length=60)),
                ("fee_amount", models.DecimalField(decimal_places=2, default=Decimal("0.00"), max_digits=10)),
                (
                    "fee_basis",
                    models.CharField(blank=True, help_text="Fee item and effective date applied", max_length=300),
                ),
                ("public_token", models.UUIDField(db_index=True, default=uuid.uuid4, editable=False)),
                ("created_at", models.DateTimeField(blank=True, editable=False)),
                ("submitted_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("approved_on", models.DateField(blank=True, editable=False, null=True)),
                ("issued_on", models.DateField(blank=True, editable=False, null=True)),
                ("expires_on", models.DateField(blank=True, null=True)),
                ("completed_on", models.DateField(blank=True, editable=False, null=True)),
                ("closed_on", models.DateField(blank=True, editable=False, null=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "applicant",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.organization",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.parcel",
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical permit",
                "verbose_name_plural": "historical permits",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalParcel",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("tax_key", models.CharField(db_index=True, max_length=40, verbose_name="tax key number")),
                ("site_address", models.CharField(max_length=200)),
                ("owner_name", models.CharField(max_length=200)),
                ("owner_mailing_address", models.TextField()),
                ("owner_email", models.EmailField(blank=True, max_length=254)),
                (
                    "land_use",
                    models.CharField(
                        choices=[
                            ("residential", "Residential"),
                            ("commercial", "Commercial"),
                            ("industrial", "Industrial"),
                        ],
                        max_length=20,
                    ),
                ),
                ("corner_lot", models.BooleanField(default=False)),
                (
                    "crosswalk_adjacent",
                    models.BooleanField(default=False, help_text="Next to a public crosswalk (§ 303-8A)"),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="Abutting street",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical parcel",
                "verbose_name_plural": "historical parcels",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="EmergencyReport",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reported_by_name", models.CharField(max_length=200)),
                ("location_description", models.CharField(max_length=300)),
                ("began_on", models.DateField()),
                ("reported_at", models.DateTimeField()),
                ("flagged_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "organization",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.organization",
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.permit",
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="permits.street"
                    ),
                ),
            ],
            options={
                "ordering": ["-reported_at"],
            },
        ),
        migrations.CreateModel(
            name="StreetImprovement",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("description", models.CharField(max_length=300)),
                ("decided_on", models.DateField(help_text="Date of the Board's determination")),
                ("work_begins_on", models.DateField(help_text="At least 30 days after the decision (§ 303-5I)")),
                ("repaved_on", models.DateField(blank=True, help_text="Starts the five-year moratorium", null=True)),
                ("notices_sent_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("recorded_at", models.DateTimeField()),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="improvements", to="permits.street"
                    ),
                ),
            ],
            options={
                "ordering": ["-decided_on"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("work_begins_on__gt", models.F("decided_on"))),
                        name="street_improvement_work_after_decision",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="StreetOpening",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("method", models.TextField(help_text="How the work will be done (§ 303-4B)")),
                (
                    "surface",
                    models.CharField(
                        choices=[
                            ("bituminous", "Bituminous (asphalt) pavement"),
                            ("concrete", "Concrete pavement"),
                            ("gravel", "Gravel"),
                            ("sidewalk", "Sidewalk"),
                            ("terrace", "Terrace or grass"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "existing_pavement_inches",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True),
                ),
                (
                    "utility_interruption",
                    models.BooleanField(
                        default=False,
                        help_text="Utility service to private properties will be interrupted (§ 303-5B(5))",
                    ),
                ),
                ("near_existing_patch", models.BooleanField(default=False, help_text="§ 303-5C(2)")),
                (
                    "nearby_openings",
                    models.TextField(blank=True, help_text="Existing patches or other openings nearby (§ 303-5C(2))"),
                ),
                ("map_latitude", models.DecimalField(blank=True, decimal_places=6, max_digits=9, null=True)),
                ("map_longitude", models.DecimalField(blank=True, decimal_places=6, max_digits=9, null=True)),
                ("emergency", models.BooleanField(default=False)),
                ("emergency_began_on", models.DateField(blank=True, null=True)),
                ("late_filing_flagged_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("insurance_per_person", models.DecimalField(decimal_places=2, max_digits=12)),
                ("insurance_per_accident", models.DecimalField(decimal_places=2, max_digits=12)),
                ("insurance_property_damage", models.DecimalField(decimal_places=2, max_digits=12)),
                ("insurance_expires", models.DateField()),
                ("annual_bond", models.BooleanField(default=False)),
                (
                    "guarantee_bond_amount",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        help_text="The amount of the bond filed for this permit, as the Clerk-Treasurer recorded it (§ 303-4H(3))",
                        max_digits=12,
                        null=True,
                    ),
                ),
                ("statement_signed_by", models.CharField(max_length=200)),
                ("statement_signed_at", models.DateTimeField()),
                ("statement_undertakings", models.JSONField(default=list)),
                ("underground_utility", models.BooleanField(default=False)),
                ("underground_depth_feet", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ("plans_approved_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("emergency_work_approved_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "lanes_open_each_way",
                    models.PositiveSmallIntegerField(
                        default=1, help_text="Lanes of traffic kept open in each direction (§ 303-5B(3))"
                    ),
                ),
                (
                    "traffic_control",
                    models.CharField(
                        choices=[
                            ("none", "None"),
                            ("flagman", "Flagman"),
                            ("temporary_signal", "Temporary traffic signal"),
                        ],
                        default="none",
                        help_text="Flagman or temporary traffic signal when no lane is open each way (§ 303-5B(3))",
                        max_length=20,
                    ),
                ),
                ("lane_closure_approved_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("dpw_conditions", models.TextField(blank=True)),
                (
                    "work_begun_on",
                    models.DateField(blank=True, help_text="§ 303-4E: renewal only once work has begun", null=True),
                ),
                (
                    "expiry_reminder_for",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="The expiry date the 5-day reminder was sent for",
                        null=True,
                    ),
                ),
                (
                    "approval_held_until",
                    models.DateField(
                        blank=True, editable=False, help_text="The day the approval can come (§ 303-4D)", null=True
                    ),
                ),
                ("approval_held_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "opening_lapsed_on",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="The first day the street may no longer be opened (§ 303-4D)",
                        null=True,
                    ),
                ),
                ("completion_requested_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "approval_held_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "completion_requested_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "emergency_work_approved_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "lane_closure_approved_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="street_opening", to="permits.permit"
                    ),
                ),
                (
                    "plans_approved_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        condition=models.Q(("completion_requested_at__isnull", False)),
                        fields=["completion_requested_at"],
                        name="so_completion_requested_idx",
                    ),
                    models.Index(
                        condition=models.Q(("approval_held_until__isnull", False)),
                        fields=["approval_held_until"],
                        name="so_approval_held_until_idx",
                    ),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("insurance_per_person__gte", 0),
                            ("insurance_per_accident__gte", 0),
                            ("insurance_property_damage__gte", 0),
                        ),
                        name="street_opening_insurance_not_negative",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("existing_pavement_inches__isnull", True),
                            ("existing_pavement_inches__gte", 0),
                            _connector="OR",
                        ),
                        name="street_opening_pavement_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="RenewalRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("requested_at", models.DateTimeField()),
                ("work_begun_on", models.DateField(help_text="§ 303-4E: operations have begun under the permit")),
                (
                    "reason",
                    models.TextField(help_text="Why the operations will continue beyond the validity (§ 303-4E)"),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[("pending", "Pending"), ("granted", "Granted"), ("refused", "Refused")],
                        default="pending",
                        max_length=10,
                    ),
                ),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                ("decision_note", models.TextField(blank=True)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "street_opening",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="renewal_requests",
                        to="permits.streetopening",
                    ),
                ),
            ],
            options={
                "ordering": ["-requested_at"],
                "indexes": [models.Index(fields=["state", "requested_at"], name="permits_ren_state_42289a_idx")],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("state", "pending")),
                        fields=("street_opening",),
                        name="renewal_request_one_pending",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("state__in", ["pending", "granted", "refused"])),
                        name="renewal_request_state_known",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Renewal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("previous_expires_on", models.DateField()),
                ("new_expires_on", models.DateField()),
                ("work_begun_on", models.DateField()),
                ("granted_at", models.DateTimeField()),
                ("note", models.TextField(blank=True)),
                (
                    "took_effect_at",
                    models.DateTimeField(
                        blank=True,
                        editable=False,
                        help_text="When the renewal fee was paid and the validity moved",
                        null=True,
                    ),
                ),
                (
                    "granted_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "request",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="renewal",
                        to="permits.renewalrequest",
                    ),
                ),
                (
                    "street_opening",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="renewals", to="permits.streetopening"
                    ),
                ),
            ],
            options={
                "ordering": ["granted_at"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("street_opening", "previous_expires_on"), name="renewal_once_per_period"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="MoratoriumException",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("granted_at", models.DateTimeField()),
                ("reason", models.TextField()),
                (
                    "granted_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        blank=True,
                        help_text="The Board's motion, when the Board found it essential (blank: its designee did)",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "street_opening",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="moratorium_exception",
                        to="permits.streetopening",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="HistoricalRenewalRequest",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("requested_at", models.DateTimeField()),
                ("work_begun_on", models.DateField(help_text="§ 303-4E: operations have begun under the permit")),
                (
                    "reason",
                    models.TextField(help_text="Why the operations will continue beyond the validity (§ 303-4E)"),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[("pending", "Pending"), ("granted", "Granted"), ("refused", "Refused")],
                        default="pending",
                        max_length=10,
                    ),
                ),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                ("decision_note", models.TextField(blank=True)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "street_opening",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.streetopening",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical renewal request",
                "verbose_name_plural": "historical renewal requests",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="EmergencyDetermination",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("determined_at", models.DateTimeField()),
                ("reason", models.TextField()),
                (
                    "determined_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        blank=True,
                        help_text="The Board's motion, when the Board determined it (blank: its designee did)",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "street_opening",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="emergency_determination",
                        to="permits.streetopening",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="DiggersTicket",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "contractor",
                    models.CharField(help_text="The excavator the ticket was requested for", max_length=200),
                ),
                ("number", models.CharField(max_length=40)),
                ("requested_at", models.DateTimeField()),
                ("legal_start", models.DateField()),
                ("entered_at", models.DateTimeField()),
                ("verified_at", models.DateTimeField(blank=True, null=True)),
                (
                    "entered_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "verified_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "street_opening",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="tickets", to="permits.streetopening"
                    ),
                ),
            ],
            options={
                "ordering": ["entered_at"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("street_opening", "number"), name="diggers_ticket_unique_per_permit"
                    ),
                    models.UniqueConstraint(
                        fields=("street_opening", "contractor"), name="diggers_ticket_one_per_contractor"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="StreetPrivilege",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "purpose",
                    models.CharField(
                        choices=[
                            ("move_building", "Moving a building or structure"),
                            ("materials", "Materials for construction or demolition"),
                        ],
                        max_length=20,
                    ),
                ),
                ("building_permit_number", models.CharField(blank=True, max_length=40)),
                ("street_width_feet", models.DecimalField(decimal_places=1, max_digits=5)),
                ("occupied_street_feet", models.DecimalField(decimal_places=1, max_digits=5)),
                ("sidewalk_occupied", models.BooleanField(default=False)),
                ("sidewalk_width_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=5, null=True)),
                ("occupied_sidewalk_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=5, null=True)),
                ("gutter_kept_flowing", models.BooleanField(default=True)),
                (
                    "temporary_walk_width_feet",
                    models.DecimalField(blank=True, decimal_places=1, max_digits=4, null=True),
                ),
                ("fence_height_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=4, null=True)),
                ("fenced_both_sides", models.BooleanField(default=False)),
                ("lighted_at_night", models.BooleanField(default=False)),
                ("building_description", models.TextField(blank=True)),
                ("route_description", models.TextField(blank=True, help_text="The route the applicant proposes")),
                ("overnight_stops", models.TextField(blank=True)),
                ("overnight_at_intersection_or_hydrant", models.BooleanField(default=False)),
                ("day_and_night_requested", models.BooleanField(default=False)),
                (
                    "bond_amount",
                    models.DecimalField(blank=True, decimal_places=2, editable=False, max_digits=8, null=True),
                ),
                ("bond_set_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("bond_filed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("bond_surety", models.CharField(blank=True, editable=False, max_length=200)),
                ("bond_waiver_requested_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("route_prescribed", models.TextField(blank=True, editable=False)),
                ("day_and_night_ordered", models.BooleanField(default=False, editable=False)),
                ("inspector_conditions", models.TextField(blank=True, editable=False)),
                ("earlier_termination_on", models.DateField(blank=True, editable=False, null=True)),
                ("termination_notice_for", models.DateField(blank=True, editable=False, null=True)),
                ("closing_inspection_opened_on", models.DateField(blank=True, editable=False, null=True)),
                ("closing_inspected_on", models.DateField(blank=True, editable=False, null=True)),
                ("closing_passed", models.BooleanField(editable=False, null=True)),
                ("closing_notes", models.TextField(blank=True, editable=False)),
                (
                    "bond_filed_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "bond_set_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "bond_waiver_motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "bond_waiver_refused_motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "closing_inspected_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "day_and_night_motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="street_privilege",
                        to="permits.permit",
                    ),
                ),
                (
                    "route_motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["purpose"], name="permits_str_purpose_6b5bed_idx")],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("street_width_feet__gt", 0)), name="privilege_street_width_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("occupied_street_feet__gte", 0)), name="privilege_occupied_not_negative"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("bond_amount__isnull", True),
                            models.Q(("bond_amount__gt", 0), ("bond_amount__lte", 10000)),
                            _connector="OR",
                        ),
                        name="privilege_bond_within_cap",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="SidewalkObstruction",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("description", models.CharField(max_length=300)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("reported", "Reported, awaiting the Board's notice"),
                            ("noticed", "Noticed by the Board"),
                            ("removed_by_owner", "Removed by the owner or occupant"),
                            ("village_removed", "Removed by the Village; cost charged"),
                        ],
                        default="reported",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("reported_at", models.DateTimeField()),
                ("noticed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("removed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("cost", models.DecimalField(blank=True, decimal_places=2, editable=False, max_digits=8, null=True)),
                (
                    "notice_motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        help_text="The abutting parcel",
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.parcel",
                    ),
                ),
                (
                    "reported_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "charge",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.specialcharge",
                    ),
                ),
                (
                    "privilege",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="obstructions",
                        to="permits.streetprivilege",
                    ),
                ),
            ],
            options={
                "ordering": ["-reported_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("cost__isnull", True), ("cost__gte", 0), _connector="OR"),
                        name="privilege_removal_cost",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Recommendation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "office",
                    models.CharField(
                        choices=[("dpw", "Director of Public Works"), ("police", "Chief of Police")], max_length=10
                    ),
                ),
                ("recommended", models.BooleanField()),
                ("conditions", models.TextField(blank=True)),
                (
                    "insurance_required",
                    models.BooleanField(default=False, help_text="Proof of liability insurance (§ 303-7A)"),
                ),
                ("at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "privilege",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="recommendations",
                        to="permits.streetprivilege",
                    ),
                ),
            ],
            options={
                "ordering": ["office"],
                "constraints": [
                    models.UniqueConstraint(fields=("privilege", "office"), name="privilege_one_recommendation")
                ],
            },
        ),
        migrations.CreateModel(
            name="CostLine",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("description", models.CharField(max_length=200)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=8)),
                ("added_at", models.DateTimeField()),
                (
                    "added_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "privilege",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cost_lines",
                        to="permits.streetprivilege",
                    ),
                ),
            ],
            options={
                "ordering": ["added_at", "pk"],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("amount__gt", 0)), name="privilege_cost_positive")
                ],
            },
        ),
        migrations.CreateModel(
            name="StreetSegment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("from_street", models.CharField(blank=True, max_length=100, verbose_name="from (cross street)")),
                ("to_street", models.CharField(blank=True, max_length=100, verbose_name="to (cross street)")),
                (
                    "address_from",
                    models.PositiveIntegerField(blank=True, null=True, verbose_name="lowest address number"),
                ),
                (
                    "address_to",
                    models.PositiveIntegerField(blank=True, null=True, verbose_name="highest address number"),
                ),
                (
                    "geometry",
                    models.JSONField(
                        help_text='A GeoJSON LineString: {"type": "LineString", "coordinates": [[lon, lat], ...]}'
                    ),
                ),
                (
                    "source_id",
                    models.CharField(
                        blank=True,
                        help_text="The feature's id in the imported GeoJSON (a re-import updates it)",
                        max_length=60,
                    ),
                ),
                ("adjoining", models.ManyToManyField(blank=True, editable=False, to="permits.streetsegment")),
                (
                    "street",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="segments", to="permits.street"
                    ),
                ),
            ],
            options={
                "ordering": ["street__name", "address_from", "pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("address_from__isnull", True),
                            ("address_to__isnull", True),
                            ("address_to__gte", models.F("address_from")),
                            _connector="OR",
                        ),
                        name="street_segment_address_range_ordered",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Placement",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "source",
                    models.CharField(
                        choices=[
                            ("point", "A point drawn on the map"),
                            ("line", "A line drawn on the map"),
                            ("segments", "Segments chosen by the Village"),
                        ],
                        max_length=10,
                    ),
                ),
                (
                    "geometry",
                    models.JSONField(blank=True, help_text="GeoJSON Point or LineString, when drawn", null=True),
                ),
                ("placed_at", models.DateTimeField()),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="placement", to="permits.permit"
                    ),
                ),
                (
                    "placed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                ("segments", models.ManyToManyField(blank=True, related_name="placements", to="permits.streetsegment")),
            ],
        ),
        migrations.CreateModel(
            name="StreetSubscription",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("email", models.EmailField(max_length=254)),
                (
                    "address_number",
                    models.PositiveIntegerField(blank=True, help_text="Only permits at this address", null=True),
                ),
                ("token", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("verified_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "last_notified_on",
                    models.DateField(
                        blank=True, editable=False, help_text="Permits issued up to this day have been told", null=True
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="subscriptions", to="permits.street"
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("email", "street", "address_number"), name="street_subscription_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="StreetUse",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("applicant_name", models.CharField(max_length=200)),
                ("applicant_address", models.CharField(max_length=300)),
                ("applicant_phone", models.CharField(max_length=40)),
                ("organization_name", models.CharField(blank=True, max_length=200)),
                ("organization_address", models.CharField(blank=True, max_length=300)),
                ("organization_phone", models.CharField(blank=True, max_length=40)),
                (
                    "organization_heads",
                    models.TextField(blank=True, help_text="Names, addresses and telephones of its heads"),
                ),
                ("responsible_name", models.CharField(max_length=200)),
                ("responsible_address", models.CharField(max_length=300)),
                ("responsible_phone", models.CharField(max_length=40)),
                ("starts_at", models.DateTimeField()),
                ("ends_at", models.DateTimeField()),
                ("expected_attendance", models.PositiveIntegerField()),
                ("petition_verified_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("petition_counted", models.PositiveSmallIntegerField(blank=True, editable=False, null=True)),
                ("petition_roster_size", models.PositiveSmallIntegerField(blank=True, editable=False, null=True)),
                ("conditions", models.TextField(blank=True, editable=False)),
                ("requires_indemnity", models.BooleanField(default=False, editable=False)),
                ("requires_insurance", models.BooleanField(default=False, editable=False)),
                ("requires_bond", models.BooleanField(default=False, editable=False)),
                ("terminated_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("terminated_by_label", models.CharField(blank=True, editable=False, max_length=200)),
                ("termination_reason", models.TextField(blank=True, editable=False)),
                (
                    "decision_motion",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="street_use", to="permits.permit"
                    ),
                ),
                (
                    "petition_verified_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "segments",
                    models.ManyToManyField(blank=True, related_name="street_uses", to="permits.streetsegment"),
                ),
                (
                    "terminated_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["ends_at"], name="street_use_ends_at_idx")],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("ends_at__gt", models.F("starts_at"))), name="street_use_ends_after_start"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="PetitionSignature",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("signer_name", models.CharField(max_length=200)),
                ("signer_email", models.EmailField(blank=True, max_length=254)),
                (
                    "method",
                    models.CharField(
                        choices=[
                            ("online", "Online, email verified"),
                            ("paper", "Printed sheet, entered by the clerk"),
                        ],
                        max_length=10,
                    ),
                ),
                ("signed_at", models.DateTimeField()),
                (
                    "entered_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.parcel",
                    ),
                ),
                (
                    "resident",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="signatures",
                        to="permits.registeredresident",
                    ),
                ),
                (
                    "street_use",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="signatures", to="permits.streetuse"
                    ),
                ),
            ],
            options={
                "ordering": ["signed_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("resident__isnull", False)),
                        fields=("street_use", "resident"),
                        name="petition_resident_once",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("signer_email", ""), _negated=True),
                        fields=("street_use", "signer_email"),
                        name="petition_email_once",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="BoardAppearance",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                (
                    "capacity",
                    models.CharField(
                        choices=[("applicant", "The applicant"), ("representative", "A representative of the group")],
                        max_length=20,
                    ),
                ),
                ("recorded_at", models.DateTimeField()),
                (
                    "item",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="street_use_appearance",
                        to="permits.agendaitem",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "street_use",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="appearances", to="permits.streetuse"
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="SubscriptionDelivery",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("sent_at", models.DateTimeField()),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="permits.permit"
                    ),
                ),
                (
                    "subscription",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deliveries",
                        to="permits.streetsubscription",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("subscription", "permit"), name="subscription_delivery_once")
                ],
            },
        ),
        migrations.CreateModel(
            name="TaxRollBatch",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("year", models.PositiveIntegerField(unique=True)),
                (
                    "state",
                    models.CharField(
                        choices=[("draft", "Draft"), ("certified", "Certified")],
                        default="draft",
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("built_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("certified_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("transferred_on", models.DateField(blank=True, editable=False, null=True)),
                (
                    "csv_file",
                    models.FileField(blank=True, editable=False, upload_to=permits.ledger.models.tax_roll_upload_to),
                ),
                (
                    "pdf_file",
                    models.FileField(blank=True, editable=False, upload_to=permits.ledger.models.tax_roll_upload_to),
                ),
                ("inputs_fingerprint", models.CharField(blank=True, default="", editable=False, max_length=64)),
                (
                    "certified_by",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "db_table": "sidewalks_taxrollbatch",
                "ordering": ["-year"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("state__in", ["draft", "certified"])), name="tax_roll_batch_state_known"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("state", "draft"),
                            models.Q(("certified_at__isnull", False), ("certified_by__isnull", False)),
                            _connector="OR",
                        ),
                        name="tax_roll_batch_certified_has_who_and_when",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="TaxRollLine",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tax_key", models.CharField(max_length=40)),
                ("owner", models.CharField(max_length=200)),
                ("source", models.CharField(max_length=30)),
                ("description", models.CharField(max_length=300)),
                ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                ("citation", models.CharField(max_length=80)),
                (
                    "batch",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="lines", to="permits.taxrollbatch"
                    ),
                ),
                (
                    "charge",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="roll_lines",
                        to="permits.specialcharge",
                    ),
                ),
            ],
            options={
                "db_table": "sidewalks_taxrollline",
                "ordering": ["tax_key", "charge_id"],
                "indexes": [models.Index(fields=["batch", "tax_key"], name="tax_roll_line_batch_key_idx")],
                "constraints": [
                    models.UniqueConstraint(fields=("charge",), name="tax_roll_line_charge_once"),
                    models.CheckConstraint(
                        condition=models.Q(("amount__gte", 0)), name="tax_roll_line_amount_not_negative"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="Term",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                ("starts_on", models.DateField()),
                ("ends_on", models.DateField(blank=True, help_text="The last day of the term (inclusive)", null=True)),
                (
                    "seat",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="terms", to="permits.seat"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="board_terms",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "member's term",
                "ordering": ["seat__number", "-starts_on"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("ends_on__isnull", True), ("ends_on__gte", models.F("starts_on")), _connector="OR"
                        ),
                        name="board_term_ends_after",
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="motion",
            name="moved_by",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="permits.term"
            ),
        ),
        migrations.AddField(
            model_name="motion",
            name="seconded_by",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="permits.term"
            ),
        ),
        migrations.CreateModel(
            name="Attendance",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("present", models.BooleanField()),
                (
                    "meeting",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="attendance", to="permits.meeting"
                    ),
                ),
                (
                    "term",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="attendance", to="permits.term"
                    ),
                ),
            ],
            options={
                "ordering": ["term__seat__number"],
                "constraints": [models.UniqueConstraint(fields=("meeting", "term"), name="board_attendance_once")],
            },
        ),
        migrations.CreateModel(
            name="Vote",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "choice",
                    models.CharField(choices=[("aye", "Aye"), ("nay", "Nay"), ("abstain", "Abstain")], max_length=10),
                ),
                (
                    "motion",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="votes", to="permits.motion"
                    ),
                ),
                (
                    "term",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="votes", to="permits.term"
                    ),
                ),
            ],
            options={
                "ordering": ["term__seat__number"],
                "constraints": [models.UniqueConstraint(fields=("motion", "term"), name="board_vote_once")],
            },
        ),
        migrations.CreateModel(
            name="ApplicationDraft",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(max_length=30)),
                ("data", models.JSONField(default=dict)),
                ("title", models.CharField(blank=True, max_length=200)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "applicant",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="drafts", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-updated_at"],
                "indexes": [models.Index(fields=["applicant", "-updated_at"], name="permits_app_applica_95de36_idx")],
            },
        ),
        migrations.AddConstraint(
            model_name="ChargePayment",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="charge_payment_amount_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="ChargePayment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("refunded", False)), fields=("charge",), name="charge_paid_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="Membership",
            constraint=models.UniqueConstraint(fields=("user", "organization"), name="membership_unique"),
        ),
        migrations.AddConstraint(
            model_name="OnlinePayment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("charge__isnull", True), ("permit__isnull", False), ("purpose", "permit")),
                    models.Q(("charge__isnull", False), ("permit__isnull", True), ("purpose", "charge")),
                    _connector="OR",
                ),
                name="online_payment_pays_one_thing",
            ),
        ),
        migrations.AddConstraint(
            model_name="OnlinePayment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("outcome", "recorded"), _negated=True),
                    ("receipt_payment__isnull", False),
                    ("receipt_charge_payment__isnull", False),
                    _connector="OR",
                ),
                name="online_payment_recorded_has_receipt",
            ),
        ),
        migrations.RunPython(create_groups, migrations.RunPython.noop),
        migrations.RunPython(seed_placeholder_fees, migrations.RunPython.noop),
        migrations.RunPython(name_the_site, migrations.RunPython.noop),
        migrations.RunPython(seed_statutory_closures, migrations.RunPython.noop),
        migrations.RunPython(seed_seats, migrations.RunPython.noop),
        migrations.RunPython(add_trigram_indexes, drop_trigram_indexes),
        migrations.RunPython(add_open_street_opening_index, drop_open_street_opening_index),
        *(
            migrations.RunSQL(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({columns})", f"DROP INDEX IF EXISTS {name}"
            )
            for name, table, columns in WORK_LIST_INDEXES
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS user_name_order_idx ON auth_user (last_name, first_name, id)",
            "DROP INDEX IF EXISTS user_name_order_idx",
        ),
    ]
