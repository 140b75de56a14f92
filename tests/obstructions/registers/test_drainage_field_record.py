"""§ 303-13 and § 303-5D(1) on the street opening's field record: the trench inspection logged by the inspector."""

from decimal import Decimal

import pytest

from permits.street_opening.field import services as field
from permits.street_opening.field.forms import TrenchForm

pytestmark = pytest.mark.django_db


def test_303_13_a_spoil_pile_blocking_the_gutter_fails_the_logged_trench_inspection(issued, inspector):
    values = {"excavated_ahead_feet": Decimal("40"), "unfilled_feet": Decimal("20"), "spoil_blocks_gutter": True}
    inspection = field.log_inspection(permit=issued, kind="trench", by=inspector, values=values)
    assert inspection.result == "fail"
    assert inspection.citations == ["§ 303-13", "§ 303-5D(1)"]


def test_303_5d_1_a_clear_gutter_passes_the_logged_trench_inspection(issued, inspector):
    values = {"excavated_ahead_feet": Decimal("40"), "unfilled_feet": Decimal("20"), "spoil_blocks_gutter": False}
    assert field.log_inspection(permit=issued, kind="trench", by=inspector, values=values).result == "pass"


def test_303_13_the_phone_form_asks_whether_spoil_blocks_a_gutter():
    form = TrenchForm({"excavated_ahead_feet": "40", "unfilled_feet": "20", "spoil_blocks_gutter": "on"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["spoil_blocks_gutter"] is True
    assert "§ 303-13" in form.fields["spoil_blocks_gutter"].help_text
