"""Each role's start page (permits.workspace.sources) and the staff search box (permits.workspace.search)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone

from permits import kinds
from permits.access import require_staff
from permits.inspection_requests.services import SLOT_KEEPERS
from permits.paging import SEARCH_PAGES, page_of
from permits.reports.rules import BOARD_AND_CLERK
from permits.roles import has_role, roles_of
from permits.workspace import search
from permits.workspace import sources as workspace


@login_required
def workspace_page(request):
    """Village staff other than the clerk: what waits on my roles today, oldest first, and what I did lately."""
    require_staff(request.user, action="open the Village staff's work list: it is for Village staff")
    context = {
        "boxes": workspace.work_for(request.user, today=timezone.localdate()),
        "recent": workspace.recent_actions(request.user),
        "queues": kinds.work_queues_for(request.user),
        "roles": sorted(roles_of(request.user)),
        "reads_key_figures": has_role(request.user, *BOARD_AND_CLERK),
        "offers_inspection_times": has_role(request.user, *SLOT_KEEPERS),
    }
    return render(request, "permits/workspace.html", context)


@login_required
def search_page(request):
    """Staff: find a permit, parcel, person, company, charge or case by number, address, tax key, name or company."""
    require_staff(request.user, action="search the Village's records: search is for Village staff")
    q = search.clean_query(request.GET.get("q", ""))
    sources = search.sources_for(request.user)
    chosen = next((s for s in sources if s.key == request.GET.get("in", "")), None)
    context = {"q": q, "chosen": chosen, "sources": sources, "query": ""}
    if q and chosen is not None:
        # Its first SEARCH_PAGES pages, then more words (a common surname matches a share of every table).
        page = page_of(request, chosen.find(q), max_pages=SEARCH_PAGES)
        context.update(
            page=page,
            rows=[chosen.row(r) for r in page],
            query=search.querystring(q, chosen),
            capped_hint="more match: add words to narrow the search",
        )
    elif q:
        context["groups"] = search.search_all(request.user, q)
    return render(request, "permits/search.html", context)
