"""The Village Board's staff page: who holds each seat today, the designations in force, and the meetings with their
motions (paged); and the clerk's Board pages: the queue of what waits for the Board, meetings and their agendas
(with the PDF packet), the attendance and votes, the designations and the members. The Board reads; the clerk writes."""

from __future__ import annotations

from functools import partial

from django.apps import apps
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST

from permits.access import require_role, require_staff
from permits.board import forms, rules, services
from permits.board.clauses import citation
from permits.board.matters import Matter, facts_of, matter_for, matters
from permits.board.models import AgendaItem, Designation, Meeting, Motion, Seat, Term
from permits.errors import RulesBroken
from permits.forms import add_service_errors, service_result
from permits.input_limits import posted_ids
from permits.paging import page_of
from permits.pdf import render_pdf
from permits.roles import Role, has_role
from permits.workspace.sources import capped_counts


@login_required
def board(request):
    require_staff(request.user, action="open the Village Board's page (Village staff do)")
    today = timezone.localdate()
    seats = list(Seat.objects.filter(services._seats_q(today)).order_by("number"))
    holders = {t.seat_id: t for t in services.members_on(today)}
    roster = [(seat, holders.get(seat.pk)) for seat in seats]
    meetings = Meeting.objects.prefetch_related(
        Prefetch("items__motions", queryset=Motion.objects.order_by("pk")), "items"
    ).order_by("-held_on", "-pk")
    page = page_of(request, meetings)
    count = len(seats)
    return render(
        request,
        "permits/board/board.html",
        {
            "today": today,
            "roster": roster,
            "seat_count": count,
            "three_fourths": rules.votes_needed_for_three_fourths(count),
            "quorum": rules.quorum(count) if count else 0,
            "designations": services.designations_in_force(today),
            "page": page,
            "can_open_board_pages": has_role(request.user, *READERS),
        },
    )


# --- The clerk's Board pages: the queue, meetings and their agendas, votes, designations, members ------------------
# Board members and the President read them; only the Clerk-Treasurer writes (the services refuse anyone else).

READERS = (Role.CLERK, Role.BOARD, Role.PRESIDENT)


def _reader(request) -> bool:
    require_role(request.user, *READERS, action="open the Board's records (the Clerk-Treasurer and the Board do)")
    return has_role(request.user, *services.BOARD_CLERKS)


def _writer(request) -> None:
    require_role(request.user, *services.BOARD_CLERKS, action="keep the Board's records (the Clerk-Treasurer does)")


def _matter_key(matter: Matter, subject) -> str:
    return f"{matter.clause}|{matter.model}|{subject.pk}"


QUEUE_ROWS = 10  # rows per matter on the queue; the matter's own page has the rest, paged


def _pending_agenda() -> dict:
    """(clause, app, model, subject id) -> meeting, for subjects on an undecided agenda item (one query)."""
    items = AgendaItem.objects.filter(
        motions__isnull=True, subject_id__isnull=False, meeting__locked_at__isnull=True
    ).select_related("meeting", "subject_type")
    return {
        (item.clause, item.subject_type.app_label, item.subject_type.model, item.subject_id): item.meeting
        for item in items
    }


def _rows(matter: Matter, subjects: list, pending: dict) -> list:
    """[(subject, key, facts, on_agenda)]: the facts read for all the subjects at once (Matter.prepare)."""
    app, model = matter.model.lower().split(".")
    return [
        (s, _matter_key(matter, s), facts, pending.get((matter.clause, app, model, s.pk)))
        for s, facts in zip(subjects, facts_of(matter, subjects), strict=True)
    ]


def _queue():
    """[(matter, rows, more)]: what waits for the Board, read from every matter module: the first QUEUE_ROWS of each
    matter (`more` when others wait: the matter's page has them). Every matter is counted in one query, and only the
    matters with something waiting are read, so the queue's queries do not grow with the rows."""
    waiting = [(m, m.waiting()) for m in matters()]
    querysets = [qs for _, qs in waiting if isinstance(qs, QuerySet)]
    counted = dict(zip(map(id, querysets), capped_counts(querysets, QUEUE_ROWS + 1), strict=True))
    counts = [counted[id(qs)] if isinstance(qs, QuerySet) else len(qs) for _, qs in waiting]
    pending = _pending_agenda()
    return [
        (matter, _rows(matter, list(qs[:QUEUE_ROWS]) if count else [], pending), count > QUEUE_ROWS)
        for (matter, qs), count in zip(waiting, counts, strict=True)
    ]


@login_required
def queue(request):
    """The clerk's Board queue: everything waiting for the Board, by matter, with the meeting to put it on. With
    ?matter=<key>, one matter's waiting subjects, paged."""
    is_clerk = _reader(request)
    add_form = forms.AddToAgendaForm() if is_clerk else None
    # The open meetings, read once for every row's "Add to the agenda" choice
    open_meetings = list(add_form.fields["meeting"].queryset) if is_clerk else []
    context = {"is_clerk": is_clerk, "add_form": add_form, "open_meetings": open_meetings}
    key = request.GET.get("matter")
    if key:
        matter = next((m for m in matters() if m.key == key), None)
        if matter is None:
            raise Http404("No such matter")
        page = page_of(request, matter.waiting())
        context.update(
            matter=matter,
            page=page,
            query=urlencode({"matter": key}),
            groups=[(matter, _rows(matter, list(page), _pending_agenda()), False)],
        )
    else:
        context["groups"] = _queue()
    return render(request, "permits/board/queue.html", context)


@login_required
@require_POST
def add_to_agenda(request):
    _writer(request)
    form = forms.AddToAgendaForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose an open meeting for the matter.")
        return redirect("board:queue")
    clause, model, pk = (form.cleaned_data["matter"].split("|") + ["", "", ""])[:3]
    matter = matter_for(clause, model)
    subject = None
    if matter is not None and pk.isdigit():
        subject = apps.get_model(model).objects.filter(pk=pk).first()
    if subject is None:
        raise Http404("No such matter")
    meeting = form.cleaned_data["meeting"]
    try:
        item = services.add_matter_to_agenda(meeting=meeting, subject=subject, clause=clause, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("board:queue")
    messages.success(request, f"Added to the agenda of the {meeting} as item {item.order}.")
    return redirect("board:meeting", pk=meeting.pk)


@login_required
@require_http_methods(["GET", "POST"])
def meetings(request):
    is_clerk = _reader(request)
    form = forms.MeetingForm(request.POST or None)
    if request.method == "POST":
        _writer(request)
        if form.is_valid():
            meeting = services.schedule_meeting(by=request.user, **form.cleaned_data)
            messages.success(request, f"Scheduled the {meeting}.")
            return redirect("board:meeting", pk=meeting.pk)
    page = page_of(request, Meeting.objects.annotate(item_count=Count("items")).order_by("-held_on", "-pk"))
    return render(
        request,
        "permits/board/meetings.html",
        {"page": page, "form": form, "is_clerk": is_clerk},
    )


def _meeting_context(request, meeting: Meeting, **extra):
    is_clerk = has_role(request.user, *services.BOARD_CLERKS)
    items = list(
        meeting.items.select_related("subject_type").prefetch_related(
            Prefetch("motions", queryset=Motion.objects.prefetch_related("votes__term__seat").order_by("pk"))
        )
    )
    attendance = list(meeting.attendance.select_related("term__seat"))
    seats = services.seats_on(meeting.held_on)
    present = sum(1 for a in attendance if a.present)
    context = {
        "meeting": meeting,
        "items": [(item, rules.vote_rule_for(item.clause)) for item in items],
        "attendance": attendance,
        "seats": seats,
        "present_count": present,
        "quorum": rules.quorum(seats) if seats else 0,
        "three_fourths": rules.votes_needed_for_three_fourths(seats),
        "majority": rules.votes_needed_for_majority_of_present(present),
        "is_clerk": is_clerk,
        "editable": is_clerk and not meeting.is_locked,
        "publish_form": forms.PublishForm(initial={"agenda_published_on": timezone.localdate()}),
        "attendance_form": forms.AttendanceForm(
            seated=services.members_on(meeting.held_on),
            initial={"present": [a.term_id for a in attendance if a.present]},
        ),
    }
    context.update(extra)
    return context


@login_required
def meeting(request, pk):
    _reader(request)
    meeting = get_object_or_404(Meeting, pk=pk)
    return render(request, "permits/board/meeting.html", _meeting_context(request, meeting))


@login_required
@require_POST
def meeting_act(request, pk, action):
    """The clerk's actions on a meeting: publish the agenda, record the attendance, move an item, lock the minutes.
    A refusal shows the meeting page again with the form's errors; nothing was stored."""
    _writer(request)
    meeting = get_object_or_404(Meeting, pk=pk)
    extra = {}
    try:
        if action == "publish":
            form = extra["publish_form"] = forms.PublishForm(request.POST)
            if not form.is_valid():
                raise RulesBroken.one(None, "required", "", "Give the date the agenda was published.")
            services.publish_agenda(meeting=meeting, on=form.cleaned_data["agenda_published_on"], by=request.user)
            messages.success(request, "The agenda is published.")
        elif action == "attendance":
            form = extra["attendance_form"] = forms.AttendanceForm(
                request.POST, seated=services.members_on(meeting.held_on)
            )
            if not form.is_valid():
                raise RulesBroken.one(None, "required", "", "Tick the members present.")
            services.record_attendance(meeting=meeting, present=form.cleaned_data["present"], by=request.user)
            messages.success(request, "Attendance recorded.")
        elif action in ("up", "down"):
            (item_id,) = posted_ids([request.POST.get("item", "")], "item")
            item = get_object_or_404(AgendaItem, pk=item_id, meeting=meeting)
            services.move_agenda_item(item=item, up=action == "up", by=request.user)
        elif action == "lock":
            services.lock_meeting(meeting=meeting, by=request.user)
            messages.success(request, "The minutes are locked: they are the record (Wis. Stat. § 19.21).")
        else:
            raise Http404("No such action")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        meeting.refresh_from_db()
        context = _meeting_context(request, meeting, **extra)
        return render(request, "permits/board/meeting.html", context, status=400)
    return redirect("board:meeting", pk=meeting.pk)


@login_required
def packet(request, pk):
    """The agenda packet: each item with the facts its matter gives (permits.board.matters.Matter.facts)."""
    _reader(request)
    meeting = get_object_or_404(Meeting, pk=pk)
    entries = []
    for item in meeting.items.select_related("subject_type"):
        facts = []
        if item.subject_type_id is not None:
            model_class = item.subject_type.model_class()
            matter = matter_for(item.clause, f"{model_class._meta.app_label}.{model_class._meta.object_name}")
            if matter is not None and item.subject is not None:
                facts = matter.facts(item.subject)
        entries.append((item, citation(item.clause), facts, rules.vote_rule_for(item.clause)))
    seats = services.seats_on(meeting.held_on)
    pdf = render_pdf(
        "pdf/board_packet.html",
        {
            "meeting": meeting,
            "entries": entries,
            "members": list(services.members_on(meeting.held_on)),
            "seats": seats,
            "three_fourths": rules.votes_needed_for_three_fourths(seats),
            "quorum": rules.quorum(seats) if seats else 0,
        },
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="board-packet-{meeting.held_on:%Y-%m-%d}.pdf"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def vote(request, pk):
    """Record the motion on an agenda item: a row per member present, the rule from the item's clause, the outcome
    computed; the result flows to the item's subject (services.decide_item)."""
    is_clerk = _reader(request)
    item = get_object_or_404(AgendaItem.objects.select_related("meeting"), pk=pk)
    meeting = item.meeting
    attendance = list(meeting.attendance.select_related("term__seat"))
    present = [a.term for a in attendance if a.present]
    form = forms.VoteForm(request.POST or None, present=present)
    if request.method == "POST":
        _writer(request)
        if form.is_valid():
            try:
                motion = services.decide_item(
                    item=item,
                    text=form.cleaned_data["text"],
                    votes=form.votes(),
                    resolution_number=form.cleaned_data["resolution_number"],
                    moved_by=form.cleaned_data["moved_by"],
                    seconded_by=form.cleaned_data["seconded_by"],
                    by=request.user,
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"{motion.get_outcome_display()}: {motion.ayes} aye{pluralize(motion.ayes)} of "
                    f"{motion.needed} needed ({motion.get_rule_display().lower()}).",
                )
                return redirect("board:meeting", pk=meeting.pk)
    seats = services.seats_on(meeting.held_on)
    rule = rules.vote_rule_for(item.clause)
    needed = (
        rules.votes_needed_for_three_fourths(seats)
        if rule == Motion.Rule.THREE_FOURTHS_ENTIRE
        else rules.votes_needed_for_majority_of_present(len(present))
    )
    return render(
        request,
        "permits/board/vote.html",
        {
            "item": item,
            "meeting": meeting,
            "form": form,
            "rule_label": Motion.Rule(rule).label,
            "needed": needed,
            "seats": seats,
            "present": present,
            "absent": [a.term for a in attendance if not a.present],
            "motions": item.motions.prefetch_related("votes__term").order_by("pk"),
            "is_clerk": is_clerk,
        },
        status=400 if request.method == "POST" else 200,
    )


def _roster_page(request, template: str, *, form, end_form, is_clerk: bool, **context):
    """The designations or the members: the records, the clerk's form adding one and the form ending one."""
    return render(
        request,
        template,
        {**context, "form": form, "end_form": end_form, "is_clerk": is_clerk, "today": timezone.localdate()},
        status=400 if request.method == "POST" else 200,
    )


def _add_to_roster(request, form, add) -> bool:
    """Adding a designation or a term from the roster's form (the clerk's step): True, with the record as a message,
    when `add` recorded it; False when the form or the service refused (the refusal is then on the form)."""
    _writer(request)
    added = service_result(form, partial(add, by=request.user))
    if added is None:
        return False
    messages.success(request, f"Recorded: {added}.")
    return True


def _end_from_roster(request, form, call, *, done: str, incomplete: str, back: str):
    """Ending a designation or a term from its row: the service called with the form's data; the result, the
    service's refusal or what the form lacks as a message on the roster."""
    if form.is_valid():
        try:
            call(**form.cleaned_data)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, done)
    else:
        messages.error(request, incomplete)
    return redirect(back)


@login_required
@require_http_methods(["GET", "POST"])
def designations(request):
    is_clerk = _reader(request)
    form = forms.DesignationForm(request.POST or None)
    if request.method == "POST" and _add_to_roster(request, form, services.designate_by_motion):
        return redirect("board:designations")
    qs = Designation.objects.select_related("user", "motion__item__meeting", "ended_by__item__meeting").order_by(
        "clause", "-starts_on", "-pk"
    )
    return _roster_page(
        request,
        "permits/board/designations.html",
        form=form,
        end_form=forms.EndDesignationForm(),
        is_clerk=is_clerk,
        page=page_of(request, qs),
    )


@login_required
@require_POST
def end_designation(request, pk):
    _writer(request)
    designation = get_object_or_404(Designation, pk=pk)
    return _end_from_roster(
        request,
        forms.EndDesignationForm(request.POST),
        partial(services.end_designation, designation=designation, by=request.user),
        done=f"Ended: {designation}.",
        incomplete="Give the last day in force and the Board's motion ending the designation.",
        back="board:designations",
    )


@login_required
@require_http_methods(["GET", "POST"])
def members(request):
    is_clerk = _reader(request)
    form = forms.TermForm(request.POST or None)
    if request.method == "POST" and _add_to_roster(request, form, services.seat_member):
        return redirect("board:members")
    seats = Seat.objects.prefetch_related(Prefetch("terms", queryset=Term.objects.order_by("-starts_on")))
    return _roster_page(
        request, "permits/board/members.html", form=form, end_form=forms.EndTermForm(), is_clerk=is_clerk, seats=seats
    )


@login_required
@require_POST
def end_term(request, pk):
    _writer(request)
    term = get_object_or_404(Term, pk=pk)
    return _end_from_roster(
        request,
        forms.EndTermForm(request.POST),
        partial(services.end_term, term=term, by=request.user),
        done=f"Recorded: {term}.",
        incomplete="Give the member's last day on the Board.",
        back="board:members",
    )
