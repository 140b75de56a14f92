"""Navigation: the office page's work queues lead to working sidewalk pages, and the clerk's and DPW's pages link on."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def sidewalk_links(html: str) -> list[str]:
    return sorted(set(re.findall(r'href="(/(?:sidewalks|charges|hearings|tax-roll)/[^"?#]*)"', html)))


def test_office_work_queue_links_work_for_the_clerk(client, clerk):
    client.force_login(clerk)
    links = sidewalk_links(client.get(reverse("permits:office")).content.decode())
    assert reverse("ledger:charges") in links and reverse("ledger:tax_rolls") in links
    results = {link: client.get(link).status_code for link in links}
    assert results[reverse("ledger:charges")] == 200 and results[reverse("ledger:tax_rolls")] == 200
    assert all(code in (200, 403) for code in results.values()), results


def test_office_work_queue_links_work_for_dpw(client, dpw_director):
    client.force_login(dpw_director)
    links = sidewalk_links(client.get(reverse("permits:office")).content.decode())
    for name in ("snow", "rubbish_cases", "surveys", "orders", "to_inspect"):
        assert reverse(f"sidewalks:{name}") in links
        assert client.get(reverse(f"sidewalks:{name}")).status_code == 200, name


def test_every_sidewalk_link_on_the_clerks_pages_resolves(client, clerk):
    client.force_login(clerk)
    seen, todo = set(), [reverse("ledger:charges"), reverse("ledger:tax_rolls"), reverse("ledger:hearings")]
    while todo:
        link = todo.pop()
        if link in seen or link.endswith((".pdf", ".csv")):
            continue
        seen.add(link)
        response = client.get(link)
        assert response.status_code == 200, link
        todo += sidewalk_links(response.content.decode())
    assert reverse("ledger:hearings") in seen
