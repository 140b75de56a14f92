"""The public rules page: the readings the Village has chosen (permits.readings), open to everyone."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from permits.readings import readings_by_topic


@require_safe
def rules_page(request):
    return render(request, "permits/rules.html", {"topics": readings_by_topic()})
