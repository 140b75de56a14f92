"""obstructions: the schema as it stands, made once, then the trigram indexes of the staff search (PostgreSQL only).
It replaces the history it was squashed from, so a database already migrated through that history carries on from
here."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
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
    initial = True
    replaces = [
        ("obstructions", "0001_enforcement_cases"),
        ("obstructions", "0002_registers"),
        ("obstructions", "0003_case_search_indexes"),
        ("obstructions", "0004_case_queue_index"),
    ]
    dependencies = [
        ("auth", "__first__"),
        ("permits", "0001_squashed_0035_people_order_index"),
    ]
    operations = [
        migrations.CreateModel(
            name="Case",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.CharField(editable=False, max_length=20, unique=True)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("obstruction_sidewalk", "Sidewalk obstruction or encroachment (§ 303-6D)"),
                            ("obstruction_street", "Street, alley or public-ground obstruction (§ 303-6E)"),
                            ("terrace", "Terrace (§ 303-9)"),
                            ("dumping", "Unlawful dumping (§ 303-12)"),
                            ("drainage", "Obstruction of drainage (§ 303-13)"),
                            ("street_number", "Street number not displayed (§ 303-14)"),
                        ],
                        max_length=30,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "Open: notice not yet served"),
                            ("noticed", "Notice served"),
                            ("complied", "Complied"),
                            ("abated", "Removed by the Village"),
                            ("referred", "Referred for a forfeiture"),
                            ("excepted", "Closed: excepted or no violation"),
                        ],
                        default="open",
                        editable=False,
                        max_length=20,
                    ),
                ),
                (
                    "attention",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "Nothing due"),
                            ("past_deadline", "Deadline passed: re-inspect"),
                            ("notice_due", "20 days of neglect have run: serve the notice (§ 303-14C)"),
                            ("referral_due", "10 days after service have run: refer or close (§ 303-14C)"),
                        ],
                        default="",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("reported_address", models.CharField(max_length=200)),
                ("what", models.CharField(max_length=500, verbose_name="what was seen")),
                ("where", models.CharField(blank=True, max_length=200, verbose_name="where exactly")),
                ("seen_at", models.DateTimeField(verbose_name="when seen")),
                (
                    "via",
                    models.CharField(
                        choices=[("staff", "Village staff"), ("public", "Public complaint form")],
                        default="staff",
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("reporter_contact", models.CharField(blank=True, max_length=200)),
                ("opened_at", models.DateTimeField(editable=False)),
                (
                    "excepting_permit",
                    models.CharField(blank=True, max_length=30, verbose_name="permit number that excepts it"),
                ),
                (
                    "clear_width_feet",
                    models.DecimalField(
                        blank=True,
                        decimal_places=1,
                        max_digits=5,
                        null=True,
                        verbose_name="unobstructed sidewalk left (ft)",
                    ),
                ),
                (
                    "detail",
                    models.CharField(blank=True, help_text="The condition, place or drainage way found", max_length=40),
                ),
                (
                    "permission_from",
                    models.CharField(blank=True, help_text="§ 303-12: owner or occupant, recorded", max_length=10),
                ),
                ("permission_note", models.CharField(blank=True, max_length=300)),
                (
                    "neglect_recorded_on",
                    models.DateField(blank=True, null=True, verbose_name="neglect first recorded on"),
                ),
                ("served_to", models.CharField(blank=True, editable=False, max_length=10)),
                ("served_name", models.CharField(blank=True, editable=False, max_length=200)),
                (
                    "served_how",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("personal", "Handed to the person"),
                            ("posted", "Posted on the premises"),
                            ("mail", "Mailed"),
                            ("email", "Emailed"),
                        ],
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("served_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("deadline_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("closed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "abatement_cost",
                    models.DecimalField(blank=True, decimal_places=2, editable=False, max_digits=10, null=True),
                ),
                (
                    "opened_by",
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
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="enforcement_cases",
                        to="permits.parcel",
                    ),
                ),
            ],
            options={
                "ordering": ["-opened_at"],
                "indexes": [
                    models.Index(fields=["status", "-opened_at"], name="obstruction_status_1c524b_idx"),
                    models.Index(fields=["status", "deadline_at"], name="obstruction_status_6ff70d_idx"),
                    models.Index(fields=["kind", "status"], name="obstruction_kind_993af2_idx"),
                    models.Index(fields=["-opened_at", "-id"], name="case_opened_at_idx"),
                    models.Index(
                        condition=models.Q(("status__in", ["open", "noticed"])),
                        fields=["-attention", "deadline_at", "id"],
                        name="case_queue_idx",
                    ),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("deadline_at__isnull", True), ("deadline_at__gt", models.F("served_at")), _connector="OR"
                        ),
                        name="case_deadline_after_service",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("abatement_cost__isnull", True), ("abatement_cost__gte", 0), _connector="OR"
                        ),
                        name="case_cost_not_negative",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("clear_width_feet__isnull", True), ("clear_width_feet__gte", 0), _connector="OR"
                        ),
                        name="case_width_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="CaseStep",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[("photo", "Photo"), ("reinspection", "Re-inspection"), ("note", "Note")], max_length=20
                    ),
                ),
                ("at", models.DateTimeField()),
                ("by_label", models.CharField(max_length=200)),
                ("note", models.CharField(blank=True, max_length=500)),
                ("photo", models.FileField(blank=True, upload_to="case-photos/%Y/")),
                ("photo_type", models.CharField(blank=True, max_length=50)),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "case",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="steps", to="obstructions.case"
                    ),
                ),
            ],
            options={
                "ordering": ["at", "pk"],
                "indexes": [models.Index(fields=["case", "at"], name="obstruction_case_id_63cd81_idx")],
            },
        ),
        migrations.CreateModel(
            name="GradeApplication",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("owners", models.CharField(help_text="The owners applying, as they signed", max_length=300)),
                ("received_on", models.DateField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the Board"),
                            ("established", "Grade established"),
                            ("denied", "Denied by the Board"),
                        ],
                        default="pending",
                        editable=False,
                        max_length=12,
                    ),
                ),
                ("recorded_at", models.DateTimeField(editable=False)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="permits.parcel"
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
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
                "ordering": ["received_on", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "pending")),
                        fields=("street",),
                        name="registers_one_pending_grade_application",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Grade",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "way",
                    models.CharField(
                        choices=[("street", "Street"), ("alley", "Alley"), ("sidewalk", "Sidewalk")],
                        default="street",
                        max_length=10,
                    ),
                ),
                (
                    "description",
                    models.TextField(help_text="The grade: elevations, the profile sheet and datum it is drawn to"),
                ),
                (
                    "basis",
                    models.CharField(
                        choices=[
                            ("established", "Established by the Board (§ 303-1A(1))"),
                            ("confirmed", "Established before the register; confirmed by § 303-1A(1)"),
                            ("owners_application", "Sidewalk grade on the owners' application (§ 303-1A(2))"),
                            ("board_alteration", "Altered by the Board (§ 303-1B)"),
                            ("dpw_alteration", "Altered on the Director of Public Works' authorization (§ 303-1B)"),
                        ],
                        editable=False,
                        max_length=20,
                    ),
                ),
                (
                    "resolution_number",
                    models.CharField(blank=True, help_text="The resolution that set the grade", max_length=60),
                ),
                ("established_on", models.DateField()),
                ("in_force", models.BooleanField(default=True, editable=False)),
                ("recorded_at", models.DateTimeField(editable=False)),
                (
                    "authorized_by",
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
                    "motion",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.motion",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="grades", to="permits.street"
                    ),
                ),
                (
                    "supersedes",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="superseded_by",
                        to="obstructions.grade",
                    ),
                ),
                (
                    "application",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="grade",
                        to="obstructions.gradeapplication",
                    ),
                ),
            ],
            options={
                "ordering": ["street__name", "way", "-established_on", "-pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("in_force", True)),
                        fields=("street", "way"),
                        name="registers_one_grade_in_force",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("basis__in", ["established", "owners_application", "board_alteration"]), _negated=True
                            ),
                            ("motion__isnull", False),
                            _connector="OR",
                        ),
                        name="registers_board_grade_has_motion",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("basis", "dpw_alteration"), _negated=True),
                            ("authorized_by__isnull", False),
                            _connector="OR",
                        ),
                        name="registers_dpw_alteration_authorized",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("basis__in", ["board_alteration", "dpw_alteration"]), _negated=True),
                            ("supersedes__isnull", False),
                            _connector="OR",
                        ),
                        name="registers_alteration_supersedes",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("basis", "dpw_alteration"),
                            models.Q(("resolution_number", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="registers_grade_has_resolution",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HigherStandard",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("min_width_feet", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ("min_thickness_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                (
                    "min_driveway_thickness_inches",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True),
                ),
                ("reason", models.TextField(blank=True)),
                ("resolution_number", models.CharField(max_length=60)),
                ("adopted_on", models.DateField()),
                ("recorded_at", models.DateTimeField(editable=False)),
                (
                    "motion",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="permits.motion"
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        blank=True,
                        help_text="Blank: the whole street",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.parcel",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
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
                "ordering": ["street__name", "-adopted_on", "-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("min_width_feet__isnull", False),
                            ("min_thickness_inches__isnull", False),
                            ("min_driveway_thickness_inches__isnull", False),
                            _connector="OR",
                        ),
                        name="registers_higher_standard_sets_something",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("min_width_feet__isnull", True), ("min_width_feet__gt", 0), _connector="OR"),
                            models.Q(
                                ("min_thickness_inches__isnull", True), ("min_thickness_inches__gt", 0), _connector="OR"
                            ),
                            models.Q(
                                ("min_driveway_thickness_inches__isnull", True),
                                ("min_driveway_thickness_inches__gt", 0),
                                _connector="OR",
                            ),
                        ),
                        name="registers_higher_standard_positive",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="HistoricalGrade",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                (
                    "way",
                    models.CharField(
                        choices=[("street", "Street"), ("alley", "Alley"), ("sidewalk", "Sidewalk")],
                        default="street",
                        max_length=10,
                    ),
                ),
                (
                    "description",
                    models.TextField(help_text="The grade: elevations, the profile sheet and datum it is drawn to"),
                ),
                (
                    "basis",
                    models.CharField(
                        choices=[
                            ("established", "Established by the Board (§ 303-1A(1))"),
                            ("confirmed", "Established before the register; confirmed by § 303-1A(1)"),
                            ("owners_application", "Sidewalk grade on the owners' application (§ 303-1A(2))"),
                            ("board_alteration", "Altered by the Board (§ 303-1B)"),
                            ("dpw_alteration", "Altered on the Director of Public Works' authorization (§ 303-1B)"),
                        ],
                        editable=False,
                        max_length=20,
                    ),
                ),
                (
                    "resolution_number",
                    models.CharField(blank=True, help_text="The resolution that set the grade", max_length=60),
                ),
                ("established_on", models.DateField()),
                ("in_force", models.BooleanField(default=True, editable=False)),
                ("recorded_at", models.DateTimeField(editable=False)),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")], max_length=1),
                ),
                (
                    "application",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="obstructions.gradeapplication",
                    ),
                ),
                (
                    "authorized_by",
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
                (
                    "supersedes",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="obstructions.grade",
                    ),
                ),
            ],
            options={
                "verbose_name": "historical grade",
                "verbose_name_plural": "historical grades",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalGradeApplication",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("owners", models.CharField(help_text="The owners applying, as they signed", max_length=300)),
                ("received_on", models.DateField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the Board"),
                            ("established", "Grade established"),
                            ("denied", "Denied by the Board"),
                        ],
                        default="pending",
                        editable=False,
                        max_length=12,
                    ),
                ),
                ("recorded_at", models.DateTimeField(editable=False)),
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
                        to="permits.motion",
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
                "verbose_name": "historical grade application",
                "verbose_name_plural": "historical grade applications",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalHigherStandard",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                ("min_width_feet", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                ("min_thickness_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True)),
                (
                    "min_driveway_thickness_inches",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=5, null=True),
                ),
                ("reason", models.TextField(blank=True)),
                ("resolution_number", models.CharField(max_length=60)),
                ("adopted_on", models.DateField()),
                ("recorded_at", models.DateTimeField(editable=False)),
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
                (
                    "parcel",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        help_text="Blank: the whole street",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="permits.parcel",
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
                "verbose_name": "historical higher standard",
                "verbose_name_plural": "historical higher standards",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="HistoricalImprovementRequest",
            fields=[
                ("id", models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("new_street", "New street"),
                            ("resurfacing", "Street resurfacing"),
                            ("curb_and_gutter", "Curb and gutter"),
                            ("storm_sewer", "Storm sewer"),
                            ("utility_work", "Utility work"),
                            ("sidewalk", "Sidewalk"),
                        ],
                        max_length=20,
                    ),
                ),
                ("location", models.CharField(help_text="Where: the block, the addresses", max_length=300)),
                ("petitioners", models.CharField(help_text="Who asks: the owners, as they signed", max_length=300)),
                ("signatures", models.PositiveIntegerField(default=1)),
                ("description", models.TextField(blank=True)),
                ("presented_at", models.DateTimeField(help_text="When it reached the Clerk-Treasurer")),
                ("consideration_year", models.PositiveSmallIntegerField(db_index=True, editable=False)),
                ("recorded_at", models.DateTimeField(editable=False)),
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
                    "received_by",
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
                "verbose_name": "historical improvement request",
                "verbose_name_plural": "historical improvement requests",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="ImprovementRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("new_street", "New street"),
                            ("resurfacing", "Street resurfacing"),
                            ("curb_and_gutter", "Curb and gutter"),
                            ("storm_sewer", "Storm sewer"),
                            ("utility_work", "Utility work"),
                            ("sidewalk", "Sidewalk"),
                        ],
                        max_length=20,
                    ),
                ),
                ("location", models.CharField(help_text="Where: the block, the addresses", max_length=300)),
                ("petitioners", models.CharField(help_text="Who asks: the owners, as they signed", max_length=300)),
                ("signatures", models.PositiveIntegerField(default=1)),
                ("description", models.TextField(blank=True)),
                ("presented_at", models.DateTimeField(help_text="When it reached the Clerk-Treasurer")),
                ("consideration_year", models.PositiveSmallIntegerField(db_index=True, editable=False)),
                ("recorded_at", models.DateTimeField(editable=False)),
                (
                    "received_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "ordering": ["consideration_year", "presented_at", "pk"],
                "indexes": [
                    models.Index(fields=["consideration_year", "presented_at"], name="registers_improvement_year")
                ],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("signatures__gte", 1)), name="registers_request_signed")
                ],
            },
        ),
        migrations.CreateModel(
            name="StreetNumber",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("building", models.CharField(default="Principal building", max_length=100)),
                ("number", models.PositiveIntegerField()),
                (
                    "suffix",
                    models.CharField(blank=True, help_text="A, B, 1/2 ... where the map gives one", max_length=4),
                ),
                ("map_reference", models.CharField(max_length=100, verbose_name="numbering map sheet or grid")),
                ("assigned_on", models.DateField(editable=False)),
                (
                    "assigned_by",
                    models.ForeignKey(
                        editable=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="street_numbers", to="permits.parcel"
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
                "ordering": ["street__name", "number", "suffix"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("street", "number", "suffix"), name="street_number_unique_on_street"
                    ),
                    models.UniqueConstraint(fields=("parcel", "building"), name="street_number_one_per_building"),
                ],
            },
        ),
        migrations.RunPython(add_trigram_indexes, drop_trigram_indexes),
    ]
