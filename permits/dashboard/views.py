"""The key-figures page: who may read it, then the figures of today."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone

from permits.access import require_role
from permits.dashboard.figures import key_figures
from permits.reports.rules import BOARD_AND_CLERK


@login_required
def key_figures_page(request):
    require_role(
        request.user,
        *BOARD_AND_CLERK,
        action="read the key figures: the Clerk-Treasurer, the Village Board and the President do",
    )
    return render(request, "permits/key_figures.html", {"kf": key_figures(timezone.localdate())})
