"""The new-type experiment, for real: copy the smallest sibling (permits/street_use/) as permits/newtype/, give it a
rule and a fee, add it to the registry's list, and nothing else of the core changes. The copy is written to a
temporary folder that a fresh interpreter sees as permits/newtype/ (its models join the `permits` app while Django
loads, as a registered type's do); that interpreter reports what the core then reads of it.
docs/explanation/adding-a-type.md lists the same steps for a person."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from permits import kinds

ROOT = Path(__file__).resolve().parents[2]
SIBLING = ROOT / "permits" / "street_use"
NEW = "newtype"

# The one core line: the package added to the registry's list. The interpreter below runs it before Django loads.
ONE_CORE_LINE = f'kinds.PACKAGES = (*kinds.PACKAGES, "permits.{NEW}")'

PROBE = f"""
import json, io, os
import permits
permits.__path__.append(os.environ["NEW_TYPE_FOLDER"])  # the copy, as if it were permits/{NEW}/
from permits import kinds
{ONE_CORE_LINE}
import django
django.setup()
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse
from permits import role_permissions
from permits.board.matters import matters
from permits.models import Permit
from permits.roles import Role

record = kinds.registry()["{NEW}"]
kinds.validate_kind("{NEW}")
migrations = io.StringIO()
call_command("makemigrations", "permits", dry_run=True, stdout=migrations)
print(json.dumps({{
    "types": list(kinds.registry()),
    "type_packages": list(kinds.type_packages()),
    "label": Permit(kind="{NEW}").get_kind_display(),
    "title": record.title,
    "fee_code": record.fee_code,
    "apply_url": reverse(record.apply_url),
    "api": [reverse(f"{{r.basename}}-list") for r in record.api_routes],
    "admin": sorted(m._meta.label_lower for m in admin.site._registry if m.__module__.startswith("permits.{NEW}.")),
    "police_sees": sorted(m for m in role_permissions.visible_models(Role.POLICE_CHIEF) if "nt" in m),
    "matters": [m.title for m in matters() if m.waiting.__module__ == "permits.{NEW}.board_matters"],
    "blocks": [v.code for v in record.blockers.__globals__["rules"].days_violations(days=4)],
    "migrations": migrations.getvalue(),
}}))
"""

RULE = '''

def days_violations(*, days: int) -> list[Violation]:
    """§ 303-99 (the experiment's rule): at most three days."""
    return [Violation("days", "too_long", "§ 303-99", "At most three days.")] if days > 3 else []
'''


def _copy_sibling(into: Path) -> None:
    """permits/street_use/ as permits/newtype/: its module path, kind, URL names and model names changed."""
    models = re.findall(r"^class (\w+)\(models\.Model\)", (SIBLING / "models.py").read_text(), re.M)
    package = into / NEW
    package.mkdir()
    for source in SIBLING.glob("*.py"):
        text = source.read_text()
        text = text.replace("PermitKind.STREET_USE", f'"{NEW}"').replace("street_use", NEW).replace("street-use", NEW)
        for name in models:  # the core app already has these models: the copy's are its own
            text = re.sub(rf"\b{name}\b", f"Nt{name}", text)
            text = text.replace(f"permits.{name.lower()}", f"permits.nt{name.lower()}")
        text = re.sub(r'related_name="(?!\+)', 'related_name="nt_', text)
        text = text.replace('prefix="SU"', 'prefix="NT"').replace('title="Street use permit"', 'title="New permit"')
        text = text.replace('label="Street use (block party, event)"', 'label="New permit (an experiment)"')
        (package / source.name).write_text(text)
    rules = package / "rules.py"
    rules.write_text(rules.read_text() + RULE)  # one rule


def test_the_new_type_costs_one_line_of_the_core(tmp_path):
    _copy_sibling(tmp_path)
    env = {**os.environ, "NEW_TYPE_FOLDER": str(tmp_path)}
    # A database of its own (makemigrations reads its migration history), in development mode.
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'probe.sqlite3'}", DEBUG="1", SECRET_KEY="new-type-experiment-" * 3)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])

    assert found["types"] == [*kinds.registry(), NEW]
    assert found["type_packages"][-1] == f"permits.{NEW}"
    assert (found["title"], found["label"]) == (
        "New permit",
        "New permit (an experiment)",
    )  # the record's, no enum of the core
    assert found["fee_code"] == NEW  # one fee: a FeeItem row of that code (the type's data migration)
    assert found["apply_url"].endswith("/") and found["api"]  # its pages and its API, mounted from the record
    assert "permits.ntstreetuse" in found["admin"]
    assert "permits.ntstreetuse" in found["police_sees"]  # the back office's roles, from the record
    assert found["matters"]  # its Board matters, discovered
    assert found["blocks"] == ["too_long"]
    # Its own tables are its only migration: Permit.kind has no choices to alter for a new type.
    assert "Create model NtStreetUse" in found["migrations"]
    assert "Alter field kind" not in found["migrations"]


@pytest.mark.parametrize("module", ["models", "admin", "board_matters", "kind"])
def test_discover_finds_each_part_module_in_the_order_of_the_list(module):
    found = [m.__name__.rpartition(".")[0] for m in kinds.discover(module)]
    assert found == [p for p in kinds.PACKAGES if p in found]
    assert "permits.street_use" in found
