"""sidewalks: the schema as it stands, made once, then the unit-price placeholders of the fee schedule (§ 303-3E). It
replaces the history it was squashed from, so a database already migrated through that history carries on from here."""

import datetime
from decimal import Decimal

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

UNIT_PRICE_PLACEHOLDERS = [
    (
        "sidewalk_replace_sqft",
        "Sidewalk replacement by the Village, per square foot",
        "12.00",
        "§ 303-3B(1); § 303-3E(2)",
    ),
    ("sidewalk_repair_block", "Sidewalk block repair by the Village, per block", "150.00", "§ 303-3B(1); § 303-3E(1)"),
]


def seed_unit_prices(apps, schema_editor):
    FeeItem = apps.get_model("permits", "FeeItem")
    for code, name, amount, citation in UNIT_PRICE_PLACEHOLDERS:
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
    initial = True
    replaces = [
        ("sidewalks", "0001_special_charge_ledger"),
        ("sidewalks", "0002_sidewalk_permits_surveys_orders"),
        ("sidewalks", "0003_sidewalk_unit_price_fees"),
        ("sidewalks", "0004_inspection_form_width_order_findings"),
        ("sidewalks", "0005_permit_deficiency_citation"),
        ("sidewalks", "0006_snowcase_unoccupied_303_8b"),
        ("sidewalks", "0007_ledger_moves_into_the_core"),
        ("sidewalks", "0008_waivers_decided_by_board_motion"),
        ("sidewalks", "0009_inspection_sawn_joints_driveway_thickness"),
        ("sidewalks", "0010_pour_date_index"),
        ("sidewalks", "0011_board_waiver_requests"),
        ("sidewalks", "0012_list_indexes"),
    ]
    dependencies = [
        ("auth", "__first__"),
        ("permits", "0001_squashed_0035_people_order_index"),
    ]
    operations = [
        migrations.CreateModel(
            name="BoardWaiver",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("width_thickness", "Commercial width and thickness (§ 303-3D(8)(c))"),
                            ("cold_weather", "Emergency pour in cold weather or on frozen subgrade (§ 303-3D(9))"),
                        ],
                        max_length=20,
                    ),
                ),
                ("resolution_number", models.CharField(max_length=40)),
                ("adopted_on", models.DateField()),
                ("ayes", models.PositiveSmallIntegerField()),
                ("nays", models.PositiveSmallIntegerField(default=0)),
                (
                    "seats",
                    models.PositiveSmallIntegerField(
                        help_text="Seats on the entire Board on the adoption date, vacant ones included (from the roster; as typed on waivers recorded before it)."
                    ),
                ),
                ("reason", models.TextField(blank=True)),
                ("recorded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "motion",
                    models.OneToOneField(
                        blank=True,
                        help_text="The Board's motion that adopted the waiver (blank only for waivers recorded before the roster)",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_waiver",
                        to="permits.motion",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_waivers",
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
                "ordering": ["-adopted_on", "-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("ayes__lte", models.F("seats"))), name="board_waiver_ayes_within_seats"
                    ),
                    models.CheckConstraint(condition=models.Q(("seats__gt", 0)), name="board_waiver_seats_positive"),
                ],
            },
        ),
        migrations.CreateModel(
            name="RubbishCase",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.CharField(editable=False, max_length=20, unique=True)),
                ("description", models.CharField(max_length=500)),
                ("served_to", models.CharField(help_text="Owner or occupant notified", max_length=200)),
                ("served_method", models.CharField(max_length=100)),
                ("served_at", models.DateTimeField()),
                ("deadline_at", models.DateTimeField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("noticed", "Notice served"),
                            ("owner_removed", "Removed by the owner or occupant"),
                            ("village_removed", "Removed by the Village"),
                        ],
                        default="noticed",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("removed_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "removal_cost",
                    models.DecimalField(blank=True, decimal_places=2, editable=False, max_digits=10, null=True),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="rubbish_cases", to="permits.parcel"
                    ),
                ),
            ],
            options={
                "ordering": ["-served_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("deadline_at__gt", models.F("served_at"))),
                        name="rubbish_deadline_after_notice",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("removal_cost__isnull", True), ("removal_cost__gte", 0), _connector="OR"),
                        name="rubbish_cost_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="SidewalkInspection",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "stage",
                    models.CharField(
                        choices=[
                            ("subgrade", "Grading and subgrade (§ 303-3D(2), (3))"),
                            ("forms", "Forms (§ 303-3D(5))"),
                            (
                                "pour",
                                "Pour: concrete, weather, joints, slope, driveway thickness (§ 303-3D(4), (6), (7), (8), (9))",
                            ),
                            ("curing", "Curing (§ 303-3D(10))"),
                        ],
                        max_length=10,
                    ),
                ),
                ("result", models.CharField(choices=[("passed", "Passed"), ("failed", "Failed")], max_length=10)),
                ("findings", models.TextField(blank=True, help_text="Each failed rule with its section")),
                ("citations", models.CharField(blank=True, max_length=200)),
                ("notes", models.TextField(blank=True)),
                ("inspected_at", models.DateTimeField()),
                ("grading_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=4, null=True)),
                ("subgrade_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=4, null=True)),
                ("subgrade_material", models.CharField(blank=True, max_length=20)),
                ("form_material", models.CharField(blank=True, max_length=10)),
                ("form_thickness_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=4, null=True)),
                ("form_depth_inches", models.DecimalField(blank=True, decimal_places=2, max_digits=4, null=True)),
                (
                    "form_width_feet",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        max_digits=5,
                        null=True,
                        verbose_name="width between the forms (feet)",
                    ),
                ),
                ("concrete_psi", models.PositiveIntegerField(blank=True, null=True)),
                ("sacks_per_cubic_yard", models.DecimalField(blank=True, decimal_places=1, max_digits=4, null=True)),
                ("forecast_low_f", models.DecimalField(blank=True, decimal_places=1, max_digits=5, null=True)),
                ("air_temperature_f", models.DecimalField(blank=True, decimal_places=1, max_digits=5, null=True)),
                ("subgrade_frozen", models.BooleanField(blank=True, null=True)),
                ("expansion_spacing_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=5, null=True)),
                ("expansion_at_property_lines", models.BooleanField(blank=True, null=True)),
                ("groove_spacing_feet", models.DecimalField(blank=True, decimal_places=1, max_digits=4, null=True)),
                (
                    "sawn_joints",
                    models.BooleanField(
                        blank=True,
                        help_text="§ 303-3D(6): sawing of joints is prohibited",
                        null=True,
                        verbose_name="joints sawn",
                    ),
                ),
                (
                    "driveway_thickness_inches",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        help_text="§ 303-3D(8): at least 6 inches residential, 7 inches commercial or industrial",
                        max_digits=4,
                        null=True,
                        verbose_name="thickness across driveway approaches (inches)",
                    ),
                ),
                ("slope_inches_per_foot", models.DecimalField(blank=True, decimal_places=3, max_digits=4, null=True)),
                ("traffic_free_until", models.DateTimeField(blank=True, null=True)),
                ("curing_method", models.CharField(blank=True, max_length=20)),
                (
                    "inspector",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "permit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_inspections",
                        to="permits.permit",
                    ),
                ),
            ],
            options={
                "ordering": ["inspected_at", "pk"],
                "indexes": [
                    models.Index(fields=["permit", "stage", "inspected_at"], name="sidewalks_s_permit__c1d639_idx")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("result__in", ["passed", "failed"])),
                        name="sidewalk_inspection_result_known",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="SidewalkPermit",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "work",
                    models.CharField(
                        choices=[
                            ("new", "Lay a new walk"),
                            ("replace", "Remove and replace an existing walk"),
                            ("repair", "Repair an existing walk"),
                        ],
                        max_length=10,
                    ),
                ),
                (
                    "frontage_feet",
                    models.DecimalField(decimal_places=1, max_digits=7, verbose_name="length of frontage (feet)"),
                ),
                ("width_feet", models.DecimalField(decimal_places=2, max_digits=5, verbose_name="width (feet)")),
                (
                    "thickness_inches",
                    models.DecimalField(decimal_places=2, max_digits=4, verbose_name="thickness (inches)"),
                ),
                (
                    "driveway_length_feet",
                    models.DecimalField(
                        decimal_places=1,
                        default=Decimal("0"),
                        max_digits=6,
                        verbose_name="length across driveway approaches (feet)",
                    ),
                ),
                (
                    "driveway_thickness_inches",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        max_digits=4,
                        null=True,
                        verbose_name="thickness across driveway approaches (inches)",
                    ),
                ),
                (
                    "existing_width_feet",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        max_digits=5,
                        null=True,
                        verbose_name="width of the existing walk (feet)",
                    ),
                ),
                (
                    "material",
                    models.CharField(
                        choices=[
                            ("concrete", "Concrete"),
                            ("bituminous", "Bituminous (asphalt): prohibited, § 303-3D(4)"),
                        ],
                        default="concrete",
                        max_length=12,
                    ),
                ),
                (
                    "concrete_psi",
                    models.PositiveIntegerField(
                        blank=True, null=True, verbose_name="concrete strength at 28 days (psi)"
                    ),
                ),
                (
                    "sacks_per_cubic_yard",
                    models.DecimalField(
                        blank=True,
                        decimal_places=1,
                        max_digits=4,
                        null=True,
                        verbose_name="94-pound sacks of cement per cubic yard",
                    ),
                ),
                ("pour_date", models.DateField(blank=True, null=True, verbose_name="planned pour date")),
                (
                    "village_contract",
                    models.BooleanField(default=False, verbose_name="under contract with the Village"),
                ),
                (
                    "work_suspended",
                    models.BooleanField(
                        default=False,
                        editable=False,
                        help_text="§ 303-3D(10): suspended for failure to cure; lifted by a passed curing inspection",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_permits",
                        to="permits.parcel",
                    ),
                ),
                (
                    "permit",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="sidewalk", to="permits.permit"
                    ),
                ),
                (
                    "waiver",
                    models.ForeignKey(
                        blank=True,
                        help_text="§ 303-3D(8)(c) waiver relied on, if any",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="permits",
                        to="sidewalks.boardwaiver",
                    ),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["pour_date"], name="sidewalk_pour_date_idx")],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("width_feet__gt", 0)), name="sidewalk_width_positive"),
                    models.CheckConstraint(
                        condition=models.Q(("thickness_inches__gt", 0)), name="sidewalk_thickness_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("frontage_feet__gt", 0)), name="sidewalk_frontage_positive"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="SidewalkSurvey",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("surveyed_on", models.DateField()),
                (
                    "block_area_sqft",
                    models.DecimalField(
                        decimal_places=1,
                        default=Decimal("20.0"),
                        help_text="Used to turn blocks into square feet for a replacement (a 4 ft walk with joints every 5 ft: 20)",
                        max_digits=5,
                        verbose_name="area of one block (square feet)",
                    ),
                ),
                ("notes", models.TextField(blank=True)),
                ("orders_proposed_on", models.DateField(blank=True, editable=False, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "inspector",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "street",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_surveys",
                        to="permits.street",
                    ),
                ),
            ],
            options={
                "ordering": ["-surveyed_on", "-pk"],
            },
        ),
        migrations.CreateModel(
            name="SidewalkOrder",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.CharField(editable=False, max_length=20, unique=True)),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("defective", "Defective blocks (§ 303-3E)"),
                            ("illegal", "Built contrary to § 303-3 (§ 303-3F)"),
                            ("board", "Board determination (§ 303-3A)"),
                        ],
                        default="defective",
                        max_length=12,
                    ),
                ),
                (
                    "work",
                    models.CharField(
                        choices=[("repair", "Repair"), ("replace", "Replace the entire walk")], max_length=10
                    ),
                ),
                ("blocks_total", models.PositiveIntegerField(default=0)),
                ("blocks_defective", models.PositiveIntegerField(default=0)),
                ("quantity", models.DecimalField(decimal_places=1, max_digits=8)),
                ("unit", models.CharField(choices=[("sqft", "square feet"), ("block", "blocks")], max_length=5)),
                ("fee_code", models.SlugField(help_text="Fee schedule item the unit price came from", max_length=60)),
                ("unit_price", models.DecimalField(decimal_places=2, max_digits=10)),
                ("estimated_cost", models.DecimalField(decimal_places=2, max_digits=10)),
                (
                    "findings",
                    models.TextField(
                        blank=True, help_text="Why the walk is defective or illegal, each with its section"
                    ),
                ),
                (
                    "highland_theresa_project",
                    models.BooleanField(
                        default=False,
                        help_text="§ 303-3B(2): the Village pays 50% only on that named, budgeted project. Tick only when recorded as such; other work is 100% the owner's.",
                        verbose_name="part of the Highland Avenue / Theresa Lane project",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("proposed", "Proposed"),
                            ("adopted", "Adopted by the Board"),
                            ("served", "Served on the owner"),
                            ("owner_done", "Done by the owner"),
                            ("village_done", "Done by the Village"),
                            ("charged", "Charged to the parcel"),
                            ("withdrawn", "Withdrawn"),
                        ],
                        default="proposed",
                        editable=False,
                        max_length=15,
                    ),
                ),
                ("resolution_number", models.CharField(blank=True, editable=False, max_length=40)),
                ("adopted_on", models.DateField(blank=True, editable=False, null=True)),
                (
                    "service_method",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("personal", "Personal delivery"),
                            ("certified_mail", "Certified mail"),
                            ("registered_mail", "Registered mail"),
                            ("publication_and_mail", "Publication and first-class mail"),
                        ],
                        editable=False,
                        max_length=25,
                    ),
                ),
                ("served_on", models.DateField(blank=True, editable=False, null=True)),
                ("service_proof", models.CharField(blank=True, editable=False, max_length=300)),
                (
                    "owner_deadline",
                    models.DateField(
                        blank=True,
                        editable=False,
                        help_text="Last day the owner may do the work: 20 days after service, Wis. Stat. § 66.0907 (verify the current text; the period is the SIDEWALK_OWNER_PERIOD_DAYS setting)",
                        null=True,
                    ),
                ),
                (
                    "village_cost",
                    models.DecimalField(blank=True, decimal_places=2, editable=False, max_digits=10, null=True),
                ),
                ("village_done_on", models.DateField(blank=True, editable=False, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "charge",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_order",
                        to="permits.specialcharge",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "owner_permit",
                    models.ForeignKey(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_orders",
                        to="permits.permit",
                    ),
                ),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="sidewalk_orders", to="permits.parcel"
                    ),
                ),
                (
                    "survey",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="orders",
                        to="sidewalks.sidewalksurvey",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-pk"],
                "indexes": [
                    models.Index(fields=["status", "owner_deadline"], name="sidewalks_s_status_d4474e_idx"),
                    models.Index(fields=["-created_at", "-id"], name="sidewalk_order_created_idx"),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("estimated_cost__gte", 0)), name="sidewalk_order_estimate_not_negative"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("quantity__gte", 0)), name="sidewalk_order_quantity_not_negative"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("village_cost__isnull", True), ("village_cost__gte", 0), _connector="OR"),
                        name="sidewalk_order_cost_not_negative",
                    ),
                    models.UniqueConstraint(fields=("survey", "parcel"), name="sidewalk_order_one_per_survey_parcel"),
                ],
            },
        ),
        migrations.CreateModel(
            name="Snowfall",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("stopped_at", models.DateTimeField(verbose_name="snow stopped at")),
                ("inches", models.DecimalField(blank=True, decimal_places=1, max_digits=4, null=True)),
                ("notes", models.CharField(blank=True, max_length=300)),
                ("recorded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-stopped_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("inches__isnull", True), ("inches__gte", 0), _connector="OR"),
                        name="snowfall_inches_not_negative",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="SnowCase",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.CharField(editable=False, max_length=20, unique=True)),
                ("reported_address", models.CharField(max_length=200)),
                ("details", models.CharField(blank=True, max_length=500)),
                (
                    "reported_via",
                    models.CharField(
                        choices=[("staff", "Village staff"), ("public", "Public report form")], max_length=10
                    ),
                ),
                ("reporter_contact", models.CharField(blank=True, max_length=200)),
                ("reported_at", models.DateTimeField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("open", "Open"),
                            ("owner_cleared", "Cleared by the owner"),
                            ("village_cleared", "Cleared by the Village"),
                            ("dismissed", "Dismissed"),
                        ],
                        default="open",
                        editable=False,
                        max_length=20,
                    ),
                ),
                ("cleared_at", models.DateTimeField(blank=True, editable=False, null=True)),
                ("crew_notes", models.CharField(blank=True, max_length=500)),
                (
                    "unoccupied",
                    models.BooleanField(
                        default=False,
                        help_text="§ 303-8B: set by DPW staff; no written notice to the owner need be given for such a lot.",
                        verbose_name="unoccupied lot or abandoned property",
                    ),
                ),
                ("owner_notified_at", models.DateTimeField(blank=True, editable=False, null=True)),
                (
                    "cleared_by",
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
                        related_name="snow_cases",
                        to="permits.parcel",
                    ),
                ),
                (
                    "reported_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "snowfall",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cases",
                        to="sidewalks.snowfall",
                    ),
                ),
            ],
            options={
                "ordering": ["-reported_at"],
                "indexes": [models.Index(fields=["status", "-reported_at"], name="sidewalks_s_status_22fd1f_idx")],
            },
        ),
        migrations.CreateModel(
            name="SurveyBlock",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("block_number", models.PositiveSmallIntegerField()),
                (
                    "vertical_inches",
                    models.DecimalField(
                        decimal_places=2, default=0, max_digits=4, verbose_name="vertical differential (inches)"
                    ),
                ),
                (
                    "horizontal_inches",
                    models.DecimalField(
                        decimal_places=2, default=0, max_digits=4, verbose_name="horizontal gap (inches)"
                    ),
                ),
                (
                    "deterioration_inches",
                    models.DecimalField(
                        decimal_places=2, default=0, max_digits=4, verbose_name="surface deterioration (inches)"
                    ),
                ),
                ("defective", models.BooleanField(editable=False)),
                ("defects", models.CharField(blank=True, editable=False, max_length=300)),
                (
                    "parcel",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="survey_blocks", to="permits.parcel"
                    ),
                ),
                (
                    "survey",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="blocks",
                        to="sidewalks.sidewalksurvey",
                    ),
                ),
            ],
            options={
                "ordering": ["parcel__site_address", "block_number"],
                "constraints": [
                    models.UniqueConstraint(fields=("survey", "parcel", "block_number"), name="survey_block_unique"),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("vertical_inches__gte", 0), ("horizontal_inches__gte", 0), ("deterioration_inches__gte", 0)
                        ),
                        name="survey_block_measures_not_negative",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="WaiverRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("width_thickness", "Commercial width and thickness (§ 303-3D(8)(c))"),
                            ("cold_weather", "Emergency pour in cold weather or on frozen subgrade (§ 303-3D(9))"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "reason",
                    models.TextField(help_text="Why the waiver is asked (the emergency, the establishment's frontage)"),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the Board"),
                            ("waived", "Waived by the Board"),
                            ("denied", "Denied by the Board"),
                        ],
                        default="pending",
                        editable=False,
                        max_length=10,
                    ),
                ),
                ("requested_at", models.DateTimeField(auto_now_add=True)),
                (
                    "decided_by_motion",
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
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sidewalk_waiver_requests",
                        to="permits.parcel",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "waiver",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="request",
                        to="sidewalks.boardwaiver",
                    ),
                ),
            ],
            options={
                "ordering": ["requested_at", "pk"],
                "indexes": [models.Index(fields=["status", "requested_at"], name="waiver_request_status")],
            },
        ),
        migrations.RunPython(seed_unit_prices, migrations.RunPython.noop),
    ]
