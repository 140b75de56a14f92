"""Parts the permit types' application forms share: the choice of the organization an application is filed for."""

from django import forms

from permits.models import Organization


def applying_for(label: str = "Applying for") -> forms.ModelChoiceField:
    """The `organization` field of an application form; `offer_organizations` gives it its choices."""
    return forms.ModelChoiceField(
        queryset=Organization.objects.none(),
        required=False,
        empty_label="Myself (not for a company)",
        label=label,
    )


def offer_organizations(form: forms.Form, user) -> None:
    """Offer the organizations `user` is on the staff of, the first one chosen; someone on the staff of none has no
    choice to make, so the field is removed."""
    orgs = Organization.objects.filter(memberships__user=user)
    form.fields["organization"].queryset = orgs
    if orgs.exists():
        form.fields["organization"].initial = orgs.first().pk
    else:
        del form.fields["organization"]
