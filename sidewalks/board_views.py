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
from permits.input_limits import LimitedForm
from permits.models import Parcel, Permit
from permits.roles import Role
from sidewalks import services
from sidewalks.models import BoardWaiver


class WaiverRequestForm(LimitedForm):
    kind = forms.ChoiceField(
        label="Waiver",
        choices=[(k.value, k.label) for k in (BoardWaiver.Kind.WIDTH_THICKNESS, BoardWaiver.Kind.COLD_WEATHER)],
    )
    tax_key = forms.CharField(label="Parcel tax key", max_length=40)
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Why the waiver is asked",
        help_text="For a cold-weather waiver, the emergency replacement it is for (§ 303-3D(9)).",
    )
    permit_number = forms.CharField(
        label="Sidewalk permit number (cold-weather waiver)",
        max_length=40,
        required=False,
        help_text="A cold-weather waiver is for one permit and excuses no other (§ 303-3D(9)).",
    )
    ends_on = forms.DateField(
        label="Last day it excuses a pour (cold-weather waiver)",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="After this day the waiver excuses nothing (§ 303-3D(9)).",
    )

    def clean_tax_key(self):
        key = self.cleaned_data["tax_key"].strip()
        self.parcel = Parcel.objects.filter(tax_key=key).first()
        if self.parcel is None:
            raise ValidationError(f"No parcel has the tax key {key!r}.")
        return key

    def clean_permit_number(self):
        number = self.cleaned_data["permit_number"].strip()
        self.permit = Permit.objects.filter(number=number).first() if number else None
        if number and self.permit is None:
            raise ValidationError(f"No permit has the number {number!r}.")
        return number


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
                permit=form.permit,
                ends_on=form.cleaned_data["ends_on"],
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error, {"permit": "permit_number"})
        else:
            messages.success(request, f"{waiver} waits for the Board.")
            return redirect("board:queue")
    return render(request, "sidewalks/waiver_request.html", {"form": form})
