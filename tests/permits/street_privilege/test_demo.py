"""The demo has one street privilege permit in each state, made through the services, and loads twice unchanged."""

import pytest

from permits.demo import load_demo
from permits.models import Permit
from permits.street_privilege import demo
from permits.street_privilege.demo import STATES

pytestmark = pytest.mark.django_db


def test_demo_has_one_street_privilege_permit_in_each_state():
    load_demo(password="demo-password-123")
    demo.load()
    statuses = sorted(Permit.objects.filter(kind="street_privilege").values_list("status", flat=True))
    assert statuses == sorted(STATES)
    demo.load()
    assert Permit.objects.filter(kind="street_privilege").count() == len(STATES)


def test_chapter_167_the_withdrawn_demo_application_was_paid_and_has_a_refund_due():
    load_demo(password="demo-password-123")
    demo.load()
    withdrawn = Permit.objects.get(kind="street_privilege", status="withdrawn")
    assert withdrawn.refund_due_as_stored() == withdrawn.fee_amount > 0
    assert withdrawn.balance_due_as_stored() == 0
