"""One error protocol: a service or rule refuses with RulesBroken (each Violation with its field, code, section and
message), a page shows it through the one form adapter (permits.forms.add_service_errors) and the API through the
one API adapter (permits.api.errors.rules_broken_response). Django's plain ValidationError is raised only where
Django's own protocol asks for it: a model's or form's `clean*` method, or built by permits.errors.field_error."""

from __future__ import annotations

import ast
import json
from datetime import date
from pathlib import Path

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from rest_framework import serializers
from rest_framework.views import APIView

from permits.api.errors import exception_handler, rules_broken_response
from permits.errors import RulesBroken, Violation, citation_of, field_error, violations_of
from permits.fees import FeeNotConfigured, fee_in_force
from permits.forms import add_service_errors

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("permits", "sidewalks", "obstructions")
ADAPTER_MODULES = {"permits/errors.py"}  # builds the one plain ValidationError (field_error) and RulesBroken itself
DJANGO_VALIDATION_ERRORS = {("django.core.exceptions", "ValidationError"), ("django.forms", "ValidationError")}


def _validation_error_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names this module binds to Django's ValidationError, and the names of modules that hold it."""
    names, modules = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (node.module, alias.name) in DJANGO_VALIDATION_ERRORS:
                    names.add(alias.asname or alias.name)
                if f"{node.module}.{alias.name}" in {"django.forms", "django.core.exceptions"}:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in {"django.forms", "django.core.exceptions"} and alias.asname:
                    modules.add(alias.asname)
    return names, modules


def bare_validation_errors(source: str, filename: str = "<sample>") -> list[str]:
    """Each `raise ValidationError(...)` (Django's) outside a `clean*` method of a class, as "file:line in name"."""
    tree = ast.parse(source, filename)
    names, modules = _validation_error_names(tree)
    found = []

    def is_django_validation_error(func) -> bool:
        if isinstance(func, ast.Name):
            return func.id in names
        if isinstance(func, ast.Attribute) and func.attr == "ValidationError" and isinstance(func.value, ast.Name):
            return func.value.id in modules
        return False

    def visit(node, scope: list[ast.AST]):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            functions = [s for s in scope if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
            inner = functions[-1] if functions else None
            in_clean = (
                inner is not None
                and inner.name.startswith("clean")
                and len(scope) >= 2
                and isinstance(scope[scope.index(inner) - 1], ast.ClassDef)
            )
            if is_django_validation_error(exc) and not in_clean:
                found.append(f"{filename}:{node.lineno} in {inner.name if inner else '<module>'}")
        for child in ast.iter_child_nodes(node):
            visit(child, [*scope, node] if isinstance(node, ast.FunctionDef | ast.ClassDef) else scope)

    visit(tree, [])
    return found


def _source_files():
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            parts = path.relative_to(ROOT).parts  # inside the checkout: its own folder may be named "tests"
            if "migrations" in parts or "tests" in parts or relative in ADAPTER_MODULES:
                continue
            yield relative, path


def test_no_bare_validation_error_outside_clean_methods_and_the_adapter():
    found = [hit for relative, path in _source_files() for hit in bare_validation_errors(path.read_text(), relative)]
    assert not found, (
        "Refuse with permits.errors.RulesBroken (RulesBroken.one(field, code, citation, message) for one rule), or "
        "build a plain ValidationError with permits.errors.field_error where Django's protocol needs one:\n"
        + "\n".join(found)
    )


SAMPLE = """
from django import forms
from django.core.exceptions import ValidationError as DjangoValidationError


def refuse_payment(amount):
    if amount < 0:
        raise DjangoValidationError({"amount": "The amount cannot be negative."})


class PaymentForm(forms.Form):
    def clean_amount(self):
        raise forms.ValidationError("Give an amount.")

    def save(self):
        raise forms.ValidationError("Not here.")


def clean_loose(value):
    raise DjangoValidationError("A module function is not Django's clean protocol.")


def other(serializers):
    raise serializers.ValidationError("DRF's own protocol, not Django's.")
"""


def test_the_scanner_flags_bare_raises_and_spares_clean_methods():
    assert bare_validation_errors(SAMPLE) == [
        "<sample>:8 in refuse_payment",
        "<sample>:16 in save",
        "<sample>:20 in clean_loose",
    ]


def test_the_scanner_sees_the_projects_files():
    files = {relative for relative, _ in _source_files()}
    assert {"sidewalks/services.py", "obstructions/services.py", "permits/ledger/services.py"} <= files
    assert not any("migrations" in f for f in files) and "permits/errors.py" not in files


# --- The form adapter -------------------------------------------------------------------------------------------------


class _Form(forms.Form):
    amount = forms.CharField(required=False)
    method = forms.CharField(required=False)


def _bound():
    form = _Form({"amount": "5", "method": "cash"})
    assert form.is_valid()
    return form


def test_form_adapter_puts_each_violation_on_its_field_and_the_rest_on_the_form():
    form = _bound()
    add_service_errors(
        form,
        RulesBroken(
            [
                Violation("amount", "not_a_number", "", "The amount must be a number of dollars."),
                Violation("payer", "unknown", "§ 303-4F(2)", "No such payer (§ 303-4F(2))."),
                Violation(None, "nothing_due", "", "Nothing is due."),
                Violation("method", "hint", "", "Only a warning.", warning=True),
            ]
        ),
    )
    assert form.errors["amount"] == ["The amount must be a number of dollars."]
    assert form.non_field_errors() == ["No such payer (§ 303-4F(2)).", "Nothing is due."]
    assert "method" not in form.errors  # a warning does not refuse


def test_form_adapter_renames_through_aliases_and_reads_a_plain_validation_error_alike():
    form = _bound()
    add_service_errors(form, RulesBroken.one("payout", "x", "", "Wrong payout."), aliases={"payout": "method"})
    assert form.errors["method"] == ["Wrong payout."]
    form = _bound()
    add_service_errors(form, ValidationError({"amount": ["Too much."], "__all__": ["Whole form."]}))
    assert form.errors["amount"] == ["Too much."] and form.non_field_errors() == ["Whole form."]
    form = _bound()
    add_service_errors(form, ValidationError("The file is empty.", code="empty"))
    assert form.non_field_errors() == ["The file is empty."]


# --- The API adapter ------------------------------------------------------------------------------------------------


def test_api_adapter_answers_400_with_every_violation():
    response = rules_broken_response(
        RulesBroken(
            [
                Violation("material", "not_concrete", "§ 303-3D(4)", "Sidewalks are concrete (§ 303-3D(4))."),
                Violation(None, "fee_not_configured", "§ 303-3C", "No fee is in force (§ 303-3C)."),
            ]
        )
    )
    assert response.status_code == 400
    assert response.data == {
        "errors": [
            {
                "field": "material",
                "code": "not_concrete",
                "citation": "§ 303-3D(4)",
                "message": "Sidewalks are concrete (§ 303-3D(4)).",
            },
            {
                "field": None,
                "code": "fee_not_configured",
                "citation": "§ 303-3C",
                "message": "No fee is in force (§ 303-3C).",
            },
        ]
    }


def test_api_adapter_reads_a_plain_validation_error_with_the_section_its_text_cites():
    response = rules_broken_response(ValidationError({"__all__": ["Too late (Wis. Stat. § 66.0627(2))."]}))
    assert response.status_code == 400
    assert response.data["errors"] == [
        {
            "field": None,
            "code": "invalid",
            "citation": "Wis. Stat. § 66.0627(2)",
            "message": "Too late (Wis. Stat. § 66.0627(2)).",
        }
    ]


def test_the_api_exception_handler_uses_the_adapter_and_keeps_drf_errors_in_the_same_shape():
    request = RequestFactory().post("/api/")
    context = {"view": APIView(), "request": request}
    broken = RulesBroken.one("amount", "not_a_number", "", "The amount must be a number of dollars.")
    handled = exception_handler(broken, context)
    assert handled.status_code == 400 and handled.data == rules_broken_response(broken).data
    drf = exception_handler(serializers.ValidationError({"street": ["Unknown street."]}), context)
    assert drf.status_code == 400
    assert json.loads(json.dumps(drf.data)) == {
        "errors": [{"field": "street", "code": "invalid", "citation": "", "message": "Unknown street."}]
    }


# --- One violation per refusal --------------------------------------------------------------------------------------


def test_rules_broken_one_is_a_validation_error_by_field():
    broken = RulesBroken.one("served_on", "served_before_adopted", "Wis. Stat. § 66.0907", "Not before adoption.")
    assert isinstance(broken, ValidationError)
    assert broken.message_dict == {"served_on": ["Not before adoption."]}
    assert violations_of(broken) == broken.violations


def test_field_error_is_the_plain_error_a_field_check_raises():
    error = field_error(Violation(None, "empty", "OWASP File Upload Cheat Sheet", "The file is empty."))
    assert not hasattr(error, "error_dict") and error.messages == ["The file is empty."] and error.code == "empty"


def test_citation_of_finds_the_section_a_message_cites():
    assert citation_of("Too thin (§ 303-3D(4)).") == "§ 303-3D(4)"
    assert citation_of("Wis. Stat. § 66.0627(3)(b) applies") == "Wis. Stat. § 66.0627(3)(b)"
    assert citation_of("No section here.") == ""


@pytest.mark.django_db
def test_fee_not_configured_becomes_one_violation():
    from permits.models import FeeItem

    FeeItem.objects.filter(code="sidewalk").delete()
    with pytest.raises(FeeNotConfigured) as missing:
        fee_in_force("sidewalk", date(2026, 6, 1))
    plain = missing.value.violation("§ 303-7C")
    assert plain == Violation(None, "fee_not_configured", "§ 303-7C", str(missing.value))
    noted = missing.value.violation("§ 303-8B", field="at", note="§ 303-8B: as in Chapter 167")
    assert noted.field == "at" and noted.message == f"{missing.value} (§ 303-8B: as in Chapter 167)"
