"""The permit-type registry (permits/kinds.py): every type's record is complete, every page and job reads it, and
for every type and every status it may enter, the generic back office refuses exactly what the type's rules refuse,
and refuses every role the type's authority does not name."""

import ast
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


def test_no_core_module_imports_a_permit_type_by_name():
    """Only the registry's list (kinds.TYPE_PACKAGES) names the type packages; the core reads them through it."""
    type_packages = [p for p in kinds.TYPE_PACKAGES]
    offenders = []
    for path in (ROOT / "permits").rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" in relative or any(relative.startswith(p.replace(".", "/") + "/") for p in type_packages):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if any(name == p or name.startswith(p + ".") for p in type_packages):
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
