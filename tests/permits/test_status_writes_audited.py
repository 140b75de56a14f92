"""Every status change writes its audit row: permits move only through permits.workflow.transition(), every other
record through permits.state.change_state() (a StateChange: who, when, from, to, why). This test reads the source of
the apps and refuses a status written any other way: `.update(status=...)` (however it is spelled: `**{"status": ...}`,
a dict of fields built beforehand, on several lines), `bulk_update(..., ["status"])`, `save(update_fields=["status"])`,
`setattr(x, "status", ...)`, and `x.status = ...` followed by `x.save()`. The tests that each record's page writes
its row live beside each record's tests (test_board.py, test_grades.py, test_parcel_links.py, ...)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from django.conf import settings

from permits.errors import IllegalTransition, RulesBroken, Violation
from permits.models import ParcelLinkRequest
from permits.state import change_state, history_of
from tests.factories import ParcelFactory, UserFactory

APPS = ("permits", "sidewalks", "obstructions")
# The two writers of a status, and the job runner, whose JobRun.state is its own bookkeeping (not a record's status).
WRITERS = {"permits/workflow.py", "permits/state.py", "permits/jobs.py"}
STATUS_FIELDS = {"status", "state"}  # RenewalRequest, TaxRollBatch and JobRun call theirs `state`


def _is_status(node) -> bool:
    return isinstance(node, ast.Constant) and node.value in STATUS_FIELDS


def _dict_names_with_status(function) -> set[str]:
    """Names the function binds to a dict holding a status: `fields = {"status": ...}`, `dict(status=...)`,
    `fields["status"] = ...`, `fields.update(status=...)` (the last is also refused by itself)."""
    names = set()
    for node in _own_nodes(function):
        if isinstance(node, ast.Assign):
            value = node.value
            holds = (isinstance(value, ast.Dict) and any(_is_status(k) for k in value.keys)) or (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == "dict"
                and any(k.arg in STATUS_FIELDS for k in value.keywords)
            )
            for target in node.targets:
                if holds and isinstance(target, ast.Name):
                    names.add(target.id)
                if (
                    isinstance(target, ast.Subscript)
                    and _is_status(target.slice)
                    and isinstance(target.value, ast.Name)
                ):
                    names.add(target.value.id)
    return names


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own_nodes(scope):
    """The nodes of `scope` outside the functions nested in it (each of which is a scope of its own)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def _base(node) -> str:
    return ast.unparse(node.value) if isinstance(node, ast.Attribute) else ""


def _status_targets(node) -> list[ast.Attribute]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    found = []
    for target in targets:
        for part in ast.walk(target):
            if isinstance(part, ast.Attribute) and part.attr in STATUS_FIELDS:
                found.append(part)
    return found


def unaudited_writes(source: str, filename: str = "<snippet>") -> list[str]:
    """Each status write in `source` that does not go through the audited helpers, as "file:line: what"."""
    tree = ast.parse(source, filename)
    found = []

    def flag(node, what):
        found.append(f"{filename}:{node.lineno}: {what}")

    for scope in [tree] + [n for n in ast.walk(tree) if isinstance(n, SCOPES)]:
        with_status = _dict_names_with_status(scope)
        body = list(_own_nodes(scope))
        saved = {
            _base(n.func)
            for n in body
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "save"
        }
        for node in body:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method, keywords = node.func.attr, node.keywords
                if method in {"update", "update_or_create", "get_or_create"}:
                    for kw in keywords:
                        if kw.arg in STATUS_FIELDS and method == "update":
                            flag(node, f"update({kw.arg}=...)")
                        elif kw.arg is None and isinstance(kw.value, ast.Dict):
                            if any(_is_status(k) for k in kw.value.keys):
                                flag(node, "update(**{status: ...})")
                        elif kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id in with_status:
                            flag(node, f"update(**{kw.value.id}) with a status in it")
                        elif kw.arg == "defaults" and isinstance(kw.value, ast.Dict):
                            if any(_is_status(k) for k in kw.value.keys):
                                flag(node, f"{method}(defaults={{status: ...}})")
                if method == "bulk_update" or method == "save":
                    fields = [kw.value for kw in keywords if kw.arg in {"fields", "update_fields"}]
                    fields += node.args[1:2] if method == "bulk_update" else []
                    for value in fields:
                        if isinstance(value, (ast.List, ast.Tuple, ast.Set)) and any(_is_status(e) for e in value.elts):
                            flag(node, f"{method}(... status ...)")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                if len(node.args) > 1 and _is_status(node.args[1]):
                    flag(node, "setattr(..., 'status', ...)")
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                for target in _status_targets(node):
                    if _base(target) in saved:
                        flag(node, f"{ast.unparse(target)} = ... then {_base(target)}.save()")
    return sorted(set(found))


def _sources():
    root = Path(settings.BASE_DIR)
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if "migrations" in path.parts or relative in WRITERS:
                continue
            yield relative, path.read_text()


def test_no_status_is_written_outside_the_audited_helpers():
    found = [line for relative, source in _sources() for line in unaudited_writes(source, relative)]
    assert found == [], "Write these through permits.state.change_state (or workflow.transition):\n" + "\n".join(found)


def test_the_sources_are_read():
    names = {relative for relative, _ in _sources()}
    assert {"permits/parcel_links.py", "sidewalks/board_matters.py", "obstructions/registers/services.py"} <= names
    assert not names & WRITERS


@pytest.mark.parametrize(
    "snippet",
    [
        "Obstruction.objects.filter(pk=1).update(status='noticed')",
        "Obstruction.objects.filter(pk=1, status='reported').update(\n    noticed_at=now,\n    status='noticed',\n)",
        "RenewalRequest.objects.filter(pk=1).update(state='granted', decided_by=by)",
        "Obstruction.objects.filter(pk=1).update(**{'status': 'noticed'})",
        "def f(o):\n    fields = {'noticed_at': now, 'status': 'noticed'}\n    Obstruction.objects.update(**fields)",
        "def f(o):\n    fields = {}\n    fields['status'] = 'noticed'\n    Obstruction.objects.update(**fields)",
        "def f(o):\n    fields = dict(status='noticed')\n    Obstruction.objects.update(**fields)",
        "def f(o):\n    o.status = 'noticed'\n    o.save()",
        "def f(o):\n    o.status, o.noticed_at = 'noticed', now\n    o.save(update_fields=['noticed_at'])",
        "def f(o):\n    o.save(update_fields=['status'])",
        "Obstruction.objects.bulk_update(rows, ['status', 'noticed_at'])",
        "setattr(o, 'status', 'noticed')",
        "Case.objects.update_or_create(pk=1, defaults={'status': 'closed'})",
    ],
)
def test_the_scanner_flags_a_hand_written_status_write(snippet):
    assert unaudited_writes(textwrap.dedent(snippet)), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        "change_state(o, to='noticed', from_states={'reported'}, by=by, noticed_at=now)",
        "Case.objects.filter(pk=1, status='open').update(parcel=parcel)",  # a status read, not written
        "def f(o):\n    fields = {'parcel': parcel}\n    Case.objects.filter(status='open').update(**fields)",
        "def f(charge):\n    charge.status = 'billed'  # the in-memory copy after change_state_many\n    send(charge)",
        "Case.objects.create(status='open')",
    ],
)
def test_the_scanner_lets_the_audited_and_the_unrelated_pass(snippet):
    assert unaudited_writes(textwrap.dedent(snippet)) == [], snippet


@pytest.mark.django_db
def test_change_state_refuses_with_the_given_violation_when_someone_acted_first():
    clerk = UserFactory()
    link = ParcelLinkRequest.objects.create(user=UserFactory(), parcel=ParcelFactory(), tax_bill_number="2026-1")
    S = ParcelLinkRequest.Status
    change_state(link, to=S.APPROVED, from_states={S.PENDING}, by=clerk, reason="Proof matches", decided_by=clerk)
    assert (link.status, link.decided_by) == (S.APPROVED, clerk)
    decided = Violation(None, "already_decided", "Wis. Stat. § 66.0627", "Already decided.")
    with pytest.raises(RulesBroken) as broken:
        change_state(link, to=S.REFUSED, from_states={S.PENDING}, by=clerk, reason="x", refusal=decided)
    assert broken.value.violations == [decided]
    with pytest.raises(IllegalTransition):
        change_state(link, to=S.REFUSED, from_states={S.PENDING}, by=clerk, reason="x")
    assert [(c.from_state, c.to_state, c.reason) for c in history_of(link)] == [
        ("pending", "approved", "Proof matches")
    ]
