"""The permit-type registry (permits/kinds.py): every type's record is complete, every page and job reads it, and
for every type and every status it may enter, the generic back office refuses exactly what the type's rules refuse,
and refuses every role the type's authority does not name."""

import ast
import importlib.util
import pathlib

import pytest
from django.contrib.auth.models import Group
from django.template.loader import get_template
from django.urls import reverse

from permits import kinds, workflow
from permits.kinds import APPLICANT
from permits.models import Permit, PermitEvent, Status
from permits.roles import Role
from tests.factories import PermitFactory, UserFactory

ROOT = pathlib.Path(__file__).resolve().parents[2]
TYPES = kinds.online_types()


def test_every_online_type_has_a_complete_record():
    prefixes = [t.prefix for t in kinds.all_types()]
    assert len(prefixes) == len(set(prefixes)), "number prefixes must differ"
    for permit_type in TYPES:
        assert permit_type.citation.startswith("§ 303-")
        assert reverse(permit_type.apply_url)
        get_template(permit_type.detail_template)
        assert permit_type.fee_code
        assert permit_type.authority and permit_type.blockers
        assert set(permit_type.authority) <= set(Status.values)
        for queue in permit_type.work_queues:
            assert reverse(queue.url_name) and set(queue.roles) <= set(Role.values)
        for route in permit_type.api_routes:
            assert reverse(f"{route.basename}-list")


@pytest.mark.django_db
def test_the_chooser_the_guide_and_the_office_read_the_registry(client, clerk):
    apply_page = client.get(reverse("home")).content.decode()
    for permit_type in kinds.all_types():
        assert permit_type.title in apply_page
    client.force_login(clerk)
    office = client.get(reverse("permits:office")).content.decode()
    for queue, url in kinds.work_queues_for(clerk):
        assert f'href="{url}">{queue.title}' in office


# The parts the core must not name: the permit types and the parts outside permits/ (the core's own subpackages,
# permits.board or permits.ledger, are the core).
PARTS = [p for p in kinds.PACKAGES if p in kinds.type_packages() or not p.startswith("permits.")]


def _folder(package: str) -> str:
    return package.replace(".", "/") + "/"


def _modules_named(path: pathlib.Path) -> list[tuple[str, str]]:
    """(how, name) of every module `path` imports, every string argument of a `get_model(...)` call and every other
    string of its code (not its docstrings)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "get_model":
            found += [("get_model", a.value) for a in node.args if isinstance(a, ast.Constant)]
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [("import", node.module)] + [("import", f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [("import", a.name) for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append(("string", node.value))
    return found


def _names_part(name: str, parts) -> str | None:
    return next((p for p in parts if name == p or name.startswith(p + ".")), None)


def _is_module_path(name: str) -> bool:
    """A string that is a dotted path to a module (import_module's argument), not a model label or a job name."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _names_part_by_string(how: str, name: str, parts) -> bool:
    part = _names_part(name, parts)
    if part is None:
        return False
    return how != "string" or name == part or _is_module_path(name)


def test_no_core_module_names_a_part_by_import_or_by_string():
    """Only the registry's list (kinds.PACKAGES) names the parts; the core reads them through kinds.discover(), and
    names none of them in an import, an `apps.get_model("sidewalks", ...)` or a dotted path in a string."""
    offenders = []
    for path in (ROOT / "permits").rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" in relative or any(relative.startswith(_folder(p)) for p in PARTS):
            continue
        if relative in ("permits/kinds.py", "permits/management/commands/seed_bench.py"):
            continue  # the registry's list itself; the benchmark seeder (bench/, not the app: it names every type)
        for how, name in _modules_named(path):
            if _names_part_by_string(how, name, PARTS):
                offenders.append(f"{relative}: {how} {name!r}")
    assert offenders == []


def test_siblings_reach_each_other_only_through_the_core():
    """A part imports the core, never another part (obstructions does not import sidewalks or a permit type)."""
    offenders = []
    for part in PARTS:
        others = [p for p in PARTS if not (p.startswith(part + ".") or part.startswith(p + ".") or p == part)]
        for path in (ROOT / _folder(part)).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative:
                continue
            for how, name in _modules_named(path):
                if how == "import" and _names_part(name, others):
                    offenders.append(f"{relative}: {name}")
    assert offenders == []


def _edges():
    for permit_type in TYPES:
        for source, targets in workflow.TRANSITIONS.items():
            for target in sorted(targets):
                yield pytest.param(permit_type.kind, source, target, id=f"{permit_type.kind}-{source}-{target}")


def _arrange(kind: str, source: str, applicant) -> Permit:
    """A permit of `kind` put in `source` directly (arrangement, not the act under test)."""
    permit = PermitFactory(kind=kind, applicant=applicant, fee_amount="25.00")
    Permit.objects.filter(pk=permit.pk).update(status=source)
    return Permit.objects.get(pk=permit.pk)


def _staff(role: str):
    user = UserFactory(username=f"u-{role}".replace(" ", "-").lower(), is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.mark.django_db
@pytest.mark.parametrize("kind,source,target", list(_edges()))
def test_the_admin_refuses_exactly_what_the_type_refuses(client, kind, source, target):
    permit_type = kinds.registry()[kind]
    applicant = UserFactory(username="applicant")
    allowed = permit_type.authority.get(target, frozenset()) - {APPLICANT}
    for role in Role.values:
        permit = _arrange(kind, source, applicant)
        expected_blockers = workflow.blockers_for(permit, target)
        user = _staff(role)
        client.force_login(user)
        client.post(reverse("admin:permits_permit_status", args=[permit.pk]), {"to": target, "reason": "test"})
        moved = Permit.objects.get(pk=permit.pk).status == target
        should_move = role in allowed and not expected_blockers
        assert moved == should_move, (role, [v.code for v in expected_blockers])
        if moved:
            event = PermitEvent.objects.filter(permit=permit).latest("at")
            assert (event.from_status, event.to_status, event.actor_id) == (source, target, user.pk)
        client.logout()


def test_a_permits_kind_is_checked_against_the_registry_not_an_enum():
    from django.core.exceptions import ValidationError

    for permit_type in TYPES:
        kinds.validate_kind(permit_type.kind)
    with pytest.raises(ValidationError) as refused:
        kinds.validate_kind("hot_air_balloon")
    assert refused.value.error_list[0].code == "unknown_permit_type"
    assert Permit._meta.get_field("kind").choices is None  # a new type alters no table


@pytest.mark.django_db
def test_a_permits_label_is_its_records_label():
    for permit_type in TYPES:
        assert PermitFactory.build(kind=permit_type.kind).get_kind_display() == permit_type.label
