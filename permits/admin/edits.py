"""Back-office edits of a permit go through the rules.

The admin's permit form checks the edited values with the same rules as the one save path
(`permits.services.edit_permit`, through permits.edits: the type's edit policy and `edit_rules` hook), shows each
broken rule as a plain message citing its section on its field, and saves through that service, which records what
changed, and who changed it, on the permit's timeline. A database constraint is never the message.
"""

from __future__ import annotations

from django import forms
from django.utils import timezone

from permits.edits import EDITABLE, date_order_violations, edit_violations
from permits.models import Permit

__all__ = ["EDITABLE", "PermitEditForm", "date_order_violations", "edit_violations", "edited_values"]


def edited_values(form: forms.ModelForm) -> dict:
    """Every editable field's value: the form's where it has the field, the permit's otherwise."""
    values = {name: getattr(form.instance, name) for name in EDITABLE}
    values.update({name: form.cleaned_data.get(name) for name in EDITABLE if name in form.fields})
    return values


class PermitEditForm(forms.ModelForm):
    """The admin's permit form: the type's policy and rules run on the edited values before anything is saved. The
    admin sets `user` (who edits) on the class it builds for each request."""

    user = None

    class Meta:
        model = Permit
        fields = list(EDITABLE)

    def clean(self):
        data = super().clean()
        if self.errors or self.instance.pk is None:
            return data
        for v in edit_violations(self.instance, edited_values(self), today=timezone.localdate(), by=self.user):
            self.add_error(v.field if v.field in self.fields else None, v.message)
        return data
