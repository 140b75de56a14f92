"""Each of the ten demo accounts lands on its own start page, and every link there works for that role."""

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from permits.demo import USERNAMES

pytestmark = pytest.mark.django_db

SKIPPED = ("/accounts/logout/",)


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)


def links_of(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    found = []
    for href in parser.links:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("#") or href.startswith("data:"):
            continue
        if href.startswith(SKIPPED):
            continue
        found.append(href)
    return list(dict.fromkeys(found))


LANDS_ON = {
    "clerk": "/admin/",
    "dpw": "/office/today/",
    "inspector": "/office/today/",
    "building": "/office/today/",
    "police": "/office/today/",
    "officer": "/office/today/",
    "board": "/office/today/",
    "president": "/office/today/",
    "resident": "/permits/",
    "contractor": "/permits/",
    "utility": "/permits/",
}


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


@pytest.mark.slow
def test_issue15_each_demo_account_lands_on_its_start_page_and_every_link_there_answers_200(demo, client):
    assert set(LANDS_ON) == set(USERNAMES)
    broken = []
    for username in USERNAMES:
        client.force_login(get_user_model().objects.get(username=username))
        response = client.get("/start/", follow=True)
        assert response.status_code == 200, username
        assert response.request["PATH_INFO"] == LANDS_ON[username], username
        for href in links_of(response.content.decode()):
            answer = client.get(href)
            if answer.status_code not in (200, 302):
                broken.append((username, href, answer.status_code))
            elif answer.status_code == 302 and "/accounts/login/" in answer["Location"]:
                broken.append((username, href, "sent to log in"))
        client.logout()
    assert not broken, broken


def test_issue15_no_office_work_queue_link_answers_403_for_a_role_that_sees_it(
    client, clerk, dpw_director, inspector, building_inspector, police_chief, board_member, president
):
    from permits import kinds

    refused = []
    for user in (clerk, dpw_director, inspector, building_inspector, police_chief, board_member, president):
        client.force_login(user)
        for queue, url in kinds.work_queues_for(user):
            status = client.get(url).status_code
            if status != 200:
                refused.append((user.username, queue.title, status))
    assert not refused, refused


def test_issue15_the_manage_page_shows_each_role_only_the_actions_it_may_take(
    client, application, clerk, police_chief, building_inspector, board_member
):
    url = f"/permits/{application.number}/street-opening/manage/"
    client.force_login(clerk)
    page = client.get(url).content.decode()
    assert "Application complete: start review" in page and "Determinations of the Village Board" in page
    for user in (police_chief, building_inspector):
        client.force_login(user)
        page = client.get(url).content.decode()
        assert "Application complete: start review" not in page  # § 303-4B: the clerk or the DPW
        assert "Revoke the permittee" not in page and "Determinations of the Village Board" not in page
    client.force_login(board_member)
    page = client.get(url).content.decode()
    assert "Application complete: start review" not in page
    assert "Revoke the permittee" in page  # § 303-4H(2): the Board revokes
