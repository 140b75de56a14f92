"""Street use permits (§ 303-15): the verbs. Views, the API, the admin, the Board's matter registry and the shell all
call these; each runs in a transaction, reads the clock once and passes plain values to permits.street_use.rules, and
stores nothing when a rule refuses (RulesBroken, each violation citing its section)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from permits import services, workflow
from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.board.models import AgendaItem, Meeting, Motion
from permits.errors import RulesBroken, Violation
from permits.models import Document, Parcel, Permit, PermitKind, Status
from permits.recording import create_once, recorded_by
from permits.roles import Role
from permits.street_use import rules
from permits.street_use.models import BoardAppearance, PetitionSignature, RegisteredResident, StreetUse
from permits.streetmap.placement import address_number

FEE_CODE = "street_use"  # § 303-15E: the Chapter 167 fee
FILING = services.Filing(PermitKind.STREET_USE, FEE_CODE, "§ 303-15E", required_by="§ 303-15B")
CLERKS = (Role.CLERK,)  # § 303-15B, F: the Clerk-Treasurer's form, petition and register
# § 303-15H: "the Village President or a law enforcement officer": any sworn officer of the Village, the Chief included
TERMINATORS = (Role.PRESIDENT, Role.POLICE_CHIEF, Role.POLICE_OFFICER)
SIGN_SALT = "permits.street_use.petition-signature"
SIGN_LINK_DAYS = 7  # how long the emailed link is good for (not the law: a link should not live forever)
GUARANTEE_DOCUMENTS = {
    "indemnity": Document.Kind.INDEMNITY,
    "insurance": Document.Kind.INSURANCE,
    "bond": Document.Kind.BOND,
}


# --- Filing (§ 303-15B, D(4), D(5), E) ----------------------------------------------------------------------------


def check_application(data: dict) -> list[Violation]:
    """Every rule that refuses an application when it is filed; `data` uses the API's field names, datetimes aware."""
    if rules.is_chapter_245_event(data.get("chapter_245_permit") or ""):
        return rules.chapter_245_violations(data["chapter_245_permit"])
    starts_at, ends_at = data.get("starts_at"), data.get("ends_at")
    local = timezone.localtime
    return [
        *rules.missing_item_violations(data),
        *rules.period_violations(
            starts_at=local(starts_at) if starts_at else None, ends_at=local(ends_at) if ends_at else None
        ),
    ]


def apply_for_street_use(*, applicant, data: dict, today: date | None = None) -> Permit:
    """Create and submit a street use application (§ 303-15B) with its Chapter 167 fee (§ 303-15E); all or nothing.
    `data["street"]` is a Street; `data["segments"]` (optional) the street segments of the petition's area."""
    starts_at, ends_at = data.get("starts_at"), data.get("ends_at")

    def detail(permit: Permit) -> StreetUse:
        street_use = StreetUse.objects.create(
            permit=permit,
            **{f: (data.get(f) or "").strip() for f in _TEXT_FIELDS},
            starts_at=starts_at,
            ends_at=ends_at,
            expected_attendance=data["expected_attendance"],
        )
        segments = list(data.get("segments") or ())
        wrong = [s for s in segments if s.street_id != data["street"].pk]
        if wrong:
            raise RulesBroken(
                [Violation("segments", "segment_off_street", "§ 303-15F", "The petition's area is on the street used")]
            )
        street_use.segments.set(segments)
        return street_use

    return services.apply_for(
        FILING,
        applicant=applicant,
        today=today,
        rules=lambda: check_application(data),
        detail=detail,
        street=data.get("street"),
        location_description=(data.get("portion_description") or "").strip(),
        work_description=(data.get("proposed_use") or "").strip(),
        start_date=timezone.localdate(starts_at) if starts_at else None,
        end_date=timezone.localdate(ends_at) if ends_at else None,
    )


_TEXT_FIELDS = (
    "applicant_name",
    "applicant_address",
    "applicant_phone",
    "organization_name",
    "organization_address",
    "organization_phone",
    "organization_heads",
    "responsible_name",
    "responsible_address",
    "responsible_phone",
)


# --- The petition (§ 303-15F) --------------------------------------------------------------------------------------


def parcels_on(street_use: StreetUse) -> list[Parcel]:
    """The parcels along the petition's area: on each segment's street, within its address range (a segment without
    one is the whole street)."""
    segments = list(street_use.segments.all())
    if not segments:
        return []
    candidates = Parcel.objects.filter(street_id__in={s.street_id for s in segments}).order_by("site_address")
    return _parcels_along(segments, candidates)


def _parcels_along(segments, candidates) -> list[Parcel]:
    found = []
    for parcel in candidates:
        number = address_number(parcel.site_address)
        for s in segments:
            if s.street_id != parcel.street_id:
                continue
            if (s.address_from is None or s.address_to is None) or (number is not None and s.holds_address(number)):
                found.append(parcel)
                break
    return found


def roster(street_use: StreetUse, *, on: date) -> list[RegisteredResident]:
    """§ 303-15F: "the residents over 18 years of age residing along that portion", from the Village's register, on
    `on`."""
    parcels = parcels_on(street_use)
    residents = RegisteredResident.objects.filter(parcel__in=parcels).filter(
        Q(resides_until__isnull=True) | Q(resides_until__gte=on)
    )
    return [
        r
        for r in residents.select_related("parcel")
        if rules.is_adult_on(birth_date=r.birth_date, attested_adult=r.attested_adult, day=on)
    ]


@dataclass(frozen=True)
class PetitionCount:
    counted: int
    roster_size: int
    required: int
    signatures: int  # all signatures, counted or not

    @property
    def passes(self) -> bool:
        return not rules.petition_violations(counted=self.counted, roster_size=self.roster_size)

    @property
    def percent(self) -> int:
        return 100 * self.counted // self.roster_size if self.roster_size else 0


def petition_count(street_use: StreetUse, *, on: date | None = None) -> PetitionCount:
    """§ 303-15F: the signatures that count (each matched to an adult on the roster; non-residents of the portion and
    minors do not count) against 75% of the roster, rounded up."""
    on = on or timezone.localdate()
    adults = {r.pk for r in roster(street_use, on=on)}
    signed = list(street_use.signatures.values_list("resident_id", flat=True))
    return _count_of(adults, signed)


def _count_of(adults: set, signed: list) -> PetitionCount:
    counted = len({pk for pk in signed if pk in adults})
    return PetitionCount(counted, len(adults), rules.signatures_required(len(adults)), len(signed))


def petition_counts(street_uses: list[StreetUse], *, on: date | None = None) -> dict[int, PetitionCount]:
    """petition_count of many street uses (the Board queue's page) in four queries, whatever their number: their
    segments, the parcels of those streets, the residents of those parcels, and their signatures."""
    on = on or timezone.localdate()
    segments: dict[int, list] = {su.pk: [] for su in street_uses}
    through = StreetUse.segments.through.objects.filter(streetuse_id__in=segments).select_related("streetsegment")
    for link in through.order_by("pk"):
        segments[link.streetuse_id].append(link.streetsegment)
    street_ids = {s.street_id for segs in segments.values() for s in segs}
    candidates = list(Parcel.objects.filter(street_id__in=street_ids).order_by("site_address"))
    along = {pk: {p.pk for p in _parcels_along(segs, candidates)} if segs else set() for pk, segs in segments.items()}
    residents: dict[int, list] = {}
    living = RegisteredResident.objects.filter(parcel_id__in={p for ps in along.values() for p in ps}).filter(
        Q(resides_until__isnull=True) | Q(resides_until__gte=on)
    )
    for r in living:
        if rules.is_adult_on(birth_date=r.birth_date, attested_adult=r.attested_adult, day=on):
            residents.setdefault(r.parcel_id, []).append(r.pk)
    signed: dict[int, list] = {pk: [] for pk in segments}
    for su_id, resident_id in PetitionSignature.objects.filter(street_use_id__in=segments).values_list(
        "street_use_id", "resident_id"
    ):
        signed[su_id].append(resident_id)
    return {
        pk: _count_of({r for parcel in along[pk] for r in residents.get(parcel, ())}, signed[pk]) for pk in segments
    }


def _petition_open(permit: Permit) -> list[Violation]:
    su = permit.street_use
    if permit.status != Status.SUBMITTED or su.petition_verified_at is not None:
        return [
            Violation(None, "petition_closed", "§ 303-15F", f"The petition of {permit.number} is closed (§ 303-15F)")
        ]
    return []


def set_petition_area(*, permit: Permit, segments, by) -> StreetUse:
    """§ 303-15F: the Clerk-Treasurer's form names the area of the street the petition designates."""
    require_role(by, *CLERKS, action="name the petition's area (the Clerk-Treasurer does, § 303-15F)")
    su = permit.street_use
    errors = _petition_open(permit)
    if any(s.street_id != permit.street_id for s in segments):
        errors.append(
            Violation("segments", "segment_off_street", "§ 303-15F", "The petition's area is on the street used")
        )
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        su.segments.set(segments)
        services.record_event(
            permit, by=by, reason="Petition area: " + "; ".join(str(s) for s in segments) + " (§ 303-15F)"
        )
    return su


def sign_link(token: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("permits:street_use_sign", args=[token])


def request_signature_link(*, permit: Permit, parcel: Parcel, name: str, email: str) -> None:
    """§ 303-15F: a neighbour asks to sign online; a signed one-time link goes to `email` (the signature is recorded
    only when the link is opened and confirmed, so the address is verified)."""
    errors = _petition_open(permit)
    if parcel.pk not in {p.pk for p in parcels_on(permit.street_use)}:
        errors.append(
            Violation("parcel", "not_on_portion", "§ 303-15F", "Choose your address along the portion (§ 303-15F)")
        )
    if not name.strip():
        errors.append(Violation("name", "required", "§ 303-15F", "Give your full name (§ 303-15F)"))
    if errors:
        raise RulesBroken(errors)
    email = email.strip().lower()
    token = signing.dumps({"p": permit.pk, "a": parcel.pk, "n": name.strip(), "e": email}, salt=SIGN_SALT)
    services.send_notice(
        None,  # not on the permit's timeline: the applicant does not learn the neighbours' addresses
        to=email,
        template="street_use_sign_link",
        context={"permit": permit, "su": permit.street_use, "link": sign_link(token), "days": SIGN_LINK_DAYS},
    )


def read_signature_link(token: str) -> dict:
    """The permit, parcel, name and email a link was made for; RulesBroken when it is forged or expired."""
    try:
        data = signing.loads(token, salt=SIGN_SALT, max_age=SIGN_LINK_DAYS * 86400)
    except signing.SignatureExpired:
        raise RulesBroken(
            [Violation(None, "link_expired", "§ 303-15F", "This link has expired: ask for a new one")]
        ) from None
    except signing.BadSignature:
        raise RulesBroken([Violation(None, "link_invalid", "§ 303-15F", "This link is not valid")]) from None
    return {
        "permit": Permit.objects.select_related("street_use").get(pk=data["p"], kind=PermitKind.STREET_USE),
        "parcel": Parcel.objects.get(pk=data["a"]),
        "name": data["n"],
        "email": data["e"],
    }


def _normal(name: str) -> str:
    return " ".join(name.lower().split())


def _match(parcel: Parcel, *, name: str, email: str, on: date) -> RegisteredResident | None:
    """The registered resident of `parcel` this signer is, by email or by name; None: not on the register there."""
    residents = RegisteredResident.objects.filter(parcel=parcel).filter(
        Q(resides_until__isnull=True) | Q(resides_until__gte=on)
    )
    by_email = [r for r in residents if email and r.email.lower() == email]
    by_name = [r for r in residents if _normal(r.name) == _normal(name)]
    found = by_email or by_name
    return found[0] if len(found) == 1 else None


def sign_online(*, token: str, now: datetime | None = None) -> PetitionSignature:
    """§ 303-15F: the neighbour confirms from the emailed link; the link is good once (one signature per address and
    per resident)."""
    now = now or timezone.now()
    data = read_signature_link(token)
    permit = data["permit"]
    raise_errors = _petition_open(permit)
    if raise_errors:
        raise RulesBroken(raise_errors)
    resident = _match(data["parcel"], name=data["name"], email=data["email"], on=timezone.localdate(now))
    return _store_signature(
        permit,
        resident=resident,
        parcel=data["parcel"],
        signer_name=data["name"],
        signer_email=data["email"],
        method=PetitionSignature.Method.ONLINE,
        signed_at=now,
    )


def _store_signature(permit: Permit, **fields) -> PetitionSignature:
    return create_once(
        PetitionSignature,
        refusal=RulesBroken(
            [Violation(None, "already_signed", "§ 303-15F", "This petition is already signed by this person")]
        ),
        street_use=permit.street_use,
        **fields,
    )


def enter_paper_signature(
    *, permit: Permit, by, signer_name: str, parcel: Parcel | None, resident: RegisteredResident | None, signed_on: date
) -> PetitionSignature:
    """§ 303-15F: the clerk enters a signature from the printed sheet, matched to the register's resident when the
    signer is one (a non-resident is entered unmatched and does not count)."""
    require_role(by, *CLERKS, action="enter petition signatures (the Clerk-Treasurer does, § 303-15F)")
    errors = _petition_open(permit)
    if not signer_name.strip():
        errors.append(Violation("signer_name", "required", "§ 303-15F", "Give the signer's name (§ 303-15F)"))
    if resident is not None and parcel is not None and resident.parcel_id != parcel.pk:
        errors.append(Violation("resident", "wrong_parcel", "§ 303-15F", "The resident is registered elsewhere"))
    if errors:
        raise RulesBroken(errors)
    signed_at = timezone.make_aware(datetime.combine(signed_on, datetime.min.time()))
    return _store_signature(
        permit,
        resident=resident,
        parcel=parcel or (resident.parcel if resident else None),
        signer_name=signer_name.strip(),
        method=PetitionSignature.Method.PAPER,
        signed_at=signed_at,
        entered_by=by,
    )


def match_signature(*, signature: PetitionSignature, resident: RegisteredResident | None, by) -> PetitionSignature:
    """§ 303-15F: the clerk verifies who signed: matches a signature to the register (or un-matches it)."""
    require_role(by, *CLERKS, action="verify petition signatures (the Clerk-Treasurer does, § 303-15F)")
    errors = _petition_open(signature.street_use.permit)
    if errors:
        raise RulesBroken(errors)
    try:
        with transaction.atomic():
            PetitionSignature.objects.filter(pk=signature.pk).update(resident=resident)
    except IntegrityError:
        raise RulesBroken(
            [Violation("resident", "already_signed", "§ 303-15F", f"{resident} has already signed")]
        ) from None
    signature.resident = resident
    return signature


def verify_petition(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-15F: the clerk verifies the petition: 75% of the adult residents along the portion, rounded up, or it is
    refused. A verified petition sends the application on to the Board (under review)."""
    require_role(by, *CLERKS, action="verify the petition (the Clerk-Treasurer does, § 303-15F)")
    today = today or timezone.localdate()
    su = permit.street_use
    count = petition_count(su, on=today)
    errors = _petition_open(permit) + rules.petition_violations(counted=count.counted, roster_size=count.roster_size)
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        StreetUse.objects.filter(pk=su.pk).update(
            petition_verified_at=timezone.now(),
            petition_verified_by=by,
            petition_counted=count.counted,
            petition_roster_size=count.roster_size,
        )
        workflow.transition(
            permit,
            Status.UNDER_REVIEW,
            by=by,
            today=today,
            reason=f"Petition verified: {count.counted} of {count.roster_size} residents over 18 signed, "
            f"{count.required} needed (§ 303-15F). Goes to the Village Board (§ 303-15C).",
        )
    return permit


# --- The Board (§ 303-15C, G) --------------------------------------------------------------------------------------


def place_on_agenda(*, permit: Permit, meeting: Meeting, by) -> AgendaItem:
    """§ 303-15C: the application goes on a Board agenda, as an item under § 303-15C whose subject is the permit."""
    if permit.status != Status.UNDER_REVIEW:
        raise RulesBroken(
            [
                Violation(
                    "meeting",
                    "not_ready",
                    "§ 303-15F",
                    f"{permit.number} goes to the Board once its petition is verified (§ 303-15F)",
                )
            ]
        )
    su = permit.street_use
    title = f"Street use permit {permit.number}: {permit.street.name}, {timezone.localtime(su.starts_at):%b %-d}"
    item = board.add_agenda_item(
        meeting=meeting,
        title=title,
        clause=Clause.STREET_USE,
        subject=permit,
        by=by,
        description=permit.work_description,
    )
    services.record_event(permit, by=by, reason=f"On the agenda of the Village Board's {meeting} (§ 303-15C)")
    return item


def items_for(permit: Permit):
    from django.contrib.contenttypes.models import ContentType

    return AgendaItem.objects.filter(
        subject_type=ContentType.objects.get_for_model(Permit), subject_id=permit.pk, clause=Clause.STREET_USE
    ).select_related("meeting")


def record_appearance(*, permit: Permit, item: AgendaItem, name: str, capacity: str, by) -> BoardAppearance:
    """§ 303-15C: the applicant or the group's representative was present when the Board considered the application."""
    require_role(by, *CLERKS, action="record who appeared before the Board (the Clerk-Treasurer does)")
    errors = []
    if item.pk not in set(items_for(permit).values_list("pk", flat=True)):
        errors.append(Violation("item", "wrong_item", "§ 303-15C", f"That agenda item is not about {permit.number}"))
    if not name.strip():
        errors.append(Violation("name", "required", "§ 303-15C", "Name who was present (§ 303-15C)"))
    if capacity not in BoardAppearance.Capacity.values:
        errors.append(Violation("capacity", "required", "§ 303-15C", "The applicant, or a representative"))
    if errors:
        raise RulesBroken(errors)
    appearance = create_once(
        BoardAppearance,
        refusal=RulesBroken([Violation("item", "recorded", "§ 303-15C", "Presence is already recorded")]),
        street_use=permit.street_use,
        item=item,
        name=name.strip(),
        capacity=capacity,
        **recorded_by(by),
    )
    services.record_event(
        permit,
        by=by,
        reason=f"{appearance.name} ({appearance.get_capacity_display().lower()}) present at the Board (§ 303-15C)",
    )
    return appearance


def decision_violations(street_use: StreetUse, motion: Motion | None, *, grant: bool) -> list[Violation]:
    """§ 303-15C: the Board grants by a carried motion on this permit's § 303-15C item, with the applicant or a
    representative recorded present at that item; it denies by a motion on that item that carried a denial or
    failed to grant."""
    errors = board.board_action_errors(motion, clause=Clause.STREET_USE, subject=street_use.permit)
    if not grant:
        return [e for e in errors if e.code != "motion_failed"]
    if motion is not None and not BoardAppearance.objects.filter(street_use=street_use, item=motion.item).exists():
        errors.append(
            Violation(
                "motion",
                "applicant_absent",
                "§ 303-15C",
                "The applicant or a representative must be recorded present when the Board considers the permit "
                "(§ 303-15C)",
            )
        )
    return errors


def decide_street_use(
    *,
    permit: Permit,
    motion: Motion,
    by,
    grant: bool,
    conditions: str = "",
    requires_indemnity: bool = False,
    requires_insurance: bool = False,
    requires_bond: bool = False,
    today: date | None = None,
) -> Permit:
    """§ 303-15C, G: record the Board's recorded vote: granted with its conditions and what it requires on file
    (indemnity, insurance certificate, performance bond), or denied. The clerk records it from the minutes."""
    require_role(by, *CLERKS, action="record the Board's decision (the Clerk-Treasurer does, § 303-15C)")
    su = permit.street_use
    errors = decision_violations(su, motion, grant=grant)
    if permit.status != Status.UNDER_REVIEW:
        errors.append(
            Violation(
                "motion",
                "not_before_the_board",
                "§ 303-15C",
                f"{permit.number} is {permit.get_status_display().lower()}: the Board decides it once its petition "
                "is verified (§ 303-15F)",
            )
        )
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        StreetUse.objects.filter(pk=su.pk).update(
            decision_motion=motion,
            conditions=conditions.strip() if grant else "",
            requires_indemnity=grant and requires_indemnity,
            requires_insurance=grant and requires_insurance,
            requires_bond=grant and requires_bond,
        )
        by_motion = f"by the Village Board's motion of {motion.held_on:%B %-d, %Y}" + (
            f" (Resolution {motion.resolution_number})" if motion.resolution_number else ""
        )
        if grant:
            wanted = {"indemnity": requires_indemnity, "insurance": requires_insurance, "bond": requires_bond}
            needs = [rules.GUARANTEES[k] for k, on in wanted.items() if on]
            reason = f"Granted {by_motion}, {motion.ayes}-{motion.nays} (§ 303-15C)" + (
                f". Conditions: {conditions.strip()}" if conditions.strip() else ""
            )
            if needs:
                reason += ". Required on file before issue (§ 303-15G): " + "; ".join(needs)
            workflow.transition(permit, Status.APPROVED, by=by, today=today, reason=reason)
        else:
            workflow.transition(
                permit, Status.DENIED, by=by, today=today, reason=f"Denied {by_motion}, {motion.ayes}-{motion.nays}"
            )
    su.refresh_from_db()
    return permit


def issue_street_use(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-15A: the Clerk-Treasurer issues the granted permit once its fee is paid (§ 303-15E) and what the Board
    required is on file (§ 303-15G)."""
    require_role(by, *CLERKS, action="issue street use permits (the Clerk-Treasurer does, § 303-15A)")
    workflow.transition(permit, Status.ISSUED, by=by, today=today, reason="Street use permit issued (§ 303-15A)")
    services.send_notice(permit, to=permit.applicant.email, template="street_use_issued", context={"permit": permit})
    return permit


def guarantees_on_file(permit: Permit) -> set[str]:
    kinds = set(permit.documents.values_list("kind", flat=True))
    return {name for name, kind in GUARANTEE_DOCUMENTS.items() if kind in kinds}


# --- Termination (§ 303-15H) --------------------------------------------------------------------------------------


def terminate_street_use(*, permit: Permit, by, reason: str, now: datetime | None = None) -> Permit:
    """§ 303-15H: the Village President or a law enforcement officer revokes the permit before its event, or
    terminates the event in progress, saying why; who and when are recorded and the permit shows "terminated
    (§ 303-15H)"."""
    require_role(
        by,
        *TERMINATORS,
        action="terminate a street use permit (the Village President or a law enforcement officer may, § 303-15H)",
    )
    now = now or timezone.now()
    su = permit.street_use
    errors = rules.termination_violations(
        starts_at=timezone.localtime(su.starts_at), ends_at=timezone.localtime(su.ends_at), now=now, reason=reason
    )
    if permit.status != Status.ISSUED:
        errors.append(Violation(None, "not_issued", "§ 303-15H", f"{permit.number} is not an issued permit"))
    if errors:
        raise RulesBroken(errors)
    label = workflow.actor_label(by)
    with transaction.atomic():
        StreetUse.objects.filter(pk=su.pk, terminated_at__isnull=True).update(
            terminated_at=now, terminated_by=by, terminated_by_label=label, termination_reason=reason.strip()
        )
        workflow.transition(
            permit,
            Status.REVOKED,
            by=by,
            today=timezone.localdate(now),
            reason=f"Terminated (§ 303-15H) by {label} at {timezone.localtime(now):%-I:%M %p}: {reason.strip()}",
        )
    su.refresh_from_db()
    return permit
