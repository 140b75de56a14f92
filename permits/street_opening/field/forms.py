"""Forms of the field pages. They check input; the rules in field_rules.py decide pass or fail (a failing
measurement is a valid inspection that fails, logged with the sections it broke)."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils import timezone

from permits.forms import (
    add_violations,  # noqa: F401  (re-exported for this type's views)
    yes_or_no,
)
from permits.input_limits import LimitedForm
from permits.street_opening.field.models import DefectNotice, PermitteeNotice
from permits.street_opening.field.services import MEASURED_FIELDS

DECIMAL = {"inputmode": "decimal", "class": "form-control form-control-lg", "autocomplete": "off"}
LOCAL_DATETIME = "%Y-%m-%dT%H:%M"


def _inches(label: str, help_text: str, required: bool = True, max_digits: int = 6, places: int = 2, least=0):
    return forms.DecimalField(
        label=label,
        help_text=help_text,
        required=required,
        min_value=least,
        max_digits=max_digits,
        decimal_places=places,
        widget=forms.NumberInput(attrs={**DECIMAL, "step": "any"}),
    )


def _dollars(label: str, help_text: str = ""):
    return forms.DecimalField(
        label=label,
        help_text=help_text,
        min_value=0,
        max_digits=12,
        decimal_places=2,
        widget=forms.NumberInput(attrs={**DECIMAL, "step": "0.01"}),
    )


def _yes(label: str, help_text: str = "", initial: bool = False):
    return forms.BooleanField(label=label, help_text=help_text, required=False, initial=initial)


class DateTimeLocalInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None):
        super().__init__(attrs={"class": "form-control form-control-lg", **(attrs or {})}, format=LOCAL_DATETIME)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs={"class": "form-control form-control-lg", **(attrs or {})}, format="%Y-%m-%d")


class InspectionForm(LimitedForm):
    notes = forms.CharField(label="Notes", required=False, widget=forms.Textarea(attrs={"rows": 3}))
    photo = forms.FileField(label="Photo (optional; JPEG, PNG or PDF, at most 10 MB)", required=False)


class BackfillForm(InspectionForm):
    largest_stone_inches = _inches(
        "Largest stone (inches)", "No stone over 8 inches in its greatest dimension (§ 303-5E(1))."
    )
    cinders_or_ashes = _yes("Cinders or ashes found", "§ 303-5E(1)")
    refuse = _yes("Refuse found", "§ 303-5E(1)")
    organic_matter = _yes("Vegetable or organic matter found", "§ 303-5E(1)")
    frozen_lumps = _yes("Frozen lumps found", "§ 303-5E(1)")
    field_order = [
        "largest_stone_inches",
        "cinders_or_ashes",
        "refuse",
        "organic_matter",
        "frozen_lumps",
        "notes",
        "photo",
    ]


class CompactionForm(InspectionForm):
    # A layer has a thickness: the column's check refuses 0, which the form let through (a 500).
    lift_inches = _inches(
        "Lift thickness (inches)", "At most 12 inches per layer (§ 303-5E(4)).", least=Decimal("0.01")
    )
    compaction_percent = _inches(
        "Compaction (% of Modified Proctor maximum dry density)",
        "At least 95.0% (§ 303-5E(4)); a failed test is retested at the permittee's cost (§ 303-5E(5)).",
        max_digits=5,
        places=1,
    )
    mechanical = _yes("Compacted mechanically", "Required (§ 303-5E(4)).", initial=True)
    flooded = _yes("Compacted by flooding", "Not permitted (§ 303-5E(4)).")
    field_order = ["lift_inches", "compaction_percent", "mechanical", "flooded", "notes", "photo"]


class PavementForm(InspectionForm):
    SURFACES = [("bituminous", "Bituminous (asphalt)"), ("concrete", "Concrete")]
    surface = forms.ChoiceField(label="Pavement", choices=SURFACES, widget=forms.RadioSelect)
    existing_pavement_inches = _inches(
        "Existing pavement depth (inches)", "Leave empty to use the depth on the application.", required=False
    )
    three_inch_stone_inches = _inches(
        "3-inch crushed stone (inches)", "At least 4 inches (§ 303-5G(1)).", required=False
    )
    three_quarter_stone_inches = _inches(
        "3/4-inch crushed stone (inches)", "At least 4 inches (§ 303-5G(1)).", required=False
    )
    depth_inches = _inches(
        "New pavement depth (inches)",
        "Bituminous: existing depth or 2 1/2 inches, whichever is "
        "greater (§ 303-5G(2)). Concrete: existing depth or 7 inches (§ 303-5G(3)).",
    )
    base_layer_inches = _inches(
        "Thickest bituminous base layer (inches)", "At most 1 1/2 inches (§ 303-5G(2)).", required=False
    )
    top_layer_inches = _inches("Bituminous top layer (inches)", "At most 1 inch (§ 303-5G(2)).", required=False)
    straightedge_deviation_inches = _inches(
        "Deviation under a 10-foot straightedge (inches)",
        "At most 1/4 inch = 0.25 (§ 303-5G(2)).",
        required=False,
        max_digits=5,
        places=3,
    )
    calcium_chloride = _yes("Concrete contains calcium chloride", "Not allowed (§ 303-5G(3)).")
    poured_on = forms.DateField(label="Concrete poured on", required=False, widget=DateInput())
    opened_to_traffic_on = forms.DateField(
        label="Opened to traffic on",
        required=False,
        widget=DateInput(),
        help_text="Protected from traffic at least 3 days (§ 303-5G(3)).",
    )
    field_order = [*MEASURED_FIELDS["pavement"], "notes", "photo"]

    def clean(self):
        data = super().clean()
        if data.get("surface") == "bituminous":
            for name in ("base_layer_inches", "top_layer_inches", "straightedge_deviation_inches"):
                if data.get(name) is None:
                    self.add_error(name, "Measure this for bituminous pavement (§ 303-5G(2)).")
        return data


class TrenchForm(InspectionForm):
    excavated_ahead_feet = _inches(
        "Trench open ahead of the pipe (feet)", "At most 250 feet (§ 303-5B(1)).", max_digits=7, places=1
    )
    unfilled_feet = _inches(
        "Trench left unfilled over laid pipe (feet)", "At most 500 feet (§ 303-5B(1)).", max_digits=7, places=1
    )
    special_permission = _yes("DPW gave special permission for more", "§ 303-5B(1)")
    spoil_blocks_gutter = _yes(
        "Excavated material blocks a gutter or drain",
        "Gutters kept clear or other provision made for drainage (§ 303-5D(1), § 303-13).",
    )
    field_order = [
        "excavated_ahead_feet",
        "unfilled_feet",
        "special_permission",
        "spoil_blocks_gutter",
        "notes",
        "photo",
    ]


class UndergroundDepthForm(InspectionForm):
    cover_feet = _inches(
        "Established grade to top of construction (feet)",
        "At least 3 feet (§ 303-1C(1)); checked before it is covered (§ 303-1C(4)).",
        max_digits=5,
    )
    covered_before_check = _yes("Already covered before this check", "Not allowed once the DPW asks (§ 303-1C(4)).")
    field_order = ["cover_feet", "covered_before_check", "notes", "photo"]


class FinalForm(InspectionForm):
    surface_restored = yes_or_no(
        "Surface back in the condition it was in before the work?",
        yes="Yes, restored",
        no="No",
        help_text="Otherwise the Village restores it at the permittee's expense (§ 303-1C(8)).",
    )
    field_order = ["surface_restored", "notes", "photo"]


def _seen(label: str, help_text: str):
    return yes_or_no(label, yes="Yes", no="No", help_text=help_text)


class ProtectionForm(InspectionForm):
    barriers = _seen("Opening enclosed with sufficient barriers?", "§ 303-5B(1).")
    signs = _seen("Sufficient signs and traffic control devices?", "§ 303-5B(1), MUTCD Part VI.")
    warning_lights = _seen("Sufficient warning lights on?", "§ 303-5B(1).")
    open_flame = _yes("Open-flame warning devices in use", "Not allowed (§ 303-5B(1)).")
    field_order = [*MEASURED_FIELDS["protection"], "notes", "photo"]


class SawCutForm(InspectionForm):
    surface = forms.ChoiceField(label="Pavement", choices=PavementForm.SURFACES, widget=forms.RadioSelect)
    saw_cut_straight = _seen("Pavement removed to neat, straight lines?", "§ 303-5C(1).")
    final_saw_cut = _seen("Final saw cut made after backfilling?", "§ 303-5C(1).")
    damaged_not_recut = _yes(
        "Pavement damaged beyond the saw-cut lines and not cut again", "It must be cut again (§ 303-5C(2))."
    )
    saw_cut_rectangular = _seen("Finished cut a regular rectangular section?", "§ 303-5C(2).")
    saw_cut_aligned = _seen(
        "Long dimension parallel with the curbline or direction of travel?",
        "In concrete: parallel with or at right angles to it (§ 303-5C(3)).",
    )
    vertical_face = yes_or_no(
        "Concrete: vertical face at the saw cut?",
        yes="Yes",
        no="No",
        required=False,
        help_text="For a full depth of concrete at the joint (§ 303-5C(4)). Concrete only.",
    )
    field_order = [*MEASURED_FIELDS["saw_cut"], "notes", "photo"]

    def clean(self):
        data = super().clean()
        if data.get("surface") == "concrete" and data.get("vertical_face") in (None, ""):
            self.add_error("vertical_face", "Answer this for concrete pavement (§ 303-5C(4)).")
        if data.get("vertical_face") == "":
            data["vertical_face"] = None
        return data


INSPECTION_FORMS = {
    "backfill": BackfillForm,
    "compaction": CompactionForm,
    "pavement": PavementForm,
    "trench": TrenchForm,
    "underground_depth": UndergroundDepthForm,
    "final": FinalForm,
    "protection": ProtectionForm,
    "saw_cut": SawCutForm,
}


def _local_datetime(label: str, required: bool = True, help_text: str = ""):
    return forms.DateTimeField(
        label=label,
        required=required,
        help_text=help_text,
        widget=DateTimeLocalInput(),
        input_formats=[LOCAL_DATETIME],
    )


class PlanWorkForm(LimitedForm):
    work_starts_at = _local_datetime("Excavation begins")
    outage_at = _local_datetime("Utility service to private properties goes off (if it will)", required=False)
    backfill_at = _local_datetime("Backfilling or surface restoration begins (if known)", required=False)


class PermitteeNoticeForm(LimitedForm):
    kind = forms.ChoiceField(label="Which notice", choices=PermitteeNotice.Kind.choices, widget=forms.RadioSelect)
    planned_work_at = _local_datetime("When the work it announces begins")
    given_at = _local_datetime("When you gave the notice", required=False, help_text="Leave empty for now.")
    given_to = forms.CharField(label="To whom", max_length=300)
    method = forms.ChoiceField(label="How", choices=PermitteeNotice.Method.choices)

    def clean_given_at(self):
        return self.cleaned_data.get("given_at") or timezone.now()


class TemporaryPavementForm(LimitedForm):
    placed_on = forms.DateField(label="Temporary surface placed on", widget=DateInput())
    depth_inches = _inches("Cold mix depth (inches)", "At least 3 inches (§ 303-5G(4)).", max_digits=5)


class PermanentPavementForm(LimitedForm):
    completed_on = forms.DateField(label="Permanent pavement completed on", widget=DateInput())


class CoveringHoldForm(LimitedForm):
    """§ 303-1C(4): the Director asks to check the construction before it is covered."""

    note = forms.CharField(
        label="Note to the permittee (optional)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="What to check, or when to call.",
    )


class FaultyWorkNoticeForm(LimitedForm):
    """§ 303-4H(2): the DPW's notice of faulty work or materials, to the permittee."""

    defect = forms.CharField(label="Faulty work or materials", widget=forms.Textarea(attrs={"rows": 3}))
    work_to_be_done = forms.CharField(label="Work to be done", widget=forms.Textarea(attrs={"rows": 3}))
    estimated_cost = forms.DecimalField(
        label="Estimated cost ($)",
        min_value=0,
        max_digits=12,
        decimal_places=2,
        widget=forms.NumberInput(attrs={**DECIMAL, "step": "0.01"}),
    )
    deadline = forms.DateField(label="Correct by", widget=DateInput())
    served_on = forms.DateField(label="Served on", widget=DateInput())


class DefectFindingForm(FaultyWorkNoticeForm):
    """§ 303-4H(4): the Village Board's finding, recorded by the clerk from the minutes."""

    defect = forms.CharField(label="Defect", widget=forms.Textarea(attrs={"rows": 3}))
    deadline = forms.DateField(label="Correct by (the time the Board set)", widget=DateInput())
    addressed_to = forms.ChoiceField(
        label="Addressed to", choices=DefectNotice.Addressee.choices, widget=forms.RadioSelect
    )
    addressee_name = forms.CharField(label="Surety's name (for a notice to the surety)", required=False)
    addressee_email = forms.EmailField(label="Surety's email", required=False)
    finding = forms.ModelChoiceField(
        label="The Village Board's finding (§ 303-4H(4))",
        queryset=None,
        help_text="The carried motion on this permit that found the work defective.",
    )

    field_order = [
        "finding",
        "defect",
        "work_to_be_done",
        "estimated_cost",
        "deadline",
        "addressed_to",
        "addressee_name",
        "addressee_email",
        "served_on",
    ]

    def __init__(self, *args, permit=None, **kwargs):
        from django.contrib.contenttypes.models import ContentType

        from permits.board.clauses import Clause
        from permits.board.models import Motion

        super().__init__(*args, **kwargs)
        motions = Motion.objects.filter(outcome=Motion.Outcome.CARRIED, item__clause=Clause.DEFECT_FINDING)
        if permit is not None:
            motions = motions.filter(
                item__subject_type=ContentType.objects.get_for_model(permit), item__subject_id=permit.pk
            )
        self.fields["finding"].queryset = motions.select_related("item__meeting")


class VillageExpenseForm(LimitedForm):
    """§ 303-4F(2): the Village's actual expenses on the opening, added to the permit fee."""

    description = forms.CharField(label="What the Village did", max_length=300)
    incurred_on = forms.DateField(label="Spent on", widget=DateInput())
    labor = _dollars("Labor ($)")
    equipment = _dollars("Equipment ($)")
    materials = _dollars("Materials ($)")
    receipt = forms.FileField(
        label="Receipt or invoice (JPEG, PNG or PDF, at most 10 MB)",
        required=False,
        help_text="Required when equipment or materials are billed: only actual expenses are (§ 303-4F(2)).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("labor", "equipment", "materials"):
            self.fields[name].required = False
            self.fields[name].initial = 0

    def clean(self):
        data = super().clean()
        for name in ("labor", "equipment", "materials"):
            if data.get(name) is None and name not in self.errors:
                data[name] = 0
        return data


class VillageRepairForm(LimitedForm):
    repaired_on = forms.DateField(label="Village repaired on", widget=DateInput())
    labor = _dollars("Labor ($)")
    materials = _dollars("Materials ($)")
    equipment = _dollars("Equipment ($)", "The bill adds 20% for administration (§ 303-4H(2)).")
