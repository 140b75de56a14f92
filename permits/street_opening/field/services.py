"""Verbs of the field half of a street opening: inspections, the permittee's notices, pavement restoration,
completion and the one-year guarantee, defect notices, the Village's repair and its bill.

Views, the admin, tasks and the demo loader all call these. Each reads the clock once and passes `today`/`now`
down to the pure rules in field_rules.py; each runs in a transaction and stores nothing when a rule is broken.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, F, Max, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.functional import cached_property
from simple_history.utils import bulk_create_with_history

from permits import jobs, services, workflow
from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.errors import RulesBroken
from permits.models import Document, Permit, PermitKind, Status
from permits.recording import stamp_once
from permits.roles import Role, has_role, is_village_staff
from permits.street_opening import rules as ordinance
from permits.street_opening.field import rules
from permits.street_opening.field.models import (
    CoveringHold,
    DefectNotice,
    Guarantee,
    Inspection,
    PavementRestoration,
    PermitteeNotice,
    VillageExpense,
)
from permits.street_opening.models import StreetOpening

INSPECTORS = (Role.DPW_INSPECTOR, Role.DPW_DIRECTOR)  # DPW inspectors log inspections from a phone
# § 303-4H(2): the notice of faulty work and the Village's repair of an uncorrected defect are the DPW's. The
# § 303-4H(4) finding is the Board's alone (record_defect_finding): no designee, no role finds it.
DEFECT_RECORDERS = (Role.DPW_DIRECTOR,)
CORRECTION_CHECKERS = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)
NOTICE_RECEIVERS = (Role.CLERK, Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)  # may record a notice received by phone
INSPECTABLE = (Status.ISSUED, Status.ACTIVE, Status.COMPLETED)
WORK_UNDER_WAY = (Status.APPROVED, Status.ISSUED, Status.ACTIVE)

MEASURED_FIELDS = {
    "backfill": ["largest_stone_inches", "cinders_or_ashes", "refuse", "organic_matter", "frozen_lumps"],
    "compaction": ["lift_inches", "compaction_percent", "mechanical", "flooded"],
    "pavement": [
        "surface",
        "existing_pavement_inches",
        "three_inch_stone_inches",
        "three_quarter_stone_inches",
        "depth_inches",
        "base_layer_inches",
        "top_layer_inches",
        "straightedge_deviation_inches",
        "calcium_chloride",
        "poured_on",
        "opened_to_traffic_on",
    ],
    "trench": ["excavated_ahead_feet", "unfilled_feet", "special_permission"],  # spoil_blocks_gutter: in failures
    "underground_depth": ["cover_feet"],  # covered_before_check is kept in the failures it causes
    "final": ["surface_restored"],
    "protection": ["barriers", "signs", "warning_lights", "open_flame"],
    "saw_cut": [
        "surface",
        "saw_cut_straight",
        "final_saw_cut",
        "damaged_not_recut",
        "saw_cut_rectangular",
        "saw_cut_aligned",
        "vertical_face",
    ],
}


def detail_of(permit: Permit):
    """The application's details (the other half's StreetOpening), or None for a permit without them."""
    try:
        return permit.street_opening
    except StreetOpening.DoesNotExist:  # a bare permit (tests, or an office-made record)
        return None


def is_emergency(permit: Permit) -> bool:
    detail = detail_of(permit)
    return bool(detail and detail.emergency)


def may_act_as_permittee(user, permit: Permit) -> bool:
    return workflow.is_applicant_side(user, permit)


# --- Inspections -----------------------------------------------------------------------------------------------


def with_application_defaults(permit: Permit, kind: str, values: dict) -> dict:
    """A pavement inspection takes the surface and existing depth from the application unless measured."""
    values = dict(values)
    detail = detail_of(permit)
    if kind in ("pavement", "saw_cut") and detail is not None:
        values["surface"] = values.get("surface") or detail.surface
        if values.get("existing_pavement_inches") is None:
            values["existing_pavement_inches"] = detail.existing_pavement_inches
    return values


def evaluate_inspection(permit: Permit, kind: str, values: dict) -> list[rules.Violation]:
    """The rules of `kind` applied to the measured values (forms call this to show the same messages)."""
    return rules.inspection_violations(kind, with_application_defaults(permit, kind, values))


def log_inspection(
    *,
    permit: Permit,
    kind: str,
    by,
    values: dict,
    notes: str = "",
    photo=None,
    at: datetime | None = None,
    today: date | None = None,
) -> Inspection:
    """Log what an inspector measured, pass or fail with the failing sections. A failed compaction test adds the
    retest fee (§ 303-5E(5)) and keeps the permit from being completed until a later test passes."""
    require_role(by, *INSPECTORS, action="log inspections (DPW inspectors and the Director of Public Works only)")
    if kind not in MEASURED_FIELDS:
        raise ValueError(f"Unknown inspection kind: {kind}")
    if permit.kind != PermitKind.STREET_OPENING or permit.status not in INSPECTABLE:
        raise RulesBroken(
            [
                rules.Violation(
                    None,
                    "not_inspectable",
                    "§ 303-4A",
                    f"{permit.number} is {permit.get_status_display().lower()}: only issued street opening work is "
                    "inspected "
                    "(§ 303-4A).",
                )
            ]
        )
    if kind in COVERING_KINDS:
        require_not_held_for_inspection(permit, f"log a {Inspection.Kind(kind).label.lower()} inspection")
    now = timezone.now()
    at = at or now
    today = today or timezone.localdate(now)
    values = with_application_defaults(permit, kind, values)
    violations = rules.inspection_violations(kind, values)
    passed = not violations
    measured = {field: values.get(field) for field in MEASURED_FIELDS[kind]}
    if kind in ("pavement", "saw_cut"):
        measured["surface"] = measured["surface"] or ""
    with transaction.atomic():
        photo_doc = None
        if photo is not None:
            photo_doc = services.upload_document(permit=permit, kind=Document.Kind.PHOTO, upload=photo, by=by)
        inspection = Inspection.objects.create(
            permit=permit,
            kind=kind,
            inspector=by,
            at=at,
            result=Inspection.Result.PASS if passed else Inspection.Result.FAIL,
            failures=[v.as_dict() for v in violations],
            notes=notes.strip(),
            photo=photo_doc,
            **measured,
        )
        label = Inspection.Kind(kind).label
        citations = ", ".join(sorted({v.citation for v in violations}))
        services.record_event(
            permit,
            by=by,
            reason=f"Inspection: {label}: {'passed' if passed else 'failed (' + citations + ')'}"
            + (f". {notes.strip()}" if notes.strip() else ""),
        )
        if rules.retest_is_charged(kind=kind, passed=passed):
            services.add_fee(
                permit,
                fee_code=rules.RETEST_FEE_CODE,
                by=by,
                today=today,
                reason="Compaction test failed: the backfill must be recompacted and retested at the permittee's "
                "cost (§ 303-5E(5))",
            )
            Inspection.objects.filter(pk=inspection.pk).update(retest_fee_charged=True)
            inspection.retest_fee_charged = True
        if kind == Inspection.Kind.UNDERGROUND_DEPTH:
            _release_covering_holds(permit, inspection, by=by, now=now)
        if permit.status == Status.ISSUED:
            # An inspection in the field is evidence the work is under way.
            workflow.transition(permit, Status.ACTIVE, by=by, today=today, reason="Work under way: inspected on site")
        if not passed:
            services.send_notice(
                permit,
                to=permit.applicant.email,
                template="field_inspection_failed",
                context={"permit": permit, "inspection": inspection, "violations": violations},
            )
    return inspection


def compaction_failure_open(permit: Permit) -> bool:
    """§ 303-5E(5): whether the latest compaction test of the permit failed."""
    results = [
        (at, result == Inspection.Result.PASS)
        for at, result in permit.inspections.filter(kind=Inspection.Kind.COMPACTION).values_list("at", "result")
    ]
    return rules.compaction_failure_open(results)


def permits_to_inspect(*, today: date) -> QuerySet[Permit]:
    """The inspector's list: street openings with work under way, those with work or backfilling announced for
    today first, then by number. One query for the rows, whatever their number."""
    announced_today = PermitteeNotice.objects.filter(
        permit=OuterRef("pk"),
        planned_work_at__date=today,
    )
    compactions = Inspection.objects.filter(permit=OuterRef("pk"), kind=Inspection.Kind.COMPACTION)
    return (
        Permit.objects.filter(kind=PermitKind.STREET_OPENING, status__in=(Status.ISSUED, Status.ACTIVE))
        .select_related("street", "organization", "applicant")
        .annotate(
            work_today=Exists(announced_today),
            last_inspected_at=Max("inspections__at"),
            latest_compaction=compactions.order_by("-at", "-pk").values("result")[:1],
            # § 303-4H(3): kept on the list until the DPW confirms the requested completion
            completion_requested_at=F("street_opening__completion_requested_at"),
            opening_lapsed_on=F("street_opening__opening_lapsed_on"),
        )
        .order_by("-work_today", F("completion_requested_at").asc(nulls_last=True), "number")
    )


class InspectionQueue:
    """The inspector's list (permits_to_inspect's rows and order) for a paginator, without sorting every open street
    opening at each request (a sort that grows with every open permit). The order has three parts: work announced for
    today, then completion requested (oldest first), then the rest by number. The first two are few and read whole;
    the third is read a page at a time in number order (a partial index on PostgreSQL). Only the page's rows get the
    annotations. A constant number of queries per page."""

    OPEN = (Status.ISSUED, Status.ACTIVE)

    def __init__(self, *, today: date, count_at_most: int | None = None):
        self.today = today
        # A page-capped list (permits.paging) needs one row past its cap, not a count of every open street opening.
        self.count_at_most = count_at_most

    def _open(self) -> QuerySet[Permit]:
        return Permit.objects.filter(kind=PermitKind.STREET_OPENING, status__in=self.OPEN)

    @cached_property
    def _head(self) -> list[int]:
        start = timezone.make_aware(datetime.combine(self.today, datetime.min.time()))
        today_ids = set(
            PermitteeNotice.objects.filter(
                planned_work_at__gte=start, planned_work_at__lt=start + timedelta(days=1)
            ).values_list("permit_id", flat=True)
        )
        # the ids first (a partial index holds the few requested), so the open permits are read by primary key
        requested = set(
            StreetOpening.objects.filter(completion_requested_at__isnull=False).values_list("permit_id", flat=True)
        )
        rows = (
            self._open()
            .filter(pk__in=today_ids | requested)
            .annotate(requested_at=F("street_opening__completion_requested_at"))
            .values_list("pk", "requested_at", "number")
        )
        # -work_today, completion requested (nulls last), number: as permits_to_inspect orders them
        ordered = sorted(rows, key=lambda r: (r[0] not in today_ids, r[1] is None, r[1] or start, r[2]))
        return [pk for pk, _at, _number in ordered]

    def _rest(self) -> QuerySet[Permit]:
        return self._open().exclude(pk__in=self._head).order_by("number")

    def count(self) -> int:
        if self.count_at_most is None:
            return self._open().count()
        return self._open().order_by("number").values("pk")[: self.count_at_most].count()  # the partial index

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window):
        if not isinstance(window, slice):
            return self[window : window + 1][0]
        start, stop = window.start or 0, window.stop
        head = self._head
        ids = head[start:stop]
        wanted = (stop - start) - len(ids)
        if wanted > 0:
            offset = max(0, start - len(head))
            ids += list(self._rest().values_list("pk", flat=True)[offset : offset + wanted])
        rows = {p.pk: p for p in permits_to_inspect(today=self.today).filter(pk__in=ids)}
        return [rows[pk] for pk in ids if pk in rows]


# --- § 303-1C(4): inspection before covering ------------------------------------------------------------------

# What records the construction covered: the backfill, its compaction, the pavement over it and the restored surface.
COVERING_KINDS = (
    Inspection.Kind.BACKFILL,
    Inspection.Kind.COMPACTION,
    Inspection.Kind.PAVEMENT,
    Inspection.Kind.FINAL,
)
COVERING_HOLDERS = (Role.DPW_DIRECTOR,)  # § 303-1C(4): "on request of the Director of Public Works"


def open_covering_hold(permit: Permit) -> CoveringHold | None:
    return CoveringHold.objects.filter(permit=permit, released_at__isnull=True).first()


def covering_hold_violations(permit: Permit) -> list[rules.Violation]:
    """§ 303-1C(4): covering is refused while the Director's request to check the construction is open."""
    return rules.covering_violations(inspection_requested=open_covering_hold(permit) is not None, inspected=False)


def require_not_held(permit: Permit) -> None:
    errors = covering_hold_violations(permit)
    if errors:
        raise RulesBroken(errors)


def require_not_held_for_inspection(permit: Permit, what: str) -> None:
    """An inspection of the covering waits for the underground check (§ 303-1C(4)); the message says so."""
    if open_covering_hold(permit) is not None:
        raise RulesBroken(
            [
                rules.Violation(
                    "kind",
                    "covered_before_inspection",
                    "§ 303-1C(4)",
                    f"The Director of Public Works asked to check the underground construction before it is covered: "
                    f"log the underground inspection first, then {what} (§ 303-1C(4)).",
                )
            ]
        )


def request_inspection_before_covering(*, permit: Permit, by, note: str = "") -> CoveringHold:
    """§ 303-1C(4): "on request of the Director of Public Works, the utility company must provide opportunity for him
    to check any construction before it may be covered". The Director asks; the permittee is told, and nothing that
    covers the construction is recorded until the DPW's underground inspection is logged. Asking again while a request
    is open returns it."""
    require_role(
        by, *COVERING_HOLDERS, action="ask to check construction before it is covered (Director of Public Works)"
    )
    errors = []
    detail = detail_of(permit)
    if permit.kind != PermitKind.STREET_OPENING or permit.status not in WORK_UNDER_WAY:
        errors.append(
            rules.Violation(
                None,
                "not_under_way",
                "§ 303-1C(4)",
                f"{permit.number} is {permit.get_status_display().lower()}: the Director asks to check construction "
                "while the work is under way (§ 303-1C(4)).",
            )
        )
    if detail is not None and not detail.underground_utility:
        errors.append(
            rules.Violation(
                None,
                "not_underground",
                "§ 303-1C(4)",
                f"{permit.number} is not underground utility construction: § 303-1C(4) is for underground "
                "construction (§ 303-1C(4)).",
            )
        )
    if errors:
        raise RulesBroken(errors)
    held = open_covering_hold(permit)
    if held is not None:
        return held
    with transaction.atomic():
        hold = CoveringHold.objects.create(
            permit=permit, requested_by=by, requested_at=timezone.now(), note=note.strip()
        )
        services.record_event(
            permit,
            by=by,
            reason="The Director of Public Works asked to check the underground construction before it is covered: "
            "do not backfill or restore until the DPW has inspected it (§ 303-1C(4))"
            + (f". {note.strip()}" if note.strip() else ""),
        )
        services.send_notice(
            permit,
            to=permit.applicant.email,
            template="field_covering_hold",
            context={"permit": permit, "hold": hold},
        )
    return hold


def may_hold_covering(user, permit: Permit) -> bool:
    """Whether the page offers the Director's § 303-1C(4) request (request_inspection_before_covering decides)."""
    detail = detail_of(permit)
    return (
        has_role(user, *COVERING_HOLDERS)
        and permit.status in WORK_UNDER_WAY
        and (detail is None or detail.underground_utility)
        and open_covering_hold(permit) is None
    )


def _release_covering_holds(permit: Permit, inspection: Inspection, *, by, now) -> None:
    """§ 303-1C(4): the DPW's underground inspection is the check asked for: the covering may follow (a failure it
    found is on the inspection)."""
    if CoveringHold.objects.filter(permit=permit, released_at__isnull=True).update(
        released_by=inspection, released_at=now
    ):
        services.record_event(
            permit, by=by, reason="Underground construction checked: it may now be covered (§ 303-1C(4))"
        )


# --- Notices the permittee gives -------------------------------------------------------------------------------


def _pending(permit: Permit, kind: str) -> PermitteeNotice | None:
    return permit.permittee_notices.filter(kind=kind, given_at__isnull=True).first()


def schedule_notice_reminders(
    *,
    permit: Permit,
    by,
    work_starts_at: datetime,
    outage_at: datetime | None = None,
    backfill_at: datetime | None = None,
) -> list[PermitteeNotice]:
    """Record when each step is planned and the notices it needs, each with a reminder a day before it is due.
    Planning again moves the pending notices (one pending notice per kind)."""
    if not (may_act_as_permittee(by, permit) or has_role(by, *NOTICE_RECEIVERS)):
        raise PermissionDenied("Only the permittee plans the work and its notices.")
    detail = detail_of(permit)
    kinds = rules.required_notices(
        utility_interruption=bool(detail and detail.utility_interruption) or outage_at is not None,
        emergency=bool(detail and detail.emergency),
    )
    planned = {
        "dpw_excavation": work_starts_at,
        "affected_parties": work_starts_at,
        "utility_outage": outage_at or work_starts_at,
        "dpw_backfill": backfill_at,
    }
    out = []
    with transaction.atomic():
        for kind in kinds:
            at = planned[kind]
            if at is None:
                continue
            at = timezone.localtime(at)
            fields = {
                "planned_work_at": at,
                "due_by": rules.notice_due_by(kind, at),
                "reminder_at": rules.notice_reminder_at(kind, at),
            }
            notice = _pending(permit, kind)
            if notice is None:
                notice = PermitteeNotice.objects.create(permit=permit, kind=kind, **fields)
            else:
                PermitteeNotice.objects.filter(pk=notice.pk).update(reminder_sent_at=None, **fields)
                notice.refresh_from_db()
            out.append(notice)
        services.record_event(
            permit,
            by=by,
            reason=f"Work planned to begin {timezone.localtime(work_starts_at):%B %-d, %Y at %-I:%M %p}; "
            "notices due: " + ", ".join(PermitteeNotice.Kind(k).label for k in kinds if planned[k]),
        )
    return out


def record_permittee_notice(
    *,
    permit: Permit,
    by,
    kind: str,
    planned_work_at: datetime,
    given_to: str,
    method: str,
    given_at: datetime | None = None,
) -> PermitteeNotice:
    """The permittee records a notice it gave: to whom, how, for which planned work; on time or late per its rule."""
    if not (may_act_as_permittee(by, permit) or has_role(by, *NOTICE_RECEIVERS)):
        raise PermissionDenied("Only the permittee (or the Village office that received it) records a notice.")
    now = timezone.now()
    given_at = given_at or now
    errors = []
    if kind not in rules.NOTICE_RULES:
        errors.append(rules.Violation("kind", "invalid", "§ 303-5F", "Choose which notice you gave (§ 303-5F)."))
    if not given_to.strip():
        citation = rules.NOTICE_RULES[kind].citation if kind in rules.NOTICE_RULES else "§ 303-5F"
        errors.append(rules.Violation("given_to", "required", citation, f"Say whom you notified ({citation})."))
    if given_at > now:
        errors.append(
            rules.Violation(
                "given_at",
                "future",
                "§ 303-5F",
                "A notice is recorded once given: the time given cannot be in the future (§ 303-5F).",
            )
        )
    if kind == PermitteeNotice.Kind.DPW_EXCAVATION:
        # § 303-4D: no new excavation once the right to open has ended (restoration notices still come)
        from permits.street_opening import validity

        detail = detail_of(permit)
        errors += validity.opening_lapsed_violations(
            opening_lapsed_on=detail.opening_lapsed_on if detail else None,
            today=timezone.localtime(planned_work_at).date(),
        )
    if method not in PermitteeNotice.Method.values:
        errors.append(rules.Violation("method", "invalid", "§ 303-5F", "Say how the notice was given (§ 303-5F)."))
    if permit.status not in WORK_UNDER_WAY + (Status.COMPLETED,):
        errors.append(
            rules.Violation(
                None,
                "not_open",
                "§ 303-4A",
                f"{permit.number} is {permit.get_status_display().lower()}: notices are for approved work (§ 303-4A).",
            )
        )
    if errors:
        raise RulesBroken(errors)
    planned_work_at = timezone.localtime(planned_work_at)
    timeliness = rules.notice_timeliness(
        kind, given_at=given_at, planned_at=planned_work_at, emergency=is_emergency(permit)
    )
    fields = {
        "planned_work_at": planned_work_at,
        "due_by": rules.notice_due_by(kind, planned_work_at),
        "given_at": given_at,
        "given_to": given_to.strip(),
        "method": method,
        "timeliness": timeliness,
        "recorded_by": by,
    }
    with transaction.atomic():
        notice = _pending(permit, kind)
        if notice is None:
            notice = PermitteeNotice.objects.create(permit=permit, kind=kind, **fields)
        else:
            PermitteeNotice.objects.filter(pk=notice.pk).update(**fields)
            notice.refresh_from_db()
        rule = rules.NOTICE_RULES[kind]
        text = f"Notice given: {rule.label} ({rule.citation}), to {notice.given_to}: "
        f"{notice.get_timeliness_display().lower()}"
        if timeliness == rules.LATE:
            text += ". " + rules.notice_late_message(kind, timezone.localtime(notice.due_by))
        services.record_event(permit, by=by, reason=text)
    return notice


def send_due_notice_reminders(*, now: datetime) -> tuple[int, int]:
    """Remind the permittee of each notice still to give once its reminder time has come. Returns (due, sent);
    a conditional update makes a second run send nothing. Set-based: per chunk, the rows still unsent
    are locked and marked by one UPDATE, then their reminders inserted in one statement."""
    due = list(
        PermitteeNotice.objects.filter(
            given_at__isnull=True,
            reminder_sent_at__isnull=True,
            reminder_at__lte=now,
            permit__status__in=WORK_UNDER_WAY,
        )
        .select_related("permit", "permit__applicant", "permit__street")
        .order_by("pk")
    )
    sent = 0
    for chunk in jobs.chunked(due):
        with transaction.atomic():
            unsent = stamp_once(PermitteeNotice, chunk, field="reminder_sent_at", value=now)
            services.send_notices(
                [
                    (
                        notice.permit,
                        notice.permit.applicant.email,
                        "field_notice_reminder",
                        {
                            "permit": notice.permit,
                            "notice": notice,
                            "rule": rules.NOTICE_RULES[notice.kind],
                            "due_by": timezone.localtime(notice.due_by),
                            "planned": timezone.localtime(notice.planned_work_at),
                        },
                    )
                    for notice in chunk
                    if notice.pk in unsent
                ]
            )
        sent += len(unsent)
    return len(due), sent


# --- Pavement restoration (§ 303-5G(4)) ------------------------------------------------------------------------


def _needs_pavement(permit: Permit) -> bool:
    detail = detail_of(permit)
    return _surface_needs_pavement(detail is not None, detail.surface if detail else None)


def _surface_needs_pavement(has_detail: bool, surface: str | None) -> bool:
    """§ 303-5G(4): a paved surface is restored with pavement (a permit without its street-opening detail too)."""
    return not has_detail or surface in ordinance.PAVED_SURFACES


def restoration_for(permit: Permit) -> PavementRestoration:
    """The permit's restoration record, created with its § 303-5G(4) due date on first use."""
    restoration = PavementRestoration.objects.filter(permit=permit).first()
    if restoration is not None:
        return restoration
    permit_date = rules.permit_date_of(issued_on=permit.issued_on, approved_on=permit.approved_on)
    if permit_date is None:
        raise RulesBroken(
            [
                rules.Violation(
                    None,
                    "not_issued",
                    "§ 303-5G(4)",
                    "The permit has no date yet: pavement is due 60 days after it (§ 303-5G(4)).",
                )
            ]
        )
    restoration, _ = PavementRestoration.objects.get_or_create(
        permit=permit, defaults={"permanent_due_on": rules.permanent_pavement_due(permit_date=permit_date)}
    )
    return restoration


def _require_permittee_or_dpw(by, permit: Permit, what: str) -> None:
    if not (may_act_as_permittee(by, permit) or has_role(by, *INSPECTORS)):
        raise PermissionDenied(f"Only the permittee or the DPW may {what}.")


def record_temporary_pavement(*, permit: Permit, by, placed_on: date, depth_inches: Decimal) -> PavementRestoration:
    """§ 303-5G(4): a winter emergency's temporary cold-mix surface (3 inches or more); the permanent pavement is
    then due by the following June 1."""
    _require_permittee_or_dpw(by, permit, "record the temporary surface")
    require_not_held(permit)
    errors = rules.temporary_surface_violations(
        depth_inches=depth_inches, emergency=is_emergency(permit), placed_on=placed_on
    )
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        restoration = restoration_for(permit)
        due = rules.permanent_pavement_due(permit_date=permit.issued_on or placed_on, temporary_placed_on=placed_on)
        PavementRestoration.objects.filter(pk=restoration.pk).update(
            temporary_placed_on=placed_on, temporary_depth_inches=depth_inches, permanent_due_on=due
        )
        restoration.refresh_from_db()
        services.record_event(
            permit,
            by=by,
            reason=f"Temporary cold-mix surface of {depth_inches} inches placed "
            f"{placed_on:%B %-d, %Y}; permanent pavement due by {due:%B %-d, %Y} (§ 303-5G(4))",
        )
    return restoration


def record_permanent_pavement(*, permit: Permit, by, completed_on: date) -> PavementRestoration:
    """§ 303-5G(4): the permanent pavement is in."""
    _require_permittee_or_dpw(by, permit, "record the permanent pavement")
    require_not_held(permit)
    with transaction.atomic():
        restoration = restoration_for(permit)
        PavementRestoration.objects.filter(pk=restoration.pk).update(permanent_completed_on=completed_on)
        restoration.refresh_from_db()
        late = rules.is_pavement_overdue(due_on=restoration.permanent_due_on, completed_on=None, today=completed_on)
        services.record_event(
            permit,
            by=by,
            reason=f"Permanent pavement completed {completed_on:%B %-d, %Y}"
            + (f", after its due date {restoration.permanent_due_on:%B %-d, %Y}" if late else "")
            + " (§ 303-5G(4))",
        )
    return restoration


def completion_blockers(permit: Permit) -> list[rules.Violation]:
    errors = covering_hold_violations(permit)  # § 303-1C(4): not complete while the check before covering waits
    so = getattr(permit, "street_opening", None)
    if so is not None:
        for v in ordinance.emergency_underground_violations(
            emergency=so.emergency,
            underground_utility=so.underground_utility,
            work_approved=so.emergency_work_approved_at is not None,
        ):  # § 303-1C(7): the DPW's after-the-fact approval comes before completion
            errors.append(rules.Violation(v.field, v.code, v.citation, v.message))
    if compaction_failure_open(permit):
        errors.append(
            rules.Violation(
                None,
                "compaction_failed",
                "§ 303-5E(5)",
                "The last compaction test failed: recompact and pass a retest before reporting completion (§ "
                "303-5E(5)).",
            )
        )
    restoration = PavementRestoration.objects.filter(permit=permit).first()
    if restoration and restoration.is_winter_patch and restoration.permanent_completed_on is None:
        errors.append(
            rules.Violation(
                None,
                "temporary_surface",
                "§ 303-5G(4)",
                f"The temporary winter surface must be replaced with permanent pavement (by "
                f"{restoration.permanent_due_on:%B %-d, %Y}) before the work is complete (§ 303-5G(4)).",
            )
        )
    return errors


def report_completion(*, permit: Permit, by, today: date | None = None):
    """§ 303-4H(3): the permittee reports the work and the restoration complete, which is a request: the DPW confirms
    it after a passed final inspection (permits.street_opening.lifecycle.confirm_completion), and the one-year
    guarantee starts on the confirmation date."""
    from permits.street_opening import lifecycle

    return lifecycle.request_completion(permit=permit, by=by, today=today)


# --- Guarantee, defects, the Village's repair -----------------------------------------------------------------


def _completed_on(permit: Permit) -> date | None:
    guarantee = Guarantee.objects.filter(permit=permit).first()
    return guarantee.completed_on if guarantee else permit.completed_on


def _work_under_way(permit: Permit) -> bool:
    return permit.status in (Status.ISSUED, Status.ACTIVE) and _completed_on(permit) is None


def _serve_defect_notice(*, permit: Permit, by, now, citation: str, **fields) -> DefectNotice:
    """Store the notice, note it on the timeline and email it to the addressee (and the permittee)."""
    with transaction.atomic():
        notice = DefectNotice.objects.create(permit=permit, recorded_by=by, recorded_at=now, **fields)
        services.record_event(
            permit,
            by=by,
            reason=f"Defect notice to {notice.addressee_name}: {notice.defect}; "
            f"correct by {notice.deadline:%B %-d, %Y}, estimated ${notice.estimated_cost} ({citation})",
        )
        context = {"permit": permit, "notice": notice, "citation": citation}
        services.send_notice(permit, to=notice.addressee_email, template="field_defect_notice", context=context)
        if permit.applicant.email and permit.applicant.email != notice.addressee_email:
            services.send_notice(permit, to=permit.applicant.email, template="field_defect_notice", context=context)
    return notice


def _permittee_name(permit: Permit) -> str:
    if permit.organization:
        return permit.organization.name
    return permit.applicant.get_full_name() or permit.applicant.email


def record_faulty_work_notice(
    *,
    permit: Permit,
    by,
    defect: str,
    work_to_be_done: str,
    estimated_cost,
    deadline: date | None,
    served_on: date | None = None,
) -> DefectNotice:
    """§ 303-4H(2): the DPW's written notice to the permittee of faulty work or materials while the work is under way,
    with the fault, the work to be done, its cost and the deadline; emailed. Not corrected by the deadline: the
    Village repairs and bills, and the right to permits is revoked for a year (flag_defects_past_deadline)."""
    require_role(by, *DEFECT_RECORDERS, action="give notice of faulty work (Director of Public Works, § 303-4H(2))")
    now = timezone.now()
    served_on = served_on or timezone.localdate(now)
    errors = rules.faulty_work_notice_violations(
        work_under_way=_work_under_way(permit),
        found_on=served_on,
        defect=defect,
        work_to_be_done=work_to_be_done,
        estimated_cost=estimated_cost,
        deadline=deadline,
    )
    if errors:
        raise RulesBroken(errors)
    return _serve_defect_notice(
        permit=permit,
        by=by,
        now=now,
        citation="§ 303-4H(2)",
        kind=DefectNotice.Kind.FAULTY_WORK,
        defect=defect.strip(),
        work_to_be_done=work_to_be_done.strip(),
        estimated_cost=Decimal(estimated_cost),
        deadline=deadline,
        addressed_to=DefectNotice.Addressee.PERMITTEE,
        addressee_name=_permittee_name(permit),
        addressee_email=permit.applicant.email,
        served_on=served_on,
    )


def finding_errors(finding, *, permit: Permit, on: date) -> list[rules.Violation]:
    """§ 303-4H(4) "whenever the Village Board shall find": a motion that carried at a meeting held on or before `on`,
    on an agenda item under § 303-4H(4) about this very permit. No designee finds work defective."""
    errors = board.board_action_errors(finding, clause=Clause.DEFECT_FINDING, on=on, subject=permit)
    if finding is not None and finding.item.subject_id is None:
        errors.append(
            rules.Violation(
                "finding",
                "no_subject",
                "§ 303-4H(4)",
                f"The motion must be on an agenda item about {permit.number}: the Board finds this permit's work "
                "defective (§ 303-4H(4)).",
            )
        )
    return errors


def record_defect_finding(
    *,
    permit: Permit,
    by,
    finding,
    defect: str,
    work_to_be_done: str,
    estimated_cost,
    deadline: date | None,
    addressed_to: str,
    addressee_name: str = "",
    addressee_email: str = "",
    served_on: date | None = None,
) -> DefectNotice:
    """§ 303-4H(4): "whenever the Village Board shall find" completed work defective within one year of completion,
    "it shall give written notice" to the contractor or its surety, stating the defect, the work to be done, its cost
    and the time the Board deems necessary. Only the Board finds (its carried motion `finding` on this permit, held
    on or before the day served); the clerk records the notice from the minutes and it is emailed."""
    require_role(by, *board.BOARD_CLERKS, action="record the Village Board's finding of defective work (§ 303-4H(4))")
    now = timezone.now()
    served_on = served_on or timezone.localdate(now)
    errors = finding_errors(finding, permit=permit, on=served_on)
    errors += rules.defect_finding_violations(
        completed_on=_completed_on(permit),
        found_on=served_on,
        defect=defect,
        work_to_be_done=work_to_be_done,
        estimated_cost=estimated_cost,
        deadline=deadline,
        addressed_to=addressed_to,
    )
    if addressed_to == DefectNotice.Addressee.SURETY and not addressee_name.strip():
        errors.append(
            rules.Violation(
                "addressee_name", "required", "§ 303-4H(4)", "Name the surety the notice is addressed to (§ 303-4H(4))."
            )
        )
    if errors:
        raise RulesBroken(errors)
    if addressed_to == DefectNotice.Addressee.PERMITTEE:
        addressee_name = addressee_name.strip() or _permittee_name(permit)
        addressee_email = addressee_email.strip() or permit.applicant.email
    return _serve_defect_notice(
        permit=permit,
        by=by,
        now=now,
        citation="§ 303-4H(4)",
        kind=DefectNotice.Kind.BOARD_FINDING,
        defect=defect.strip(),
        work_to_be_done=work_to_be_done.strip(),
        estimated_cost=Decimal(estimated_cost),
        deadline=deadline,
        addressed_to=addressed_to,
        addressee_name=addressee_name.strip(),
        addressee_email=addressee_email.strip(),
        served_on=served_on,
        finding=finding,
    )


def defect_notice_kind(permit: Permit) -> str | None:
    """Which defect notice the permit can take now: the DPW's (§ 303-4H(2)) while the work is under way, the Board's
    (§ 303-4H(4)) in the guarantee year, none otherwise."""
    if _work_under_way(permit):
        return DefectNotice.Kind.FAULTY_WORK
    guarantee = Guarantee.objects.filter(permit=permit).first()
    if guarantee is not None and not guarantee.ended:
        return DefectNotice.Kind.BOARD_FINDING
    return None


def may_record_defect_notice(user, permit: Permit) -> bool:
    """The DPW Director gives the § 303-4H(2) notice; the clerk records the Board's § 303-4H(4) finding."""
    kind = defect_notice_kind(permit)
    if kind == DefectNotice.Kind.FAULTY_WORK:
        return has_role(user, *DEFECT_RECORDERS)
    if kind == DefectNotice.Kind.BOARD_FINDING:
        return has_role(user, *board.BOARD_CLERKS)
    return False


def record_correction(*, notice: DefectNotice, by, corrected_on: date | None = None) -> DefectNotice:
    """§ 303-4H(4): the DPW confirms the permittee (or surety) corrected the defect."""
    require_role(by, *CORRECTION_CHECKERS, action="confirm a correction (DPW)")
    corrected_on = corrected_on or timezone.localdate()
    if corrected_on < notice.served_on:
        raise RulesBroken(
            [
                rules.Violation(
                    "corrected_on",
                    "before_notice",
                    "§ 303-4H(4)",
                    "A correction cannot predate the notice (§ 303-4H(4)).",
                )
            ]
        )
    with transaction.atomic():
        if (
            DefectNotice.objects.filter(
                pk=notice.pk, corrected_on__isnull=True, village_repaired_on__isnull=True
            ).update(corrected_on=corrected_on)
            == 1
        ):
            late = corrected_on > notice.deadline
            services.record_event(
                notice.permit,
                by=by,
                reason=f"Defect corrected {corrected_on:%B %-d, %Y}"
                + (" (after the deadline)" if late else "")
                + " (§ 303-4H(4))",
            )
    notice.refresh_from_db()
    return notice


def flag_defects_past_deadline(*, today: date) -> tuple[int, int]:
    """§ 303-4H(2): a defect not corrected by its deadline: flag it, revoke the permittee's right to permits for one
    year and tell the DPW to have the Village repair it. Returns (considered, flagged); a second run flags nothing.
    Set-based: per chunk, the notices still unflagged are locked and flagged by one conditional UPDATE,
    then their events, the revocations (revoke_applicants) and the DPW's notices are inserted a statement each."""
    from permits.street_opening.services import revoke_applicants

    due = [
        pk
        for pk, deadline, corrected_on in DefectNotice.objects.filter(
            corrected_on__isnull=True,
            village_repaired_on__isnull=True,
            past_deadline_on__isnull=True,
            deadline__lt=today,
        )
        .order_by("pk")
        .values_list("pk", "deadline", "corrected_on")
        if rules.is_defect_past_deadline(deadline=deadline, corrected_on=corrected_on, today=today)
    ]
    flagged, dpw = 0, None
    for chunk in jobs.chunked(due, JOB_CHUNK):
        with transaction.atomic():
            rows = list(
                DefectNotice.objects.select_for_update(of=("self",))
                .filter(pk__in=chunk, past_deadline_on__isnull=True, corrected_on__isnull=True)
                .select_related("permit", "permit__applicant", "permit__organization")
                .order_by("pk")
            )
            DefectNotice.objects.filter(
                pk__in=[n.pk for n in rows], past_deadline_on__isnull=True, corrected_on__isnull=True
            ).update(past_deadline_on=today)
            reasons = [
                (
                    notice.permit,
                    f"Defect noticed {notice.served_on:%B %-d, %Y} not corrected by {notice.deadline:%B %-d, %Y}: "
                    "the Village repairs it and bills labor, materials and equipment plus 20% (§ 303-4H(2))",
                )
                for notice in rows
            ]
            services.record_events(reasons)
            # § 303-4H(2): the one-year revocation, through the application half's service (the one place
            # revocations are made, so the application rules see them).
            revoke_applicants(reasons, today=today)
            if rows and dpw is None:
                dpw = _dpw_emails()
            services.send_notices(
                [
                    (
                        notice.permit,
                        email,
                        "field_defect_past_deadline",
                        {"permit": notice.permit, "notice": notice},
                    )
                    for notice in rows
                    for email in dpw or []
                ]
            )
            flagged += len(rows)
    return len(due), flagged


def _dpw_emails() -> list[str]:
    User = get_user_model()
    return list(
        User.objects.filter(groups__name=Role.DPW_DIRECTOR, is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
        .distinct()
    )


def record_village_repair(
    *,
    notice: DefectNotice,
    by,
    repaired_on: date,
    labor,
    materials,
    equipment,
) -> DefectNotice:
    """§ 303-4H(2) (and § 303-1C(8) for a utility's surface): the Village repaired what was not corrected by the
    deadline and bills labor, materials and equipment plus 20% for administration, added to the permit's balance."""
    require_role(by, *DEFECT_RECORDERS, action="record the Village's repair (Director of Public Works, § 303-4H(2))")
    if not rules.is_defect_past_deadline(deadline=notice.deadline, corrected_on=notice.corrected_on, today=repaired_on):
        raise RulesBroken(
            [
                rules.Violation(
                    "repaired_on",
                    "not_past_deadline",
                    "§ 303-4H(2)",
                    f"The permittee has until {notice.deadline:%B %-d, %Y} to correct the defect; the Village "
                    "repairs only "
                    "what is not corrected by then (§ 303-4H(2)).",
                )
            ]
        )
    try:
        bill = rules.village_repair_bill(labor=labor, materials=materials, equipment=equipment)
    except ValueError as error:
        raise RulesBroken([rules.Violation("repair_labor", "negative", "§ 303-4H(2)", str(error))]) from None
    now = timezone.now()
    with transaction.atomic():
        if (
            DefectNotice.objects.filter(pk=notice.pk, billed_at__isnull=True).update(
                village_repaired_on=repaired_on,
                repair_labor=bill.labor,
                repair_materials=bill.materials,
                repair_equipment=bill.equipment,
                billed_at=now,
            )
            != 1
        ):
            notice.refresh_from_db()
            return notice  # already billed: nothing twice
        Permit.objects.filter(pk=notice.permit_id).update(fee_amount=F("fee_amount") + bill.total)
        notice.refresh_from_db()
        permit = notice.permit
        permit.refresh_from_db(fields=["fee_amount"])
        services.record_event(
            permit,
            by=by,
            reason=f"Village repair billed: labor ${bill.labor}, materials ${bill.materials}, equipment "
            f"${bill.equipment}, administration 20% ${bill.administration}; total ${bill.total} (§ 303-4H(2))",
        )
        services.send_notice(
            permit,
            to=notice.addressee_email or permit.applicant.email,
            template="field_village_repair_bill",
            context={"permit": permit, "notice": notice, "bill": bill},
        )
    return notice


# --- § 303-4F(2): actual Village expenses ------------------------------------------------------------------------

# The DPW, who does the Village's work on a street, and the Clerk-Treasurer, to whom permit fees are paid.
EXPENSE_BILLERS = (Role.DPW_DIRECTOR, Role.CLERK)
EXPENSE_BILLABLE = (Status.APPROVED, Status.ISSUED, Status.ACTIVE, Status.COMPLETED, Status.CLOSED, Status.EXPIRED)


def bill_village_expenses(
    *,
    permit: Permit,
    by,
    incurred_on: date,
    description: str,
    labor=Decimal("0"),
    equipment=Decimal("0"),
    materials=Decimal("0"),
    receipt=None,
    today: date | None = None,
) -> VillageExpense:
    """§ 303-4F(2): the permit fee is the Chapter 167 fee "plus actual Village expenses". The DPW or the clerk records
    what the Village spent on this opening (labor, equipment, materials, with the receipt or invoice for what was
    bought or hired); the total is added to the permit's fee, the permittee is emailed the bill, and the payment is
    made to the Clerk-Treasurer, who issues his receipt (permits.services.record_payment)."""
    require_role(by, *EXPENSE_BILLERS, action="bill the Village's expenses on a street opening (§ 303-4F(2))")
    today = today or timezone.localdate()
    errors = rules.village_expense_violations(
        labor=labor,
        equipment=equipment,
        materials=materials,
        description=description,
        incurred_on=incurred_on,
        today=today,
        has_receipt=receipt is not None,
    )
    if permit.kind != PermitKind.STREET_OPENING or permit.status not in EXPENSE_BILLABLE:
        errors.append(
            rules.Violation(
                None,
                "not_billable",
                "§ 303-4F(2)",
                f"{permit.number} is {permit.get_status_display().lower()}: Village expenses are billed on an approved "
                "street opening permit (§ 303-4F(2)).",
            )
        )
    if errors:
        raise RulesBroken(errors)
    amounts = {
        k: Decimal(str(v or 0)).quantize(rules.CENT)
        for k, v in (("labor", labor), ("equipment", equipment), ("materials", materials))
    }
    with transaction.atomic():
        document = None
        if receipt is not None:
            document = services.upload_document(permit=permit, kind=Document.Kind.OTHER, upload=receipt, by=by)
        expense = VillageExpense.objects.create(
            permit=permit,
            incurred_on=incurred_on,
            description=description.strip(),
            receipt=document,
            recorded_by=by,
            recorded_at=timezone.now(),
            **amounts,
        )
        Permit.objects.filter(pk=permit.pk).update(fee_amount=F("fee_amount") + expense.total)
        permit.refresh_from_db(fields=["fee_amount"])
        services.record_event(
            permit,
            by=by,
            reason=f"Village expenses billed: {expense.description}: labor ${expense.labor}, equipment "
            f"${expense.equipment}, materials ${expense.materials}; total ${expense.total} added to the permit fee "
            "(§ 303-4F(2))",
        )
        services.send_notice(
            permit,
            to=permit.applicant.email,
            template="field_village_expenses_bill",
            context={"permit": permit, "expense": expense},
        )
    return expense


# --- Scheduled work (called by tasks_field.py) ------------------------------------------------------------------


JOB_CHUNK = 1000  # rows per statement of the set-based jobs


def open_missing_restorations(*, today: date) -> int:
    """Create the § 303-5G(4) restoration record of every issued paved street opening that has none."""
    missing = (
        Permit.objects.filter(
            kind=PermitKind.STREET_OPENING,
            status__in=(Status.ISSUED, Status.ACTIVE, Status.COMPLETED),
            pavement_restoration__isnull=True,
        )
        .filter(Q(issued_on__isnull=False) | Q(approved_on__isnull=False))
        # What the due date and the surface need, as values: 12,000 permits and their details were 24,000 model
        # instances made and thrown away.
        .values_list("pk", "issued_on", "approved_on", "street_opening__pk", "street_opening__surface")
    )
    # Set-based (not statements per record): the records are made in memory and inserted a
    # chunk at a time; the one-to-one on permit keeps a record another run made meanwhile single.
    new = []
    for pk, issued_on, approved_on, detail_pk, surface in missing.iterator(chunk_size=JOB_CHUNK):
        if not _surface_needs_pavement(detail_pk is not None, surface):
            continue
        permit_date = rules.permit_date_of(issued_on=issued_on, approved_on=approved_on)
        new.append(
            PavementRestoration(permit_id=pk, permanent_due_on=rules.permanent_pavement_due(permit_date=permit_date))
        )
    created = 0
    for start in range(0, len(new), JOB_CHUNK):
        chunk = new[start : start + JOB_CHUNK]
        ids = [r.permit_id for r in chunk]
        with transaction.atomic():
            # The chunk's permits are locked, so a concurrent run waits, then finds their records made and makes
            # none. Then a plain bulk insert (its ids returned) and one insert of their history: four statements a
            # chunk (simple_history's ignore_conflicts path rebuilt a 1,000-term OR to find the rows: 15 s at 13,000).
            list(Permit.objects.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
            made = set(PavementRestoration.objects.filter(permit__in=ids).values_list("permit_id", flat=True))
            chunk = [r for r in chunk if r.permit_id not in made]
            bulk_create_with_history(chunk, PavementRestoration)
            created += len(chunk)
    return created


def _flag_overdue(qs, *, today: date, what: str) -> tuple[int, int]:
    """Set-based, a chunk at a time: the chunk's rows still unflagged are locked and flagged by one
    conditional UPDATE (a second run, or a concurrent one, finds them flagged and sends nothing), then their timeline
    events and notices are inserted in one statement each."""
    due = [
        pk
        for pk, due_on in qs.filter(
            permanent_completed_on__isnull=True, overdue=False, permanent_due_on__lt=today
        ).values_list("pk", "permanent_due_on")
        if rules.is_pavement_overdue(due_on=due_on, completed_on=None, today=today)
    ]
    flagged = 0
    for start in range(0, len(due), JOB_CHUNK):
        with transaction.atomic():
            rows = list(
                PavementRestoration.objects.select_for_update(of=("self",))
                .filter(pk__in=due[start : start + JOB_CHUNK], overdue=False)
                .select_related("permit", "permit__applicant", "permit__street")  # the notice names the street
                .only(  # what the event and the notice read (13,000 rows at 100,000 permits)
                    "permanent_due_on",
                    "permit__number",
                    "permit__location_description",
                    "permit__applicant__email",
                    "permit__street__name",
                )
            )
            PavementRestoration.objects.filter(pk__in=[r.pk for r in rows], overdue=False).update(
                overdue=True, overdue_flagged_on=today
            )
            services.record_events(
                [(r.permit, f"{what} overdue: due {r.permanent_due_on:%B %-d, %Y} (§ 303-5G(4))") for r in rows]
            )
            services.send_notices(
                [
                    (
                        r.permit,
                        r.permit.applicant.email,
                        "field_pavement_overdue",
                        # The due date written once here, not by the template's date filter (its translated day
                        # and month names would be a fifth of the job's time at scale).
                        {
                            "permit": r.permit,
                            "restoration": r,
                            "what": what,
                            "due_long": f"{r.permanent_due_on:%A, %B %-d, %Y}",
                            "due_short": f"{r.permanent_due_on:%b %-d, %Y}",
                        },
                    )
                    for r in rows
                ]
            )
            flagged += len(rows)
    return len(due), flagged


def flag_winter_patches_not_replaced(*, today: date) -> tuple[int, int]:
    """§ 303-5G(4): temporary winter surfaces not replaced by the following June 1 (flagged from June 2)."""
    return _flag_overdue(
        PavementRestoration.objects.filter(temporary_placed_on__isnull=False),
        today=today,
        what="Temporary winter surface not replaced by June 1",
    )


def flag_permanent_pavement_overdue(*, today: date) -> tuple[int, int]:
    """§ 303-5G(4): permanent pavement not in within 60 days of the permit date."""
    open_missing_restorations(today=today)
    return _flag_overdue(
        PavementRestoration.objects.filter(temporary_placed_on__isnull=True), today=today, what="Permanent pavement"
    )


def end_guarantees(*, today: date) -> tuple[int, int]:
    """§ 303-4H(3): guarantees end the day after the anniversary of completion; a completed permit with no open defect
    is then closed. Returns (considered, ended). Set-based: per chunk, the guarantees still running are
    locked and ended by one conditional UPDATE (a second run, or a concurrent one, finds them ended and does nothing),
    their timeline events inserted in one statement, and their completed permits with no open defect closed by
    transition_many (the same questions as transition(), read from annotations under the lock)."""
    from permits.street_opening.workflow import close_facts

    due = [
        pk
        for pk, completed_on in Guarantee.objects.filter(ended=False, ends_on__lt=today)
        .order_by("pk")
        .values_list("pk", "completed_on")
        if not rules.guarantee_in_force(completed_on=completed_on, today=today)
    ]
    ended = 0
    for chunk in jobs.chunked(due, JOB_CHUNK):
        with transaction.atomic():
            rows = list(
                Guarantee.objects.select_for_update(of=("self",))
                .filter(pk__in=chunk, ended=False)
                .select_related("permit")
                .only("ends_on", "permit__status")
                .order_by("pk")
            )
            Guarantee.objects.filter(pk__in=[g.pk for g in rows], ended=False).update(
                ended=True, ended_at=timezone.now()
            )
            services.record_events(
                [(g.permit, f"One-year guarantee ended {g.ends_on:%B %-d, %Y} (§ 303-4H(3))") for g in rows]
            )
            # A completed permit with no open defect is closed (checked again under the permits' lock).
            workflow.transition_many(
                [g.permit for g in rows if g.permit.status == Status.COMPLETED],
                Status.CLOSED,
                by=None,
                today=today,
                reason_for=lambda permit: "Guarantee year over with no open defect (§ 303-4H(3))",
                where=Q(status=Status.COMPLETED, so_defect_open=False),
                prepare=lambda permits: permits.annotate(**close_facts()),
                chunk_size=JOB_CHUNK,
            )
            ended += len(rows)
    return len(due), ended


def may_see_field_page(user, permit: Permit) -> bool:
    return is_village_staff(user) or may_act_as_permittee(user, permit)
