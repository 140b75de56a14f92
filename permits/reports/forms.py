"""The reports' filters: the year (and the permit type where it narrows the report). The rules decide what is valid."""

from __future__ import annotations

from datetime import date

from django import forms

from permits.errors import field_error
from permits.input_limits import LimitedForm
from permits.reports import rules


class ReportFilterForm(LimitedForm):
    year = forms.IntegerField(
        label="Year",
        required=False,
        error_messages={"invalid": "Year: enter the year as a number, e.g. 2026."},
    )
    kind = forms.ChoiceField(
        label="Permit type",
        required=False,
        error_messages={"invalid_choice": "Permit type: choose one of the types listed (or all types)."},
    )

    def __init__(self, *args, today: date, kinds: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today
        self.years = rules.report_years(today)
        self.fields["kind"].choices = [("", "All types"), *kinds]

    def clean_year(self):
        year = self.cleaned_data.get("year")
        if year is None:
            return self.today.year  # no year asked for: this year's report
        for violation in rules.year_violations(year, self.today):
            raise field_error(violation)
        return year
