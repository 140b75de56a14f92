"""Demo street privilege permits, one in each state, for the demo contractor. Safe to load twice: each is found by
its location before it is created. Every step goes through the services, as the officials would take it."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from permits import services
from permits.demo import upload_certificate
from permits.models import Organization, Permit, PermitKind, Street
from permits.street_privilege import services as sp

STATES = (
    "submitted",
    "under_review",
    "approved",
    "issued",
    "completed",
    "closed",
    "expired",
    "revoked",
    "denied",
    "withdrawn",
)


def _data(street, n: int, start, materials: bool) -> dict:
    data = {
        "purpose": "materials" if materials else "move_building",
        "street": street,
        "location_description": f"In front of {200 + 2 * n} {street.name} (demo)",
        "start_date": start,
        "end_date": start + timedelta(days=20),
        "building_permit_number": f"B-{timezone.localdate().year}-{100 + n}",
        "occupied_street_feet": Decimal("12.0"),
        "lighted_at_night": True,
    }
    if materials:
        data.update(
            sidewalk_occupied=True,
            temporary_walk_width_feet=Decimal("4.0"),
            fence_height_feet=Decimal("4.0"),
            fenced_both_sides=True,
        )
    else:
        data.update(
            building_description="Two-car detached garage, 22 x 24 ft",
            route_description=f"{street.name} east to Mill Street, north to the new lot",
            overnight_stops="None: the move takes one day",
        )
    return data


def _advance(permit, state, users, today, real_today) -> None:
    if state in {"submitted"}:
        return
    if state == "withdrawn":
        from permits import workflow

        # Paid at the counter, then withdrawn: the fee is not kept (Chapter 167), so the Clerk-Treasurer's
        # "Refunds to make" lists it and its page shows the refund due.
        services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=users["clerk"])
        workflow.transition(permit, "withdrawn", by=users["contractor"], reason="Plans changed (demo)")
        return
    sp.begin_review(permit=permit, by=users["building"], today=today)
    if state == "under_review":
        return
    if state == "denied":
        sp.deny_street_privilege(permit=permit, by=users["building"], reason="No building permit issued (demo)")
        return
    sp.record_recommendation(permit=permit, by=users["dpw"], recommended=True, conditions="Barricades at both ends")
    sp.record_recommendation(
        permit=permit, by=users["police"], recommended=True, conditions="Police escort", insurance_required=True
    )
    sp.record_building_permit_determination(
        permit=permit, by=users["building"], required=True, shown_number=permit.street_privilege.building_permit_number
    )
    sp.grant_street_privilege(permit=permit, by=users["building"], conditions="Work 7 a.m. to 7 p.m.", today=today)
    if state == "approved":
        return
    upload_certificate(permit, by=permit.applicant)  # the Chief's condition: proof of insurance (§ 303-7A)
    sp.set_bond(permit=permit, by=users["dpw"], amount=Decimal("5000.00"))
    sp.file_bond(permit=permit, by=users["clerk"], surety="Badger State Surety Co.")
    privilege = permit.street_privilege
    if privilege.is_move:
        from permits.board.models import Motion

        # The demo Board's route motion, if the Board demo recorded one for this permit; else a route by the
        # services' own path is not possible without a motion, so the move stays approved.
        motion = Motion.objects.filter(item__clause="303-7D(6)", item__subject_id=privilege.pk).first()
        if motion is None:
            return
        sp.prescribe_route(permit=permit, motion=motion, route=motion.text, by=users["clerk"])
    sp.add_cost(permit=permit, by=users["police"], description="Police escort, 2 hours", amount=Decimal("80.00"))
    services.record_payment(permit=permit, amount=permit.balance_due_as_stored(), method="cash", by=users["clerk"])
    sp.issue_street_privilege(permit=permit, by=users["building"], today=today)
    if state == "issued":
        return
    if state == "revoked":
        sp.revoke_street_privilege(permit=permit, by=users["police"], reason="Obstruction not lighted at night")
        return
    if state == "expired":
        sp.end_terminated_privileges(today=real_today)  # issued 100 days ago: its three months are over (§ 303-7E)
        return
    sp.report_completion(permit=permit, by=users["contractor"], today=today)
    if state == "closed":
        sp.record_closing_inspection(permit=permit, by=users["building"], passed=True, notes="", today=today)


@transaction.atomic
def load() -> dict:
    User = get_user_model()
    names = ["contractor", "clerk", "dpw", "building", "police"]
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    street = Street.objects.filter(name="Main Street").first()
    org = Organization.objects.filter(name="Brandt Excavating LLC").first()
    if len(users) < len(names) or street is None:
        return {}
    today = timezone.localdate()
    made = {}
    for n, state in enumerate(STATES):
        # Materials permits for every state reached after issue, so no Board motion is needed for the demo.
        materials = state in {"issued", "completed", "closed", "expired", "revoked"} or n % 2 == 0
        day = today - timedelta(days=100) if state == "expired" else today
        data = _data(street, n, day + timedelta(days=7), materials)
        if Permit.objects.filter(
            kind=PermitKind.STREET_PRIVILEGE, location_description=data["location_description"]
        ).exists():
            continue
        permit = sp.apply_for_street_privilege(applicant=users["contractor"], organization=org, data=data, today=day)
        _advance(permit, state, users, day, today)
        made[state] = permit.number
    return made
