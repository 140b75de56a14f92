"""Where, when and how to reach the Village office: one record the Clerk-Treasurer keeps on a page, shown by
templates/permits/_village_office.html on every page that sends a person to the office (to apply on paper, to give
the § 303-5F notice, to sign a petition). Until the clerk first saves it the record is the deployment's
`VILLAGE_OFFICE` address alone."""

from __future__ import annotations

import re

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from permits.access import require_role
from permits.errors import RulesBroken, Violation
from permits.forms import service_result
from permits.models import VillageOffice
from permits.roles import Role

OFFICE_KEEPERS = (Role.CLERK,)  # the Clerk-Treasurer keeps the office's hours, as the closure calendar
CACHE_KEY = "permits:village-office"
CACHE_SECONDS = 300  # every public page shows the record: read it once per five minutes, and at once after a save
PHONE_DIGITS = 10  # a North American number with its area code


def office_facts() -> VillageOffice:
    """The Village office's record (an unsaved one with the deployment's address before the clerk first saves it)."""
    facts = cache.get(CACHE_KEY)
    if facts is None:
        facts = VillageOffice.objects.filter(pk=1).first() or VillageOffice(pk=1, address=settings.VILLAGE_OFFICE)
        cache.set(CACHE_KEY, facts, CACHE_SECONDS)
    return facts


def phone_is_reachable(phone: str) -> bool:
    """§ 303-5F: a permittee gives the Clerk-Treasurer notice before work and before backfilling, often by telephone,
    so the number shown must be dialable: ten digits with the area code (a leading 1 and punctuation allowed)."""
    digits = re.sub(r"\D", "", phone)
    if len(digits) == PHONE_DIGITS + 1 and digits.startswith("1"):
        digits = digits[1:]
    return len(digits) == PHONE_DIGITS


def _validate(*, address: str, phone: str) -> list[Violation]:
    errors = []
    if not address.strip():
        errors.append(
            Violation(
                "address",
                "required",
                "§ 303-5F",
                "The office's address is required: it is where people apply and give notice (§ 303-5F)",
            )
        )
    if phone.strip() and not phone_is_reachable(phone):
        errors.append(
            Violation(
                "phone",
                "not_a_phone_number",
                "§ 303-5F",
                "The phone number needs ten digits with the area code, e.g. (920) 555-0142, so that notice can be "
                "given by telephone (§ 303-5F)",
            )
        )
    return errors


def update_office_facts(*, by, address: str, phone: str = "", email: str = "", hours: str = "") -> VillageOffice:
    """The clerk saves the office's address, phone, email and hours (one record; its changes kept in its history)."""
    require_role(by, *OFFICE_KEEPERS, action="change the Village office's address, phone and hours")
    errors = _validate(address=address, phone=phone)
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        facts, _ = VillageOffice.objects.select_for_update().get_or_create(pk=1, defaults={"address": address})
        facts.address, facts.phone, facts.email = address.strip(), phone.strip(), email.strip()
        facts.hours, facts.updated_by = hours.strip(), by
        facts.save()
        # Now, and again at the commit: a reading taken inside this transaction must not outlive it.
        cache.delete(CACHE_KEY)
        transaction.on_commit(lambda: cache.delete(CACHE_KEY))
    return facts


class VillageOfficeForm(forms.Form):
    address = forms.CharField(max_length=200, help_text="Street address, village, state and ZIP code")
    phone = forms.CharField(max_length=30, required=False, help_text="With the area code, e.g. (920) 555-0142")
    email = forms.EmailField(required=False)
    hours = forms.CharField(
        label="Opening hours",
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One line a day or a range of days, e.g. Monday to Friday, 8 am to 4 pm",
    )


@login_required
@require_http_methods(["GET", "POST"])
def village_office_page(request):
    """The clerk's page: the office's address, phone, email and hours as the public pages show them."""
    require_role(request.user, *OFFICE_KEEPERS, action="change the Village office's address, phone and hours")
    facts = office_facts()
    initial = {"address": facts.address, "phone": facts.phone, "email": facts.email, "hours": facts.hours}
    form = VillageOfficeForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if service_result(form, lambda **data: update_office_facts(by=request.user, **data)):
            messages.success(request, "The Village office's details are saved; every page shows them now.")
            return redirect("permits:village_office")
        return render(request, "permits/village_office.html", {"form": form, "facts": facts}, status=400)
    return render(request, "permits/village_office.html", {"form": form, "facts": facts})
