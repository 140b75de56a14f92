"""What street privilege permits bring to the Village Board (permits.board.matters): a bond waiver asked for
(§ 303-7B), the route of a building move (§ 303-7D(6)), a move asked to run day and night (§ 303-7D(4)), and a
sidewalk obstruction the adjoining owner must be told to remove (§ 303-7F). Each `decide` applies the Board's
recorded motion through the services, which check it with board_action_errors."""

from __future__ import annotations

from django.db.models import prefetch_related_objects

from permits.board.clauses import Clause
from permits.board.matters import Matter
from permits.models import Status
from permits.street_privilege import services
from permits.street_privilege.models import Purpose, SidewalkObstruction, StreetPrivilege

PENDING = (Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED)


def _pending():
    """The privileges whose permit the Board may still act on, with what the facts read of the permit."""
    return StreetPrivilege.objects.filter(permit__status__in=PENDING).select_related(
        "permit__applicant", "permit__street", "permit__organization"
    )


def waivers_waiting():
    return (
        _pending()
        .filter(
            bond_waiver_requested_at__isnull=False,
            bond_waiver_motion__isnull=True,
            bond_waiver_refused_motion__isnull=True,
        )
        .order_by("bond_waiver_requested_at", "pk")
    )


def routes_waiting():
    return (
        _pending()
        .filter(purpose=Purpose.MOVE_BUILDING, route_motion__isnull=True)
        .order_by("permit__submitted_at", "pk")
    )


def day_and_night_waiting():
    return (
        _pending()
        .filter(
            purpose=Purpose.MOVE_BUILDING,
            day_and_night_requested=True,
            day_and_night_motion__isnull=True,
        )
        .order_by("permit__submitted_at", "pk")
    )


def obstructions_waiting():
    return (
        SidewalkObstruction.objects.filter(status=SidewalkObstruction.Status.REPORTED)
        .select_related("parcel", "privilege__permit")
        .order_by("reported_at", "pk")
    )


def prepare_privileges(privileges: list[StreetPrivilege]) -> None:
    """The advisory recommendations the facts list, for every privilege listed, in one query."""
    prefetch_related_objects(privileges, "recommendations")


def privilege_facts(sp: StreetPrivilege) -> list[tuple[str, str]]:
    permit = sp.permit
    facts = [
        ("Permit", permit.number),
        ("Applicant", permit.organization.name if permit.organization else permit.applicant.get_full_name()),
        ("Purpose", sp.get_purpose_display()),
        ("Where", f"{permit.street}: {permit.location_description}"),
        ("Dates", f"{permit.start_date:%B %-d, %Y} to {permit.end_date:%B %-d, %Y}"),
        ("Bond set by the DPW Director", f"${sp.bond_amount:,.2f}" if sp.bond_amount else "not set yet"),
    ]
    if sp.is_move:
        facts += [
            ("Building", sp.building_description),
            ("Route proposed", sp.route_description),
            ("Overnight stops", sp.overnight_stops or "none given"),
            ("Day and night asked for", "yes" if sp.day_and_night_requested else "no"),
        ]
    for rec in sp.recommendations.all():
        facts.append(
            (
                f"{rec.get_office_display()} (advisory)",
                ("recommended" if rec.recommended else "not recommended")
                + (f"; conditions: {rec.conditions}" if rec.conditions else ""),
            )
        )
    return facts


def obstruction_facts(obstruction: SidewalkObstruction) -> list[tuple[str, str]]:
    return [
        ("Permit", obstruction.privilege.permit.number),
        ("Adjoining parcel", f"{obstruction.parcel.site_address} ({obstruction.parcel.tax_key})"),
        ("Owner of record", obstruction.parcel.owner_name),
        ("Obstruction", obstruction.description),
    ]


def _carried_or_kept(service, failed_field: str):
    """A carried motion applies `service` to the privilege's permit on the meeting's day; a failed one is kept on the
    privilege in `failed_field`, so the request leaves the Board's queue decided."""

    def decide(*, subject: StreetPrivilege, motion, by) -> None:
        if motion.carried:
            service(permit=subject.permit, motion=motion, by=by, today=motion.held_on)
        else:
            StreetPrivilege.objects.filter(pk=subject.pk).update(**{failed_field: motion})

    return decide


decide_waiver = _carried_or_kept(services.waive_bond, "bond_waiver_refused_motion")
decide_day_and_night = _carried_or_kept(services.order_day_and_night, "day_and_night_motion")


def decide_route(*, subject: StreetPrivilege, motion, by) -> None:
    # The motion's text is the route the Board prescribed (§ 303-7D(6)); a failed motion prescribes nothing.
    if motion.carried:
        services.prescribe_route(permit=subject.permit, motion=motion, route=motion.text, by=by, today=motion.held_on)


def decide_obstruction(*, subject: SidewalkObstruction, motion, by) -> None:
    if motion.carried:
        services.give_obstruction_notice(obstruction=subject, motion=motion, by=by, today=motion.held_on)


def _privilege_matter(clause: str, title: str, waiting, decide) -> Matter:
    """A matter of street privileges, listed with their facts and their advisory recommendations."""
    return Matter(
        clause=clause,
        title=title,
        model="permits.StreetPrivilege",
        waiting=waiting,
        facts=privilege_facts,
        prepare=prepare_privileges,
        decide=decide,
    )


MATTERS = (
    _privilege_matter(
        Clause.PRIVILEGE_BOND_WAIVER,
        "Street privilege bonds the applicant asks the Board to waive (§ 303-7B)",
        waivers_waiting,
        decide_waiver,
    ),
    _privilege_matter(
        Clause.MOVE_ROUTE,
        "Routes of building moves for the Board to prescribe (§ 303-7D(6))",
        routes_waiting,
        decide_route,
    ),
    _privilege_matter(
        Clause.MOVE_DAY_AND_NIGHT,
        "Building moves asked to continue day and night (§ 303-7D(4))",
        day_and_night_waiting,
        decide_day_and_night,
    ),
    Matter(
        clause=Clause.PRIVILEGE_OBSTRUCTION_NOTICE,
        title="Sidewalk obstructions the adjoining owner must be told to remove (§ 303-7F)",
        model="permits.SidewalkObstruction",
        waiting=obstructions_waiting,
        facts=obstruction_facts,
        decide=decide_obstruction,
    ),
)
