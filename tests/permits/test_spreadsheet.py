"""The one guard every CSV the Village writes goes through (permits.spreadsheet): a text cell a spreadsheet would run
as a formula is written as text. Each file's own test is beside its page (tax roll, settlement, reports, registers,
BLDS feed)."""

import csv
import io

import pytest

from permits import spreadsheet


@pytest.mark.parametrize("cell", ["=SUM(A1)", "+1", "-1", "@cmd", "\tx", "\rx", '=HYPERLINK("http://evil")'])
def test_a_formula_cell_is_written_as_text(cell):
    assert spreadsheet.safe_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["Owner, Olga", "75.00", "", " =1", "a=1", 75, None])
def test_any_other_cell_is_unchanged(cell):
    assert spreadsheet.safe_cell(cell) == cell


def test_the_writer_and_the_dict_writer_guard_every_cell():
    out = io.StringIO()
    spreadsheet.writer(out).writerows([["=1+1", "plain", 3]])
    dict_writer = spreadsheet.DictWriter(out, fieldnames=["a", "b"])
    dict_writer.writeheader()
    dict_writer.writerow({"a": "@SUM(1)", "b": 2})
    assert list(csv.reader(io.StringIO(out.getvalue()))) == [["'=1+1", "plain", "3"], ["a", "b"], ["'@SUM(1)", "2"]]


def test_no_module_writes_csv_around_the_guard():
    """Every writer of CSV in the project uses permits.spreadsheet (a grep, so a new export cannot forget it)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = [
        str(path.relative_to(root))
        for folder in ("permits", "obstructions", "sidewalks", "theresa_permits")
        for path in (root / folder).rglob("*.py")
        if path.name != "spreadsheet.py"
        and any(call in path.read_text() for call in ("csv.writer(", "csv.DictWriter("))
    ]
    assert offenders == []
