"""The pages of inspection requests: the DPW's inspection times (offer one; each day's requests in time order, the
inspector's day) and the permittee's request, cancel and reschedule, posted from the permit page."""

from __future__ import annotations

from datetime import date

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from permits.access import get_permit_for, require_role
from permits.errors import violations_of
from permits.forms import service_result
from permits.inspection_requests import services
from permits.models import InspectionKind, InspectionRequest, InspectionSlot
from permits.public_forms import DATE_WIDGET
from permits.roles import Role


class SlotForm(forms.Form):
    day = forms.DateField(widget=DATE_WIDGET)
    starts_at = forms.TimeField(label="From", widget=forms.TimeInput(attrs={"type": "time"}))
    ends_at = forms.TimeField(label="Until", widget=forms.TimeInput(attrs={"type": "time"}))
    inspector = forms.ModelChoiceField(queryset=get_user_model().objects.none())
    capacity = forms.IntegerField(min_value=1, max_value=20, initial=2, help_text="How many inspections fit")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["inspector"].queryset = (
            get_user_model()
            .objects.filter(groups__name__in=[Role.DPW_INSPECTOR, Role.DPW_DIRECTOR])
            .distinct()
            .order_by("last_name", "username")
        )
        self.fields["inspector"].label_from_instance = lambda u: u.get_full_name() or u.username


class RequestForm(forms.Form):
    kind = forms.ChoiceField(label="Inspection")
    slot = forms.ModelChoiceField(label="Time", queryset=InspectionSlot.objects.none(), empty_label=None)

    def __init__(self, *args, permit, now, **kwargs):
        super().__init__(*args, **kwargs)
        labels = dict(InspectionKind.choices)
        self.fields["kind"].choices = [(k, labels[k]) for k in services.kinds_for(permit)]
        open_slots = services.slots_open_for(permit, now=now)
        self.fields["slot"].queryset = InspectionSlot.objects.filter(pk__in=[s.pk for s in open_slots])
        self.fields["slot"].label_from_instance = lambda s: f"{s} ({s.inspector.get_full_name() or s.inspector})"


@login_required
@require_http_methods(["GET", "POST"])
def inspection_times(request):
    """The DPW's page: offer a time; the requests of a day in time order (the inspector's day)."""
    require_role(request.user, *services.SLOT_KEEPERS, action="offer inspection times: the DPW does")
    today = timezone.localdate()
    form = SlotForm(request.POST or None, initial={"day": today})
    if request.method == "POST":
        slot = service_result(form, lambda **data: services.offer_slot(by=request.user, today=today, **data))
        if slot is not None:
            messages.success(request, f"Inspection time offered: {slot}.")
            return redirect("permits:inspection_times")
    try:
        day = date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        day = today
    slots = list(InspectionSlot.objects.filter(day=day).select_related("inspector"))
    requests = (
        InspectionRequest.objects.filter(slot__day=day, cancelled_at=None)
        .select_related("permit", "permit__street", "slot", "slot__inspector")
        .order_by("slot__starts_at", "requested_at")
    )
    upcoming = InspectionSlot.objects.filter(day__gte=today).select_related("inspector")[:50]
    taken = services.open_requests([s.pk for s in [*slots, *upcoming]])
    context = {
        "form": form,
        "day": day,
        "requests": requests,
        "slots": [(s, taken.get(s.pk, 0)) for s in upcoming],
    }
    return render(request, "permits/inspection_times.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def request_inspection(request, number):
    permit = get_permit_for(request.user, number)
    now = timezone.now()
    form = RequestForm(request.POST, permit=permit, now=now)
    made = service_result(
        form,
        lambda kind, slot: services.request_inspection(by=request.user, permit=permit, slot=slot, kind=kind, now=now),
    )
    if made is not None:
        messages.success(request, f"Inspection asked for: {made.get_kind_display()}, {made.slot}.")
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    return redirect(permit.get_absolute_url() + "#inspection-requests")


@login_required
@require_POST
def cancel_inspection(request, number, pk):
    permit = get_permit_for(request.user, number)
    asked = get_object_or_404(InspectionRequest.objects.select_related("slot", "permit"), pk=pk, permit=permit)
    slot_id = request.POST.get("slot")
    try:
        if slot_id:
            slot = get_object_or_404(InspectionSlot, pk=slot_id)
            moved = services.reschedule_request(by=request.user, request=asked, slot=slot, now=timezone.now())
            messages.success(request, f"Inspection moved to {moved.slot}.")
        else:
            services.cancel_request(by=request.user, request=asked, now=timezone.now())
            messages.success(request, "Inspection request cancelled.")
    except ValidationError as error:
        for violation in violations_of(error):
            messages.error(request, violation.message)
    return redirect(permit.get_absolute_url() + "#inspection-requests")
