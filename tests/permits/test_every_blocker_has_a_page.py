"""Every blocker a permit type can raise has a page and a person: the type's `cleared_by` table (next to its
`blockers` hook) names, for each Violation code the hook can return, the roles that clear it and the page they do it
on. Read from the source, every code the hooks can reach must be in the table; each page must be a real URL name,
never the back office, and open (200) for each role named; a blocker no page clears is a dead end, listed here by
name so the list can only shrink."""

import re

import pytest
from django.urls import NoReverseMatch, reverse

from obstructions.registers import street_work_checks
from permits import kinds, street_work
from permits.demo import load_demo
from permits.kinds import APPLICANT, CALENDAR
from permits.models import Permit, Status
from permits.roles import Role
from tests.conftest import staff_user
from tests.factories import PermitFactory
from tests.permits.blocker_codes import BlockerCodes

TYPES = {t.kind: t for t in kinds.online_types()}

# The blockers no page clears yet: (permit type, code). Fixing one removes it here (the test then insists).
DEAD_ENDS: set[tuple[str, str]] = set()


def _street_work_walks():
    return {street_work.work_violations: [m.work_violations for m in street_work._modules()]}


def raised_codes(permit_type) -> dict[str, set[str]]:
    return BlockerCodes(also_walk=_street_work_walks()).walk(permit_type.blockers).codes


def table(permit_type) -> dict:
    """The type's own table, and the registers' for the codes the street work checks raise."""
    return {**street_work_checks.CLEARED_BY, **permit_type.cleared_by}


def _covered(code: str, entries) -> bool:
    if code.startswith("re:"):
        return any(re.fullmatch(code[3:], key) for key in entries)
    return code in entries


@pytest.mark.parametrize("kind", TYPES)
def test_every_blocker_code_names_who_clears_it_and_where(kind):
    permit_type = TYPES[kind]
    codes = raised_codes(permit_type)
    assert codes, f"{kind}: no blocker code found: the reader of the source is broken"
    missing = {code: sorted(where) for code, where in codes.items() if not _covered(code, table(permit_type))}
    assert not missing, f"{kind}: blockers with nobody to clear them (add them to its cleared_by): {missing}"


@pytest.mark.parametrize("kind", TYPES)
def test_no_clearer_is_left_over_from_a_code_no_longer_raised(kind):
    permit_type = TYPES[kind]
    codes = raised_codes(permit_type)
    stale = [key for key in permit_type.cleared_by if not any(_covered(code, [key]) for code in codes)]
    assert not stale, f"{kind}: cleared_by names codes its blockers never raise: {stale}"


def test_the_dead_ends_are_exactly_those_listed():
    found = {(kind, code) for kind, t in TYPES.items() for code, c in table(t).items() if not c.roles}
    assert found == DEAD_ENDS


def _url(page: str, permit) -> str:
    try:
        return reverse(page, args=[permit.number])
    except NoReverseMatch:
        return reverse(page)


@pytest.mark.parametrize("kind", TYPES)
def test_every_page_named_is_a_real_page_and_never_the_back_office(kind):
    permit = PermitFactory.build(kind=kind, number="X-2026-0001")
    for code, clearer in table(TYPES[kind]).items():
        if not clearer.roles:
            continue
        url = _url(clearer.page, permit)
        assert not url.startswith("/admin"), f"{kind} {code}: cleared in the back office ({clearer.page})"
        assert set(clearer.roles) <= {APPLICANT, CALENDAR, *Role.values}, f"{kind} {code}: {clearer.roles}"


def _people(permit, roles):
    for role in roles:
        if role == APPLICANT or role == CALENDAR:  # the calendar's blockers are shown to the applicant
            yield role, permit.applicant
        else:
            yield role, staff_user(f"u{abs(hash(role)) % 10**8}", Role(role))


@pytest.mark.django_db
@pytest.mark.parametrize("kind", TYPES)
def test_each_role_named_opens_the_page_it_clears_a_blocker_on(client, kind):
    load_demo(password="demo-password-123")
    for loader in TYPES[kind].demo_loaders:
        loader()
    # a permit under way: its pages show every step's panel
    permit = Permit.objects.filter(kind=kind, status__in=(Status.ISSUED, Status.ACTIVE)).first()
    pages: dict[tuple[str, str], list[str]] = {}
    for code, clearer in table(TYPES[kind]).items():
        for role in clearer.roles:
            pages.setdefault((role, clearer.page), []).append(code)
    people = dict(_people(permit, {role for role, _ in pages}))
    refused = {}
    for (role, page), codes in sorted(pages.items()):
        client.force_login(people[role])
        response = client.get(_url(page, permit))
        if response.status_code != 200:
            refused[f"{role} on {page}"] = (response.status_code, codes)
    assert not refused, f"{kind}: pages the role named cannot open: {refused}"
