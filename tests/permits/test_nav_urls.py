"""The header's and footer's links are reversed once per process (permits/context_processors.py), and still
follow the script prefix a deployment under a sub-path serves from, and the URLconf in force."""

import pytest
from django.urls import reverse, set_script_prefix

from permits.context_processors import NAV_URL_NAMES, nav_urls, village

pytestmark = pytest.mark.django_db


def test_every_header_link_answers_as_reverse_would(client, clerk, resident):
    client.force_login(clerk)
    page = client.get(reverse("permits:office")).content.decode()
    for name in ("home", "permits:office", "admin:index", "api-docs"):
        assert f'href="{reverse(name)}"' in page
    client.force_login(resident)
    page = client.get(reverse("permits:my_applications")).content.decode()
    for name in ("home", "permits:apply", "permits:my_applications", "permits:tokens", "streetmap:map"):
        assert f'href="{reverse(name)}"' in page


def test_each_audience_has_its_own_header(client, clerk, resident):
    """The staff's header has their work and the records search, not the resident's "Apply" or "API token"; the
    public's has the map and the way in."""
    public = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("streetmap:map")}"' in public and f'href="{reverse("account_login")}"' in public
    assert f'href="{reverse("permits:apply")}"' not in public
    client.force_login(clerk)
    staff = client.get(reverse("permits:office")).content.decode()
    assert 'id="header-search"' in staff
    assert f'href="{reverse("permits:apply")}"' not in staff and f'href="{reverse("permits:tokens")}"' not in staff
    client.force_login(resident)
    applicant = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("permits:apply")}"' in applicant and 'id="header-search"' not in applicant


def test_a_site_under_a_sub_path_gets_prefixed_links(rf, clerk):
    request = rf.get("/office/")
    request.user = clerk
    set_script_prefix("/permits-office/")
    try:
        nav = village(request)["nav"]
    finally:
        set_script_prefix("/")
    assert nav["permits_office"] == "/permits-office/office/"
    assert village(request)["nav"]["permits_office"] == "/office/"


def test_the_links_are_kept_per_prefix_and_urlconf():
    plain = nav_urls("/", "theresa_permits.urls")
    assert set(plain) == {n.replace(":", "_").replace("-", "_") for n in NAV_URL_NAMES}
    assert nav_urls("/", "theresa_permits.urls") is plain
    assert nav_urls("/", "bench.urls") is not plain
