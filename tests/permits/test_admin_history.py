"""Field history is read, never written back: simple_history's revert form refuses every POST, for every admin with
history and every staff role, superuser included (OWASP ASVS V4.1.3 / V4.2.1: no write without authority; a revert
has no rules, no authority check and no timeline entry). The history stays readable for those who may view it."""

from datetime import date, datetime
from decimal import Decimal

import pytest
from django.db import models
from django.forms.models import model_to_dict
from django.urls import reverse

from tests.permits.admin_world import ROLES, history_admins

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(admin_world):
    """The back office, built once for this module (tests/permits/admin_world.py)."""
    return admin_world


WHO = [*ROLES, "superuser"]


def row(model, pk):
    return model._default_manager.filter(pk=pk).values().get()


def tampered_post(obj) -> dict:
    """The record's own values as the revert form would post them, with every amount set to 1, every optional date
    cleared, every text changed and every flag flipped: what the inspector and the Chief of Police posted."""
    data = {}
    values = model_to_dict(obj)
    for field in obj._meta.concrete_fields:
        if not field.editable or field.primary_key:
            continue
        value = values.get(field.name)
        if isinstance(field, models.DecimalField):
            value = Decimal("1.00")
        elif isinstance(field, models.BooleanField):
            value = not value
        elif isinstance(field, models.DateField | models.DateTimeField) and field.null:
            value = None
        elif isinstance(field, models.CharField | models.TextField) and not field.choices:
            value = ("tampered " + (value or ""))[: field.max_length or 1000]
        if isinstance(value, bool):
            if value:
                data[field.name] = "on"
        elif isinstance(value, datetime):
            data[field.name] = value.isoformat()
            data[f"{field.name}_0"], data[f"{field.name}_1"] = value.date().isoformat(), value.strftime("%H:%M:%S")
        elif isinstance(value, date):
            data[field.name] = value.isoformat()
        else:
            data[field.name] = "" if value is None else str(value)
    for field in obj._meta.many_to_many:
        data[field.name] = [str(o.pk) for o in values.get(field.name) or []]
    data["_save"] = "Revert"
    return data


def history_urls(model, obj):
    record = obj.history.order_by("history_date").first()
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    return reverse(f"{name}_history", args=[obj.pk]), reverse(f"{name}_simple_history", args=[obj.pk, record.pk])


@pytest.mark.parametrize("who", WHO, ids=str)
def test_asvs_v4_1_3_no_role_rewrites_a_record_through_the_history_form(who, world, client):
    """For every admin with history: a revert POST with altered values is refused (403) and the row and its history
    are unchanged."""
    client.force_login(world[who])
    checked = []
    for model, _ in history_admins():
        obj = model._default_manager.order_by("pk").first()
        before, history_before = row(model, obj.pk), obj.history.count()
        _, form_url = history_urls(model, obj)
        response = client.post(form_url, tampered_post(obj))
        assert row(model, obj.pk) == before, f"{who} rewrote {model.__name__} through its history form"
        assert response.status_code == 403, (model.__name__, response.status_code)
        assert obj.history.count() == history_before
        checked.append(model.__name__)
    assert {"Permit", "FeeItem", "StreetOpening", "AnnualBond", "Parcel"} <= set(checked)


@pytest.mark.slow
@pytest.mark.parametrize("who", WHO, ids=str)
def test_asvs_v4_1_3_history_stays_readable_to_those_who_may_view_the_record(who, world, client):
    user = world[who]
    client.force_login(user)
    readable = []
    for model, _ in history_admins():
        obj = model._default_manager.order_by("pk").first()
        list_url, form_url = history_urls(model, obj)
        opts = model._meta
        may_view = user.has_perm(f"{opts.app_label}.view_{opts.model_name}")
        for url in (list_url, form_url):
            response = client.get(url)
            assert response.status_code == (200 if may_view else 403), (model.__name__, url, response.status_code)
        if may_view:
            page = response.content.decode()
            assert 'value="Revert"' not in page and 'name="_save"' not in page, model.__name__
            readable.append(model.__name__)
    if who in ("superuser", ROLES[0]):  # the Clerk-Treasurer reads the history of everything
        assert len(readable) == len(history_admins())
    elif who == "Police Officer":
        assert readable == []  # § 303-15H is done on the events page: an officer has no back office
    else:
        assert "Permit" in readable  # every other role reads a permit's history


def test_asvs_v4_1_3_history_form_shows_the_version_as_text_not_inputs(world, client):
    from permits.models import FeeItem

    client.force_login(world["superuser"])
    fee = FeeItem.objects.order_by("pk").first()
    _, form_url = history_urls(FeeItem, fee)
    page = client.get(form_url).content.decode()
    assert 'name="amount"' not in page and str(fee.amount) in page
