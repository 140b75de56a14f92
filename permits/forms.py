from django import forms
from django.core.exceptions import ValidationError

from permits.errors import violations_of
from permits.input_limits import LimitedForm, LimitedModelForm
from permits.models import Document, Organization, Payment
from permits.uploads import inspect_upload


class SignupDetailsForm(LimitedForm):
    """Extra fields on the allauth signup form: who is applying."""

    APPLICANT_TYPES = [
        ("resident", "A resident or property owner"),
        (Organization.Kind.CONTRACTOR, "A contractor"),
        (Organization.Kind.UTILITY, "A utility company"),
    ]
    first_name = forms.CharField(max_length=150)
    last_name = forms.CharField(max_length=150)
    applicant_type = forms.ChoiceField(choices=APPLICANT_TYPES, widget=forms.RadioSelect, label="I am applying as")
    organization_name = forms.CharField(
        max_length=200,
        required=False,
        help_text="Contractors and utilities: your company's name. Staff of a company already registered are added "
        "by its manager instead.",
    )
    phone = forms.CharField(max_length=40, required=False)

    def clean(self):
        data = super().clean()
        kind = data.get("applicant_type")
        name = (data.get("organization_name") or "").strip()
        if kind in (Organization.Kind.CONTRACTOR, Organization.Kind.UTILITY):
            if not name:
                self.add_error("organization_name", "Contractors and utilities must give the company name.")
            elif Organization.objects.filter(name__iexact=name).exists():
                self.add_error(
                    "organization_name",
                    "That company is already registered: ask its manager to add you as staff from its page.",
                )
        return data

    def signup(self, request, user):
        from permits.accounts.registration import complete_signup_details

        complete_signup_details(user=user, data=self.cleaned_data)


class DocumentForm(LimitedModelForm):
    upload = forms.FileField(label="File (PDF, JPEG or PNG, at most 10 MB)")

    class Meta:
        model = Document
        fields = ["kind"]

    def clean_upload(self):
        upload = self.cleaned_data["upload"]
        inspect_upload(upload)
        return upload


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input (Django's documented way): a list of uploads, each checked by content."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data if item]
        return [single(data, initial)] if data else []


class InformationAnswerForm(LimitedForm):
    """The applicant's answer to the Village's request for information, with the documents it asked for."""

    prefix = "info"  # the page's document form has its own `kind`: distinct ids

    answer = forms.CharField(label="Your answer", widget=forms.Textarea(attrs={"rows": 4}), max_length=4000, strip=True)
    kind = forms.ChoiceField(label="The documents are", choices=Document.Kind.choices, initial=Document.Kind.OTHER)
    documents = MultipleFileField(
        label="Documents (optional; PDF, JPEG or PNG, at most 10 MB each, up to 5)", required=False
    )

    def clean_documents(self):
        uploads = self.cleaned_data["documents"]
        for upload in uploads:
            inspect_upload(upload)
        return uploads


class PaymentForm(LimitedModelForm):
    class Meta:
        model = Payment
        fields = ["amount", "method", "reference", "note"]

    def clean(self):
        data = super().clean()
        if data.get("amount") is not None and data["amount"] <= 0:
            self.add_error("amount", "The amount must be more than $0.00.")
        if (
            data.get("method") in (Payment.Method.CHECK, Payment.Method.CARD)
            and not (data.get("reference") or "").strip()
        ):
            self.add_error("reference", "A check number or card reference is required for a check or card payment.")
        return data


class AddMemberForm(LimitedForm):
    """A manager invites a staff member by email (permits/accounts/invitations.py). It never says whether the email
    has an account or is already on the staff (OWASP ASVS V2.1, account enumeration): the answer is always the same."""

    email = forms.EmailField(
        label="Email of the person to invite",
        max_length=254,
        help_text="They get a link and join once they accept it while logged in with this email.",
    )

    def __init__(self, *args, organization: Organization, **kwargs):
        super().__init__(*args, **kwargs)
        self.organization = organization

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()


def yes_or_no(label: str, *, yes: str, no: str, **options) -> forms.TypedChoiceField:
    """A question answered "yes" or "no" (labelled `yes` and `no`, in that order), cleaned to True or False; shown as
    radio buttons unless `options` names another widget."""
    options.setdefault("widget", forms.RadioSelect)
    return forms.TypedChoiceField(label=label, choices=[("yes", yes), ("no", no)], coerce=_is_yes, **options)


def _is_yes(value: str) -> bool:
    return value == "yes"


def add_violations(form, violations, aliases: dict | None = None) -> None:
    """Each broken rule (a Violation) as an error on its field (renamed through `aliases` where the form calls it
    differently), or on the whole form when the form has no such field; the message cites the section."""
    for v in violations:
        field = (aliases or {}).get(v.field, v.field)
        form.add_error(field if field in form.fields else None, v.message)


def add_service_errors(form, error: ValidationError, aliases: dict | None = None) -> None:
    """The one way a page shows a refusal on its form: every broken rule of a RulesBroken (or each message of a
    plain ValidationError, read by `violations_of`) on the field it names, renamed through `aliases`, or on the
    form as a whole when the form has no such field."""
    add_violations(form, violations_of(error), aliases)


def service_result(form, call, aliases: dict | None = None):
    """A bound form handed to its service: what `call(**form.cleaned_data)` returns when the form is valid and the
    service accepts it; None when the form is invalid or the service refused (its refusal is then on the form, as
    add_service_errors puts it)."""
    if not form.is_valid():
        return None
    try:
        return call(**form.cleaned_data)
    except ValidationError as error:
        add_service_errors(form, error, aliases)
        return None
