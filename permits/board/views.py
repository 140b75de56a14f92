"""The Village Board's staff page: who holds each seat today, the designations in force, and the meetings with their
motions (paged). Read-only: the clerk keeps the record in the back office (permits.board.admin)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.shortcuts import render
from django.utils import timezone

from permits.access import require_staff
from permits.board import rules, services
from permits.board.models import Meeting, Motion, Seat

PAGE_SIZE = 10


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
    page = Paginator(meetings, PAGE_SIZE).get_page(request.GET.get("page"))
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
        },
    )
