"""Demo data: the village's streets, about 40 parcels, and one account per role. Safe to load twice."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from permits.models import Membership, Organization, Parcel, Street
from permits.roles import Role

STREETS = [
    "Highland Avenue",
    "Theresa Lane",
    "Milwaukee Street",
    "Henni Street",
    "Main Street",
    "Juneau Street",
    "Mill Street",
    "Church Street",
    "Schoolview Drive",
    "Maple Lane",
    "Cedar Court",
    "Rock River Road",
]
OWNERS = [
    "Anderson, Mark & Linda",
    "Becker, Paul",
    "Schmidt Family Trust",
    "Klein, Joan",
    "Weber, Thomas & Ann",
    "Hoffmann, Greta",
    "Braun, Eric",
    "Zimmerman, Sue",
    "Fischer, Dale & Kay",
    "Wagner, Tim",
    "Meyer, Ruth",
    "Koch, Brian",
    "Richter, Amy",
    "Wolf, Daniel",
    "Schulz, Karen",
    "Neumann, Roger",
    "Schwartz, Jill",
    "Krueger, Ron & Deb",
    "Lange, Matt",
    "Schroeder, Ellen",
    "Theresa Cheese Co-op",
    "Rock River Feed & Supply LLC",
    "Main Street Tavern Inc",
    "Juneau Street Auto LLC",
    "Village Hardware Inc",
    "Dodge County Credit Union",
    "Theresa Implement Co",
    "Mill Street Storage LLC",
    "Henni Street Bakery LLC",
    "Kettle Moraine Dental SC",
]
ACCOUNTS = [
    # username, first, last, role (None for the public)
    ("clerk", "Carol", "Kramer", Role.CLERK),
    ("dpw", "Dave", "Pieper", Role.DPW_DIRECTOR),
    ("inspector", "Ines", "Vogel", Role.DPW_INSPECTOR),
    ("building", "Bill", "Lehmann", Role.BUILDING_INSPECTOR),
    ("police", "Pat", "Reinke", Role.POLICE_CHIEF),
    ("officer", "Owen", "Schmitt", Role.POLICE_OFFICER),
    ("board", "Barb", "Ottmann", Role.BOARD),
    ("president", "Peter", "Henning", Role.PRESIDENT),
    ("resident", "Rita", "Anderson", None),
    ("contractor", "Carl", "Brandt", None),
    ("utility", "Uma", "Steffen", None),
]
USERNAMES = [a[0] for a in ACCOUNTS]


def _parcel_rows():
    """40 parcels: 30 residential on the residential streets, 10 commercial/industrial downtown."""
    rows = []
    residential_streets = [s for s in STREETS if s not in ("Milwaukee Street", "Main Street")]
    for i in range(30):
        street = residential_streets[i % len(residential_streets)]
        number = 100 + (i // len(residential_streets)) * 20 + (i % 2) * 2 + 2
        rows.append(
            (f"266-1116-{1000 + i:04d}", f"{number} {street}", OWNERS[i % 20], "residential", street, i % 7 == 0)
        )
    for i in range(10):
        street = ("Milwaukee Street", "Main Street")[i % 2]
        land_use = "industrial" if i in (6, 7) else "commercial"
        rows.append((f"266-1116-{2000 + i:04d}", f"{200 + i * 4} {street}", OWNERS[20 + i], land_use, street, i == 0))
    return rows


# The demo street register (§ 303-7D(1), § 303-6B(2)): width, traveled width, sidewalk width in feet. The main
# streets are wide with sidewalks on both sides; the courts and lanes narrow, Rock River Road has no sidewalk.
STREET_WIDTHS = {
    "Milwaukee Street": ("44.0", "40.0", "6.0"),
    "Main Street": ("36.0", "32.0", "5.0"),
    "Rock River Road": ("28.0", "24.0", None),
    "Cedar Court": ("24.0", "22.0", "4.0"),
}
DEFAULT_WIDTHS = ("32.0", "28.0", "5.0")


def _record_street_widths(streets: dict) -> None:
    """Each demo street's widths, as the Clerk-Treasurer records them on the street register page (a street already
    recorded keeps its widths)."""
    from decimal import Decimal

    for name, street in streets.items():
        if street.width_feet is not None:
            continue
        width, traveled, sidewalk = STREET_WIDTHS.get(name, DEFAULT_WIDTHS)
        street.width_feet, street.traveled_width_feet = Decimal(width), Decimal(traveled)
        street.sidewalk_width_feet = Decimal(sidewalk) if sidewalk else None
        street.save(update_fields=["width_feet", "traveled_width_feet", "sidewalk_width_feet"])


@transaction.atomic
def load_demo(password: str | None = None) -> dict:
    from allauth.account.models import EmailAddress

    password = password or settings.DEMO_PASSWORD
    streets = {name: Street.objects.get_or_create(name=name)[0] for name in STREETS}
    _record_street_widths(streets)
    for tax_key, address, owner, land_use, street, corner in _parcel_rows():
        Parcel.objects.update_or_create(
            tax_key=tax_key,
            defaults={
                "site_address": address,
                "owner_name": owner,
                "owner_mailing_address": f"{address}\nTheresa, WI 53091",
                "land_use": land_use,
                "street": streets[street],
                "corner_lot": corner,
            },
        )
    User = get_user_model()
    users = {}
    for username, first, last, role in ACCOUNTS:
        email = f"{username}@theresa.example"
        user, _ = User.objects.get_or_create(username=username, defaults={"email": email})
        user.first_name, user.last_name, user.email = first, last, email
        user.is_staff = role is not None
        user.set_password(password)
        user.save()
        if role is not None:
            user.groups.add(Group.objects.get(name=role.value))
        EmailAddress.objects.update_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
        users[username] = user
    contractor, _ = Organization.objects.get_or_create(
        name="Brandt Excavating LLC", defaults={"kind": Organization.Kind.CONTRACTOR, "phone": "920-555-0142"}
    )
    utility, _ = Organization.objects.get_or_create(
        name="Rock River Gas & Electric", defaults={"kind": Organization.Kind.UTILITY, "phone": "920-555-0199"}
    )
    if not utility.utility_facilities:  # § 303-5H: what it owns in Village streets, as the clerk recorded it
        utility.utility_facilities = [Organization.Facility.GAS_MAIN, Organization.Facility.CONDUIT]
        utility.utility_facilities_note = "Gas mains and electric conduit under Village streets"
        utility.save(update_fields=["utility_facilities", "utility_facilities_note"])
    Membership.objects.get_or_create(user=users["contractor"], organization=contractor, defaults={"is_manager": True})
    Membership.objects.get_or_create(user=users["utility"], organization=utility, defaults={"is_manager": True})
    Parcel.objects.get(tax_key="266-1116-1000").owners.add(users["resident"])
    _demo_parcel_link(users)
    from permits.village_office import update_office_facts  # the office's phone and hours, as the clerk keeps them

    update_office_facts(
        by=users["clerk"],
        address=settings.VILLAGE_OFFICE,
        phone="(920) 555-0100",
        email="clerk@theresa.example",
        hours="Monday to Friday, 8 am to 4:30 pm\nClosed on legal holidays and the days on the office calendar",
    )
    from permits.board import demo as board_demo  # the Board's roster, a past meeting and its designations

    board_demo.load()
    from permits import street_work  # the registers behind the street rules: the demo streets' grades (§ 303-1A(1))

    street_work.load_demo()
    return {"users": users, "streets": streets, "contractor": contractor, "utility": utility}


def _demo_parcel_link(users) -> None:
    """The utility's manager, who also owns a house, asks to be linked to it; the clerk's queue shows it."""
    from permits.models import ParcelLinkRequest

    parcel = (
        Parcel.objects.exclude(owners=users["utility"]).exclude(tax_key="266-1116-1000").order_by("tax_key").first()
    )
    if parcel is None or ParcelLinkRequest.objects.filter(user=users["utility"]).exists():
        return
    ParcelLinkRequest.objects.create(
        user=users["utility"], parcel=parcel, tax_bill_number="2025-004417", note="My home; the bill is in my name."
    )


def special_charge(parcel, source: str, amount, description: str, citation: str, *, by, incurred_on):
    """A Wis. Stat. § 66.0627 special charge on the parcel, as the other demos bill one: incurred and added on
    `incurred_on`."""
    from permits.ledger.models import SpecialCharge
    from permits.ledger.services import add_charge

    return add_charge(
        parcel=parcel,
        source=source,
        route=SpecialCharge.Route.SPECIAL_CHARGE_66_0627,
        amount=amount,
        incurred_on=incurred_on,
        description=description,
        citation=citation,
        by=by,
        today=incurred_on,
    )


CERTIFICATE = (  # a stand-in certificate of insurance: a minimal, well-formed PDF (permits/uploads.py parses it)
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    b"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \n"
    b"trailer<</Size 3/Root 1 0 R>>\nstartxref\n96\n%%EOF\n"
)


def upload_certificate(permit, *, by) -> None:
    """The applicant's stand-in certificate of insurance, uploaded to the application (§ 303-4G, § 303-7A)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from permits import services

    certificate = SimpleUploadedFile("certificate-of-insurance.pdf", CERTIFICATE, content_type="application/pdf")
    services.upload_document(permit=permit, kind="insurance", by=by, upload=certificate)
