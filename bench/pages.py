"""The pages the bench measures, and the accounts it measures them as (bench/measure.py): also the list of every list
page and report whose query count the suite checks at two sizes (tests/permits/test_every_list_pages.py), so that a
list the bench times is a list the suite counts. Needs a database seeded by `bench/seed.py`."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.utils import timezone

from permits.ledger.models import SpecialCharge
from permits.models import Organization, Payment, Permit, Status
from permits.reports.rules import REPORT_SLUGS
from permits.selectors import permits_visible_to


def personas() -> dict:
    User = get_user_model()
    org = Organization.objects.annotate(n=Count("permits")).order_by("-n").first()
    contractor = User.objects.filter(memberships__organization=org).order_by("pk").first()
    resident = User.objects.filter(username__startswith="resident").annotate(n=Count("permits")).order_by("-n").first()
    return {
        "clerk": User.objects.get(username="bench-clerk"),
        # The clerk's back-office index needs the admin's staff flag, as the real clerk account has.
        "admin_clerk": User.objects.filter(username="bench-clerk", is_staff=True).first()
        or User.objects.get(username="bench-clerk"),
        "inspector": User.objects.get(username="bench-dpw_inspector"),
        "contractor": contractor,
        "resident": resident,
        "admin": User.objects.get_or_create(
            username="bench-admin", defaults={"is_staff": True, "is_superuser": True, "email": "admin@bench.example"}
        )[0],
        "org": org,
    }


def last_full_page(rows: int, per_page: int, cap: int = 40) -> int:
    return max(1, min(cap, rows // per_page))


def pages(p: dict) -> list[tuple[str, str, str, str]]:
    """(kind, name, persona, url): kind is "list" (budgets: queries, ratio), "detail", "pdf" or "admin"."""
    long_permit = Permit.objects.annotate(n=Count("events")).order_by("-n").values_list("number", flat=True).first()
    receipt = Payment.objects.order_by("-received_at").values_list("receipt_number", flat=True).first()
    so_permit = (
        Permit.objects.filter(kind="street_opening", status=Status.ISSUED).values_list("number", flat=True).first()
    )
    long_pk = Permit.objects.get(number=long_permit).pk
    year = timezone.localdate().year
    admin_last = min(40, -(-Permit.objects.count() // 50))  # the admin's pages are capped at 40 too
    api_last = min(40, -(-Permit.objects.count() // 50))
    # A list's deepest page, as far as the cap: its last full one, so that both scales render as many rows (at 1k the
    # charges' last page held 10 rows against 25 at 100k).
    charges_last = last_full_page(SpecialCharge.objects.count(), 25)
    office_last = last_full_page(Permit.objects.exclude(status=Status.DRAFT).count(), 25)
    mine_last = last_full_page(permits_visible_to(p["contractor"]).count(), 25)
    return [
        ("list", "office list, page 1", "clerk", "/office/"),
        ("list", "office list, last page", "clerk", f"/office/?page={office_last}"),
        ("list", "office list, issued", "clerk", "/office/?status=issued"),
        ("list", "my applications (contractor)", "contractor", "/permits/"),
        ("list", "my applications (contractor), last page", "contractor", f"/permits/?page={mine_last}"),
        ("list", "my applications (resident)", "resident", "/permits/"),
        ("list", "organization members", "contractor", f"/organizations/{p['org'].pk}/"),
        ("list", "special charges", "clerk", "/charges/"),
        ("list", "special charges, last page", "clerk", f"/charges/?page={charges_last}"),
        ("list", "special charges ?q=Brandt", "clerk", "/charges/?q=Brandt"),
        ("list", "hearings", "clerk", "/hearings/"),
        ("list", "tax rolls", "clerk", "/tax-roll/"),
        ("list", "tax roll page (draft)", "clerk", f"/tax-roll/{year}/"),
        ("list", "field inspections", "inspector", "/field/"),
        ("list", "sidewalk inspections", "inspector", "/sidewalks/inspections/"),
        ("list", "sidewalk parcel search ?q=Brandt", "clerk", "/sidewalks/parcels/?q=Brandt"),
        ("list", "sidewalk surveys", "clerk", "/sidewalks/surveys/"),
        ("list", "sidewalk orders", "clerk", "/sidewalks/orders/"),
        ("list", "snow office", "clerk", "/sidewalks/snow/"),
        ("list", "rubbish cases", "clerk", "/sidewalks/rubbish/"),
        ("list", "API permits (clerk)", "clerk", "/api/v1/permits/"),
        ("list", "API permits (contractor)", "contractor", "/api/v1/permits/"),
        ("list", "API permits, last page", "clerk", f"/api/v1/permits/?page={api_last}"),
        ("list", "API street openings (contractor)", "contractor", "/api/v1/street-openings/"),
        ("list", "API sidewalk permits (clerk)", "clerk", "/api/v1/sidewalk-permits/"),
        ("list", "API parcels ?search=Brandt", "clerk", "/api/v1/parcels/?search=Brandt"),
        ("list", "admin permits", "admin", "/admin/permits/permit/"),
        ("list", "admin permits ?q=Brandt", "admin", "/admin/permits/permit/?q=Brandt"),
        ("list", "admin permits, last page", "admin", f"/admin/permits/permit/?p={admin_last}"),
        ("list", "admin payments", "admin", "/admin/permits/payment/"),
        ("list", "admin parcels ?q=Brandt", "admin", "/admin/permits/parcel/?q=Brandt"),
        ("list", "admin special charges", "admin", "/admin/permits/specialcharge/"),
        # The workspaces and office lists of issues 9, 10, 15 and 16.
        ("list", "clerk start page (back office index)", "admin_clerk", "/admin/"),
        ("list", "staff workspace (DPW inspector)", "inspector", "/office/today/"),
        ("list", "staff search ?q=Brandt", "clerk", "/office/search/?q=Brandt"),
        ("list", "letters to mail", "clerk", "/office/letters/"),
        ("list", "parcel link requests", "clerk", "/office/parcel-links/"),
        ("list", "online payments", "clerk", "/office/online-payments/"),
        ("list", "held approvals", "clerk", "/street-openings/held-approvals/"),
        ("list", "street use in progress", "clerk", "/street-use/in-progress/"),
        ("list", "street privilege queue", "clerk", "/street-privileges/"),
        ("list", "Board queue", "clerk", "/board/queue/"),
        ("list", "Board meetings", "clerk", "/board/meetings/"),
        ("list", "Board designations", "clerk", "/board/designations/"),
        ("list", "enforcement cases", "clerk", "/obstructions/cases/"),
        ("list", "street numbers", "clerk", "/obstructions/numbers/"),
        ("list", "grade register", "clerk", "/obstructions/registers/grades/"),
        ("list", "improvement requests", "clerk", "/obstructions/registers/improvements/"),
        ("list", "street map list", "clerk", "/map/list/"),
        ("list", "API street use permits (clerk)", "clerk", "/api/v1/street-use-permits/"),
        ("list", "API street privilege permits (clerk)", "clerk", "/api/v1/street-privilege-permits/"),
        *[("report", f"report {slug}", "clerk", f"/reports/{slug}/") for slug in REPORT_SLUGS],
        ("detail", "permit page, 1,000-event timeline", "clerk", f"/permits/{long_permit}/"),
        ("detail", "API permit, 1,000-event timeline", "clerk", f"/api/v1/permits/{long_permit}/"),
        ("admin", "admin permit page, 1,000-event timeline", "admin", f"/admin/permits/permit/{long_pk}/change/"),
        ("pdf", "receipt PDF", "clerk", f"/receipts/{receipt}.pdf"),
        ("pdf", "street opening permit PDF", "clerk", f"/permits/{so_permit}/street-opening.pdf"),
        ("pdf", "draft tax roll PDF download", "clerk", f"/tax-roll/{year}/special-charges.pdf"),
    ]
