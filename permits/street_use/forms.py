"""Forms of the street use permit. They validate input; permits.street_use.rules decide, through the same check the
API runs (services.check_application), so the web and the API show the same messages, each citing its section."""

from __future__ import annotations

from django import forms

from permits.forms import add_violations
from permits.input_limits import LimitedForm
from permits.models import Street
from permits.street_use.models import BoardAppearance, PetitionAddress, PetitionPage
from permits.street_use.services import check_application
from permits.streetmap.models import StreetSegment

DATE = forms.DateInput(attrs={"type": "date"})
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def _text(label: str, *, help_text: str = "", rows: int = 0, max_length: int = 300) -> forms.CharField:
    widget = forms.Textarea(attrs={"rows": rows}) if rows else None
    return forms.CharField(label=label, required=False, max_length=max_length, widget=widget, help_text=help_text)


class SegmentChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.street.name}: {obj.extent}"


class StreetUseForm(LimitedForm):
    """The Clerk-Treasurer's application form (§ 303-15B). Every item is optional here so that every missing one is
    reported at once with the section that requires it (§ 303-15D(4))."""

    chapter_245_permit = _text(
        "Chapter 245 parade, race or event permit number",
        help_text="Leave empty unless you hold one: an event under a Chapter 245 permit needs no street use permit "
        "and pays nothing (§ 303-15B).",
        max_length=40,
    )
    applicant_name = _text("Your name (§ 303-15B(1))", max_length=200)
    applicant_address = _text("Your address")
    applicant_phone = _text("Your telephone number", max_length=40)
    organization_name = _text(
        "Organization (§ 303-15B(2))",
        help_text="Only if the use is for, on behalf of, or by an organization.",
        max_length=200,
    )
    organization_address = _text("Address of the organization's headquarters")
    organization_phone = _text("Telephone of the organization's headquarters", max_length=40)
    organization_heads = _text(
        "Authorizing responsible heads of the organization", help_text="Names, addresses, telephones.", rows=2
    )
    responsible_name = _text("Person responsible for conducting the use (§ 303-15B(3))", max_length=200)
    responsible_address = _text("Their address")
    responsible_phone = _text("Their telephone number", max_length=40)
    starts_at = forms.DateTimeField(widget=DATETIME, required=False, label="Begins (date and time, § 303-15B(4))")
    ends_at = forms.DateTimeField(
        widget=DATETIME, required=False, label="Ends (date and time)", help_text="Three days at most (§ 303-15D(5))."
    )
    street = forms.ModelChoiceField(queryset=Street.objects.all(), required=False, empty_label="Choose a street")
    portion_description = _text(
        "Portion of the street (§ 303-15B(5))",
        help_text='An accurate description, e.g. "Henni Street from Main to Mill: the 100 block".',
    )
    segments = SegmentChoiceField(
        queryset=StreetSegment.objects.select_related("street"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Blocks the petition covers (§ 303-15F)",
        help_text="The residents over 18 along these blocks are asked to consent. The clerk may adjust them.",
    )
    expected_attendance = forms.IntegerField(
        required=False, min_value=0, max_value=100000, label="Approximate number of persons (§ 303-15B(6))"
    )
    proposed_use = _text("The proposed use, in detail (§ 303-15B(7))", rows=4, max_length=5000)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        add_violations(self, check_application(data))
        if data.get("street") and any(s.street_id != data["street"].pk for s in data.get("segments") or ()):
            self.add_error("segments", "Choose blocks of the street used (§ 303-15F)")
        return data


class PetitionAreaForm(LimitedForm):
    segments = SegmentChoiceField(
        queryset=StreetSegment.objects.none(), widget=forms.CheckboxSelectMultiple, label="Blocks of the petition"
    )

    def __init__(self, *args, street=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["segments"].queryset = StreetSegment.objects.filter(street=street).select_related("street")


class AddressChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return str(obj)


def _addresses(street_use):
    return PetitionAddress.objects.filter(street_use=street_use).select_related("parcel")


class ConsentRequestForm(LimitedForm):
    """A neighbour consents online (§ 303-15F): a code goes to the household's email the clerk has on file."""

    address = AddressChoiceField(queryset=PetitionAddress.objects.none(), label="Your address", empty_label="Choose")
    name = forms.CharField(max_length=200, label="Your full name")
    adults = forms.IntegerField(
        min_value=0,
        max_value=99,
        label="Residents 18 or over living at your address, you included",
        help_text="As on the paper form: the petition counts consents against the adults declared at each address.",
    )
    email = forms.EmailField(
        label="Your household's email address",
        help_text="The email your household gave the Clerk-Treasurer for this petition. We email it a code.",
    )

    def __init__(self, *args, street_use=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["address"].queryset = _addresses(street_use)


class ConsentCodeForm(LimitedForm):
    code = forms.CharField(
        max_length=6,
        min_length=6,
        label="The 6-digit code we emailed",
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "one-time-code"}),
    )


class UnitForm(LimitedForm):
    """§ 303-15F: a parcel along the portion with more than one dwelling: one address per unit."""

    address = AddressChoiceField(queryset=PetitionAddress.objects.none(), label="Parcel", empty_label="Choose")
    unit = forms.CharField(max_length=20, label="Unit", help_text="e.g. Apt 2, Upper, Lower")

    def __init__(self, *args, street_use=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["address"].queryset = _addresses(street_use)


class DeclarationForm(LimitedForm):
    address = AddressChoiceField(queryset=PetitionAddress.objects.none(), label="Address", empty_label="Choose")
    adults = forms.IntegerField(min_value=0, max_value=99, label="Residents over 18 declared")
    source = forms.CharField(max_length=200, label="Declared on", help_text="e.g. petition page 2, in person")

    def __init__(self, *args, street_use=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["address"].queryset = _addresses(street_use)


class HouseholdEmailForm(LimitedForm):
    address = AddressChoiceField(queryset=PetitionAddress.objects.none(), label="Address", empty_label="Choose")
    email = forms.EmailField(label="The household's email", help_text="As the household gave it to you.")

    def __init__(self, *args, street_use=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["address"].queryset = _addresses(street_use)


class PageUploadForm(LimitedForm):
    file = forms.FileField(label="The scanned page (PDF, JPEG or PNG)")
    circulator_name = forms.CharField(max_length=200, label="Circulator")
    sworn_on = forms.DateField(widget=DATE, label="Date of the circulator's sworn verification")
    sworn = forms.BooleanField(
        label="The page bears the circulator's sworn verification, signed before an officer who may administer oaths"
    )


class PageChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"Page {obj.pk}: circulator {obj.circulator_name}, sworn {obj.sworn_on:%b %-d, %Y}"


class PaperSignatureForm(LimitedForm):
    page = PageChoiceField(queryset=PetitionPage.objects.none(), label="Page", empty_label="Choose")
    address = AddressChoiceField(queryset=PetitionAddress.objects.none(), label="Address", empty_label="Choose")
    signer_name = forms.CharField(max_length=200, label="Name as signed")
    signed_on = forms.DateField(widget=DATE, label="Date signed")

    def __init__(self, *args, street_use=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["page"].queryset = PetitionPage.objects.filter(street_use=street_use, accepted_at__isnull=True)
        self.fields["address"].queryset = _addresses(street_use)


class AcceptPageForm(LimitedForm):
    page = PageChoiceField(queryset=PetitionPage.objects.none(), label="Page", empty_label="Choose")

    def __init__(self, *args, street_use=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["page"].queryset = PetitionPage.objects.filter(street_use=street_use, accepted_at__isnull=True)


class MeetingForm(LimitedForm):
    meeting = forms.ModelChoiceField(queryset=None, label="Board meeting", empty_label="Choose a meeting")

    def __init__(self, *args, **kwargs):
        from permits.board.models import Meeting

        super().__init__(*args, **kwargs)
        self.fields["meeting"].queryset = Meeting.objects.filter(locked_at__isnull=True)


class AppearanceForm(LimitedForm):
    item = forms.ModelChoiceField(queryset=None, label="Agenda item", empty_label="Choose")
    name = forms.CharField(max_length=200, label="Who was present")
    capacity = forms.ChoiceField(choices=BoardAppearance.Capacity.choices, label="As")

    def __init__(self, *args, items=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["item"].queryset = items


class DecisionForm(LimitedForm):
    """The Board's decision (§ 303-15C), recorded from its minutes by the clerk: the motion and what it set."""

    motion = forms.ModelChoiceField(queryset=None, label="The Board's motion", empty_label="Choose")
    decision = forms.ChoiceField(choices=(("grant", "Granted"), ("deny", "Denied")), label="Decision")
    conditions = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Conditions")
    requires_indemnity = forms.BooleanField(required=False, label="Indemnity agreement required (§ 303-15G)")
    requires_insurance = forms.BooleanField(required=False, label="Certificate of liability insurance required")
    requires_bond = forms.BooleanField(required=False, label="Performance bond required")

    def __init__(self, *args, motions=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["motion"].queryset = motions


class TerminateForm(LimitedForm):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Why (§ 303-15H)",
        help_text="The public's health, safety or welfare endangered, or the permit's conditions or Village "
        "ordinances violated.",
    )
