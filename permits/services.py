"""Verbs of the permit core. Views, admin actions, the API, tasks and commands all call these."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connections, router, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone

from permits import workflow
from permits.errors import RulesBroken, Violation, raise_if_broken
from permits.fees import FeeNotConfigured, fee_in_force
from permits.kinds import number_prefix, validate_kind
from permits.models import Document, Notice, NumberSequence, Payment, Permit, PermitEvent, Status
from permits.roles import Role, has_role
from permits.uploads import store_upload


def next_number(prefix: str, year: int) -> str:
    """`PREFIX-YEAR-NNNN`, never reused. The UPDATE takes a row lock, so concurrent submits get distinct numbers."""
    with transaction.atomic():
        if not NumberSequence.objects.filter(prefix=prefix, year=year).exists():
            try:
                with transaction.atomic():
                    NumberSequence.objects.create(prefix=prefix, year=year, last_value=0)
            except IntegrityError:
                pass  # another transaction created it first
        NumberSequence.objects.filter(prefix=prefix, year=year).update(last_value=F("last_value") + 1)
        value = NumberSequence.objects.get(prefix=prefix, year=year).last_value
    return f"{prefix}-{year}-{value:04d}"


def create_permit(*, kind: str, applicant, organization=None, today: date | None = None, **fields) -> Permit:
    """A new draft application with its number."""
    today = today or timezone.localdate()
    validate_kind(kind)
    if organization is not None and not organization.memberships.filter(user=applicant).exists():
        raise PermissionDenied("You may apply for an organization only if you are on its staff.")
    number = next_number(number_prefix(kind), today.year)
    return Permit.objects.create(kind=kind, number=number, applicant=applicant, organization=organization, **fields)


@dataclass(frozen=True)
class Filing:
    """How a type's applications are filed: their kind, and the fee charged at submission with the section that
    charges it (cited when the fee is missing from the schedule)."""

    kind: str
    fee_code: str
    fee_citation: str
    required_by: str = ""  # the clause that requires the permit before the work or the use ("§ 303-4A")


def past_start_violations(start_date: date | None, today: date, *, required_by: str, began_in_emergency=False):
    """A permit is obtained before the work or the use it allows (§ 303-3C, § 303-4A, § 303-7A, § 303-15B): an
    application whose work or event starts before today is refused on every type, today itself allowed. The one
    exception is § 303-5H's emergency excavation, begun before the application that must follow it."""
    if start_date is None or start_date >= today or began_in_emergency:
        return []
    message = (
        f"The start date {start_date:%B %-d, %Y} has passed: a permit is obtained before the work or the use it "
        f"allows, so choose today or a later day ({required_by})"
    )
    return [Violation("start_date", "start_in_past", required_by, message)]


def apply_for(
    filing: Filing,
    *,
    applicant,
    rules: Callable[[], Iterable[Violation]],
    detail: Callable[[Permit], object],
    organization=None,
    today: date | None = None,
    began_in_emergency: bool = False,
    **fields,
) -> Permit:
    """What every type's application does: the applicant may file for `organization` only as its staff, a start
    date already past is refused (past_start_violations), `rules()` (the type's filing rules) refuse before anything
    is stored, then in one transaction the permit is numbered,
    `detail(permit)` stores the type's own record, and the permit is submitted with the fee in force. All or nothing:
    a caller that adds more in its own atomic block keeps it so."""
    today = today or timezone.localdate()
    if organization is not None and not organization.memberships.filter(user=applicant).exists():
        raise PermissionDenied("You may apply for an organization only if you are on its staff.")
    raise_if_broken(
        [
            *past_start_violations(
                fields.get("start_date"),
                today,
                required_by=filing.required_by,
                began_in_emergency=began_in_emergency,
            ),
            *rules(),
        ]
    )
    with transaction.atomic():
        permit = create_permit(kind=filing.kind, applicant=applicant, organization=organization, today=today, **fields)
        detail(permit)
        try:
            submit_permit(permit, by=applicant, fee_code=filing.fee_code, today=today)
        except FeeNotConfigured as error:  # rolls the whole application back
            raise RulesBroken([error.violation(filing.fee_citation, note=filing.fee_citation)]) from error
    return permit


def submit_permit(permit: Permit, *, by, fee_code: str, today: date | None = None) -> Permit:
    """Submit a draft: the fee in force today is computed from the schedule and kept with the application, with
    what of it the Village keeps should the application be withdrawn or denied (Chapter 167: the fee item's "kept
    when withdrawn or denied")."""
    today = today or timezone.localdate()
    fee = fee_in_force(fee_code, today)
    extra = {
        "fee_code": fee.code,
        "fee_amount": fee.amount,
        "fee_kept": fee.amount if fee.kept_when_withdrawn_or_denied else Decimal("0.00"),
        "fee_basis": f"{fee.name} ({fee.citation}), schedule in force from {fee.effective_from:%Y-%m-%d}",
    }
    workflow.transition(permit, Status.SUBMITTED, by=by, today=today, extra=extra)
    send_notice(
        permit,
        to=permit.applicant.email,
        template="application_received",
        context={"permit": permit},
    )
    return permit


def add_fee(permit: Permit, *, fee_code: str, by, today: date | None = None, reason: str = "") -> Decimal:
    """Add a further scheduled fee (a renewal, a retest) to what the permit owes."""
    today = today or timezone.localdate()
    fee = fee_in_force(fee_code, today)
    Permit.objects.filter(pk=permit.pk).update(fee_amount=F("fee_amount") + fee.amount)
    permit.refresh_from_db(fields=["fee_amount"])
    record_event(permit, by=by, kind=PermitEvent.Kind.NOTE, reason=reason or f"Fee added: {fee.name} ${fee.amount}")
    return fee.amount


def edit_permit(*, permit: Permit, by, values: dict, today: date | None = None) -> list[str]:
    """The one save path of an edit of a filed permit's street, place, work or dates (permits.edits): its type's
    policy (who, which fields in this status) and rules on the new values, checked on the row locked as it is now;
    the fields written (field history kept) and, on the timeline, what changed and who changed it. Returns the
    changes ("Start date: May 11, 2026 → May 12, 2026"); refuses with RulesBroken, storing nothing."""
    from permits import edits

    today = today or timezone.localdate()
    with transaction.atomic():
        current = Permit.objects.select_for_update().get(pk=permit.pk)
        changed = edits.changed_fields(current, values)
        raise_if_broken(edits.edit_violations(current, values, today=today, by=by))
        if not changed:
            return []
        changes = [
            f"{Permit._meta.get_field(name).verbose_name.capitalize()}: "
            f"{edits.shown(getattr(current, name))} → {edits.shown(values[name])}"
            for name in changed
        ]
        for name in changed:
            setattr(current, name, values[name])
        current.save(update_fields=changed)
        record_event(current, by=by, reason="Edited in the back office: " + "; ".join(changes))
    for name in changed:
        setattr(permit, name, values[name])
    return changes


def record_event(permit: Permit, *, by, kind: str = PermitEvent.Kind.NOTE, reason: str) -> PermitEvent:
    return PermitEvent.objects.create(
        permit=permit, kind=kind, actor=by, actor_label=workflow.actor_label(by), at=timezone.now(), reason=reason
    )


def record_payment(*, permit: Permit, amount: Decimal, method: str, reference: str = "", by, note: str = "") -> Payment:
    """§ 303-4F(2): the fee is paid to the Clerk-Treasurer, who issues a numbered receipt."""
    if not has_role(by, Role.CLERK):
        raise PermissionDenied("Only the Clerk-Treasurer records payments (§ 303-4F(2)).")
    if isinstance(amount, float):
        raise TypeError("Money is Decimal, never float: pass Decimal('12.34') or the string '12.34'.")
    errors = []
    try:
        amount = Decimal(str(amount).strip())
    except InvalidOperation:
        message = "The amount must be a number of dollars and cents, like 75.00."
        raise RulesBroken.one("amount", "not_a_number", "", message) from None
    if not amount.is_finite():
        message = "The amount must be a number of dollars and cents, like 75.00."
        errors.append(Violation("amount", "not_a_number", "", message))
    elif amount <= 0:
        errors.append(Violation("amount", "not_positive", "", "The amount must be more than $0.00."))
    elif amount != amount.quantize(Decimal("0.01")):
        errors.append(Violation("amount", "fraction_of_cent", "", "The amount must be in whole cents, like 75.00."))
    elif amount >= Decimal("100000000"):
        errors.append(Violation("amount", "too_large", "", "The amount is too large."))
    if method not in Payment.Method.values:
        message = f"The method must be one of: {', '.join(Payment.Method.labels).lower()}."
        errors.append(Violation("method", "unknown_method", "", message))
    if method != Payment.Method.CASH and not reference.strip():
        message = "A check number or card reference is required for a check or card payment."
        errors.append(Violation("reference", "reference_required", "", message))
    raise_if_broken(errors)
    reference = reference.strip()
    now = timezone.now()
    try:
        with transaction.atomic():
            # § 303-4F(2): money is recorded once. Lock the permit row so that simultaneous payments (two clerks, a
            # form submitted twice) are decided one after the other, each on the balance as the last one left it.
            locked = Permit.objects.select_for_update().get(pk=permit.pk)
            _refuse_payment_not_due(locked, amount=amount, method=method, reference=reference)
            payment = Payment.objects.create(
                permit=locked,
                amount=amount,
                method=method,
                reference=reference,
                receipt_number=next_number("R", timezone.localdate(now).year),
                received_by=by,
                received_at=now,
                note=note,
            )
            record_event(
                locked,
                by=by,
                kind=PermitEvent.Kind.PAYMENT,
                reason=(
                    f"Payment of ${amount} by {payment.get_method_display().lower()}; receipt {payment.receipt_number}"
                ),
            )
    except IntegrityError:
        # The database's payment_reference_once constraint, for a path that did not take the lock.
        existing = _payment_with_reference(permit, method=method, reference=reference)
        if existing is None:
            raise
        raise RulesBroken([_reference_recorded(existing)]) from None
    return payment


def _payment_with_reference(permit: Permit, *, method: str, reference: str) -> Payment | None:
    if method == Payment.Method.CASH:
        return None
    return Payment.objects.filter(permit_id=permit.pk, method=method, reference=reference).first()


def _reference_recorded(existing: Payment) -> Violation:
    return Violation(
        "reference",
        "reference_already_recorded",
        "§ 303-4F(2)",
        f"{existing.get_method_display()} {existing.reference} is already recorded on receipt "
        f"{existing.receipt_number} (${existing.amount}) for {existing.permit.number} (§ 303-4F(2)): a payment "
        "is recorded once.",
    )


def ended_without_permit_violation(permit: Permit, *, field: str | None = None) -> Violation:
    """§ 303-4F(2), Chapter 167: the Clerk-Treasurer receipts only what is owed, and a withdrawn or denied
    application owes nothing; what was paid and is not kept under the fee schedule is refunded to the payer."""
    refund = permit.refund_due_as_stored()
    then = f" The Clerk-Treasurer refunds ${refund:.2f} paid on it." if refund else ""
    return Violation(
        field,
        "ended_without_permit",
        "§ 303-4F(2)",
        f"{permit.number} is {permit.get_status_display().lower()}: nothing is owed on it, so no payment is taken "
        f"(§ 303-4F(2), Chapter 167 Fees).{then}",
    )


def _refuse_payment_not_due(permit: Permit, *, amount: Decimal, method: str, reference: str) -> None:
    """§ 303-4F(2): the Clerk-Treasurer receipts what is owed. Read under the permit's row lock: nothing due refuses
    any payment, more than the balance due refuses (the difference would be lost), the same check or card reference
    twice on a permit refuses. A withdrawn or denied application owes nothing (Chapter 167): no payment on it."""
    violations = []
    paid = permit.paid_as_stored()
    balance = permit.balance_due_as_stored()
    if permit.ended_without_permit:
        violations.append(ended_without_permit_violation(permit, field="amount"))
    elif balance <= 0:
        violations.append(
            Violation(
                "amount",
                "nothing_due",
                "§ 303-4F(2)",
                (
                    f"Nothing is due on {permit.number}: the fee of ${permit.fee_amount:.2f} is paid "
                    f"(${paid:.2f} received) (§ 303-4F(2)). No payment was recorded."
                    if permit.fee_amount > 0
                    else f"Nothing is due on {permit.number}: no fee is owed (§ 303-4F(2)). No payment was recorded."
                ),
            )
        )
    elif amount > balance:
        violations.append(
            Violation(
                "amount",
                "more_than_due",
                "§ 303-4F(2)",
                f"The amount ${amount:.2f} is more than the balance due on {permit.number}, ${balance:.2f} "
                f"(§ 303-4F(2)): record at most ${balance:.2f}.",
            )
        )
    existing = _payment_with_reference(permit, method=method, reference=reference)
    if existing is not None:
        violations.append(_reference_recorded(existing))
    if violations:
        raise RulesBroken(violations)


def upload_document(*, permit: Permit, kind: str, upload, by) -> Document:
    """Store an upload under a generated name after checking its type by content and its size."""
    document = store_upload(upload, kind=kind, by=by, permit=permit)
    record_event(permit, by=by, kind=PermitEvent.Kind.DOCUMENT, reason=f"{document.get_kind_display()} uploaded")
    return document


# Who reviews each kind of document: the Clerk-Treasurer receives the insurance certificates, bonds and indemnity
# agreements filed with the Village (§ 303-4G, § 303-4H(3), § 303-7A, § 303-7B, § 303-15G); plans are the Director
# of Public Works' to examine (§ 303-1C(3)); a photo or other document, either.
DOCUMENT_REVIEWERS = {
    Document.Kind.INSURANCE: (Role.CLERK,),
    Document.Kind.BOND: (Role.CLERK,),
    Document.Kind.INDEMNITY: (Role.CLERK,),
    Document.Kind.PLANS: (Role.DPW_DIRECTOR,),
    Document.Kind.PHOTO: (Role.CLERK, Role.DPW_DIRECTOR),
    Document.Kind.OTHER: (Role.CLERK, Role.DPW_DIRECTOR),
}
REVIEWER_TITLES = {Role.CLERK: "the Clerk-Treasurer", Role.DPW_DIRECTOR: "the Director of Public Works"}


def document_reviewer(kind: str) -> str:
    """Who reviews a document of `kind`, in words ("the Clerk-Treasurer")."""
    return " or ".join(REVIEWER_TITLES[r] for r in DOCUMENT_REVIEWERS.get(kind, (Role.CLERK,)))


def may_review_document(user, document: Document) -> bool:
    return has_role(user, *DOCUMENT_REVIEWERS.get(document.kind, (Role.CLERK,)))


def review_document(*, document: Document, by, accepted: bool, reason: str = "") -> Document:
    """The staff review of an uploaded document: accepted, or rejected with a reason the applicant reads before
    uploading a new one. A rejected document no longer counts as filed (Document.objects.on_file); an accepted one
    may still be rejected later (a lapsed certificate), a rejected one stays rejected. Audited (a StateChange) and on
    the permit's timeline."""
    from permits.state import change_state

    if not may_review_document(by, document):
        raise PermissionDenied(f"Only {document_reviewer(document.kind)} reviews a {document.get_kind_display()}.")
    from permits.input_limits import require_within

    require_within(reason, "reason")
    reason = reason.strip()
    label = document.get_kind_display()
    if accepted:
        to, from_states = Document.Review.ACCEPTED, [Document.Review.RECEIVED]
        refusal = Violation(
            None, "already_reviewed", "", f"This document ({label}) was already reviewed: reload the page."
        )
    else:
        if not reason:
            message = "Say why the document is rejected: the applicant reads it before uploading a new one."
            raise RulesBroken([Violation("reason", "reason_required", "", message)])
        to, from_states = Document.Review.REJECTED, [Document.Review.RECEIVED, Document.Review.ACCEPTED]
        refusal = Violation(
            None, "already_rejected", "", f"This document ({label}) was already rejected: reload the page."
        )
    with transaction.atomic():
        change_state(
            document,
            to=to,
            from_states=from_states,
            by=by,
            reason=reason,
            field="review_status",
            refusal=refusal,
            review_reason=reason,
            reviewed_by=by,
            reviewed_at=timezone.now(),
        )
        said = f"{label} ({document.original_name}) " + ("accepted" if accepted else f"rejected: {reason}")
        record_event(document.permit, by=by, kind=PermitEvent.Kind.DOCUMENT, reason=said)
    return document


def record_events(permits_and_reasons: list[tuple[Permit, str]], *, by=None, kind: str = PermitEvent.Kind.NOTE) -> None:
    """record_event for many permits at once: one insert (a job's chunk). On PostgreSQL the permits and
    reasons are sent as two arrays and unnested: no model instance made nor each row's fields prepared one by one
    (24,000 events were 1.7 s of the 100k pavement job)."""
    if not permits_and_reasons:
        return
    now, label = timezone.now(), workflow.actor_label(by)
    if connections[router.db_for_write(PermitEvent)].vendor == "postgresql":
        actor_id = by.pk if by is not None else None
        fixed = dict(kind=kind, from_status="", to_status="", actor_id=actor_id, actor_label=label, at=now)
        _insert_unnested(
            PermitEvent,
            fixed,
            permit_id=("bigint", [p.pk for p, _ in permits_and_reasons]),
            reason=("text", [r for _, r in permits_and_reasons]),
        )
        return
    PermitEvent.objects.bulk_create(
        [
            PermitEvent(permit=p, kind=kind, actor=by, actor_label=label, at=now, reason=r)
            for p, r in permits_and_reasons
        ]
    )


def offices_by_address() -> dict[str, str]:
    """The Village's own addresses, each with the office it stands for: every staff member's (by the first of their
    roles, in Role's order), and the Clerk-Treasurer's office address (CLERK_EMAIL). One query over the staff (a few
    dozen people), however many notices are named with it."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from permits.roles import STAFF_ROLES

    staff = get_user_model().objects.filter(Q(groups__name__in=STAFF_ROLES) | Q(is_staff=True) | Q(is_superuser=True))
    order = {role: n for n, role in enumerate(STAFF_ROLES)}
    best: dict[str, str] = {}
    for email, group in staff.exclude(email="").values_list("email", "groups__name"):
        key = email.strip().lower()
        if group in order and (key not in best or order.get(best[key], len(order)) > order[group]):
            best[key] = group
        best.setdefault(key, "")
    clerk = (getattr(settings, "CLERK_EMAIL", "") or "").strip().lower()
    if clerk:
        best[clerk] = Role.CLERK
    return {key: f"the {role}" if role else "the Village office" for key, role in best.items()}


def notice_recipient(to: str, offices: dict[str, str]) -> str:
    """How a notice's addressee is named on the permit's timeline, which the applicant and the public status page
    read: a Village office by its name, never a staff member's own address (the Notice row keeps the address for
    the office's own record); anyone else by the address the notice went to."""
    return offices.get(to.strip().lower(), to)


def send_notices(items: list[tuple[Permit, str, str, dict]]) -> list[Notice]:
    """send_notice for many (permit, to, template, context) at once: each rendered, then one insert of the notices
    and one of their timeline events, each delivered once committed (a job's chunk)."""
    from django.template.loader import get_template

    from permits import notices as topics
    from permits.tasks import deliver_on_commit

    notices, events, templates = [], [], {}
    off: dict[str, set[str]] = {}  # template -> addresses whose person turned its topic off
    offices = offices_by_address() if any(item[0] is not None for item in items) else {}
    for permit, to, template, context in items:
        if not to:
            continue
        if template not in off:
            off[template] = topics.email_turned_off([i[1] for i in items if i[2] == template], template)
        context = topics.notice_context(context)
        if template not in templates:  # each template looked up once per batch
            templates[template] = (
                get_template(f"emails/{template}_subject.txt"),
                get_template(f"emails/{template}.txt"),
            )
        subject_template, body_template = templates[template]
        subject = subject_template.render(context).strip()
        if to.strip().lower() in off[template]:
            if permit is not None:
                events.append((permit, _not_emailed(notice_recipient(to, offices), subject)))
            continue
        body = body_template.render(context)
        notices.append(Notice(permit=permit, to=to, subject=subject, body=body, template=template))
        if permit is not None:
            events.append((permit, f"Notice sent to {notice_recipient(to, offices)}: {subject}"))
    notices = _insert_email_notices(notices)
    record_events(events, kind=PermitEvent.Kind.NOTICE)
    deliver_on_commit([n.pk for n in notices])
    return notices


def _insert_email_notices(notices: list[Notice]) -> list[Notice]:
    """One insert of a batch's emailed notices, their ids set (unnested on PostgreSQL: 12,000 notices' fields were
    prepared one by one, a second of the 100k job)."""
    if connections[router.db_for_write(Notice)].vendor != "postgresql" or not notices:
        return Notice.objects.bulk_create(notices)
    fixed = {"channel": Notice.Channel.EMAIL, "recipient_name": "", "mailing_address": "", "created_at": timezone.now()}
    ids = _insert_unnested(
        Notice,
        fixed,
        permit_id=("bigint", [n.permit_id for n in notices]),
        to=("text", [n.to for n in notices]),
        subject=("text", [n.subject for n in notices]),
        body=("text", [n.body for n in notices]),
        template=("text", [n.template for n in notices]),
    )
    for notice, pk in zip(notices, ids, strict=True):
        notice.pk = pk
    return notices


def _insert_unnested(model, fixed: dict[str, object], **columns: tuple[str, list]) -> list[int]:
    """PostgreSQL: insert one row per element of the `columns` arrays (column name -> (SQL type, values)), each row
    with the `fixed` values too, in the arrays' order, in one statement; returns the new ids in that order. A job's
    chunk sent as a few arrays: no model instance made nor each row's fields prepared one by one."""
    connection = connections[router.db_for_write(model)]
    q = connection.ops.quote_name
    aliases = [f"c{i}" for i in range(len(columns))]  # the columns' own names may be SQL words ("to")
    sql = (
        f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(name) for name in [*fixed, *columns])}) "
        f"SELECT {', '.join(['%s'] * len(fixed) + [f'u.{alias}' for alias in aliases])} "
        f"FROM unnest({', '.join(f'%s::{sql_type}[]' for sql_type, _ in columns.values())}) "
        f"WITH ORDINALITY AS u({', '.join(aliases)}, n) ORDER BY u.n RETURNING {q(model._meta.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*fixed.values(), *(values for _, values in columns.values())])
        return [row[0] for row in cursor.fetchall()]


def _not_emailed(to: str, subject: str) -> str:
    return f"Notice not emailed to {to} (turned off in their notice preferences): {subject}"


def send_notice(
    permit: Permit | None,
    *,
    to: str,
    template: str,
    context: dict,
    mail_to: tuple[str, str] | None = None,
    record=None,
) -> Notice | None:
    """Render templates/emails/<template>_subject.txt and .txt and log the notice. With an email address (`to`) it is
    emailed once committed; without one, and with a postal address (`mail_to` = (name, address)), it becomes a
    printed letter for the Clerk-Treasurer to mail (permits.letters): NOT YET GIVEN until the clerk records the
    mailing date. `record` is the record the notice is about (its deadlines follow the day the notice is given)."""
    from django.contrib.contenttypes.models import ContentType

    from permits import notices as topics

    name, address = mail_to or ("", "")
    if not to and not (address or "").strip():
        return None
    context = topics.notice_context(context)
    subject = render_to_string(f"emails/{template}_subject.txt", context).strip()
    if to and topics.email_turned_off([to], template):
        # The person turned this topic's email off; the notice stays on the record (the timeline).
        if permit is not None:
            named = notice_recipient(to, offices_by_address())
            record_event(permit, by=None, kind=PermitEvent.Kind.NOTICE, reason=_not_emailed(named, subject))
        return None
    body = render_to_string(f"emails/{template}.txt", context)
    fields = dict(permit=permit, subject=subject, body=body, template=template)
    if record is not None:
        fields.update(record_type=ContentType.objects.get_for_model(record), record_id=record.pk)
    if to:
        notice = Notice.objects.create(channel=Notice.Channel.EMAIL, to=to, **fields)
        topics.start_clocks([notice])  # emailed: given now, its deadline runs from now
        if permit is not None:
            named = notice_recipient(to, offices_by_address())
            record_event(permit, by=None, kind=PermitEvent.Kind.NOTICE, reason=f"Notice sent to {named}: {subject}")
        from permits.tasks import deliver_notice

        transaction.on_commit(lambda: deliver_notice.delay(notice.pk))
        return notice
    notice = Notice.objects.create(
        channel=Notice.Channel.MAIL, recipient_name=name.strip(), mailing_address=address.strip(), **fields
    )
    if permit is not None:
        record_event(
            permit,
            by=None,
            kind=PermitEvent.Kind.NOTICE,
            reason=f"Letter to {name.strip()} awaits mailing by the Clerk-Treasurer (not yet given): {subject}",
        )
    return notice


def notify_owners(items: list[tuple]) -> list[Notice]:
    """notify_owner for many (parcel, template, context, record) at once (a job's chunk): each template
    read once, every notice rendered, then one insert; emails delivered once committed, letters left for the clerk
    to mail. For notices about a parcel's record, not a permit (no timeline event)."""
    from django.contrib.contenttypes.models import ContentType
    from django.template.loader import get_template

    from permits import notices as topics
    from permits.tasks import deliver_on_commit

    templates, notices = {}, []
    for parcel, template, context, record in items:
        context = topics.notice_context(context)
        if template not in templates:
            templates[template] = (
                get_template(f"emails/{template}_subject.txt"),
                get_template(f"emails/{template}.txt"),
            )
        to, name, address = parcel.owner_email, parcel.owner_name.strip(), (parcel.owner_mailing_address or "").strip()
        if not to and not address:
            continue
        subject_template, body_template = templates[template]
        fields = dict(
            subject=subject_template.render(context).strip(), body=body_template.render(context), template=template
        )
        if record is not None:
            fields.update(record_type=ContentType.objects.get_for_model(record), record_id=record.pk)
        if to:
            notices.append(Notice(channel=Notice.Channel.EMAIL, to=to, **fields))
        else:
            notices.append(Notice(channel=Notice.Channel.MAIL, recipient_name=name, mailing_address=address, **fields))
    notices = Notice.objects.bulk_create(notices)
    emailed = [n for n in notices if n.channel == Notice.Channel.EMAIL]
    topics.start_clocks(emailed)  # the letters' clocks start when the clerk records their mailing
    deliver_on_commit([n.pk for n in emailed])
    return notices


def notify_owner(parcel, *, template: str, context: dict, permit: Permit | None = None, record=None) -> Notice | None:
    """A written notice to a parcel's owner of record: emailed where an email is on file, otherwise a letter to the
    owner's mailing address for the Clerk-Treasurer to print and mail (given when mailed)."""
    return send_notice(
        permit,
        to=parcel.owner_email,
        template=template,
        context=context,
        mail_to=(parcel.owner_name, parcel.owner_mailing_address),
        record=record,
    )
