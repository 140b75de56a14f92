"""Browser tests: Playwright for Python driving Debian's chromium (never a downloaded browser).

Without /usr/bin/chromium the tests skip with a loud notice, except when REQUIRE_BROWSER=1 (as in .ci/run), where a
missing browser fails the run.
"""

import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_SOURCE = AXE.read_text()
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def pytest_collection_modifyitems(config, items):
    if Path(CHROMIUM).exists():
        return
    message = f"BROWSER TESTS SKIPPED: no chromium at {CHROMIUM} (apt-get install -y chromium)"
    if os.environ.get("REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(message + " and REQUIRE_BROWSER=1")
    print("\n" + "!" * 78 + f"\n!!! {message}\n" + "!" * 78)
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=message))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def axe_check():
    """Call axe_check(page) on every page a journey visits: zero WCAG 2.1 A/AA violations allowed."""

    def check(page, context: str = ""):
        # The page as the user reads it: loaded, with its CSS transitions finished. Mid-transition colours (a button
        # under the pointer after the click that loaded the page) fail color-contrast at random.
        page.wait_for_load_state("load")
        page.evaluate("document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")
        # evaluate() is not subject to the page's CSP, which stays enforced for the app's own scripts.
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.evaluate(AXE_SOURCE)
        # Violations only: axe then skips gathering every node that passes (a third of a check's time), and still
        # reports every node of every violation.
        result = page.evaluate(
            "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", WCAG_TAGS
        )
        violations = [
            f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"]
        ]
        assert not violations, f"axe-core violations on {context or page.url}:\n" + "\n".join(violations)

    return check


@pytest.fixture
def login(live_server):
    """login(page, username, password): log in through the real login page."""

    def do_login(page, username: str, password: str = "correct-horse-battery"):
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username or email").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Sign In").click()

    return do_login


@pytest.fixture
def page(page):
    """The confirmations before certify, revoke, complete and void (static/js/confirm.js) are accepted, as the user
    who clicked means them; tests/browser/test_workspace.py checks that Cancel submits nothing."""
    page.on("dialog", lambda dialog: dialog.accept())
    return page
