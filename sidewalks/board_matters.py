"""What the sidewalks app brings to the Village Board (permits.board.matters): the § 303-3D(8)(c) width and
thickness waivers and the § 303-3D(9) cold-weather pour waivers put to it (WaiverRequest), and the proposed sidewalk
orders it adopts under § 303-3B(3) and Wis. Stat. § 66.0907 (SidewalkOrder). The Board's recorded motion decides
each; `decide` applies it through the sidewalks services."""

from __future__ import annotations

from permits.board.clauses import Clause, citation
from permits.board.matters import Matter


def _requests(kind: str):
    def waiting():
        from sidewalks.models import WaiverRequest

        return (
            WaiverRequest.objects.filter(kind=kind, status=WaiverRequest.Status.PENDING)
            .select_related("parcel", "permit")
            .order_by("requested_at", "pk")
        )

    return waiting


def _request_facts(request) -> list[tuple[str, str]]:
    from permits.board import rules

    facts = [
        ("Parcel", f"{request.parcel.site_address} (tax key {request.parcel.tax_key})"),
        ("Land use", request.parcel.get_land_use_display()),
        ("Waiver", request.get_kind_display()),
        ("Reason given", request.reason),
    ]
    if request.permit_id:  # § 303-3D(9): one permit, until its last day
        facts.append(("For permit", request.permit.number))
    if request.ends_on:
        facts.append(("Excuses a pour through", f"{request.ends_on:%B %-d, %Y}"))
    return facts + [
        (
            "Vote required",
            "Three-fourths of the entire Board (§ 303-3D(8)(c))"
            if rules.vote_rule_for(_clause_of(request)) == "three_fourths_entire"
            else "A majority of those present",
        ),
    ]


def _clause_of(request) -> str:
    from sidewalks.models import BoardWaiver

    return Clause.SIDEWALK_WAIVER if request.kind == BoardWaiver.Kind.WIDTH_THICKNESS else Clause.COLD_POUR_WAIVER


def _decide_request(*, subject, motion, by) -> None:
    """A carried motion records the waiver (sidewalks.services.record_board_waiver, which checks the rule and the
    resolution number); a failed one denies the request."""
    from permits.errors import Violation
    from permits.state import change_state
    from sidewalks import services
    from sidewalks.models import WaiverRequest

    S, cite = WaiverRequest.Status, citation(_clause_of(subject))
    fields = {"decided_by_motion": motion}
    if motion.carried:
        # § 303-3D(9): a cold-weather waiver keeps the request's permit, its emergency (the reason) and its end.
        fields["waiver"] = services.record_board_waiver(
            kind=subject.kind,
            parcel=subject.parcel,
            motion=motion,
            reason=subject.reason,
            permit=subject.permit,
            emergency=subject.reason,
            ends_on=subject.ends_on,
            by=by,
        )
    change_state(
        subject,
        to=S.WAIVED if motion.carried else S.DENIED,
        from_states={S.PENDING},
        by=by,
        reason=f"{'Waived' if motion.carried else 'Denied'} by the Board's motion ({cite})",
        refusal=Violation(None, "decided", cite, f"The waiver request was already decided ({cite})."),
        **fields,
    )


def _orders_waiting():
    from sidewalks.models import SidewalkOrder

    return (
        SidewalkOrder.objects.filter(status=SidewalkOrder.Status.PROPOSED)
        .select_related("parcel")
        .order_by("created_at", "pk")
    )


def _order_facts(order) -> list[tuple[str, str]]:
    return [
        ("Order", order.number),
        ("Parcel", f"{order.parcel.site_address} (tax key {order.parcel.tax_key})"),
        ("Ordered", order.get_element_display()),
        ("Work", f"{order.work_label}: {order.quantity} {order.get_unit_display()}"),
        ("Reason", order.get_reason_display()),
        ("Estimated cost", f"${order.estimated_cost:,.2f}"),
        ("Findings", order.findings or "(none recorded)"),
    ]


def _decide_order(*, subject, motion, by) -> None:
    """§ 303-3B(3): a carried motion adopts the order under its resolution number, on the meeting date; a failed one
    leaves it proposed."""
    from sidewalks import services

    if motion.carried:
        services.adopt_orders(orders=[subject], motion=motion, by=by)


def _waiver_matter(clause: str, title: str, kind: str) -> Matter:
    """The waiver requests of one kind, each put to the Board from the waiver request page."""
    return Matter(
        clause=clause,
        title=title,
        model="sidewalks.WaiverRequest",
        waiting=_requests(kind),
        facts=_request_facts,
        decide=_decide_request,
        new_url="sidewalks:waiver_request",
    )


MATTERS = (
    _waiver_matter(Clause.SIDEWALK_WAIVER, "Sidewalk width and thickness waivers (§ 303-3D(8)(c))", "width_thickness"),
    _waiver_matter(
        Clause.COLD_POUR_WAIVER, "Cold-weather pour waivers for emergency replacements (§ 303-3D(9))", "cold_weather"
    ),
    Matter(
        clause=Clause.SIDEWALK_ORDER,
        title="Sidewalk orders to adopt (§ 303-3B(3), Wis. Stat. § 66.0907)",
        model="sidewalks.SidewalkOrder",
        waiting=_orders_waiting,
        facts=_order_facts,
        decide=_decide_order,
    ),
)


def load_demo(*, clerk) -> None:
    """Demo data (sidewalks.demo): a width and thickness waiver waiting on the Board queue. Safe to load twice."""
    from permits.models import Parcel
    from sidewalks import services
    from sidewalks.models import WaiverRequest

    parcel = Parcel.objects.filter(land_use=Parcel.LandUse.COMMERCIAL).order_by("tax_key").first()
    if parcel is not None and not WaiverRequest.objects.filter(parcel=parcel).exists():
        services.request_board_waiver(
            kind="width_thickness",
            parcel=parcel,
            reason="A historic storefront: the five-foot walk would take the front steps (§ 303-3D(8)(c))",
            by=clerk,
        )
