"""The nightly jobs' backlogs for the bench seeder (every job measured over a backlog, not on nothing).

seed_backlogs() adds, in bulk, about max(n // 100, 5) rows per scheduled job below, each in exactly the state the
job's query selects when it runs today (timezone.now()), attached to the permits, parcels, streets and users the
seeder already made:

    ledger-bill-charges-after-hearings          pending sidewalk-repair charges covered by a held, timely hearing
    street-openings-flag-unfiled-emergencies    emergency reports with no application past the next business day
    street-openings-lift-ended-revocations      revocations whose year is over
    field-flag-winter-patches                   winter patches not replaced by their due date
    field-end-guarantees                        guarantee years over (a fifth of the permits with an open defect)
    field-flag-defects-past-deadline            defect notices not corrected by their deadline
    field-send-notice-reminders                 permittee notices whose reminder time has come
    streetmap-notify-street-subscribers         verified subscribers of streets with permits issued lately
    obstructions-flag-cases-past-deadline       served cases past their deadline
    obstructions-flag-street-number-timers      street-number cases whose 20 days (or 10 after service) have run
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal

from django.apps import apps
from django.utils import timezone

from permits.models import PermitKind, Status
from permits.roles import Role
from permits.street_opening.field.rules import guarantee_ends_on

CHUNK = 5000


def bulk(model, rows: list, **kwargs) -> list:
    """bulk_create a chunk at a time (the seeder's and the backlogs' one way of inserting)."""
    out = []
    for start in range(0, len(rows), CHUNK):
        out.extend(model.objects.bulk_create(rows[start : start + CHUNK], **kwargs))
    return out


def hearings_for(charges: list, *, hearing_on, noticed_days_before: int, clerk) -> list:
    """The Board's hearings (Wis. Stat. § 66.0627(3)(b)) covering `charges`: one per 500, noticed (published and
    mailed) `noticed_days_before` the hearing."""
    ChargeHearing = apps.get_model("permits", "ChargeHearing")
    hearings = bulk(
        ChargeHearing,
        [
            ChargeHearing(
                hearing_on=hearing_on,
                published_on=hearing_on - timedelta(days=noticed_days_before),
                mailed_on=hearing_on - timedelta(days=noticed_days_before),
                place="Village Hall",
                recorded_by=clerk,
            )
            for _ in range(0, len(charges), 500)
        ],
    )
    Through = ChargeHearing.charges.through
    bulk(
        Through, [Through(chargehearing_id=hearings[j // 500].pk, specialcharge_id=c.pk) for j, c in enumerate(charges)]
    )
    return hearings


def _take(items: list, start: int, count: int) -> list:
    """`count` items from `start`, wrapping around (a small seed has few permits in one status)."""
    return [items[(start + k) % len(items)] for k in range(count)] if items else []


def seed_backlogs(*, n: int, permits: list, streets: list, parcels: list, orgs: list, staff: dict, tag: str, say):
    """Bulk-create each job's backlog (see the module's docstring); no services, no mail."""
    k = max(n // 100, 5)
    now = timezone.now()
    today = timezone.localdate(now)
    clerk, director = staff[Role.CLERK], staff[Role.DPW_DIRECTOR]
    t = tag
    openings = [p for p in permits if p.kind == PermitKind.STREET_OPENING]
    completed = [p for p in openings if p.status == Status.COMPLETED]
    active = [p for p in openings if p.status == Status.ACTIVE]
    under_way = [p for p in openings if p.status in (Status.APPROVED, Status.ISSUED, Status.ACTIVE)]

    # --- field (§ 303-4H, § 303-5G(4), § 303-5F) -------------------------------------------------------------------
    Guarantee = apps.get_model("permits", "Guarantee")
    DefectNotice = apps.get_model("permits", "DefectNotice")
    PavementRestoration = apps.get_model("permits", "PavementRestoration")
    PermitteeNotice = apps.get_model("permits", "PermitteeNotice")

    # Guarantees whose year is over (completed 13 to 25 months ago); every fifth permit has an open defect (deadline
    # ahead), so the job ends its guarantee but leaves it completed. Distinct permits (one guarantee a permit).
    guaranteed = completed[: min(k, len(completed))]
    guarantees = []
    for i, permit in enumerate(guaranteed):
        completed_on = today - timedelta(days=400 + i % 365)
        guarantees.append(Guarantee(permit=permit, completed_on=completed_on, ends_on=guarantee_ends_on(completed_on)))
    bulk(Guarantee, guarantees)

    def defect(permit, i: int, *, served_on, deadline) -> object:
        return DefectNotice(
            permit=permit,
            defect="Bench defect: settled patch",
            work_to_be_done="Mill and repave the patch",
            estimated_cost=Decimal("850.00"),
            deadline=deadline,
            addressed_to=DefectNotice.Addressee.PERMITTEE,
            addressee_name="Bench permittee",
            addressee_email=f"permittee{t}{i}@bench.example",
            served_on=served_on,
            recorded_by=director,
            recorded_at=now - timedelta(days=(today - served_on).days),
        )

    defects = [
        defect(p, i, served_on=today - timedelta(days=5), deadline=today + timedelta(days=25))
        for i, p in enumerate(guaranteed)
        if i % 5 == 0
    ]
    # Defects past their deadline (served 40 days ago, due 10 days ago), on other completed permits.
    defects += [
        defect(p, i, served_on=today - timedelta(days=40), deadline=today - timedelta(days=10 + i % 20))
        for i, p in enumerate(_take(completed, len(guaranteed), k))
    ]
    bulk(DefectNotice, defects)

    # Winter patches (placed last winter) whose permanent pavement was due and is not in.
    bulk(
        PavementRestoration,
        [
            PavementRestoration(
                permit=p,
                temporary_placed_on=today - timedelta(days=200 + i % 60),
                temporary_depth_inches=Decimal("3.0"),
                permanent_due_on=today - timedelta(days=1 + i % 30),
            )
            for i, p in enumerate(active[: min(k, len(active))])
        ],
    )

    # Notices still to give whose reminder time has come: one pending notice per (permit, kind).
    kinds = list(PermitteeNotice.Kind)
    notices = []
    for i in range(min(k, len(under_way) * len(kinds))):
        planned = now + timedelta(days=2, hours=i % 24)
        notices.append(
            PermitteeNotice(
                permit=under_way[i // len(kinds)],
                kind=kinds[i % len(kinds)],
                planned_work_at=planned,
                due_by=planned - timedelta(days=1),
                reminder_at=now - timedelta(hours=1 + i % 12),
            )
        )
    bulk(PermitteeNotice, notices)

    # --- street openings (§ 303-5H, § 303-4H(2)) -----------------------------------------------------------------
    EmergencyReport = apps.get_model("permits", "EmergencyReport")
    ApplicantRevocation = apps.get_model("permits", "ApplicantRevocation")
    bulk(
        EmergencyReport,
        [
            EmergencyReport(
                organization=orgs[i % len(orgs)],
                reported_by_name="Bench foreman",
                street=streets[i % len(streets)],
                location_description=f"Water main break at {100 + i} {streets[i % len(streets)].name}",
                began_on=today - timedelta(days=10 + i % 30),
                reported_at=now - timedelta(days=10 + i % 30),
                recorded_by=clerk,
            )
            for i in range(k)
        ],
    )
    revoked = _take(openings, 0, k)
    bulk(
        ApplicantRevocation,
        [
            ApplicantRevocation(
                organization_id=p.organization_id,
                user_id=None if p.organization_id else p.applicant_id,
                permit=p,
                revoked_on=today - timedelta(days=370 + i % 30),
                until=today - timedelta(days=5 + i % 30),
                reason="Bench: deficiencies not corrected on notice",
                revoked_by=director,
                revoked_at=now - timedelta(days=370 + i % 30),
            )
            for i, p in enumerate(revoked)
        ],
    )

    # --- ledger (Wis. Stat. § 66.0627(3)(b)) ---------------------------------------------------------------------
    SpecialCharge = apps.get_model("permits", "SpecialCharge")
    charges = bulk(
        SpecialCharge,
        [
            SpecialCharge(
                number=f"SC-H{t}{i:07d}",
                parcel=parcels[(i * 11) % len(parcels)],
                source=SpecialCharge.Source.SIDEWALK_REPAIR,
                route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
                amount=Decimal("240.00") + i % 40,
                description="Bench sidewalk repair awaiting its hearing",
                citation="§ 303-3D",
                incurred_on=today - timedelta(days=60 + i % 30),
                status=SpecialCharge.Status.PENDING,
                created_by=clerk,
            )
            for i in range(k)
        ],
    )
    hearings_for(charges, hearing_on=today - timedelta(days=3), noticed_days_before=30, clerk=clerk)

    # --- street map: subscribers of the streets of the k permits issued last ---------------------------------------
    StreetSubscription = apps.get_model("permits", "StreetSubscription")
    recent = sorted(
        (p for p in permits if p.status in (Status.ISSUED, Status.ACTIVE) and p.issued_on and p.issued_on <= today),
        key=lambda p: (p.issued_on, p.pk),
        reverse=True,
    )[:k]
    since: dict[int, object] = {}
    for p in recent:  # last told the day of the street's earliest of them: each of them is news to it
        since[p.street_id] = min(since.get(p.street_id, p.issued_on), p.issued_on)
    bulk(
        StreetSubscription,
        [
            StreetSubscription(
                email=f"subscriber{t}{j:05d}@bench.example",
                street_id=street_id,
                verified_at=now - timedelta(days=400),
                last_notified_on=on,
            )
            for j, (street_id, on) in enumerate(since.items())
        ],
    )

    # --- obstructions (§ 303-6D/E, § 303-14C) --------------------------------------------------------------------
    Case = apps.get_model("obstructions", "Case")
    cases = []
    kc = max(k, 13)  # at 1,000 permits too, more open cases than a page holds (a page of 20 rows was compared to 25)
    for i in range(kc):
        parcel = parcels[(i * 17) % len(parcels)]
        served = now - timedelta(days=3 + i % 10)
        cases.append(
            Case(
                number=f"XB{t}-{i:07d}",
                kind=Case.Kind.OBSTRUCTION_SIDEWALK,
                status=Case.Status.NOTICED,
                parcel=parcel,
                reported_address=parcel.site_address,
                what="Bench: shrubs over the walk",
                seen_at=served - timedelta(days=1),
                opened_by=clerk,
                opened_at=served - timedelta(days=1),
                served_to="owner",
                served_name=parcel.owner_name[:200],
                served_how=Case.ServedHow.PERSONAL,
                served_at=served,
                deadline_at=served + timedelta(hours=24),
            )
        )
    for i in range(kc):  # street numbers: half neglected 20 days (notice due), half served 10 days ago (referral)
        parcel = parcels[(i * 19 + 7) % len(parcels)]
        noticed = i % 2 == 1
        served = timezone.make_aware(datetime.combine(today - timedelta(days=15 + i % 10), time(10)))
        cases.append(
            Case(
                number=f"XN{t}-{i:07d}",
                kind=Case.Kind.STREET_NUMBER,
                status=Case.Status.NOTICED if noticed else Case.Status.OPEN,
                parcel=parcel,
                reported_address=parcel.site_address,
                what="Bench: no street number displayed",
                seen_at=served - timedelta(days=30),
                opened_by=clerk,
                opened_at=served - timedelta(days=30),
                neglect_recorded_on=today - timedelta(days=25 + i % 10) if not noticed else served.date(),
                served_to="owner" if noticed else "",
                served_name=parcel.owner_name[:200] if noticed else "",
                served_how=Case.ServedHow.PERSONAL if noticed else "",
                served_at=served if noticed else None,
                deadline_at=served + timedelta(days=10) if noticed else None,
            )
        )
    bulk(Case, cases)
    say(
        f"job backlogs: {len(guarantees)} guarantees ended, {len(defects)} defect notices, {len(notices)} notices"
        f" to remind, {k} emergencies, {len(revoked)} revocations, {len(charges)} charges heard,"
        f" {len(since)} street subscriptions, {len(cases)} enforcement cases"
    )
