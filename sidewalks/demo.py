"""Demo sidewalk data: a contractor's issued permit half-way through its inspections, a resident's application
waiting for the clerk, and a survey of Henni Street with defective blocks and proposed orders. Safe to load twice:
each piece is looked up by a marker before it is made."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.utils import timezone

from permits.demo import CERTIFICATE
from permits.models import Organization, Parcel, Payment, Street
from permits.services import record_payment
from sidewalks import services
from sidewalks.models import SidewalkPermit, SidewalkSurvey

MARKER = "Demo sidewalk data"
CONTRACTOR_PARCEL = "266-1116-1001"
RESIDENT_PARCEL = "266-1116-1000"
SURVEY_STREET = "Henni Street"
# Per parcel on the surveyed street: (vertical, horizontal, deterioration) of each block, in inches.
SURVEY_BLOCKS = [
    [("0.25", "0.5", "0"), ("1.0", "0.5", "0"), ("0.5", "1.5", "0"), ("0.2", "0.25", "0.6"), ("0.9", "0", "0")],
    [("0", "0.25", "0"), ("0.8", "0", "0"), ("0.1", "0", "0.1"), ("0", "0", "0"), ("0.3", "0.3", "0")],
    [("0", "0", "0"), ("0.1", "0.2", "0"), ("0.2", "0", "0.25"), ("0", "0", "0")],
]


def _spec(**extra):
    spec = dict(
        work="replace",
        frontage_feet=Decimal("66"),
        width_feet=Decimal("4"),
        thickness_inches=Decimal("4"),
        driveway_length_feet=Decimal("12"),
        driveway_thickness_inches=Decimal("6"),
        existing_width_feet=Decimal("4"),
        material="concrete",
        concrete_psi=4000,
        sacks_per_cubic_yard=Decimal("6"),
        work_description=MARKER,
    )
    return {**spec, **extra}


@transaction.atomic
def load() -> None:
    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=["clerk", "inspector", "contractor", "resident"])}
    if len(users) < 4:
        return  # the core demo (permits.demo.load_demo) makes these accounts first
    today = timezone.localdate()
    clerk, inspector = users["clerk"], users["inspector"]

    if not SidewalkPermit.objects.filter(parcel__tax_key=CONTRACTOR_PARCEL, permit__work_description=MARKER).exists():
        parcel = Parcel.objects.get(tax_key=CONTRACTOR_PARCEL)
        org = Organization.objects.filter(name="Brandt Excavating LLC").first()
        # § 303-3C: the contractor files as the owner's agent, with the owner's written authorization, which the
        # clerk accepts before issue.
        authorization = SimpleUploadedFile("owner-authorization.pdf", CERTIFICATE, content_type="application/pdf")
        permit = services.apply_for_sidewalk_permit(
            applicant=users["contractor"],
            organization=org,
            parcel=parcel,
            today=today - timedelta(days=4),
            standing="agent",
            authorization=authorization,
            **_spec(pour_date=today + timedelta(days=1)),
        )
        services.accept_standing(permit=permit, by=clerk, document=permit.documents.get())
        record_payment(permit=permit, amount=permit.fee_amount, method=Payment.Method.CHECK, reference="1042", by=clerk)
        permit.refresh_from_db()
        # § 303-3C: issued three days ago, so the work the inspector sees today began on time.
        services.issue_sidewalk_permit(permit=permit, by=clerk, today=today - timedelta(days=3))
        services.record_inspection(
            permit=permit,
            stage="subgrade",
            by=inspector,
            grading_inches=Decimal("2"),
            subgrade_inches=Decimal("3"),
            subgrade_material="gravel",
        )
        services.record_inspection(
            permit=permit,
            stage="forms",
            by=inspector,
            form_material="wood",
            form_thickness_inches=Decimal("1.5"),
            form_depth_inches=Decimal("4"),
            form_width_feet=Decimal("4"),
            strip_inches=Decimal("6"),
        )

    if not SidewalkPermit.objects.filter(parcel__tax_key=RESIDENT_PARCEL, permit__work_description=MARKER).exists():
        services.apply_for_sidewalk_permit(  # the resident is the linked owner of record (§ 303-3C)
            applicant=users["resident"],
            parcel=Parcel.objects.get(tax_key=RESIDENT_PARCEL),
            today=today,
            **_spec(
                work="repair",
                width_feet=Decimal("3.5"),
                existing_width_feet=Decimal("3.5"),
                frontage_feet=Decimal("20"),
                driveway_length_feet=Decimal("0"),
                driveway_thickness_inches=None,
                pour_date=today + timedelta(days=10),
            ),
        )

    street = Street.objects.filter(name=SURVEY_STREET).first()
    if street is not None and not SidewalkSurvey.objects.filter(street=street, notes=MARKER).exists():
        survey = services.start_survey(street=street, by=inspector, surveyed_on=today, notes=MARKER)
        parcels = list(Parcel.objects.filter(street=street).order_by("site_address")[: len(SURVEY_BLOCKS)])
        for parcel, blocks in zip(parcels, SURVEY_BLOCKS, strict=False):
            for number, (v, h, d) in enumerate(blocks, start=1):
                services.record_block(
                    survey=survey,
                    parcel=parcel,
                    block_number=number,
                    vertical_inches=Decimal(v),
                    horizontal_inches=Decimal(h),
                    deterioration_inches=Decimal(d),
                    by=inspector,
                )
        services.propose_orders(survey=survey, by=inspector, today=today)

    _minor_repairs(clerk, today)
    _curb_and_gutter(users, today)

    from sidewalks import board_matters  # a width waiver waiting on the Village Board queue

    board_matters.load_demo(clerk=clerk)


def _minor_repairs(clerk, today) -> None:
    """§ 303-3B(3): the minor-repair authority the demo Board gave by its motion (permits.board.demo), and one minor
    repair made under it, billed to the owner."""
    from permits.board.models import Motion
    from sidewalks.models import MinorRepairAuthority, MinorSidewalkRepair

    motion = Motion.objects.filter(item__clause="303-3B(3)", outcome=Motion.Outcome.CARRIED, item__subject_id=None)
    motion = motion.filter(text__startswith="To require minor sidewalk repairs").first()
    if motion is None or MinorRepairAuthority.objects.exists():
        return
    services.set_minor_repair_authority(limit=Decimal(100), effective_from=motion.held_on, motion=motion, by=clerk)
    parcel = Parcel.objects.filter(tax_key=RESIDENT_PARCEL).first()
    if parcel is not None and not MinorSidewalkRepair.objects.exists():
        services.record_minor_repair(
            parcel=parcel,
            description="Ground down a 3/4-inch lip between two blocks",
            done_on=today - timedelta(days=5),
            cost=Decimal("85.00"),
            by=clerk,
            today=today,
        )


def _curb_and_gutter(users, today) -> None:
    """§ 303-3A: a proposed curb and gutter order waiting for the Board."""
    from sidewalks.models import SidewalkOrder

    street = Street.objects.filter(name=SURVEY_STREET).first()
    parcel = Parcel.objects.filter(street=street).order_by("-site_address").first() if street else None
    if parcel is None or SidewalkOrder.objects.filter(element=SidewalkOrder.Element.CURB_GUTTER).exists():
        return
    services.propose_board_order(
        parcel=parcel,
        element=SidewalkOrder.Element.CURB_GUTTER,
        work="replace",
        quantity=Decimal("66"),
        unit=SidewalkOrder.Unit.LINEAR_FEET,
        unit_price=Decimal("38.00"),
        findings=f"{MARKER}: the curb has settled and the gutter holds water along the frontage",
        by=users["inspector"],
        today=today,
    )
