"""Street use permits (§ 303-15): the verbs. Views, the API, the admin, the Board's matter registry and the shell all
call these; each runs in a transaction, reads the clock once and passes plain values to permits.street_use.rules, and
stores nothing when a rule refuses (RulesBroken, each violation citing its section)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from permits import services, workflow
from permits.access import require_role
from permits.board import services as board
from permits.board.clauses import Clause
from permits.board.models import AgendaItem, Meeting, Motion
from permits.errors import RulesBroken, Violation
from permits.models import Document, Parcel, Permit, PermitKind, Status, Street
from permits.recording import create_once, recorded_by
from permits.roles import Role
from permits.street_use import rules
from permits.street_use.models import (
    BoardAppearance,
    ConsentCode,
    HouseholdContact,
    PetitionAddress,
    PetitionPage,
    PetitionSignature,
    StreetUse,
)
from permits.streetmap.placement import address_number

FEE_CODE = "street_use"  # § 303-15E: the Chapter 167 fee
FILING = services.Filing(PermitKind.STREET_USE, FEE_CODE, "§ 303-15E", required_by="§ 303-15B")
CLERKS = (Role.CLERK,)  # § 303-15B, F: the Clerk-Treasurer's form, petition and register
# § 303-15H: "the Village President or a law enforcement officer": any sworn officer of the Village, the Chief included
TERMINATORS = (Role.PRESIDENT, Role.POLICE_CHIEF, Role.POLICE_OFFICER)
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
        _sync_addresses(street_use)
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
#
# The Village keeps no register of adult residents. The clerk names the portion (its street segments); the addresses
# along it come from the parcel roll, a unit each where the clerk adds units; each address declares its residents over
# 18; each consent is verified: online by a code sent to an email the clerk bound to that household, or on a paper
# page uploaded with its circulator's sworn verification, which the clerk accepts.


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


def _sync_addresses(street_use: StreetUse) -> None:
    """One address per parcel along the portion (the units the clerk added stay); addresses off it go."""
    along = {p.pk for p in parcels_on(street_use)}
    gone = street_use.addresses.exclude(parcel_id__in=along)
    HouseholdContact.objects.filter(address__in=gone).delete()
    gone.delete()
    have = set(street_use.addresses.values_list("parcel_id", flat=True))
    PetitionAddress.objects.bulk_create(
        [PetitionAddress(street_use=street_use, parcel_id=pk) for pk in sorted(along - have)]
    )


def addresses_of(street_use: StreetUse) -> list[PetitionAddress]:
    """The petition's addresses, each with `contact_count`: the household emails bound to it."""
    return list(street_use.addresses.select_related("parcel").annotate(contact_count=Count("contacts")))


@dataclass(frozen=True)
class PetitionCount:
    """§ 303-15F: `counted` verified consents of the `roster_size` residents over 18 declared along the portion."""

    counted: int
    roster_size: int  # the adults declared, summed over the addresses
    required: int
    signatures: int  # every consent recorded, verified or not
    addresses: int = 0
    undeclared: tuple[str, ...] = ()
    over: tuple[str, ...] = ()

    @property
    def violations(self) -> list[Violation]:
        return rules.petition_violations(
            counted=self.counted,
            roster_size=self.roster_size,
            addresses=self.addresses,
            undeclared=self.undeclared,
            over=self.over,
        )

    @property
    def passes(self) -> bool:
        return not self.violations

    @property
    def percent(self) -> int:
        return 100 * self.counted // self.roster_size if self.roster_size else 0


def _count_of(addresses: list, verified_at: dict[int, int], signatures: int) -> PetitionCount:
    """`addresses`: (pk, label, adults declared or None); `verified_at`: address pk -> verified consents."""
    declared = sum(a[2] or 0 for a in addresses)
    undeclared = tuple(a[1] for a in addresses if a[2] is None)
    over = tuple(a[1] for a in addresses if a[2] is not None and verified_at.get(a[0], 0) > a[2])
    counted = sum(min(verified_at.get(a[0], 0), a[2] or 0) for a in addresses)
    return PetitionCount(
        counted, declared, rules.signatures_required(declared), signatures, len(addresses), undeclared, over
    )


# A consent is verified online by its code (recorded only then), on paper once its page is accepted
VERIFIED = Q(method=PetitionSignature.Method.ONLINE) | Q(page__accepted_at__isnull=False)


def petition_count(street_use: StreetUse, *, on: date | None = None) -> PetitionCount:
    """§ 303-15F: the verified consents, address by address (at most the adults declared there), against 75% of the
    adults declared, rounded up. `on` is kept for the callers that pass the day; declarations do not age."""
    return petition_counts([street_use])[street_use.pk]


def petition_counts(street_uses: list[StreetUse], *, on: date | None = None) -> dict[int, PetitionCount]:
    """petition_count of many street uses (the Board queue's page) in two queries, whatever their number: their
    addresses, and their consents counted by petition and address (all, and the verified)."""
    ids = [su.pk for su in street_uses]
    addresses: dict[int, list] = {pk: [] for pk in ids}
    for a in PetitionAddress.objects.filter(street_use_id__in=ids).select_related("parcel"):
        addresses[a.street_use_id].append((a.pk, str(a), a.adults_declared))
    verified: dict[int, int] = {}
    total: dict[int, int] = {}
    rows = (
        PetitionSignature.objects.filter(street_use_id__in=ids)
        .values("street_use_id", "address_id")
        .annotate(n=Count("pk"), v=Count("pk", filter=VERIFIED))
        .order_by()
    )
    for row in rows:
        total[row["street_use_id"]] = total.get(row["street_use_id"], 0) + row["n"]
        if row["address_id"] is not None and row["v"]:
            verified[row["address_id"]] = verified.get(row["address_id"], 0) + row["v"]
    return {pk: _count_of(addresses[pk], verified, total.get(pk, 0)) for pk in ids}


def area_violations(permit: Permit) -> list[Violation]:
    """§ 303-15F: the petition's area is on the street the permit uses (a street corrected in the back office before
    anyone consented needs its area named again)."""
    off = [s for s in permit.street_use.segments.all() if s.street_id != permit.street_id]
    if not off:
        return []
    return [
        Violation(
            "segments",
            "segment_off_street",
            "§ 303-15F",
            f"The petition's area ({'; '.join(str(s) for s in off)}) is not on {permit.street}: the clerk names the "
            "area on the street used (§ 303-15F)",
        )
    ]


def _petition_open(permit: Permit) -> list[Violation]:
    su = permit.street_use
    if permit.status != Status.SUBMITTED or su.petition_verified_at is not None:
        return [
            Violation(None, "petition_closed", "§ 303-15F", f"The petition of {permit.number} is closed (§ 303-15F)")
        ]
    return []


def _clerk_on_open_petition(permit: Permit, by, action: str) -> None:
    require_role(by, *CLERKS, action=f"{action} (the Clerk-Treasurer does, § 303-15F)")
    errors = _petition_open(permit)
    if errors:
        raise RulesBroken(errors)


def set_petition_area(*, permit: Permit, segments, by) -> StreetUse:
    """§ 303-15F: the Clerk-Treasurer's form names the area of the street the petition designates; its addresses
    come from the parcel roll. Once anyone has consented the area is theirs: a new area needs a new petition."""
    require_role(by, *CLERKS, action="name the petition's area (the Clerk-Treasurer does, § 303-15F)")
    su = permit.street_use
    errors = _petition_open(permit)
    if any(s.street_id != permit.street_id for s in segments):
        errors.append(
            Violation("segments", "segment_off_street", "§ 303-15F", "The petition's area is on the street used")
        )
    if su.signatures.exists():
        errors.append(
            Violation(
                "segments",
                "new_petition_needed",
                "§ 303-15F",
                "Neighbours have consented to this area: a different area needs a new petition (§ 303-15F)",
            )
        )
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        su.segments.set(segments)
        _sync_addresses(su)
        services.record_event(
            permit, by=by, reason="Petition area: " + "; ".join(str(s) for s in segments) + " (§ 303-15F)"
        )
    return su


def add_unit(*, permit: Permit, parcel: Parcel, unit: str, by) -> PetitionAddress:
    """§ 303-15F: a parcel along the portion holds more than one dwelling: each unit is an address of its own, and
    the parcel's single address goes (while nothing is recorded at it)."""
    _clerk_on_open_petition(permit, by, "add a unit to the petition")
    su = permit.street_use
    unit = unit.strip()
    errors = []
    if not unit:
        errors.append(Violation("unit", "required", "§ 303-15F", "Name the unit, e.g. Apt 2 (§ 303-15F)"))
    if not su.addresses.filter(parcel=parcel).exists():
        errors.append(Violation("parcel", "not_on_portion", "§ 303-15F", "That parcel is not along the portion"))
    if errors:
        raise RulesBroken(errors)
    with transaction.atomic():
        address = create_once(
            PetitionAddress,
            refusal=RulesBroken([Violation("unit", "duplicate", "§ 303-15F", f"{unit} is already listed")]),
            street_use=su,
            parcel=parcel,
            unit=unit,
        )
        su.addresses.filter(
            parcel=parcel, unit="", adults_declared__isnull=True, signatures__isnull=True, contacts__isnull=True
        ).delete()
    return address


def declare_adults(*, permit: Permit, address: PetitionAddress, adults: int, by, source: str) -> PetitionAddress:
    """§ 303-15F: the clerk records the residents over 18 an address declared (on the paper form, a page of the
    petition, or in person), or corrects a declaration. `source` says where it comes from."""
    _clerk_on_open_petition(permit, by, "record the residents an address declared")
    errors = []
    if address.street_use_id != permit.street_use.pk:
        errors.append(Violation("address", "not_on_portion", "§ 303-15F", "That address is not on this petition"))
    if adults is None or adults < 0:
        errors.append(Violation("adults", "required", "§ 303-15F", "Give the number of residents over 18"))
    if not source.strip():
        errors.append(Violation("source", "required", "§ 303-15F", "Say where the declaration comes from"))
    if errors:
        raise RulesBroken(errors)
    label = f"{workflow.actor_label(by)}, from {source.strip()}"
    PetitionAddress.objects.filter(pk=address.pk).update(
        adults_declared=adults, declared_by_label=label[:300], declared_at=timezone.now()
    )
    address.refresh_from_db()
    return address


def bind_household_email(*, permit: Permit, address: PetitionAddress, email: str, by) -> HouseholdContact:
    """§ 303-15F: the clerk binds an email to a household along the portion (the household gave it, in person or on
    the paper form); a code sent to it verifies an online consent at that address."""
    _clerk_on_open_petition(permit, by, "bind a household's email")
    if address.street_use_id != permit.street_use.pk:
        raise RulesBroken([Violation("address", "not_on_portion", "§ 303-15F", "That address is not on this petition")])
    return create_once(
        HouseholdContact,
        refusal=RulesBroken([Violation("email", "duplicate", "§ 303-15F", "That email is already bound there")]),
        address=address,
        email=email.strip().lower(),
        recorded_by=by,
    )


# Online consent: a code to a household's email. Only its keyed hash is stored; it expires, takes few tries, and one
# email gets few codes an hour (the page also limits each connection: views.CODE_REQUESTS_PER_HOUR).
CODE_SALT = "permits.street_use.consent-code"
CODE_MINUTES = 15
CODE_TRIES = 5
CODES_PER_EMAIL_HOUR = 3


def _code_hash(code_id: int, code: str) -> str:
    return salted_hmac(CODE_SALT, f"{code_id}:{code}", algorithm="sha256").hexdigest()


def request_consent_code(
    *, permit: Permit, address: PetitionAddress, name: str, email: str, adults: int | None, now: datetime | None = None
) -> ConsentCode:
    """§ 303-15F: a neighbour asks to consent online. A six-digit code goes to `email` if the clerk bound it to that
    household; the answer is the same either way (the page does not tell who lives where). Refused: a closed
    petition, an address not on it, no name, or too many codes for the email in the last hour."""
    now = now or timezone.now()
    email = email.strip().lower()
    errors = _petition_open(permit)
    if address.street_use_id != permit.street_use.pk:
        errors.append(
            Violation("address", "not_on_portion", "§ 303-15F", "Choose your address along the portion (§ 303-15F)")
        )
    if not name.strip():
        errors.append(Violation("name", "required", "§ 303-15F", "Give your full name (§ 303-15F)"))
    recent = ConsentCode.objects.filter(email=email, created_at__gt=now - timedelta(hours=1)).count()
    if recent >= CODES_PER_EMAIL_HOUR:
        errors.append(
            Violation("email", "too_many_codes", "§ 303-15F", "Too many codes for this email: try again in an hour")
        )
    if errors:
        raise RulesBroken(errors)
    code = f"{secrets.randbelow(10**6):06d}"
    with transaction.atomic():
        row = ConsentCode.objects.create(
            address=address,
            email=email,
            signer_name=name.strip(),
            adults_declared=adults,
            code_hash="",
            created_at=now,
            expires_at=now + timedelta(minutes=CODE_MINUTES),
        )
        row.code_hash = _code_hash(row.pk, code)  # keyed by the row, so one code's hash says nothing of another's
        row.save(update_fields=["code_hash"])
        if address.contacts.filter(email=email).exists():
            services.send_notice(
                None,  # not on the permit's timeline: the applicant does not learn the neighbours' emails
                to=email,
                template="street_use_consent_code",
                context={
                    "permit": permit,
                    "su": permit.street_use,
                    "address": address,
                    "code": code,
                    "minutes": CODE_MINUTES,
                },
            )
    return row


def _code_refusal(row: ConsentCode, code: str, now: datetime) -> Violation | None:
    errors = _petition_open(row.address.street_use.permit)
    if errors:
        return errors[0]
    if row.used_at is not None or row.attempts >= CODE_TRIES or now > row.expires_at:
        return Violation("code", "code_expired", "§ 303-15F", "This code has expired or was used: ask for a new one")
    bound = row.address.contacts.filter(email=row.email).exists()
    if not bound or not constant_time_compare(row.code_hash, _code_hash(row.pk, code.strip())):
        return Violation("code", "code_wrong", "§ 303-15F", "That is not the code we sent: check it and try again")
    return None


def confirm_consent(*, code_row: ConsentCode, code: str, now: datetime | None = None) -> PetitionSignature:
    """§ 303-15F: the neighbour enters the code: the consent is recorded, verified by the household's email. A code
    is good once, for CODE_MINUTES, and for CODE_TRIES tries (a code sent to an email not bound to the household
    never matches). The first verified declaration of an address's adults stands (the clerk corrects it)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = ConsentCode.objects.select_for_update().select_related("address__street_use__permit").get(pk=code_row.pk)
        refusal = _code_refusal(row, code, now)
        if refusal is None:
            ConsentCode.objects.filter(pk=row.pk).update(used_at=now)
            signature = _store_signature(
                row.address.street_use.permit,
                address=row.address,
                signer_name=row.signer_name,
                signer_email=row.email,
                method=PetitionSignature.Method.ONLINE,
                signed_at=now,
            )
            if row.adults_declared is not None:
                PetitionAddress.objects.filter(pk=row.address_id, adults_declared__isnull=True).update(
                    adults_declared=row.adults_declared,
                    declared_by_label=f"{row.signer_name}, online, code sent to the household's email"[:300],
                    declared_at=now,
                )
            return signature
        if refusal.code == "code_wrong":
            # counted in this transaction, which commits: the refusal is raised after it
            ConsentCode.objects.filter(pk=row.pk).update(attempts=row.attempts + 1)
    raise RulesBroken([refusal])


def _normal(name: str) -> str:
    return " ".join(name.lower().split())


def _store_signature(permit: Permit, **fields) -> PetitionSignature:
    return create_once(
        PetitionSignature,
        refusal=RulesBroken(
            [Violation(None, "already_signed", "§ 303-15F", "This person has already consented at this address")]
        ),
        street_use=permit.street_use,
        signer_key=_normal(fields["signer_name"]),
        **fields,
    )


def upload_petition_page(*, permit: Permit, upload, circulator_name: str, sworn_on: date, by) -> PetitionPage:
    """§ 303-15F: a page of the paper petition, uploaded (checked as every upload is) with its circulator's sworn
    verification; its consents count once the clerk accepts it."""
    _clerk_on_open_petition(permit, by, "upload a petition page")
    if not circulator_name.strip():
        raise RulesBroken(
            [Violation("circulator_name", "required", "§ 303-15F", "Name the circulator who swore to the page")]
        )
    with transaction.atomic():
        document = services.upload_document(permit=permit, kind=Document.Kind.OTHER, upload=upload, by=by)
        return PetitionPage.objects.create(
            street_use=permit.street_use,
            document=document,
            circulator_name=circulator_name.strip(),
            sworn_on=sworn_on,
            uploaded_by=by,
            uploaded_at=timezone.now(),
        )


def enter_paper_signature(
    *, page: PetitionPage, by, signer_name: str, address: PetitionAddress, signed_on: date
) -> PetitionSignature:
    """§ 303-15F: the clerk enters a consent from an uploaded page, at its address along the portion; it counts once
    the page is accepted."""
    permit = page.street_use.permit
    _clerk_on_open_petition(permit, by, "enter petition consents")
    errors = []
    if not signer_name.strip():
        errors.append(Violation("signer_name", "required", "§ 303-15F", "Give the signer's name (§ 303-15F)"))
    if address.street_use_id != page.street_use_id:
        errors.append(Violation("address", "not_on_portion", "§ 303-15F", "That address is not on this petition"))
    if page.accepted_at is not None:
        errors.append(Violation("page", "page_accepted", "§ 303-15F", "That page is accepted: it takes no more lines"))
    if errors:
        raise RulesBroken(errors)
    return _store_signature(
        permit,
        address=address,
        page=page,
        signer_name=signer_name.strip(),
        method=PetitionSignature.Method.PAPER,
        signed_at=timezone.make_aware(datetime.combine(signed_on, datetime.min.time())),
        entered_by=by,
    )


def accept_petition_page(*, page: PetitionPage, by) -> PetitionPage:
    """§ 303-15F: the clerk accepts an uploaded page and its circulator's sworn verification: its consents count."""
    _clerk_on_open_petition(page.street_use.permit, by, "accept a petition page")
    if page.accepted_at is not None:
        raise RulesBroken([Violation("page", "page_accepted", "§ 303-15F", "That page is already accepted")])
    if not page.signatures.exists():
        raise RulesBroken([Violation("page", "page_empty", "§ 303-15F", "Enter the page's consents first")])
    PetitionPage.objects.filter(pk=page.pk).update(accepted_by=by, accepted_at=timezone.now())
    page.refresh_from_db()
    services.record_event(
        page.street_use.permit,
        by=by,
        reason=f"Petition page accepted: {page.signatures.count()} consents, sworn by circulator "
        f"{page.circulator_name} on {page.sworn_on:%B %-d, %Y} (§ 303-15F)",
    )
    return page


def check_back_office_edit(permit: Permit, values: dict, *, today: date) -> list[Violation]:
    """The rules a back-office edit of a street use permit must meet: once anyone has consented, its street, portion
    and dates need a new petition (§ 303-15F); the dates stay in order."""
    from permits.admin.edits import date_order_violations

    current = {
        "street": permit.street_id,
        "location_description": permit.location_description,
        "start_date": permit.start_date,
        "end_date": permit.end_date,
    }
    proposed = dict(values)
    if isinstance(proposed.get("street"), Street):
        proposed["street"] = proposed["street"].pk
    changed = [name for name, value in current.items() if name in proposed and proposed[name] != value]
    su = StreetUse.objects.filter(permit=permit).first()
    signed = su is not None and (su.petition_verified_at is not None or su.signatures.exists())
    return [
        *rules.petition_edit_violations(signed=signed, changed=changed),
        *date_order_violations(
            start_date=values.get("start_date"), end_date=values.get("end_date"), citation="§ 303-15B(4)"
        ),
    ]


def verify_petition(*, permit: Permit, by, today: date | None = None) -> Permit:
    """§ 303-15F: the clerk verifies the petition: every address declared, and verified consents of 75% of the adults
    declared, rounded up, or it is refused. A verified petition sends the application on to the Board (under review)."""
    require_role(by, *CLERKS, action="verify the petition (the Clerk-Treasurer does, § 303-15F)")
    today = today or timezone.localdate()
    su = permit.street_use
    count = petition_count(su, on=today)
    errors = _petition_open(permit) + area_violations(permit) + count.violations
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
            reason=f"Petition verified: {count.counted} verified consents of the {count.roster_size} residents over "
            f"18 declared, {count.required} needed (§ 303-15F). Goes to the Village Board (§ 303-15C).",
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
    kinds = set(permit.documents.on_file().values_list("kind", flat=True))  # a rejected one is not on file
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


def complete_ended_events(*, today: date) -> tuple[int, int]:
    """§ 303-15B(4): the nightly job marks completed every issued street use permit whose event has ended, through
    transition() (its audit row and notice); one refused or changed meanwhile is left for the clerk."""
    from permits.errors import IllegalTransition

    due = Permit.objects.filter(
        kind=PermitKind.STREET_USE, status__in=(Status.ISSUED, Status.ACTIVE), end_date__lt=today
    ).order_by("pk")
    considered = done = 0
    for permit in due:
        considered += 1
        if not rules.event_has_ended(end_date=permit.end_date, today=today):
            continue
        try:
            workflow.transition(
                permit,
                Status.COMPLETED,
                by=None,
                today=today,
                reason=f"The event ended on {permit.end_date:%B %-d, %Y} (§ 303-15B(4)); completed by the nightly job.",
            )
        except (IllegalTransition, RulesBroken):
            continue
        done += 1
    return considered, done
