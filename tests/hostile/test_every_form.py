"""Every field of every form of the site, with each hostile value: never a 500, and a value that must be refused (too
long, a NUL) writes nothing (OWASP ASVS V5.1). The forms are found by walking the demo village's pages as each demo
account (tests/hostile/crawl.py), so a new form or field is covered by being on a page, without a new test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.hostile.conftest import writes
from tests.hostile.crawl import walk
from tests.permits.admin_world import admin_world  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quiet_request_log")]

BIG = "x" * 200_000
NUL = "a\x00b"
HUGE = "1" + "0" * 20
FAR = "9999-12-31"
NOT_AN_ID = "abc"
# What each kind of input is sent, besides 200 KB and a NUL (sent to every field): the values an input of that kind
# once answered with a 500. A hidden field, a choice, a checkbox or a button holds an id (ID_LIKE).
EVERY = {"200 KB": BIG, "NUL": NUL}
BY_KIND = {
    "text": {},
    "textarea": {},
    "number": {"10^20": HUGE, "abc": NOT_AN_ID},
    "date": {"year 9999": FAR, "abc": NOT_AN_ID},
    "datetime-local": {"year 9999": FAR + "T23:59", "abc": NOT_AN_ID},
}
ID_LIKE = {"10^20": HUGE, "abc": NOT_AN_ID}
REFUSED = {"200 KB", "NUL"}  # in any field: nothing may be written
# Inputs whose value is a switch, not kept: a button (which action), a checkbox (on when sent: a BooleanField takes
# any value as True, a list of checkboxes ignores a value it does not offer), where to go next.
SWITCHES = {"submit", "checkbox"}
NAVIGATION = {"next"}
PERSONAS = ["clerk", "dpw", "inspector", "building", "police", "officer", "board", "president"]
PERSONAS += ["resident", "contractor", "utility"]

_fuzzed: set = set()  # the forms an earlier person posted already


def post(client, form, data):
    """Post and roll back what the request wrote, so each post starts from the same village."""
    with CaptureQueriesContext(connection) as ctx, transaction.atomic():
        response = client.post(form.action, data)
        transaction.set_rollback(True)
    return response, writes(ctx.captured_queries)


@pytest.mark.slow
@pytest.mark.parametrize("username", PERSONAS)
def test_every_form_field_refuses_hostile_values_without_a_500(admin_world, settings, username):  # noqa: F811
    settings.RATELIMIT_ENABLE = False
    client = Client(raise_request_exception=False)
    client.force_login(get_user_model().objects.get(username=username))
    failures = []
    forms = walk(client, ["/"])
    if username == "clerk":  # the office's forms: a walk that stopped finding them would prove nothing
        assert len({form.route for form in forms}) >= 10
    for form in forms:
        if form.key() in _fuzzed:
            continue
        _fuzzed.add(form.key())
        response, _ = post(client, form, form.fields)
        if response.status_code >= 500:
            failures.append((form.route, "(as shown)", "", response.status_code))
        for name, kind in form.kinds.items():
            for label, value in {**EVERY, **BY_KIND.get(kind, ID_LIKE)}.items():
                cache.clear()
                response, wrote = post(client, form, {**form.fields, name: value})
                if response.status_code >= 500:
                    failures.append((form.route, name, label, response.status_code))
                elif label in REFUSED and wrote and kind not in SWITCHES and name not in NAVIGATION:
                    failures.append((form.route, name, label, f"{response.status_code} wrote {wrote[0]}"))
    assert failures == []
