"""Forms for sidewalk permits, inspections, surveys and orders. They validate input; sidewalks/ordinance.py decides,
and each broken rule becomes an error on its field citing its section."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from permits.forms import add_violations
from permits.input_limits import LimitedForm
from permits.models import Organization, Parcel, Permit, PermitKind
from permits.uploads import inspect_upload
from sidewalks import services
from sidewalks.models import SidewalkOrder
from sidewalks.models.sidewalk import Material, Standing, Work

DATE = forms.DateInput(attrs={"type": "date"})
FEET = {"min": "0", "step": "0.1", "inputmode": "decimal"}
INCHES = {"min": "0", "step": "0.01", "inputmode": "decimal"}


def _decimal(label, *, required=True, help_text="", attrs=INCHES, max_digits=6, places=2):
    return forms.DecimalField(
        label=label,
        required=required,
        help_text=help_text,
        min_value=Decimal("0"),
        max_digits=max_digits,
        decimal_places=places,
        widget=forms.NumberInput(attrs=attrs),
    )


class ParcelField(forms.CharField):
    """A parcel by its tax key number."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        parcel = Parcel.objects.select_related("street").filter(tax_key=value.strip()).first()
        if parcel is None:
            raise forms.ValidationError(f"No parcel has the tax key number {value.strip()}: check it on the tax bill.")
        return parcel


class SidewalkApplicationForm(LimitedForm):
    parcel = ParcelField(
        label="Parcel tax key number",
        help_text="As printed on the tax bill, e.g. 266-1116-0001. Its land use decides the standard (§ 303-3D(8)). "
        "Use the parcel search to find it by address.",
    )
    organization = forms.ModelChoiceField(
        queryset=Organization.objects.none(), required=False, label="Applying for", empty_label="Myself"
    )
    standing = forms.ChoiceField(
        choices=Standing.choices,
        initial=Standing.OWNER,
        required=False,  # left unanswered, the filer files as the owner (and the clerk sees whether that holds)
        widget=forms.RadioSelect,
        label="You file as",
        help_text="§ 303-3C: the permit is the owner's. An owner links the account to the parcel first (Your parcels); "
        "an agent uploads the owner's written authorization below; the Clerk-Treasurer checks it before issue.",
    )
    authorization = forms.FileField(
        required=False,
        label="The owner's written authorization (PDF, JPEG or PNG, at most 10 MB)",
        help_text="Required when you file as the owner's agent (§ 303-3C).",
    )
    work = forms.ChoiceField(choices=Work.choices, widget=forms.RadioSelect, label="Work")
    frontage_feet = _decimal("Length of frontage (feet)", attrs=FEET, max_digits=7, places=1)
    width_feet = _decimal("Width of the walk (feet)", attrs=FEET, max_digits=5)
    thickness_inches = _decimal("Thickness (inches)", max_digits=4)
    driveway_length_feet = _decimal(
        "Length across driveway approaches (feet)",
        required=False,
        attrs=FEET,
        max_digits=6,
        places=1,
        help_text="Total length of the stretches across driveway approaches; 0 if none.",
    )
    driveway_thickness_inches = _decimal(
        "Thickness across driveway approaches (inches)",
        required=False,
        max_digits=4,
        help_text="At least 6 inches (residential) or 7 inches (commercial, industrial): § 303-3D(8).",
    )
    existing_width_feet = _decimal(
        "Width of the existing walk (feet)",
        required=False,
        attrs=FEET,
        max_digits=5,
        help_text="For a repair or replacement: a residential walk may keep its existing width (§ 303-3D(8)(a)).",
    )
    material = forms.ChoiceField(choices=Material.choices, initial=Material.CONCRETE)
    concrete_psi = forms.IntegerField(
        label="Concrete strength at 28 days (psi)",
        required=False,
        min_value=0,
        help_text="At least 3,500 psi (§ 303-3D(4)).",
    )
    sacks_per_cubic_yard = _decimal(
        "94-pound sacks of cement per cubic yard",
        required=False,
        max_digits=4,
        places=1,
        help_text="At least six (§ 303-3D(4)).",
    )
    pour_date = forms.DateField(
        label="Planned pour date",
        widget=DATE,
        help_text="Apply at least three days before the work (§ 303-3C).",
    )
    vault_or_cistern = forms.BooleanField(
        required=False,
        label="The work includes a vault or cistern under the sidewalk",
        help_text="Vaults and cisterns under sidewalks are prohibited, with no waiver (§ 303-10).",
    )
    work_description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Notes")

    def __init__(self, *args, user, today, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today
        orgs = Organization.objects.filter(memberships__user=user)
        self.fields["organization"].queryset = orgs
        if not orgs.exists():
            del self.fields["organization"]

    def clean_standing(self):
        # Left unanswered, the filer files as the owner (the clerk then sees whether that holds, § 303-3C).
        return self.cleaned_data.get("standing") or Standing.OWNER

    def clean_authorization(self):
        upload = self.cleaned_data.get("authorization")
        if upload:
            inspect_upload(upload)
        return upload

    def clean(self):
        data = super().clean()
        if (
            data.get("standing") == Standing.AGENT
            and not data.get("authorization")
            and "authorization" not in self.errors
        ):
            self.add_error(
                "authorization",
                "An agent files with the owner's written authorization: upload it (§ 303-3C).",
            )
        parcel = data.get("parcel")
        if parcel is not None:
            fields = {
                k: data.get(k)
                for k in (
                    "work",
                    "width_feet",
                    "thickness_inches",
                    "driveway_thickness_inches",
                    "existing_width_feet",
                    "material",
                    "pour_date",
                    "village_contract",
                    "concrete_psi",
                    "sacks_per_cubic_yard",
                    "vault_or_cistern",
                )
            }
            # A field that failed its own validation is None here: the rule for it is not run twice.
            add_violations(self, services.application_violations(parcel=parcel, today=self.today, **fields))
        return data


class InspectionForm(LimitedForm):
    """One stage's measurements, for a phone in the field; the rules decide pass or fail."""

    grading_inches = _decimal("Ground above or below subgrade (inches)", help_text="Within 3 inches (§ 303-3D(2)).")
    subgrade_inches = _decimal("Depth of subgrade fill (inches)", help_text="At least 3 inches (§ 303-3D(3)).")
    subgrade_material = forms.ChoiceField(
        label="Subgrade material",
        choices=[("sand", "Sand"), ("gravel", "Gravel"), ("crushed_concrete", "Crushed concrete"), ("other", "Other")],
    )
    form_material = forms.ChoiceField(
        label="Form material",
        choices=[
            ("wood", "Wood plank"),
            ("metal_approved", "Metal, approved section"),
            ("metal", "Metal, not an approved section"),
        ],
    )
    form_thickness_inches = _decimal(
        "Wood plank thickness (inches)", required=False, help_text="At least 1 1/2 inches (§ 303-3D(5))."
    )
    form_depth_inches = _decimal("Depth of the forms (inches)", help_text="Full depth of the walk (§ 303-3D(5)).")
    form_width_feet = _decimal(
        "Width between the forms (feet)",
        required=False,
        attrs=FEET,
        max_digits=5,
        help_text="The walk's width as built: § 303-3D(8).",
    )
    strip_inches = _decimal(
        "Strip of street property between the property line and the edge of the walk (inches)",
        max_digits=5,
        places=1,
        attrs={"min": "0", "step": "0.5", "inputmode": "decimal"},
        help_text="At least six inches (§ 303-3D(7)).",
    )
    subgrade_compacted = forms.BooleanField(
        required=False,
        label="Subgrade thoroughly and uniformly compacted just before the pour",
        help_text="§ 303-3D(3)",
    )
    subgrade_moistened = forms.BooleanField(
        required=False, label="Subgrade moistened just before the pour", help_text="§ 303-3D(3)"
    )
    concrete_psi = forms.IntegerField(label="Concrete strength at 28 days, per ticket (psi)", min_value=0)
    sacks_per_cubic_yard = _decimal("94-pound sacks per cubic yard, per ticket", max_digits=4, places=1)
    forecast_low_f = _decimal(
        "Lowest forecast temperature in the next 72 hours (°F)",
        max_digits=5,
        places=1,
        attrs={"step": "1", "inputmode": "decimal"},
    )
    air_temperature_f = _decimal(
        "Air temperature now (°F)",
        max_digits=5,
        places=1,
        attrs={"step": "1", "inputmode": "decimal"},
        help_text="Below 50 °F the walk stays free of traffic 96 hours, otherwise 48 (§ 303-3D(9)).",
    )
    subgrade_frozen = forms.BooleanField(required=False, label="Subgrade is frozen")
    expansion_spacing_feet = _decimal("Greatest spacing of expansion joints (feet)", attrs=FEET, places=1)
    expansion_at_property_lines = forms.BooleanField(required=False, label="Expansion joints at the property lines")
    groove_spacing_feet = _decimal("Spacing of groove joints (feet)", attrs=FEET, places=1)
    sawn_joints = forms.TypedChoiceField(
        label="How the joints were made",
        choices=[("no", "Tooled or formed in the fresh concrete"), ("yes", "Sawn (prohibited, § 303-3D(6))")],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        help_text="Sawing of joints is prohibited (§ 303-3D(6)).",
    )
    meeting_joints = forms.ChoiceField(
        label="Expansion joints where the walk meets another walk, a curb, a building or a driveway approach",
        choices=[
            ("placed", "Placed at each"),
            ("missing", "Missing at one or more"),
            ("none_met", "The walk meets none of these"),
        ],
        widget=forms.RadioSelect,
        help_text="§ 303-3D(6)",
    )
    diagonal_joints = forms.TypedChoiceField(
        label="Joints at right angles to the walk",
        choices=[("no", "All at right angles"), ("yes", "Diagonal joints used")],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        help_text="Diagonal joints only when the Village Board approved them for this permit (§ 303-3D(6)).",
    )
    driveway_thickness_inches = _decimal(
        "Thickness across the driveway approach (inches)",
        required=False,
        max_digits=4,
        help_text="At least 6 inches residential, 7 commercial or industrial (§ 303-3D(8)). Required where the walk "
        "crosses a driveway approach.",
    )
    slope_inches_per_foot = _decimal(
        "Slope toward the curb (inch per foot)", places=3, attrs={"step": "0.005", "inputmode": "decimal"}
    )
    curing_method = forms.ChoiceField(
        label="Curing method",
        choices=[
            ("impervious_coating", "Impervious coating"),
            ("wet_fabric", "Wet fabric"),
            ("paper", "Paper"),
            ("none", "Not cured"),
        ],
    )
    other_defect = forms.CharField(required=False, label="Other defect (fails the item)", max_length=300)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, stage: str, **kwargs):
        super().__init__(*args, **kwargs)
        keep = set(services.STAGE_FIELDS[stage]) | {"other_defect", "notes"}
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]

    def measurements(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if k not in ("other_defect", "notes")}


class SurveyForm(LimitedForm):
    street = forms.ModelChoiceField(queryset=None)
    surveyed_on = forms.DateField(label="Date of the survey", widget=DATE)
    block_area_sqft = _decimal(
        "Area of one block (square feet)",
        attrs=FEET,
        places=1,
        max_digits=5,
        help_text="Turns blocks into square feet for a replacement.",
    )

    def __init__(self, *args, **kwargs):
        from permits.models import Street

        super().__init__(*args, **kwargs)
        self.fields["street"].queryset = Street.objects.all()


class BlockForm(LimitedForm):
    parcel = forms.ModelChoiceField(queryset=None, label="Parcel")
    block_number = forms.IntegerField(
        min_value=1, max_value=32767, label="Block number", widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
    vertical_inches = _decimal(
        "Vertical differential (inches)", help_text="Defective at 3/4 inch or more (§ 303-3E(1)(a))."
    )
    horizontal_inches = _decimal(
        "Horizontal gap (inches)", help_text="Defective at 1 1/4 inches or more (§ 303-3E(1)(b))."
    )
    deterioration_inches = _decimal(
        "Surface deterioration (inches)", help_text="Defective at 1/2 inch or more (§ 303-3E(1)(c))."
    )

    def __init__(self, *args, street, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["parcel"].queryset = Parcel.objects.filter(street=street).order_by("site_address")


class IllegalSidewalkForm(LimitedForm):
    """§ 303-3F: an existing walk, as measured, that was built contrary to § 303-3."""

    parcel = ParcelField(label="Parcel tax key number")
    frontage_feet = _decimal("Length of frontage (feet)", attrs=FEET, max_digits=7, places=1)
    width_feet = _decimal("Measured width (feet)", attrs=FEET, max_digits=5)
    thickness_inches = _decimal("Measured thickness (inches)", max_digits=4)
    driveway_thickness_inches = _decimal(
        "Measured thickness across driveway approaches (inches)", required=False, max_digits=4
    )
    material = forms.ChoiceField(choices=Material.choices)
    predates_section = forms.BooleanField(
        required=False,
        label="The walk was built before § 303-3 took effect",
        help_text="A residential walk that existed then may be kept at its own width (§ 303-3D(8)(a)): its width is "
        "then no ground to call it illegal.",
    )
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class BoardOrderForm(LimitedForm):
    """§ 303-3A: sidewalk or curb and gutter work the Board may order, with the engineer's estimate."""

    parcel = ParcelField(label="Parcel tax key number")
    element = forms.ChoiceField(choices=SidewalkOrder.Element.choices, label="What the Board orders")
    work = forms.ChoiceField(
        choices=[(Work.NEW, "Construct"), (Work.REPAIR, "Repair"), (Work.REPLACE, "Remove and rebuild")],
        label="Work",
    )
    quantity = _decimal("Quantity", attrs={"min": "0", "step": "0.1", "inputmode": "decimal"}, max_digits=8, places=1)
    unit = forms.ChoiceField(choices=SidewalkOrder.Unit.choices)
    unit_price = _decimal(
        "Unit price ($, engineer's estimate)",
        attrs={"min": "0", "step": "0.01", "inputmode": "decimal"},
        max_digits=10,
    )
    findings = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Why the work is needed")
    highland_theresa_project = forms.BooleanField(
        required=False,
        label="Part of the Highland Avenue / Theresa Lane project",
        help_text="§ 303-3B(2): the Village pays 50% only on that named, budgeted project; any other work is 100% "
        "the owner's, as a special assessment.",
    )


class MinorRepairForm(LimitedForm):
    """§ 303-3B(3), Wis. Stat. § 66.0907: a minor repair the Village made at once, within the Board's limit."""

    parcel = ParcelField(label="Parcel tax key number")
    description = forms.CharField(max_length=200, label="What was repaired")
    done_on = forms.DateField(label="Repaired on", widget=DATE)
    cost = _decimal("Cost of the repair ($)", attrs={"min": "0", "step": "0.01", "inputmode": "decimal"}, max_digits=10)


class MinorRepairAuthorityForm(LimitedForm):
    """The Board's resolution requiring minor repairs to be made at once, with its cost limit (§ 303-3B(3))."""

    motion = forms.ModelChoiceField(
        queryset=None,
        label="The Board's motion (§ 303-3B(3))",
        help_text="A carried motion under § 303-3B(3) recorded at a meeting that was held (Board > meetings).",
    )
    limit = _decimal(
        "Most a minor repair may cost ($)",
        attrs={"min": "0.01", "step": "0.01", "inputmode": "decimal"},
        max_digits=10,
        help_text="As the Board set it ($100 in the statute's older text: verify the current text).",
    )
    effective_from = forms.DateField(label="In force from", widget=DATE)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from permits.board.clauses import Clause
        from permits.board.models import Motion

        self.fields["motion"].queryset = (
            Motion.objects.filter(outcome=Motion.Outcome.CARRIED, item__clause=Clause.SIDEWALK_ORDER)
            .select_related("item__meeting")
            .order_by("-item__meeting__held_on", "-pk")
        )


class AdoptForm(LimitedForm):
    motion = forms.ModelChoiceField(
        queryset=None,
        label="The Board's motion that adopted them (§ 303-3B(3))",
        help_text="A carried motion under § 303-3B(3), with its resolution number, recorded at a meeting that was "
        "held (Board > meetings). Its date is the adoption date.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from permits.board.clauses import Clause
        from permits.board.models import Motion

        self.fields["motion"].queryset = (
            Motion.objects.filter(outcome=Motion.Outcome.CARRIED, item__clause=Clause.SIDEWALK_ORDER)
            .select_related("item__meeting")
            .order_by("-item__meeting__held_on", "-pk")
        )


class ServeForm(LimitedForm):
    method = forms.ChoiceField(choices=SidewalkOrder.ServiceMethod.choices, label="Served by")
    served_on = forms.DateField(
        label="Date of service", widget=DATE, help_text="For publication and mail, the later of the two dates."
    )
    proof = forms.CharField(
        max_length=300,
        label="Proof of service",
        required=False,
        help_text="Affidavit of service, certified-mail receipt number, or publication details.",
    )


class OwnerWorkForm(LimitedForm):
    permit = forms.CharField(label="Owner's sidewalk permit number", max_length=20)

    def clean_permit(self):
        number = self.cleaned_data["permit"].strip()
        permit = Permit.objects.filter(number=number, kind=PermitKind.SIDEWALK).first()
        if permit is None:
            raise forms.ValidationError(f"No sidewalk permit {number}.")
        return permit


class VillageWorkForm(LimitedForm):
    cost = _decimal("The Village's cost ($)", attrs={"min": "0", "step": "0.01", "inputmode": "decimal"}, max_digits=10)
    done_on = forms.DateField(label="Work done on", widget=DATE)


class WithdrawForm(LimitedForm):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), label="Why the order is withdrawn", required=False
    )


class StandingForm(LimitedForm):
    """§ 303-3C: the Clerk-Treasurer accepts an agent's written authorization, or confirms the Village's contract."""

    document = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="The owner's written authorization",
        empty_label=None,
        widget=forms.RadioSelect,
        help_text="Compare it with the owner of record before accepting it (§ 303-3C).",
    )
    reference = forms.CharField(
        required=False,
        max_length=80,
        label="Number of the Village's contract in the register",
        help_text="The contract for this work, as the Clerk-Treasurer's register numbers it (§ 303-3C).",
    )

    def __init__(self, *args, permit, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["document"].queryset = permit.documents.order_by("uploaded_at")
        if permit.sidewalk.standing == Standing.AGENT:
            del self.fields["reference"]
        else:
            del self.fields["document"]
