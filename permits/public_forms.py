"""What every public form without a login shares (the snow report, the obstruction complaint): a small sum and a
honeypot to keep robots out, a few reports an hour from one connection, and the date widgets of the report pages."""

from __future__ import annotations

import random

from django import forms
from django.core import signing
from django.shortcuts import render

from permits.client_ip import over_hourly_limit
from permits.input_limits import LimitedForm

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
# The salt the snow report signed its question with first: a question on a page already open still checks.
CHALLENGE_SALT = "sidewalks.snow_report"
CHALLENGE_MAX_AGE = 60 * 60


class PublicReportForm(LimitedForm):
    """An address, what is wrong, and a small sum to keep robots out."""

    address = forms.CharField(
        max_length=200,
        label="Address of the uncleared sidewalk",
        help_text="House number and street, e.g. 102 Highland Avenue",
    )
    details = forms.CharField(
        max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 3}), label="What did you see? (optional)"
    )
    contact = forms.CharField(
        max_length=200,
        required=False,
        label="Your phone or email (optional)",
        help_text="Only if you want the Village to be able to ask you about it.",
    )
    answer = forms.IntegerField(label="Anti-spam check")
    challenge = forms.CharField(widget=forms.HiddenInput)
    # Honeypot: hidden from people (display: none in site.css, so not read by screen readers); robots fill it.
    website = forms.CharField(
        required=False,
        label="Leave this empty",
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            a, b = random.randint(2, 9), random.randint(2, 9)
            self.initial["challenge"] = signing.dumps({"a": a, "b": b}, salt=CHALLENGE_SALT)
            self.question = (a, b)
        else:
            self.question = self._question(self.data.get("challenge", ""))
        if self.question:
            self.fields["answer"].label = f"Anti-spam check: what is {self.question[0]} plus {self.question[1]}?"

    @staticmethod
    def _question(token: str):
        try:
            data = signing.loads(token, salt=CHALLENGE_SALT, max_age=CHALLENGE_MAX_AGE)
            return int(data["a"]), int(data["b"])
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            return None

    def clean(self):
        data = super().clean()
        if data.get("website"):
            raise forms.ValidationError("The report could not be accepted.")
        if self.question is None:
            self.add_error("answer", "The check expired: please answer the new question.")
        elif data.get("answer") is not None and data["answer"] != sum(self.question):
            self.add_error("answer", "That is not the right sum: please try again.")
        return data


def report_page(request, form_class, *, template: str, limit_group: str, per_hour: int, submit):
    """A public report page: the blank form; a post past `per_hour` reports from its connection refused (429);
    a valid one handed to `submit(cleaned_data)`, which files it and returns the redirect to the thanks page."""
    if request.method != "POST":
        return render(request, template, {"form": form_class()})
    form = form_class(request.POST)
    if over_hourly_limit(request, limit_group, per_hour):
        form.is_valid()
        form.add_error(None, "Too many reports from your connection in the last hour: please call the Village Hall.")
        return render(request, template, {"form": form}, status=429)
    if form.is_valid():
        return submit(form.cleaned_data)
    return render(request, template, {"form": form}, status=400)
