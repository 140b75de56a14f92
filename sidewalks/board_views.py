"""The clerk puts a sidewalk waiver to the Village Board (§ 303-3D(8)(c), § 303-3D(9)): it then waits on the Board
queue (permits.board) until a recorded motion decides it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from permits.access import require_role
from permits.forms import add_service_errors
from permits.models import Parcel
from permits.roles import Role
from sidewalks import services
from sidewalks.models import BoardWaiver


class WaiverRequestForm(forms.Form):
    kind = forms.ChoiceField(label="Waiver", choices=BoardWaiver.Kind.choices)
    tax_key = forms.CharField(label="Parcel tax key", max_length=40)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label="Why the waiver is asked")

    def clean_tax_key(self):
        key = self.cleaned_data["tax_key"].strip()
        self.parcel = Parcel.objects.filter(tax_key=key).first()
        if self.parcel is None:
            raise ValidationError(f"No parcel has the tax key {key!r}.")
        return key


@login_required
@require_http_methods(["GET", "POST"])
def request_waiver(request):
    require_role(request.user, Role.CLERK, action="put matters to the Board (the Clerk-Treasurer does)")
    form = WaiverRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            waiver = services.request_board_waiver(
                kind=form.cleaned_data["kind"],
                parcel=form.parcel,
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, f"{waiver} waits for the Board.")
            return redirect("board:queue")
    return render(request, "sidewalks/waiver_request.html", {"form": form})
