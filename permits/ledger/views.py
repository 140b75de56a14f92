"""Pages of the special-charge ledger and the tax roll: the clerk's, and each owner's view of their own parcel."""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, DecimalField, Exists, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from permits.access import require_role
from permits.errors import violations_of
from permits.forms import add_service_errors
from permits.input_limits import plausible_year
from permits.ledger import rules as charge_rules
from permits.ledger import services as ledger
from permits.ledger import tasks, tax_roll
from permits.ledger.forms import BuildRollForm, BulkHearingForm, ChargePaymentForm, HearingForm
from permits.ledger.history import trail
from permits.ledger.models import ChargeHearing, ChargePayment, SpecialCharge, TaxRollBatch
from permits.models import JobRun, Parcel
from permits.paging import MAX_PAGES, PAGE_SIZE, SEARCH_PAGES, page_keys_first, page_of
from permits.paging import CappedPaginator as Paginator
from permits.pdf import render_pdf
from permits.posting import MOVED, transacted_result
from permits.roles import Role, has_role, is_village_staff
from permits.selectors import with_refund
from permits.text_search import SEARCH_IDS_INLINE, matching, remembered_ids


def _error_messages(exc: ValidationError) -> list[str]:
    return [v.message for v in violations_of(exc)]


def charges_visible_to(user) -> QuerySet[SpecialCharge]:
    """Village staff see every charge; an owner with a portal account sees the charges against their parcels."""
    # The paid total as a subquery per row shown, not a join-and-GROUP-BY over the whole ledger on every page.
    paid = (
        ChargePayment.objects.filter(charge=OuterRef("pk"), refunds__isnull=True)  # a refunded payment is not paid
        .order_by()
        .values("charge")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    money = DecimalField(max_digits=12, decimal_places=2)
    qs = (
        SpecialCharge.objects.select_related("parcel", "work_content_type")
        .prefetch_related("work_record")
        .annotate(paid_total=Coalesce(Subquery(paid, output_field=money), Value(Decimal("0.00")), output_field=money))
    )
    if not getattr(user, "is_authenticated", False):
        return qs.none()
    if is_village_staff(user):
        return qs
    return qs.filter(parcel__owners=user)


def _parcel_for(user, tax_key: str) -> Parcel:
    parcel = Parcel.objects.filter(tax_key=tax_key).first()
    if parcel is None or not (is_village_staff(user) or parcel.owners.filter(pk=user.pk).exists()):
        raise Http404("No such parcel")
    return parcel


def _charge_for(user, number: str) -> SpecialCharge:
    charge = charges_visible_to(user).filter(number=number).first()
    if charge is None:
        raise Http404("No such charge")
    return charge


@login_required
def charges(request):
    """Staff: every charge, filterable by status and searchable by tax key, address or owner. Owners: their own."""
    visible = qs = charges_visible_to(request.user)
    status = request.GET.get("status", "")
    if status in SpecialCharge.Status.values:
        qs = qs.filter(status=status)
    q = request.GET.get("q", "").strip()
    if q:
        # Parcels searched on their own (trigram indexes) and matched by id: no join before the filter. A common name
        # (more than SEARCH_IDS_INLINE parcels) is matched by its subquery instead: the charges are walked in their
        # order and each one's parcel checked, stopping at the capped pages' rows.
        with remembered_ids(inline=SEARCH_IDS_INLINE):
            found = matching(
                SpecialCharge,
                q,
                ["parcel__tax_key", "parcel__site_address", "parcel__owner_name"],
                exact=["number"],
            )
        qs = qs.filter(found)
    # A search lists its first SEARCH_PAGES pages, then asks for more words or a status (counting every
    # match of a common surname grows with the parcels); the page's rows are read by key from the visible charges.
    page = page_keys_first(
        qs.order_by("-incurred_on", "-pk"),
        request.GET.get("page"),
        rows=visible,
        max_pages=SEARCH_PAGES if q else MAX_PAGES,
    )
    parcels = None if is_village_staff(request.user) else request.user.parcels.all()
    query = urlencode({k: v for k, v in (("status", status), ("q", q)) if v})  # "&" or "#" typed stays in q
    return render(
        request,
        "permits/ledger/charges.html",
        {
            "page": page,
            "status": status,
            "q": q,
            "statuses": SpecialCharge.Status.choices,
            "query": query,
            "capped_hint": "more match: add words, or choose a status" if q else None,
            "parcels": parcels,
            "staff": is_village_staff(request.user),
            "perms_clerk": has_role(request.user, Role.CLERK),
        },
    )


@login_required
def parcel_charges(request, tax_key):
    """Everything owed on a parcel and why, with the work records it came from."""
    parcel = _parcel_for(request.user, tax_key)
    qs = charges_visible_to(request.user).filter(parcel=parcel).order_by("-incurred_on", "-pk")
    page = page_of(request, qs)
    open_total = qs.exclude(status__in=[SpecialCharge.Status.PAID, SpecialCharge.Status.PAID_ON_ROLL]).aggregate(
        total=Sum("amount")
    )["total"]
    return render(
        request,
        "permits/ledger/parcel_charges.html",
        {
            "parcel": parcel,
            "page": page,
            "open_total": open_total or 0,
            "staff": is_village_staff(request.user),
        },
    )


@login_required
def charge_detail(request, number):
    charge = _charge_for(request.user, number)
    return render(
        request,
        "permits/ledger/charge_detail.html",
        _charge_context(request, charge, ChargePaymentForm(initial={"amount": charge.balance_due, "method": "cash"})),
    )


def _charge_context(request, charge, form):
    return {
        "charge": charge,
        "payments": with_refund(charge.payments.select_related("received_by")),
        "hearings": charge.hearings.all(),
        "clerk": has_role(request.user, Role.CLERK),
        "roll_lines": charge.roll_lines.select_related("batch"),
        "form": form,
        "may_take_payment": has_role(request.user, Role.CLERK)
        and charge.is_open
        and charge.status != SpecialCharge.Status.PENDING,
        "staff": is_village_staff(request.user),
        "may_see_receipts": has_role(request.user, Role.CLERK)
        or charge.parcel.owners.filter(pk=request.user.pk).exists(),
        "history": trail(charge),
        "hearing_form": HearingForm()
        if has_role(request.user, Role.CLERK)
        and charge_rules.needs_hearing(charge.source)
        and not charge_rules.needs_assessment_proceeding(charge.route)
        else None,
    }


@login_required
@require_POST
def charge_payment(request, number):
    require_role(request.user, Role.CLERK, action="record payments of special charges (the Clerk-Treasurer does)")
    charge = _charge_for(request.user, number)
    form = ChargePaymentForm(request.POST)
    payment = transacted_result(
        form, partial(ledger.record_charge_payment, charge=charge, by=request.user), moved_field="amount"
    )
    if payment is not None:
        messages.success(request, f"Payment recorded: receipt {payment.receipt_number}.")
        return redirect(charge)
    if form.has_error("amount", MOVED):  # paid or moved by someone else meanwhile: the page shows it as it is now
        charge = _charge_for(request.user, number)
    return render(request, "permits/ledger/charge_detail.html", _charge_context(request, charge, form), status=400)


@login_required
@require_POST
def charge_hearing(request, number):
    require_role(request.user, Role.CLERK, action="record Board hearings (the Clerk-Treasurer records them)")
    charge = _charge_for(request.user, number)
    form = HearingForm(request.POST)
    if form.is_valid():
        try:
            with transaction.atomic():
                ledger.record_hearing(charges=[charge], by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            for message in _error_messages(exc):
                messages.error(request, message)
        else:
            problems = charge_rules.hearing_notice_errors(
                form.cleaned_data["hearing_on"], form.cleaned_data["published_on"], form.cleaned_data["mailed_on"]
            )
            for problem in problems:
                messages.warning(
                    request,
                    "Recorded, but this hearing does not allow billing or certification "
                    f"(Wis. Stat. § 66.0627(3)(b)): {problem}",
                )
            if not problems:
                messages.success(request, "Hearing recorded.")
    else:
        messages.error(request, "Give the hearing, publication and mailing dates.")
    return redirect(charge)


def _hearing_candidates() -> QuerySet[SpecialCharge]:
    """Charges a § 66.0627(3)(b) hearing may cover: those needing one that are not paid or already on a roll."""
    return SpecialCharge.objects.filter(
        source__in=charge_rules.SOURCES_NEEDING_HEARING,
        status__in=[SpecialCharge.Status.PENDING, SpecialCharge.Status.BILLED, SpecialCharge.Status.DELINQUENT],
    ).exclude(route=charge_rules.SPECIAL_ASSESSMENT_ROUTE)  # heard on the § 66.0703 route (ledger:assessments)


@login_required
def hearings(request):
    """Wis. Stat. § 66.0627(3)(b): the clerk records one Board hearing for the many sidewalk-repair charges it covered,
    chosen with checkboxes from a year's charges (by default those no hearing covers yet)."""
    require_role(request.user, Role.CLERK, action="record Board hearings (the Clerk-Treasurer records them)")
    from django.utils import timezone

    # ?year=-1, 0, 99999 or abc is ignored: the current year (OWASP ASVS V5.1.4, permits.input_limits).
    year = plausible_year(request.GET.get("year")) or timezone.localdate().year
    uncovered = request.GET.get("uncovered", "1") == "1"
    eligible = _hearing_candidates()
    form = BulkHearingForm(eligible=eligible)
    status = 200
    if request.method == "POST":
        form = BulkHearingForm(request.POST, eligible=eligible)
        if form.is_valid():
            data = dict(form.cleaned_data)
            chosen = list(data.pop("charges"))
            try:
                with transaction.atomic():
                    ledger.record_hearing(charges=chosen, by=request.user, **data)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    f"Hearing of {data['hearing_on']:%B %-d, %Y} recorded for "
                    f"{len(chosen)} charge{'s' if len(chosen) != 1 else ''}.",
                )
                return redirect(f"{request.path}?year={year}&uncovered={int(uncovered)}")
        status = 400
    # The hearings counted for the page's rows only, and "not yet covered" as NOT EXISTS: no GROUP BY over the
    # year's charges joined to every hearing.
    covering = ChargeHearing.charges.through.objects.filter(specialcharge=OuterRef("pk"))
    qs = eligible.filter(incurred_on__year=year).select_related("parcel")
    if uncovered:
        qs = qs.filter(~Exists(covering)).annotate(hearing_count=Value(0))
    else:
        qs = qs.annotate(hearing_count=_count_of(covering, "specialcharge"))
    # The charges a hearing may cover are few at any scale: their ids are found first (the year's charges by their
    # date index, less those covered), then only those are joined to their parcels and sorted by tax key, instead of
    # a walk of every parcel in tax-key order probing its charges. More
    # than a capped list holds: the one query, as before.
    cap = PAGE_SIZE * MAX_PAGES
    ids = list(qs.order_by().values_list("pk", flat=True)[: cap + 1])
    if len(ids) <= cap:
        qs = qs.filter(pk__in=ids)
    page = page_of(request, qs.order_by("parcel__tax_key", "pk"))
    selected = set(request.POST.getlist("charges")) if request.method == "POST" else set()
    return render(
        request,
        "permits/ledger/hearings.html",
        {
            "form": form,
            "page": page,
            "year": year,
            "uncovered": uncovered,
            "selected": selected,
            "query": f"year={year}&uncovered={int(uncovered)}",
            "recent": _recent_hearings(),
        },
        status=status,
    )


def _count_of(rows: QuerySet, by: str) -> Coalesce:
    """How many of `rows` (filtered on `by`=OuterRef("pk")) as a scalar subquery: PostgreSQL runs it after the ORDER
    BY and LIMIT, for the rows shown only, instead of a GROUP BY over every row joined."""
    counted = rows.order_by().values(by).annotate(n=Count("*")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def _recent_hearings():
    covered = ChargeHearing.charges.through.objects.filter(chargehearing=OuterRef("pk"))
    return ChargeHearing.objects.annotate(charge_count=_count_of(covered, "chargehearing")).order_by(
        "-hearing_on", "-pk"
    )[:5]


@login_required
def charge_bill_pdf(request, number):
    charge = _charge_for(request.user, number)
    if charge.billed_on is None:  # § 66.0627(3)(b): a charge awaiting its hearing has no bill yet
        raise Http404("This charge has not been billed yet")
    pdf = render_pdf("pdf/charge_bill.html", {"charge": charge, "parcel": charge.parcel})
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="bill-{charge.number}.pdf"'
    return response


@login_required
def charge_receipt_pdf(request, number, receipt_number):
    """The receipt of a special-charge payment: for the Clerk-Treasurer and the parcel's owners; 404 to anyone else."""
    payment = (
        ChargePayment.objects.select_related("charge__parcel", "received_by")
        .filter(charge__number=number, receipt_number=receipt_number)
        .first()
    )
    user = request.user
    if payment is None or not (has_role(user, Role.CLERK) or payment.charge.parcel.owners.filter(pk=user.pk).exists()):
        raise Http404("No such receipt")
    charge = payment.charge
    pdf = render_pdf("pdf/charge_receipt.html", {"payment": payment, "charge": charge, "parcel": charge.parcel})
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{payment.receipt_number}.pdf"'
    return response


# --- The tax roll (clerk) -----------------------------------------------------------------------------------------


@login_required
def tax_rolls(request):
    require_role(request.user, Role.CLERK, action="open the tax roll (the Clerk-Treasurer keeps it)")
    page = page_of(request, tax_roll.batches_with_totals().order_by("-year"))
    from django.utils import timezone

    form = BuildRollForm(initial={"year": timezone.localdate().year})
    runs = JobRun.objects.filter(name=tax_roll.BUILD_JOB)[:5]
    return render(request, "permits/ledger/tax_rolls.html", {"page": page, "form": form, "runs": runs})


@login_required
@require_POST
def tax_roll_build(request):
    require_role(request.user, Role.CLERK, action="build the tax roll (the Clerk-Treasurer does)")
    form = BuildRollForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the tax year to build.")
        return redirect("ledger:tax_rolls")
    year = form.cleaned_data["year"]
    if TaxRollBatch.objects.filter(year=year, state=TaxRollBatch.State.CERTIFIED).exists():
        messages.error(request, f"The {year} roll is certified: it is frozen and is not rebuilt.")
        return redirect("ledger:tax_roll", year=year)
    # Built by the worker once this request commits (at once in the embedded demo); progress shows in the job run.
    transaction.on_commit(lambda: tasks.build_tax_roll.delay(year))
    messages.success(request, f"Building the {year} roll. Rebuilding never adds a charge twice.")
    return redirect("ledger:tax_roll", year=year)


@login_required
def tax_roll_detail(request, year):
    require_role(request.user, Role.CLERK, action="open the tax roll (the Clerk-Treasurer keeps it)")
    batch = TaxRollBatch.objects.filter(year=year).select_related("certified_by").first()
    if batch is None and plausible_year(year) is None:  # /tax-roll/0/, /tax-roll/99999/ (OWASP ASVS V5.1.4)
        raise Http404("No tax roll for that year.")
    # The built batch's stored lines, a page at a time (every page: the roll is the clerk's to read whole), and their
    # count and total from one aggregate query; the held-back charges are paged too.
    totals = tax_roll.roll_totals(batch) if batch else {"count": 0, "total": None}
    paginator = Paginator(tax_roll.RollLinesPages(batch, totals["count"]) if batch else [], 50, max_pages=None)
    paginator.count = totals["count"]  # known: not counted a second time
    lines = paginator.get_page(request.GET.get("page"))
    held_back = None
    if batch is not None and not batch.is_frozen:
        held = request.GET.get("held", "")
        number = int(held) if held.isdigit() and len(held) < 6 else 1
        held_back = tax_roll.held_back_page(batch, year=year, today=_today(), number=number, size=PAGE_SIZE)
    run = JobRun.objects.filter(name=tax_roll.BUILD_JOB).first()
    pdf_run = JobRun.objects.filter(name=tax_roll.PDF_JOB).first()
    return render(
        request,
        "permits/ledger/tax_roll.html",
        {
            "year": year,
            "batch": batch,
            "page": lines,
            "held_back": held_back,
            "query": f"held={held_back.number}" if held_back and held_back.number > 1 else "",  # the lines' links
            "pdf_run": pdf_run,
            "total": totals["total"] or 0,
            "run": run,
            "transfer_deadline": charge_rules.transfer_deadline(year),
            "history": trail(batch) if batch else [],
        },
    )


def _today():
    from django.utils import timezone

    return timezone.localdate()


def _roll_step(step, action: str, done: str):
    """A step on the year's roll (certifying, transferring) by the Clerk-Treasurer (`action` saying what she does),
    in one transaction: `done` (formatted with the year), or each refusal, as a message on the roll's page."""

    @login_required
    @require_POST
    def view(request, year):
        require_role(request.user, Role.CLERK, action=action)
        batch = get_object_or_404(TaxRollBatch, year=year)
        try:
            with transaction.atomic():
                step(batch=batch, by=request.user)
        except ValidationError as exc:
            for message in _error_messages(exc):
                messages.error(request, message)
        else:
            messages.success(request, done.format(year=year))
        return redirect("ledger:tax_roll", year=year)

    return view


tax_roll_certify = _roll_step(
    tax_roll.certify_tax_roll,
    "certify the tax roll (the Clerk-Treasurer does, Wis. Stat. § 70.65)",
    "The {year} special-charges roll is certified and frozen.",
)
tax_roll_transfer = _roll_step(
    tax_roll.transfer_tax_roll,
    "transfer the tax roll (Clerk-Treasurer, Wis. Stat. § 74.03)",
    "The {year} roll is recorded as delivered to the treasurer.",
)


@login_required
def tax_roll_file(request, year, kind):
    require_role(request.user, Role.CLERK, action="download the tax roll (the Clerk-Treasurer keeps it)")
    batch = get_object_or_404(TaxRollBatch, year=year)
    if kind not in {"csv", "pdf"}:
        raise Http404("No such file")
    filename = f"special-charges-{year}{'' if batch.is_frozen else '-draft'}.{kind}"
    content_type = "text/csv; charset=utf-8" if kind == "csv" else "application/pdf"
    if not batch.is_frozen and kind == "csv":
        # A draft changes as charges are paid: its CSV is written as it stands now. A certified roll is its frozen file.
        response = HttpResponse(tax_roll.render_csv(batch), content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    file = batch.csv_file if kind == "csv" else batch.pdf_file
    if not file:
        # The PDF is rendered by the worker after each build or certification, never in this request (a 10,000-line
        # roll takes a minute, past the web server's timeout): say so and show its progress on the roll's page.
        messages.info(request, f"The {year} roll's PDF is being prepared; its progress shows below. Try again shortly.")
        return redirect("ledger:tax_roll", year=year)
    response = FileResponse(file.open("rb"), content_type=content_type, as_attachment=True, filename=filename)
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _assessment_candidates() -> QuerySet[SpecialCharge]:
    """§ 303-3B(2): pending special assessments no proceeding lists yet."""
    return (
        SpecialCharge.objects.filter(
            route=charge_rules.SPECIAL_ASSESSMENT_ROUTE,
            status=SpecialCharge.Status.PENDING,
            assessment_proceedings__isnull=True,
        )
        .select_related("parcel")
        .order_by("parcel__tax_key", "pk")
    )


@login_required
def assessments(request):
    """§ 303-3B(2), Wis. Stat. § 66.0703: the clerk puts pending special assessments to the Board (its preliminary
    resolution); the proceedings and where each stands."""
    require_role(request.user, Role.CLERK, Role.DPW_DIRECTOR, action="open special assessments (Village staff do)")
    from permits.ledger import assessments as assessment_services
    from permits.ledger.forms import AssessmentForm
    from permits.ledger.models import AssessmentProceeding

    eligible = _assessment_candidates()
    form = AssessmentForm(request.POST or None, eligible=eligible)
    if request.method == "POST":
        require_role(request.user, Role.CLERK, action="open special assessments (the Clerk-Treasurer does)")
        from permits.forms import service_result

        proceeding = service_result(form, partial(assessment_services.open_assessment, by=request.user))
        if proceeding is not None:
            messages.success(
                request, "Proceeding opened: it waits on the Board's queue for the preliminary resolution."
            )
            return redirect(proceeding)
    proceedings = AssessmentProceeding.objects.select_related(
        "preliminary_motion__item__meeting", "final_motion__item__meeting"
    ).annotate(charge_count=Count("charges"), charge_total=Sum("charges__amount"))[:50]
    context = {"form": form, "proceedings": proceedings, "may_open": has_role(request.user, Role.CLERK)}
    return render(request, "permits/ledger/assessments.html", context, status=400 if form.errors else 200)


@login_required
def assessment(request, pk):
    """One § 66.0703 proceeding: the engineer's report (DPW or the clerk) and the hearing notice (the clerk)."""
    require_role(request.user, Role.CLERK, Role.DPW_DIRECTOR, action="open special assessments (Village staff do)")
    from permits.forms import service_result
    from permits.ledger import assessments as assessment_services
    from permits.ledger.forms import AssessmentNoticeForm, EngineersReportForm
    from permits.ledger.models import AssessmentProceeding

    proceeding = get_object_or_404(
        AssessmentProceeding.objects.select_related("preliminary_motion__item__meeting", "final_motion__item__meeting"),
        pk=pk,
    )
    step = request.POST.get("step") if request.method == "POST" else None
    report_form = EngineersReportForm(request.POST if step == "report" else None)
    notice_form = AssessmentNoticeForm(request.POST if step == "notice" else None)
    if step == "report":
        done = service_result(
            report_form, partial(assessment_services.file_engineers_report, proceeding=proceeding, by=request.user)
        )
        if done is not None:
            messages.success(request, "The engineer's report is filed for public inspection.")
            return redirect(proceeding)
    elif step == "notice":
        require_role(request.user, Role.CLERK, action="give notice of hearings (the Clerk-Treasurer does)")
        done = service_result(
            notice_form, partial(assessment_services.give_hearing_notice, proceeding=proceeding, by=request.user)
        )
        if done is not None:
            messages.success(request, "The hearing notice is recorded and a copy sent to each owner.")
            return redirect(proceeding)
    elif step is not None:
        raise Http404
    charges = proceeding.charges.select_related("parcel").order_by("parcel__tax_key", "pk")
    context = {
        "proceeding": proceeding,
        "charges": charges,
        "report_form": report_form,
        "notice_form": notice_form if has_role(request.user, Role.CLERK) else None,
    }
    return render(
        request,
        "permits/ledger/assessment.html",
        context,
        status=400 if report_form.errors or notice_form.errors else 200,
    )
