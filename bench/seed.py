"""Seed a benchmark database at a given scale, through the project's own models, in bulk.

    python bench/seed.py --permits 100000        (on an empty, migrated database of its own; bench/run.py does)

or, from code where Django is set up (the tests): `bench.seed.seed(permits=300)`.

Permits of every type in every status with their timelines, payments, street openings with inspections, sidewalk
permits, parcels, special charges (a tenth of them delinquent and ready for the tax roll, with their hearings),
organizations and their staff. One permit carries a 1,000-event timeline (the admin and detail page budgets). The
rows are written with bulk_create in chunks; dates are spread over the past years, so the lists sort real data.
It refuses a database that already has permits (seed once, reuse it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import TextIO

from django.apps import apps

if not apps.ready:  # run as a script: set Django up first (DJANGO_SETTINGS_MODULE as bench/run.py passes it)
    import django

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "theresa_permits.settings")
    django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.backlogs import bulk as _bulk  # noqa: E402
from bench.backlogs import hearings_for, seed_backlogs  # noqa: E402
from permits.ledger.models import SpecialCharge  # noqa: E402
from permits.models import (  # noqa: E402
    Membership,
    NumberSequence,
    Organization,
    Parcel,
    Payment,
    Permit,
    PermitEvent,
    PermitKind,
    Status,
    Street,
)
from permits.roles import Role  # noqa: E402

CHUNK = 5000
PASSWORD = "bench-password-1"  # the bench logs in with force_login; this is only for a person poking at the data
# The path each status took (the timeline of a permit in that status): the issued ones along one road.
_TO_ISSUED = [Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED, Status.ISSUED]
PATHS = {
    Status.DRAFT: [],
    Status.SUBMITTED: [Status.SUBMITTED],
    Status.UNDER_REVIEW: [Status.SUBMITTED, Status.UNDER_REVIEW],
    Status.APPROVED: [Status.SUBMITTED, Status.UNDER_REVIEW, Status.APPROVED],
    Status.ISSUED: _TO_ISSUED,
    Status.ACTIVE: [*_TO_ISSUED, Status.ACTIVE],
    Status.COMPLETED: [*_TO_ISSUED, Status.ACTIVE, Status.COMPLETED],
    Status.CLOSED: [*_TO_ISSUED, Status.ACTIVE, Status.COMPLETED, Status.CLOSED],
    Status.DENIED: [Status.SUBMITTED, Status.UNDER_REVIEW, Status.DENIED],
    Status.WITHDRAWN: [Status.SUBMITTED, Status.WITHDRAWN],
    Status.EXPIRED: [*_TO_ISSUED, Status.EXPIRED],
    Status.REVOKED: [*_TO_ISSUED, Status.REVOKED],
}
PAID_STATUSES = {Status.ISSUED, Status.ACTIVE, Status.COMPLETED, Status.CLOSED, Status.EXPIRED, Status.REVOKED}
KIND_PREFIX = {
    PermitKind.STREET_OPENING: "SO",
    PermitKind.SIDEWALK: "SW",
    PermitKind.STREET_PRIVILEGE: "SP",
    PermitKind.STREET_USE: "SU",
}
SURNAMES = ["Brandt", "Schmidt", "Krueger", "Weber", "Hoffmann", "Becker", "Olson", "Nelson", "Meyer", "Wagner"]


class SeedRefused(Exception):
    pass


def seed(*, permits: int = 1000, seed: int = 13, more: str = "", out: TextIO | None = None) -> None:
    """Seed `permits` permits and their records; `more` adds another batch to a seeded database, its names and
    numbers tagged with it. Refuses a database that already has permits otherwise (seed once, reuse it)."""
    if Permit.objects.exists() and not more:
        raise SeedRefused("This database already has permits: seed an empty one (the bench reuses it).")
    seeder = _Seeder(tag=more, out=out or sys.stdout)
    rng = random.Random(seed)
    started = time.monotonic()
    with transaction.atomic():
        seeder._seed(rng, permits)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # VACUUM too, not only ANALYZE: a bulk load leaves the trigram (GIN) indexes' pending lists unmerged
            # and no visibility map, and the planner then skips those indexes and prices index-only scans as
            # heap reads (where autovacuum is off, as on this machine, nothing else would do it).
            # Inside a transaction (a test seeding its own rows) VACUUM cannot run: ANALYZE alone there.
            cursor.execute("ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE")
    print(f"Seeded {permits} permits in {time.monotonic() - started:.1f} s.", file=seeder.out, flush=True)


class _Seeder:
    def __init__(self, *, tag: str, out: TextIO):
        self.tag, self.out = tag, out

    def _say(self, what: str) -> None:
        print(f"  {what}", file=self.out, flush=True)

    def _seed(self, rng: random.Random, n: int) -> None:
        User = get_user_model()
        # The types' records by label (the core names no permit type package; permits.kinds lists them).
        StreetOpening = apps.get_model("permits", "StreetOpening")
        Inspection = apps.get_model("permits", "Inspection")
        SidewalkPermit = apps.get_model("sidewalks", "SidewalkPermit")
        StreetPrivilege = apps.get_model("permits", "StreetPrivilege")
        StreetUse = apps.get_model("permits", "StreetUse")
        now = timezone.now()
        today = timezone.localdate()
        probe = User(username="probe")
        probe.set_password(PASSWORD)
        hashed = probe.password

        def bench_user(username: str, first_name: str):
            """One of the bench's many people (bulk-created: every one shares the hashed password)."""
            return User(
                username=username,
                email=f"{username}@bench.example",
                first_name=first_name,
                last_name=rng.choice(SURNAMES),
                password=hashed,
            )

        # Staff: one per role, and the bench's clerk (a superuser-free clerk, as the office list runs for one).
        staff = {}
        for role in Role:
            user, _ = User.objects.get_or_create(
                username=f"bench-{role.name.lower()}",
                defaults={
                    "email": f"{role.name.lower()}@bench.example",
                    "first_name": role.label.split()[0],
                    "last_name": "Staff",
                    "password": hashed,
                    "is_staff": True,
                },
            )
            user.groups.add(Group.objects.get_or_create(name=role.value)[0])
            staff[role] = user
        clerk, inspector = staff[Role.CLERK], staff[Role.DPW_INSPECTOR]
        t = self.tag

        # Organizations (one per 50 permits) with two staff each; residents (one per 10 permits).
        n_orgs = max(n // 50, 4)
        orgs = _bulk(
            Organization,
            [
                Organization(
                    name=f"Bench Contractor {t}{i:05d}",
                    kind=Organization.Kind.UTILITY if i % 7 == 0 else Organization.Kind.CONTRACTOR,
                    phone="920-555-0100",
                )
                for i in range(n_orgs)
            ],
        )
        org_users = _bulk(User, [bench_user(f"org{t}{i:05d}-{j}", "Pat") for i in range(n_orgs) for j in range(2)])
        _bulk(
            Membership,
            [Membership(user=u, organization=orgs[k // 2], is_manager=k % 2 == 0) for k, u in enumerate(org_users)],
        )
        residents = _bulk(User, [bench_user(f"resident{t}{i:06d}", "Sam") for i in range(max(n // 10, 10))])
        self._say(f"{len(orgs)} organizations, {len(org_users) + len(residents)} users")

        streets = _bulk(
            Street,
            [
                Street(
                    name=f"Bench Street {t}{i:03d}",
                    width_feet=Decimal("36.0"),
                    traveled_width_feet=Decimal("32.0"),
                    sidewalk_width_feet=Decimal("5.0"),
                )
                for i in range(max(n // 2500, 40))
            ],
        )
        n_parcels = max(n // 5, 1000)  # at 1k too, a search for one surname fills a page of every list
        parcels = _bulk(
            Parcel,
            [
                Parcel(
                    tax_key=f"B{t}-{i:07d}",
                    site_address=f"{100 + i % 900} {streets[i % len(streets)].name}",
                    owner_name=f"{rng.choice(SURNAMES)} Family {i}",
                    owner_mailing_address="Theresa, WI 53091",
                    land_use=Parcel.LandUse.RESIDENTIAL if i % 9 else Parcel.LandUse.COMMERCIAL,
                    street=streets[i % len(streets)],
                )
                for i in range(n_parcels)
            ],
        )
        self._say(f"{len(streets)} streets, {len(parcels)} parcels")

        # Permits: 60 % street openings, 30 % sidewalks, 10 % office-only types; every status.
        kinds = [PermitKind.STREET_OPENING] * 6 + [PermitKind.SIDEWALK] * 3
        kinds += [PermitKind.STREET_PRIVILEGE, PermitKind.STREET_USE]
        statuses = list(Status)
        seq: dict[tuple[str, int], int] = {}
        rows = []
        years_back = 5
        issued_uses = 0
        for i in range(n):
            kind = kinds[i % len(kinds)]
            status = statuses[rng.randrange(len(statuses))]
            if i < len(kinds) * len(statuses):
                # Every type in every status first, at any scale, then at random: 11 kind slots and 12 statuses share
                # no factor, so the first 132 permits hold each pair once and any 12 in a row hold every status.
                status = statuses[i % len(statuses)]
            elif kind == PermitKind.STREET_USE and issued_uses < 25:
                # A page of street use events issued (then put under way below) at any scale.
                status, issued_uses = Status.ISSUED, issued_uses + 1
            created = now - timedelta(minutes=int((n - i) * years_back * 525600 / n))
            prefix, year = KIND_PREFIX[kind], created.year
            seq[(prefix, year)] = seq.get((prefix, year), 0) + 1
            org = orgs[rng.randrange(len(orgs))] if i % 3 else None
            rows.append((kind, status, created, prefix, year, seq[(prefix, year)], org))
        org_index = {o.pk: k for k, o in enumerate(orgs)}
        permit_rows = []
        for i, (kind, status, created, prefix, year, number, org) in enumerate(rows):
            applicant = org_users[org_index[org.pk] * 2] if org is not None else residents[i % len(residents)]
            parcel = parcels[i % len(parcels)]
            submitted = created + timedelta(hours=1) if status != Status.DRAFT else None
            issued = (created + timedelta(days=3)).date() if status in PAID_STATUSES else None
            permit_rows.append(
                Permit(
                    number=f"{prefix}-{year}-{t}{number:05d}",
                    kind=kind,
                    status=status,
                    applicant=applicant,
                    organization=org,
                    street=parcel.street,
                    parcel=parcel,
                    location_description=f"In front of {parcel.site_address}",
                    work_description="Bench work: lateral repair" if i % 2 else "Bench work: new walk",
                    start_date=issued,
                    end_date=issued + timedelta(days=30) if issued else None,
                    fee_code="bench",
                    fee_amount=Decimal("75.00"),
                    fee_basis="Bench fee",
                    submitted_at=submitted,
                    approved_on=issued,
                    issued_on=issued,
                    expires_on=issued + timedelta(days=30) if issued else None,
                )
            )
        permits = _bulk(Permit, permit_rows)
        # created_at is auto_now_add: put the spread dates back in one statement per chunk.
        for start in range(0, len(permits), CHUNK):
            chunk = permits[start : start + CHUNK]
            for p, row in zip(chunk, rows[start : start + CHUNK], strict=True):
                p.created_at = row[2]
            Permit.objects.bulk_update(chunk, ["created_at"], batch_size=CHUNK)
        if not t:  # a tagged batch's numbers are outside the sequences (the sequences stay the untagged ones')
            NumberSequence.objects.bulk_create(
                [NumberSequence(prefix=p, year=y, last_value=v) for (p, y), v in seq.items()], ignore_conflicts=True
            )
        self._say(f"{len(permits)} permits")

        events, payments = [], []
        receipt = 0
        for permit, row in zip(permits, rows, strict=True):
            status, created = row[1], row[2]
            at = created
            prev = ""
            for to in PATHS[status]:
                at = at + timedelta(hours=rng.randrange(1, 48))
                events.append(
                    PermitEvent(
                        permit=permit,
                        from_status=prev or Status.DRAFT,
                        to_status=to,
                        actor=clerk if to != Status.SUBMITTED else None,
                        actor_label="Clerk-Treasurer" if to != Status.SUBMITTED else "Applicant",
                        at=at,
                        reason="",
                    )
                )
                prev = to
            if status in PAID_STATUSES:
                receipt += 1
                payments.append(
                    Payment(
                        permit=permit,
                        amount=Decimal("75.00"),
                        method=Payment.Method.CHECK,
                        reference=f"{1000 + receipt}",
                        receipt_number=f"R-B{t}{receipt:07d}",
                        received_by=clerk,
                        received_at=created + timedelta(days=2),
                    )
                )
                events.append(
                    PermitEvent(
                        permit=permit,
                        kind=PermitEvent.Kind.PAYMENT,
                        actor=clerk,
                        actor_label="Clerk-Treasurer",
                        at=created + timedelta(days=2),
                        reason=f"Receipt R-B{t}{receipt:07d}",
                    )
                )
            if len(events) >= 50_000:
                _bulk(PermitEvent, events)
                events = []
        # The long-lived permit: a 1,000-event timeline (a utility's years of work on one opening).
        long_permit = next(
            (p for p, r in zip(permits, rows, strict=True) if r[1] == Status.ACTIVE and r[0] == "street_opening"),
            permits[0],
        )
        for k in range(1000 if n >= 1000 else 0):
            events.append(
                PermitEvent(
                    permit=long_permit,
                    kind=PermitEvent.Kind.NOTE,
                    actor=inspector,
                    actor_label="DPW Inspector",
                    at=now - timedelta(hours=1000 - k),
                    reason=f"Inspection note {k}",
                )
            )
        _bulk(PermitEvent, events)
        _bulk(Payment, payments)
        self._say(f"timelines, {len(payments)} payments; long timeline on {long_permit.number}")

        openings, sidewalks, inspections, privileges, uses = [], [], [], [], []
        in_progress = 0
        for permit, row in zip(permits, rows, strict=True):
            kind, status, created = row[0], row[1], row[2]
            if kind == PermitKind.STREET_OPENING:
                openings.append(
                    StreetOpening(
                        permit=permit,
                        method="Open cut, backfill with crushed stone",
                        surface="bituminous",
                        insurance_per_person=Decimal("100000"),
                        insurance_per_accident=Decimal("300000"),
                        insurance_property_damage=Decimal("50000"),
                        insurance_expires=today + timedelta(days=365),
                        statement_signed_by=permit.applicant.get_full_name(),
                        statement_signed_at=created,
                    )
                )
                if status in {Status.ACTIVE, Status.COMPLETED, Status.CLOSED}:
                    inspections.append(
                        Inspection(
                            permit=permit,
                            kind="backfill",
                            inspector=inspector,
                            at=created + timedelta(days=5),
                            result="pass",
                        )
                    )
            elif kind == PermitKind.SIDEWALK:
                sidewalks.append(
                    SidewalkPermit(
                        permit=permit,
                        parcel=permit.parcel,
                        work="repair",
                        frontage_feet=Decimal("60"),
                        width_feet=Decimal("5"),
                        thickness_inches=Decimal("4"),
                        pour_date=(created + timedelta(days=10)).date(),
                    )
                )
            elif kind == PermitKind.STREET_PRIVILEGE:
                privileges.append(
                    StreetPrivilege(
                        permit=permit,
                        purpose="materials",
                        building_permit_number=f"B-{created.year}-{permit.pk}",
                        street_width_feet=Decimal("36.0"),
                        occupied_street_feet=Decimal("10.0"),
                    )
                )
            elif kind == PermitKind.STREET_USE:
                starts = created + timedelta(days=30)
                if status == Status.ISSUED and in_progress < 25:
                    # A page of events under way now at every scale, so the in-progress list has rows at 1k too.
                    starts, in_progress = now - timedelta(hours=2), in_progress + 1
                uses.append(
                    StreetUse(
                        permit=permit,
                        applicant_name=permit.applicant.get_full_name() or "Bench resident",
                        applicant_address=permit.parcel.site_address,
                        applicant_phone="920-555-0100",
                        responsible_name=permit.applicant.get_full_name() or "Bench resident",
                        responsible_address=permit.parcel.site_address,
                        responsible_phone="920-555-0100",
                        starts_at=starts,
                        ends_at=starts + timedelta(hours=6),
                        expected_attendance=80,
                    )
                )
        _bulk(StreetOpening, openings)
        _bulk(StreetPrivilege, privileges)
        _bulk(StreetUse, uses)
        _bulk(SidewalkPermit, sidewalks)
        _bulk(Inspection, inspections)
        self._say(
            f"{len(openings)} street openings, {len(sidewalks)} sidewalk permits, {len(privileges)} street privilege"
            f" and {len(uses)} street use permits, {len(inspections)} inspections"
        )

        # Special charges: one per 10 permits; of every status; the delinquent ones have their hearing.
        n_charges = max(n // 10, 300)  # likewise: a page of charges found by a surname at 1k
        charge_rows = []
        sources = list(SpecialCharge.Source)
        for i in range(n_charges):
            incurred = today - timedelta(days=30 + (i * 1800) // n_charges)
            status = SpecialCharge.Status.DELINQUENT if i % 2 == 0 else rng.choice(list(SpecialCharge.Status))
            billed = incurred + timedelta(days=5)
            due = billed + timedelta(days=30)
            charge_rows.append(
                SpecialCharge(
                    number=f"SC-B{t}{i:07d}",
                    parcel=parcels[(i * 7) % len(parcels)],
                    source=sources[i % len(sources)],
                    route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
                    amount=Decimal("125.00") + i % 50,
                    description="Bench charge",
                    citation="§ 303-8B",
                    incurred_on=incurred,
                    billed_on=billed,
                    due_on=due,
                    delinquent_on=due + timedelta(days=1) if status == SpecialCharge.Status.DELINQUENT else None,
                    status=status,
                    created_by=clerk,
                )
            )
        # A page and more of this year's sidewalk repairs no hearing covers yet at every scale (the hearings page lists
        # them): at 1,000 permits the mix above leaves two, against a full page at 100,000, and a ratio of a nearly
        # empty page to a full one measures the page's size, not the data.
        for i in range(max(0, 40 - n_charges // 250)):
            incurred = today - timedelta(days=1 + i % max(1, (today - today.replace(month=1, day=1)).days))
            charge_rows.append(
                SpecialCharge(
                    number=f"SC-H{t}{i:06d}",
                    parcel=parcels[(i * 11 + 3) % len(parcels)],
                    source=SpecialCharge.Source.SIDEWALK_REPAIR,
                    route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
                    amount=Decimal("310.00") + i,
                    description="Bench sidewalk repair awaiting its hearing",
                    citation="§ 303-3",
                    incurred_on=incurred,
                    status=SpecialCharge.Status.PENDING,
                    created_by=clerk,
                )
            )
        charges = _bulk(SpecialCharge, charge_rows)
        # The Board's hearings (Wis. Stat. § 66.0627(3)(b)): one per 500 delinquent charges, noticed in time.
        hearing_on = today - timedelta(days=20)
        delinquent = [c for c in charges if c.status == SpecialCharge.Status.DELINQUENT]
        hearings_for(delinquent, hearing_on=hearing_on, noticed_days_before=14, clerk=clerk)
        self._say(f"{len(charges)} special charges")
        _seed_board_matters(n=n, parcels=parcels, clerk=clerk, today=today, say=self._say)
        seed_backlogs(
            n=n, permits=permits, streets=streets, parcels=parcels, orgs=orgs, staff=staff, tag=t, say=self._say
        )


def _one_parcel_per_street(parcels: list, wanted: int) -> list:
    """Up to `wanted` parcels on different streets: a street has at most one pending grade application (§ 303-1A(2),
    the constraint registers_one_pending_grade_application)."""
    by_street: dict[int, object] = {}
    for parcel in parcels:
        by_street.setdefault(parcel.street_id, parcel)
    return list(by_street.values())[:wanted]


def _seed_board_matters(*, n: int, parcels: list, clerk, today, say) -> None:
    """Matters waiting for the Board (the Board queue and the clerk's start page list them at every scale):
    sidewalk width and cold-weather pour waivers asked for (§ 303-3D(8)(c), (9)), one of each per 500 permits, and
    owners' sidewalk grade applications (§ 303-1A(2)), one per 1,000 permits. Pending, as the Board finds them."""
    GradeApplication = apps.get_model("obstructions", "GradeApplication")
    WaiverRequest = apps.get_model("sidewalks", "WaiverRequest")

    kinds = ("width_thickness", "cold_weather")
    waivers = _bulk(
        WaiverRequest,
        [
            WaiverRequest(
                kind=kinds[i % 2], parcel=parcels[(i * 13) % len(parcels)], reason="Bench waiver", requested_by=clerk
            )
            for i in range(max(2 * n // 500, 2))
        ],
    )
    now = timezone.now()
    grades = _bulk(
        GradeApplication,
        [
            GradeApplication(
                street=parcel.street,
                parcel=parcel,
                owners="Bench owners",
                received_on=today - timedelta(days=i % 300),
                recorded_by=clerk,
                recorded_at=now,
            )
            for i, parcel in enumerate(_one_parcel_per_street(parcels, max(n // 1000, 1)))
        ],
    )
    say(f"{len(waivers)} sidewalk waivers and {len(grades)} grade applications waiting for the Board")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Seed a benchmark database (its own, empty and migrated).")
    parser.add_argument("--permits", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--more", default="", help="add another batch to a seeded database, its names and numbers tagged with this"
    )
    args = parser.parse_args(argv)
    try:
        seed(permits=args.permits, seed=args.seed, more=args.more)
    except SeedRefused as refused:
        sys.exit(str(refused))


if __name__ == "__main__":
    main()
