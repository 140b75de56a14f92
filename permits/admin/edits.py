"""Back-office edits of a permit go through the rules.

The admin's permit form checks the edited values with the same rule functions as filing (through the type's
`edit_rules` hook in permits.kinds), shows each broken rule as a plain message citing its section on its field, and
records what changed, and who changed it, on the permit's timeline. A database constraint is never the message.
"""

from __future__ import annotations

from django import forms
from django.utils import timezone

from permits import kinds, services
from permits.errors import Violation
from permits.models import Permit

EDITABLE = ("street", "parcel", "location_description", "work_description", "start_date", "end_date")


def date_order_violations(*, start_date, end_date, citation: str) -> list[Violation]:
    """The planned end cannot be before the planned start (the application's dates, e.g. § 303-4B)."""
    if start_date and end_date and end_date < start_date:
        return [
            Violation(
                "end_date",
                "before_start",
                citation,
                f"The end date cannot be before the start date ({citation})",
            )
        ]
    return []


def edit_violations(permit: Permit, values: dict, *, today) -> list[Violation]:
    """Every rule the edited permit must still meet: the type's own (filing's rules) or, for a type without them,
    the order of its dates."""
    permit_type = kinds.get_type(permit.kind)
    hook = getattr(permit_type, "edit_rules", None)
    if hook is not None:
        return [v for v in hook(permit, values, today=today) if not v.warning]
    citation = permit_type.citation if permit_type else "Chapter 303"
    return date_order_violations(
        start_date=values.get("start_date"), end_date=values.get("end_date"), citation=citation
    )


def _shown(value) -> str:
    if value in (None, ""):
        return "(empty)"
    if hasattr(value, "strftime"):
        return f"{value:%B %-d, %Y}"
    return str(value)


def changes_of(form: forms.ModelForm) -> list[str]:
    """'Planned start date: April 14, 2027 → March 30, 2027', one per changed field."""
    out = []
    for name in form.changed_data:
        if name not in form.fields:
            continue
        before = form.initial.get(name)
        field = form.instance._meta.get_field(name)
        if field.is_relation and before is not None:
            before = field.related_model.objects.filter(pk=before).first()
        out.append(f"{field.verbose_name.capitalize()}: {_shown(before)} → {_shown(form.cleaned_data.get(name))}")
    return out


def record_edit(permit: Permit, *, by, changes: list[str]) -> None:
    if changes:
        services.record_event(permit, by=by, reason="Edited in the back office: " + "; ".join(changes))


class PermitEditForm(forms.ModelForm):
    """The admin's permit form: the type's rules run on the edited values before anything is saved."""

    class Meta:
        model = Permit
        fields = list(EDITABLE)

    def clean(self):
        data = super().clean()
        if self.errors or self.instance.pk is None:
            return data
        values = {name: data.get(name, getattr(self.instance, name)) for name in EDITABLE if name in self.fields}
        for name in EDITABLE:
            values.setdefault(name, getattr(self.instance, name))
        for v in edit_violations(self.instance, values, today=timezone.localdate()):
            field = v.field if v.field in self.fields else None
            self.add_error(field, v.message)
        return data
