import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_home_page_explains_which_permit_and_is_accessible(page, live_server, axe_check):
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Which permit do I need?")).to_be_visible()
    axe_check(page, "home")
