"""Bounds on what a person may type, shared by the web forms and the API (OWASP ASVS 4.0 V5.1.3 and V5.1.4: input
is checked against an allow-list of ranges and lengths, and refused with a message naming the field).

- Dates: nothing Chapter 303 governs lies more than 10 years before or after today. A date outside that window (the
  year 9999 or 0001 typed by mistake or by a robot) is refused at the field, before a rule adds days to it.
- Text: a description holds at most 2,000 characters and a name 200, so a 1 MB "description" cannot make the
  permit PDF take seconds; no text may hold a lone UTF-16 surrogate (JSON allows "\\ud800", UTF-8 cannot store it).
- Numbers: every integer field has a ceiling inside its database column's range.
"""

from __future__ import annotations

from datetime import date, datetime

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator
from django.utils import timezone
from rest_framework import serializers

from permits.errors import Violation, field_error

PLAUSIBLE_YEARS = 10
MAX_DESCRIPTION = 2000
MAX_NAME = 200
MAX_SHORT = 300
MAX_LOGIN = 254  # the longest email address (RFC 5321); usernames are at most 150: what a login box may hold
MAX_SMALL_INT = 32767  # PostgreSQL smallint, the narrowest column an integer field of this project is stored in
MAX_INT = 2147483647  # PostgreSQL integer
MAX_BIGINT = 9223372036854775807  # PostgreSQL bigint and SQLite's INTEGER: an id past it cannot even be looked up
CITATION = "OWASP ASVS V5.1.4"


def date_window(today: date | None = None) -> tuple[date, date]:
    """The plausible dates: the day 10 years before today through the day 10 years after it (the same date; from
    February 29, February 28), both included."""
    today = today or timezone.localdate()

    def years_from(years: int) -> date:
        try:
            return today.replace(year=today.year + years)
        except ValueError:
            return today.replace(year=today.year + years, day=28)

    return years_from(-PLAUSIBLE_YEARS), years_from(PLAUSIBLE_YEARS)


def implausible_date_message(label: str, today: date | None = None) -> str:
    earliest, latest = date_window(today)
    return (
        f"{label}: give a date between {earliest:%B %-d, %Y} and {latest:%B %-d, %Y} "
        f"(no date more than {PLAUSIBLE_YEARS} years from today is plausible, {CITATION})"
    )


def check_plausible_date(value: date | None, label: str) -> None:
    if value is None:
        return
    day = value.date() if isinstance(value, datetime) else value
    earliest, latest = date_window()
    if not earliest <= day <= latest:
        raise field_error(Violation(None, "implausible_date", "", implausible_date_message(label)))


def plausible_year(value, today: date | None = None) -> int | None:
    """A year given in a URL or a query string (?year=): an int within 10 years of today, else None."""
    today = today or timezone.localdate()
    try:
        year = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return year if abs(year - today.year) <= PLAUSIBLE_YEARS else None


def posted_ids(values, field: str) -> list[int]:
    """The record ids a form posts (a checkbox list, a row's button): each a whole number within the integer column,
    else RulesBroken on `field` ("abc" in an id was a ValueError deep in a query: a 500)."""
    from permits.errors import RulesBroken

    ids = []
    for value in values:
        text = str(value).strip()
        if not text.isascii() or not text.isdigit() or not 0 < int(text) <= MAX_INT:
            message = f"{field}: {text[:20]!r} is not the number of a record on this page ({CITATION})"
            raise RulesBroken.one(field, "invalid_id", CITATION, message)
        ids.append(int(text))
    return ids


def require_within(value: str, field: str, limit: int = MAX_DESCRIPTION) -> None:
    """A service's free text read as typed (a reason, a note): refused whole on `field` when longer than `limit`, for
    the paths that post it without a form (a view reading POST, the shell)."""
    from permits.errors import RulesBroken

    if value is not None and len(value) > limit:
        message = length_message(field, limit) % {"show_value": len(value)}
        raise RulesBroken.one(field, "max_length", CITATION, message)


def has_lone_surrogate(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def surrogate_message(label: str) -> str:
    return f"{label}: contains a character that is not valid text (a lone UTF-16 surrogate, {CITATION})"


def length_message(label: str, limit: int) -> str:
    return f"{label}: at most {limit:,} characters (%(show_value)d given, {CITATION})"


def _label(field, name: str | None = None) -> str:
    return str(getattr(field, "label", None) or name or "This field")


# --- Web forms --------------------------------------------------------------------------------------------------


class _PlausibleDate:
    """A field validator: the date (or moment) lies within 10 years of today; the message names the field."""

    def __init__(self, label: str):
        self.label = label

    def __call__(self, value):
        check_plausible_date(value, self.label)


def limit_fields(form: forms.BaseForm) -> None:
    """Bound every field of `form`: each text field at most 2,000 characters unless it is given fewer, each date
    within 10 years of today, each with a message naming the field. Called by LimitedForm, so a new field cannot
    be forgotten."""
    for name, field in form.fields.items():
        label = _label(field, name)
        if isinstance(field, forms.CharField):
            if field.max_length is None:
                field.max_length = MAX_DESCRIPTION
                field.validators.append(MaxLengthValidator(MAX_DESCRIPTION))
                field.widget.attrs.setdefault("maxlength", str(MAX_DESCRIPTION))
            for validator in field.validators:
                if isinstance(validator, MaxLengthValidator):
                    validator.message = length_message(label, validator.limit_value)
        elif isinstance(field, (forms.DateField, forms.DateTimeField)):
            field.validators.append(_PlausibleDate(label))
        elif type(field) is forms.IntegerField and field.max_value is None:  # within the column (integer)
            field.max_value = MAX_INT
            field.validators.append(MaxValueValidator(MAX_INT))
        elif isinstance(field, forms.ModelChoiceField):
            field.clean = _ids_in_range(field.clean, field)


def _ids_in_range(clean, field):
    """A choice of records whose ids are looked up only when each fits the id column: 10^20 was an OverflowError in
    SQLite's driver (a 500), where any other id that matches no record is Django's "Select a valid choice"."""

    def checked(value):
        values = value if isinstance(value, (list, tuple)) else [value]
        for one in values:
            text = str(one).strip() if one is not None else ""
            if text.lstrip("-").isdigit() and abs(int(text)) > MAX_BIGINT:
                code = "invalid_pk_value" if isinstance(field, forms.ModelMultipleChoiceField) else "invalid_choice"
                message = field.error_messages.get(code) or field.error_messages["invalid_choice"]
                shown = message % {"pk": text[:20], "value": text[:20]}
                raise field_error(Violation(None, code, CITATION, shown))
        return clean(value)

    return checked


class LimitedForm(forms.Form):
    """A form whose text and date fields are bounded (limit_fields)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit_fields(self)


class LimitedModelForm(forms.ModelForm):
    """A model form whose text and date fields are bounded (limit_fields), over what the model's columns allow."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit_fields(self)


# --- API serializers ----------------------------------------------------------------------------------------------


class PlausibleDateSerializerField(serializers.DateField):
    def to_internal_value(self, value):
        day = super().to_internal_value(value)
        try:
            check_plausible_date(day, self.field_name or "date")
        except ValidationError as exc:
            raise serializers.ValidationError(exc.messages[0], code="implausible_date") from exc
        return day


class PlausibleDateTimeSerializerField(serializers.DateTimeField):
    def to_internal_value(self, value):
        try:
            moment = super().to_internal_value(value)
        except (OverflowError, ValueError) as exc:
            raise serializers.ValidationError(
                implausible_date_message(self.field_name or "date"), code="implausible_date"
            ) from exc
        try:
            check_plausible_date(moment, self.field_name or "date")
        except ValidationError as exc:
            raise serializers.ValidationError(exc.messages[0], code="implausible_date") from exc
        return moment


def surrogate_errors(raw) -> list[dict]:
    """A lone surrogate in any top-level field of a JSON object (or in a list or object under it), one error each."""

    def bad(value) -> bool:
        if isinstance(value, str):
            return has_lone_surrogate(value)
        if isinstance(value, dict):
            return any(bad(k) or bad(v) for k, v in value.items())
        if isinstance(value, list):
            return any(bad(v) for v in value)
        return False

    return [
        {
            "field": name if not has_lone_surrogate(str(name)) else None,
            "code": "invalid_text",
            "citation": CITATION,
            "message": surrogate_message(name if not has_lone_surrogate(str(name)) else "A field name"),
        }
        for name, value in raw.items()
        if bad(name) or bad(value)
    ]
