"""The verbs of a street opening's life after its application: the validity and what outlives it (§ 303-4D with
§ 303-5G), approvals held until their 30 days cover the work (§ 303-4D), completion requested by the permittee and
confirmed by the DPW (§ 303-1C(8), § 303-4F(1), § 303-4H(3)), and written renewal requests (§ 303-4E, § 303-5A).

Web views, the API, the admin, jobs and the shell call these; the rules are in permits.street_opening.validity, and
the ones that refuse a status change are also asked by permits.workflow.transition() (permits.street_opening.workflow),
so no path goes around them.
"""

from __future__ import annotations

from datetime import date

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from permits import jobs, services, workflow
from permits.access import require_role
from permits.errors import RulesBroken, Violation, errors_only
from permits.input_limits import require_within
from permits.models import Permit, PermitKind, Status
from permits.roles import Role
from permits.state import change_state
from permits.street_opening import rules as ordinance
from permits.street_opening import validity
from permits.street_opening.field import rules as field_rules
from permits.street_opening.field.models import Guarantee, Inspection, PavementRestoration
from permits.street_opening.models import Renewal, RenewalRequest, StreetOpening

APPROVERS = (Role.DPW_DIRECTOR,)  # § 303-1C(2): the DPW approves the location (and so holds the approval)
RENEWERS = (Role.CLERK, Role.DPW_DIRECTOR)  # § 303-4E: "the Village Clerk-Treasurer or Director of Public Works"
COMPLETION_CONFIRMERS = (Role.DPW_DIRECTOR, Role.DPW_INSPECTOR)  # § 303-1C(8): the DPW finds the surface restored
VALID_STATUSES = (Status.APPROVED, Status.ISSUED, Status.ACTIVE)
RENEWAL_FEE_CODE = "street_opening_renewal"


def _emails_of(*roles) -> list[str]:
    User = get_user_model()
    return list(
        User.objects.filter(groups__name__in=[r.value for r in roles], is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
        .distinct()
    )


def _notify(permit: Permit, emails, template: str, context: dict) -> None:
    for email in emails:
        services.send_notice(permit, to=email, template=template, context={"permit": permit, **context})


def _so(permit: Permit) -> StreetOpening:
    return StreetOpening.objects.get(permit_id=permit.pk)


# --- § 303-4D with § 303-5G: the nightly validity job ---------------------------------------------------------------


def was_opened(permit: Permit, so: StreetOpening | None) -> bool:
    """Whether the street was opened under the permit (validity.was_opened), read from the records; a permit read
    with opened_facts() carries the answers (a job asks many at no statement per permit)."""
    if hasattr(permit, "so_inspected"):
        inspected, restoration_recorded = permit.so_inspected, permit.so_restoration_recorded
    else:
        restoration = PavementRestoration.objects.filter(permit=permit).first()
        inspected = Inspection.objects.filter(permit=permit).exists()
        restoration_recorded = bool(
            restoration and (restoration.temporary_placed_on or restoration.permanent_completed_on)
        )
    return validity.was_opened(
        work_begun_on=so.work_begun_on if so else None,
        under_way=permit.status == Status.ACTIVE,
        inspected=inspected,
        restoration_recorded=restoration_recorded,
    )


def opened_facts() -> dict:
    """The annotations of a Permit queryset that was_opened() reads instead of two queries per permit."""
    return {
        "so_inspected": Exists(Inspection.objects.filter(permit=OuterRef("pk"))),
        "so_restoration_recorded": Exists(
            PavementRestoration.objects.filter(permit=OuterRef("pk")).filter(
                Q(temporary_placed_on__isnull=False) | Q(permanent_completed_on__isnull=False)
            )
        ),
    }


def _with_opened_facts(permits):
    return permits.select_related("applicant", "street_opening", "pavement_restoration").annotate(**opened_facts())


def end_lapsed_validity(*, today: date) -> tuple[int, int]:
    """§ 303-4D with § 303-5G: past its 30 days (and renewals), a permit whose street was never opened expires; one
    whose street was opened keeps its restoration duties, inspections, completion and guarantee, and only its right
    to open the street ends (recorded once, on the timeline, and told to the permittee). The system acts (by=None).
    Returns (permits considered, permits changed); a second run the same day changes nothing. Set-based:
    a few statements per chunk of permits, whatever their number."""
    lapsed = list(
        _with_opened_facts(
            Permit.objects.filter(kind=PermitKind.STREET_OPENING, status__in=VALID_STATUSES, expires_on__lt=today)
        ).order_by("pk")
    )
    to_expire, opening_lapsed = [], []
    for permit in lapsed:
        so = getattr(permit, "street_opening", None)
        outcome = validity.lapse_outcome(expires_on=permit.expires_on, today=today, opened=was_opened(permit, so))
        if outcome == "expire":
            to_expire.append(permit)
        elif outcome == "opening_lapsed" and so is not None:
            opening_lapsed.append(permit)
    done = sum(_record_openings_lapsed(chunk, today=today) for chunk in jobs.chunked(opening_lapsed))
    # transition_many asks the same questions as transition() (the § 303-5G blocker refuses a permit opened
    # meanwhile, read here from the annotations under the lock), and a permit changed meanwhile is skipped.
    done += workflow.transition_many(
        to_expire,
        Status.EXPIRED,
        by=None,
        today=today,
        reason_for=lambda permit: (
            f"Validity ended {permit.expires_on:%B %-d, %Y} with the street never opened (§ 303-4D)"
        ),
        where=Q(status__in=VALID_STATUSES, expires_on__lt=today),
        prepare=lambda permits: permits.select_related("street_opening").annotate(**opened_facts()),
    )
    return len(lapsed), done


def _restoration_of(permit: Permit) -> PavementRestoration | None:
    try:
        return permit.pavement_restoration
    except PavementRestoration.DoesNotExist:
        return None


def _record_openings_lapsed(permits: list[Permit], *, today: date) -> int:
    """The end of the right to open, for a chunk of opened permits: marked once per lapse date (the street opening's
    opening_lapsed_on), on each timeline, and told to each permittee, in one transaction."""
    lapsed_on = {permit.pk: permit.expires_on + validity.ONE_DAY for permit in permits}
    with transaction.atomic():
        marked = set(
            jobs.stamp_once(
                StreetOpening,
                "opening_lapsed_on",
                {permit.street_opening.pk: lapsed_on[permit.pk] for permit in permits},
            )
        )
        marked_permits = [permit for permit in permits if permit.street_opening.pk in marked]
        events, notices = [], []
        for permit in marked_permits:
            restoration = _restoration_of(permit)
            due = (
                f"permanent pavement due by {restoration.permanent_due_on:%B %-d, %Y} (§ 303-5G(4)), "
                if restoration and restoration.permanent_completed_on is None
                else ""
            )
            events.append(
                (
                    permit,
                    f"The right to open the street ended {lapsed_on[permit.pk]:%B %-d, %Y} (§ 303-4D). The "
                    f"restoration duties remain: {due}inspections, completion and the one-year guarantee (§ 303-5G, "
                    "§ 303-4H(3)).",
                )
            )
            context = {"permit": permit, "lapsed_on": lapsed_on[permit.pk], "restoration": restoration}
            notices.append((permit, permit.applicant.email, "street_opening_opening_lapsed", context))
        services.record_events(events)
        services.send_notices(notices)
    return len(marked_permits)


# --- § 303-4D: approvals that hold ------------------------------------------------------------------------------


def approval_outlook(permit: Permit, *, today: date) -> list[Violation]:
    """What the 30-day validity says about approving `permit` on `today`: the refusal (validity ends before the
    planned work ends) or the warning (work longer than 30 days), each citing § 303-4D. Shown to the approver."""
    return validity.validity_before_work_violations(
        approving_on=today, start_date=permit.start_date, end_date=permit.end_date
    )


def hold_approval(*, permit: Permit, by, conditions: str = "", today: date | None = None) -> StreetOpening:
    """§ 303-4D: the DPW holds the approval until the day its 30 days cover the planned work. The application stays
    under review, in the held-approvals queue with that date; the applicant is told when the approval can come."""
    require_role(by, *APPROVERS, action="hold the approval of a street opening (§ 303-4D)")
    now = timezone.now()
    today = today or timezone.localdate(now)
    if permit.status != Status.UNDER_REVIEW:
        raise RulesBroken(
            [
                Violation(
                    None,
                    "not_under_review",
                    "§ 303-4D",
                    f"{permit.number} is {permit.get_status_display().lower()}: only an application under review "
                    "is held (§ 303-4D).",
                )
            ]
        )
    so = _so(permit)
    can_come = so.approval_can_come_on
    errors = validity.hold_violations(today=today, can_come_on=can_come)
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        fields = {"approval_held_until": can_come, "approval_held_at": now, "approval_held_by": by}
        if conditions.strip():
            fields["dpw_conditions"] = conditions.strip()
        StreetOpening.objects.filter(pk=so.pk).update(**fields)
        for field, value in fields.items():
            setattr(so, field, value)
        services.record_event(
            permit,
            by=by,
            reason=f"Approval held until {can_come:%B %-d, %Y}, so that the 30-day validity covers the planned work "
            f"({permit.start_date:%B %-d} to {permit.end_date:%B %-d, %Y}) (§ 303-4D)",
        )
        _notify(permit, [permit.applicant.email], "street_opening_approval_held", {"can_come_on": can_come})
    return so


def held_approvals():
    """The DPW's queue: applications under review whose approval is held, the soonest date first."""
    return (
        StreetOpening.objects.filter(permit__status=Status.UNDER_REVIEW, approval_held_until__isnull=False)
        .select_related("permit", "permit__street", "permit__organization", "permit__applicant")
        .order_by("approval_held_until", "permit__number")
    )


def approve_with_dates(
    *, permit: Permit, by, start_date: date, end_date: date, today: date | None = None, **approval
) -> Permit:
    """§ 303-4D: approve now with planned dates the 30 days cover (agreed with the applicant). The new dates pass the
    same rules as the approval (the winter ban, insurance through the work...); the old ones are kept on the
    timeline and the applicant is told."""
    from permits.street_opening.services import approve_street_opening

    require_role(by, *APPROVERS, action="approve the location of a street opening (§ 303-1C(2))")
    today = today or timezone.localdate()
    errors = validity.approval_dates_violations(today=today, start_date=start_date, end_date=end_date)
    if errors:
        raise RulesBroken(errors)
    old_start, old_end = permit.start_date, permit.end_date
    with transaction.atomic():
        Permit.objects.filter(pk=permit.pk).update(start_date=start_date, end_date=end_date)
        permit.start_date, permit.end_date = start_date, end_date
        services.record_event(
            permit,
            by=by,
            reason=f"Planned dates set on approval to {start_date:%B %-d} to {end_date:%B %-d, %Y} (were "
            f"{old_start:%B %-d} to {old_end:%B %-d, %Y}), within the 30-day validity (§ 303-4D)",
        )
        approve_street_opening(permit=permit, by=by, today=today, **approval)
        _notify(
            permit,
            [permit.applicant.email],
            "street_opening_dates_set",
            {"old_start": old_start, "old_end": old_end},
        )
    return permit


# --- § 303-1C(8), § 303-4F(1), § 303-4H(3): completion -------------------------------------------------------------


def latest_results_by_kind(permit: Permit) -> dict[str, str]:
    """{inspection kind label: the latest result} of the permit's inspections (one query)."""
    latest: dict[str, str] = {}
    for kind, result in permit.inspections.order_by("kind", "-at", "-pk").values_list("kind", "result"):
        latest.setdefault(kind, result)
    return {Inspection.Kind(kind).label: result for kind, result in latest.items()}


def completion_refusals(permit: Permit) -> list[Violation]:
    """Every rule that refuses confirming completion now: the permittee's request, a passed final inspection, no
    inspection left failed (validity.completion_confirmation_violations), and the field rules (compaction retest,
    winter patch replaced, emergency underground work approved)."""
    from permits.street_opening.field import services as field_services

    so = StreetOpening.objects.filter(permit=permit).first()
    latest = latest_results_by_kind(permit)
    final = Inspection.Kind.FINAL.label
    compaction = Inspection.Kind.COMPACTION.label  # its retest has its own rule (§ 303-5E(5), field_services)
    return [
        *field_services.completion_blockers(permit),
        *validity.completion_confirmation_violations(
            requested=bool(so and so.completion_requested_at),
            final_passed=latest.get(final) == Inspection.Result.PASS,
            open_failures=validity.open_failures({k: v for k, v in latest.items() if k not in (final, compaction)}),
        ),
    ]


def request_completion(*, permit: Permit, by, today: date | None = None) -> StreetOpening:
    """§ 303-4H(3): the permittee reports the work and restoration complete: a request. The permit stays open and on
    the inspector's list until the DPW confirms it after a passed final inspection; the DPW is told."""
    if not workflow.is_applicant_side(by, permit):
        raise PermissionDenied("Only the permittee requests completion; the DPW confirms it (§ 303-4H(3)).")
    if permit.status not in (Status.ISSUED, Status.ACTIVE):
        raise RulesBroken(
            [
                Violation(
                    None,
                    "not_open",
                    "§ 303-4H(3)",
                    f"{permit.number} is {permit.get_status_display().lower()}: only an issued permit's work is "
                    "reported complete (§ 303-4H(3)).",
                )
            ]
        )
    now = timezone.now()
    so = _so(permit)
    with transaction.atomic():
        if not StreetOpening.objects.filter(pk=so.pk, completion_requested_at__isnull=True).update(
            completion_requested_at=now, completion_requested_by=by
        ):
            return so  # asked already: one request, one notice
        so.completion_requested_at, so.completion_requested_by = now, by
        services.record_event(
            permit,
            by=by,
            reason="Completion requested by the permittee. The DPW confirms it after a passed final inspection of "
            "the restored surface; the one-year guarantee starts on that date (§ 303-1C(8), § 303-4H(3))",
        )
        _notify(permit, _emails_of(*COMPLETION_CONFIRMERS), "street_opening_completion_requested", {})
    return so


def confirm_completion(*, permit: Permit, by, today: date | None = None) -> Guarantee:
    """§ 303-1C(8), § 303-4H(3): the DPW Director or a DPW inspector confirms the requested completion after a passed
    final inspection with no failure open; the permit is completed and the one-year guarantee starts that day. The
    refusals are those of completion_refusals(), asked again by transition() on every path."""
    require_role(by, *COMPLETION_CONFIRMERS, action="confirm the completion of street opening work (§ 303-1C(8))")
    today = today or timezone.localdate()
    errors = completion_refusals(permit) if permit.status in (Status.ISSUED, Status.ACTIVE) else []
    if errors:
        raise RulesBroken(errors)
    from permits.street_opening.field import services as field_services

    with transaction.atomic():
        if field_services._needs_pavement(permit) and (permit.issued_on or permit.approved_on):
            # The confirmed completion says the surface is restored: the permanent pavement is in, if not recorded.
            restoration = field_services.restoration_for(permit)
            PavementRestoration.objects.filter(pk=restoration.pk, permanent_completed_on__isnull=True).update(
                permanent_completed_on=today
            )
        workflow.transition(
            permit,
            Status.COMPLETED,
            by=by,
            today=today,
            reason="Completion confirmed after the passed final inspection; the one-year guarantee begins "
            "(§ 303-1C(8), § 303-4H(3))",
        )
        guarantee, _ = Guarantee.objects.get_or_create(
            permit=permit, defaults={"completed_on": today, "ends_on": field_rules.guarantee_ends_on(today)}
        )
        _notify(permit, [permit.applicant.email], "street_opening_completion_confirmed", {"guarantee": guarantee})
    return guarantee


def refuse_completion(*, permit: Permit, by, reason: str) -> StreetOpening:
    """The DPW refuses the requested completion, saying why; the request is cleared and the permittee told."""
    require_role(by, *COMPLETION_CONFIRMERS, action="refuse the completion of street opening work (§ 303-1C(8))")
    require_within(reason, "reason")
    if not reason.strip():
        raise RulesBroken(
            [Violation("reason", "required", "§ 303-1C(8)", "Say why completion is refused (§ 303-1C(8))")]
        )
    so = _so(permit)
    with transaction.atomic():
        if not StreetOpening.objects.filter(pk=so.pk, completion_requested_at__isnull=False).update(
            completion_requested_at=None, completion_requested_by=None
        ):
            raise RulesBroken(
                validity.completion_confirmation_violations(requested=False, final_passed=True, open_failures=[])
            )
        so.completion_requested_at = so.completion_requested_by = None
        services.record_event(permit, by=by, reason=f"Completion refused (§ 303-1C(8)): {reason.strip()}")
        _notify(permit, [permit.applicant.email], "street_opening_completion_refused", {"reason": reason.strip()})
    return so


# --- § 303-4E with § 303-5A: renewal ------------------------------------------------------------------------------


def _winter_violations(so: StreetOpening, *, expires_on: date) -> list[Violation]:
    return validity.renewal_winter_violations(
        previous_expires_on=expires_on,
        new_expires_on=ordinance.renewed_expiry(expires_on),
        determination_recorded=hasattr(so, "emergency_determination"),
    )


def pending_request(so: StreetOpening) -> RenewalRequest | None:
    return so.renewal_requests.filter(state=RenewalRequest.State.PENDING).first()


def request_renewal(
    *, permit: Permit, by, work_begun_on: date | None, reason: str, today: date | None = None
) -> RenewalRequest:
    """§ 303-4E: the permittee's written request for a thirty-day renewal, once the work has begun and before the
    permit lapses; refused at once when the renewal would carry the work into the frozen-ground season without the
    Board's emergency determination (§ 303-5A). The Clerk-Treasurer and the DPW are told."""
    if not workflow.is_applicant_side(by, permit):
        raise PermissionDenied("Only the permittee may ask for a renewal (§ 303-4E).")
    now = timezone.now()
    today = today or timezone.localdate(now)
    so = _so(permit)
    errors = validity.renewal_request_violations(work_begun_on=work_begun_on, reason=reason, today=today)
    errors += [
        v
        for v in ordinance.renewal_violations(
            status=permit.status, work_begun=work_begun_on is not None, expires_on=permit.expires_on, today=today
        )
        if v.code != "work_not_begun"
    ]
    pending = pending_request(so)
    errors += validity.pending_request_violations(
        pending_since=timezone.localtime(pending.requested_at) if pending else None
    )
    waiting = renewals_waiting_for_fee(so).first()
    if waiting is not None:
        errors += validity.fee_waiting_violations(granted_at=timezone.localtime(waiting.granted_at))
    if permit.expires_on is not None:
        from permits.street_opening.services import _renewed_period_not_begun

        errors += _renewed_period_not_begun(so, expires_on=permit.expires_on, today=today)
        errors += _winter_violations(so, expires_on=permit.expires_on)
    errors = errors_only(errors)
    if errors:
        raise RulesBroken(errors)
    try:
        with transaction.atomic():
            request = RenewalRequest.objects.create(
                street_opening=so, requested_by=by, requested_at=now, work_begun_on=work_begun_on, reason=reason.strip()
            )
            StreetOpening.objects.filter(pk=so.pk).update(work_begun_on=work_begun_on)
            services.record_event(
                permit,
                by=by,
                reason=f"Renewal requested in writing (§ 303-4E); work began {work_begun_on:%B %-d, %Y}: "
                f"{reason.strip()}",
            )
            _notify(permit, _emails_of(*RENEWERS), "street_opening_renewal_request", {"note": reason.strip()})
    except IntegrityError:  # renewal_request_one_pending: the same request posted twice at once
        raise RulesBroken(validity.pending_request_violations(pending_since=timezone.localtime(now))) from None
    return request


def decide_request(request: RenewalRequest, to: str, *, by, reason: str, note: str, at=None, **also) -> None:
    """§ 303-4E: the pending written request is decided (`to`: granted or refused), by whom, when, with the note."""
    change_state(
        request,
        field="state",
        to=to,
        from_states={RenewalRequest.State.PENDING},
        by=by,
        reason=reason,
        decided_by=by,
        decided_at=at or timezone.now(),
        decision_note=note,
        **also,
    )


def refuse_renewal(*, permit: Permit, by, reason: str) -> RenewalRequest:
    """§ 303-4E: renewals are at the discretion of the Clerk-Treasurer or the DPW; a refusal says why."""
    require_role(by, *RENEWERS, action="decide renewal requests (§ 303-4E)")
    if not reason.strip():
        raise RulesBroken([Violation("reason", "required", "§ 303-4E", "Say why the renewal is refused (§ 303-4E)")])
    so = _so(permit)
    with transaction.atomic():
        request = so.renewal_requests.select_for_update().filter(state=RenewalRequest.State.PENDING).first()
        if request is None:
            raise RulesBroken(validity.no_request_violations())
        refused = f"Renewal refused (§ 303-4E): {reason.strip()}"
        decide_request(request, RenewalRequest.State.REFUSED, by=by, reason=refused, note=reason.strip())
        services.record_event(permit, by=by, reason=f"Renewal refused (§ 303-4E): {reason.strip()}")
        _notify(permit, [permit.applicant.email], "street_opening_renewal_refused", {"reason": reason.strip()})
    return request


def grant_checks(so: StreetOpening, locked: Permit, *, today: date) -> list[Violation]:
    """What refuses granting the pending request on `today` (§ 303-4E, § 303-5A); [] when it may be granted."""
    if pending_request(so) is None:
        return validity.no_request_violations()
    if locked.expires_on is None:
        return []
    return _winter_violations(so, expires_on=locked.expires_on)


def take_effect(renewal: Renewal, permit: Permit) -> Permit:
    """§ 303-4E: the renewal fee paid, the permit's validity moves to the renewal's date (recorded, and told)."""
    now = timezone.now()
    if not Renewal.objects.filter(pk=renewal.pk, took_effect_at__isnull=True).update(took_effect_at=now):
        return permit
    Permit.objects.filter(pk=permit.pk).update(expires_on=renewal.new_expires_on)
    permit.expires_on = renewal.new_expires_on
    StreetOpening.objects.filter(permit=permit, opening_lapsed_on__lte=renewal.new_expires_on).update(
        opening_lapsed_on=None
    )
    services.record_event(
        permit,
        by=None,
        reason=f"Renewal fee paid: the permit is valid through {renewal.new_expires_on:%B %-d, %Y} (§ 303-4E)",
    )
    _notify(permit, [permit.applicant.email], "street_opening_renewed", {"renewal": renewal})
    return permit


def apply_paid_renewals(permit: Permit) -> int:
    """§ 303-4E: every granted renewal whose fee is now paid takes effect (called when a payment is recorded)."""
    waiting = list(
        Renewal.objects.filter(street_opening__permit=permit, took_effect_at__isnull=True).order_by("granted_at")
    )
    if not waiting or Permit.objects.get(pk=permit.pk).balance_due_as_stored() > 0:
        return 0
    for renewal in waiting:
        take_effect(renewal, permit)
    return len(waiting)


def renewals_waiting_for_fee(so: StreetOpening):
    return so.renewals.filter(took_effect_at__isnull=True)


__all__ = [
    "approval_outlook",
    "apply_paid_renewals",
    "approve_with_dates",
    "completion_refusals",
    "confirm_completion",
    "end_lapsed_validity",
    "grant_checks",
    "held_approvals",
    "hold_approval",
    "refuse_completion",
    "refuse_renewal",
    "request_completion",
    "request_renewal",
]
