"""The client address behind the Village's proxy (permits/client_ip.py, OWASP: X-Forwarded-For spoofing)."""

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from permits.client_ip import client_ip, parse_trusted_proxies

PROXY = "10.0.0.2"


def request(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_owasp_xff_default_trusts_nobody_a_spoofed_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = ()
    assert client_ip(request("203.0.113.5", "198.51.100.1")) == "203.0.113.5"


def test_owasp_xff_spoofed_header_from_an_untrusted_client_is_ignored(settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    assert client_ip(request("203.0.113.5", "198.51.100.1")) == "203.0.113.5"


def test_owasp_xff_from_a_trusted_proxy_the_forwarded_client_is_used(settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    assert client_ip(request(PROXY, "198.51.100.1")) == "198.51.100.1"


def test_owasp_xff_right_most_untrusted_address_wins_over_what_the_client_wrote(settings):
    settings.TRUSTED_PROXIES = ("10.0.0.0/24",)
    # The client typed "1.2.3.4"; the outer proxy 10.0.0.9 saw 198.51.100.1 and the inner one saw 10.0.0.9.
    assert client_ip(request(PROXY, "1.2.3.4, 198.51.100.1, 10.0.0.9")) == "198.51.100.1"


def test_owasp_xff_trusted_proxy_without_header_is_the_client(settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    assert client_ip(request(PROXY)) == PROXY
    assert client_ip(request(PROXY, "garbage")) == PROXY


def test_owasp_xff_ipv6_and_unknown(settings):
    settings.TRUSTED_PROXIES = ("fd00::/8",)
    assert client_ip(request("fd00::1", "2001:db8::7")) == "2001:db8::7"
    assert client_ip(request("")) == "unknown"


def test_a_unix_socket_peer_is_the_local_proxy_and_its_forwarded_client_is_used(settings):
    settings.TRUSTED_PROXIES = ()
    assert client_ip(request("", "1.2.3.4, 198.51.100.1")) == "198.51.100.1"
    assert client_ip(request("", "198.51.100.1, garbage")) == "unknown"
    settings.TRUSTED_PROXIES = ("10.0.0.0/24",)
    assert client_ip(request("", "198.51.100.1, 10.0.0.9")) == "198.51.100.1"


def test_owasp_xff_trusted_proxies_setting_is_parsed_and_a_bad_entry_is_named():
    assert parse_trusted_proxies("") == ()
    assert parse_trusted_proxies(" 10.0.0.1 , 10.1.0.0/16,") == ("10.0.0.1", "10.1.0.0/16")
    with pytest.raises(ValueError, match="TRUSTED_PROXIES: 'proxy.internal'"):
        parse_trusted_proxies("10.0.0.1,proxy.internal")


@pytest.fixture
def axes_on(settings):
    import axes.utils

    settings.AXES_ENABLED = True
    cache.clear()
    axes.utils.reset()
    yield
    axes.utils.reset()
    cache.clear()


def web_login(client, username, password, **meta):
    return client.post(reverse("account_login"), {"login": username, "password": password}, **meta)


@pytest.mark.django_db
def test_owasp_xff_lockout_of_one_client_does_not_lock_another_behind_the_same_proxy(
    client, resident, axes_on, settings
):
    settings.TRUSTED_PROXIES = (PROXY,)
    for _ in range(5):
        web_login(client, "resident", "wrong-password", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.66")
    cache.clear()  # allauth's own per-key limit is separate: what is tested here is axes
    attacker = web_login(
        client, "resident", "correct-horse-battery", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.66"
    )
    assert attacker.status_code == 429
    owner = web_login(
        client, "resident", "correct-horse-battery", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert owner.status_code == 302


@pytest.mark.django_db
def test_owasp_xff_spoofed_header_does_not_escape_the_lockout(client, resident, axes_on, settings):
    settings.TRUSTED_PROXIES = ()
    for n in range(5):
        web_login(client, "resident", "wrong-password", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    cache.clear()
    again = web_login(
        client, "resident", "correct-horse-battery", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="192.0.2.99"
    )
    assert again.status_code == 429


@pytest.mark.django_db
def test_303_8_snow_report_limit_keys_on_the_forwarded_client_not_the_proxy(client, settings):
    from sidewalks.snow.views import REPORTS_PER_HOUR

    settings.TRUSTED_PROXIES = (PROXY,)
    cache.clear()
    url = reverse("sidewalks:snow_report")
    for _ in range(REPORTS_PER_HOUR):
        client.post(url, {}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.66")
    assert client.post(url, {}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.66").status_code == 429
    assert client.post(url, {}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code != 429
    # ... and a spoofed header from a client that is not the proxy does not buy more reports.
    settings.TRUSTED_PROXIES = ()
    cache.clear()
    for n in range(REPORTS_PER_HOUR):
        client.post(url, {}, REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert client.post(url, {}, REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429
    cache.clear()


@pytest.mark.django_db
def test_allauths_login_limits_count_per_client_behind_the_proxy_not_per_proxy(client, resident, settings):
    """allauth's "login": "30/m/ip" and "login_failed": "10/m/ip" keyed on the proxy's address: 31 logins from one
    client refused every other client's correct login for a minute."""
    settings.TRUSTED_PROXIES = (PROXY,)
    attacker = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.66"}
    for n in range(30):
        assert web_login(client, f"nobody{n}", "wrong-password", **attacker).status_code == 200
    assert web_login(client, "resident", "correct-horse-battery", **attacker).status_code == 429
    owner = web_login(
        client, "resident", "correct-horse-battery", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert owner.status_code == 302


@pytest.mark.django_db
def test_a_login_through_a_unix_socket_works_and_axes_records_no_address(client, resident, axes_on):
    from axes.models import AccessAttempt

    socket = {"REMOTE_ADDR": ""}  # gunicorn --bind unix:/run/theresa.sock behind nginx, no X-Forwarded-For
    assert web_login(client, "resident", "wrong-password", **socket).status_code == 200
    assert AccessAttempt.objects.get(username="resident").ip_address is None
    assert web_login(client, "resident", "correct-horse-battery", **socket).status_code == 302


@pytest.mark.django_db
def test_a_unix_socket_lockout_keys_on_the_client_nginx_forwards(client, resident, axes_on):
    for _ in range(5):
        web_login(client, "resident", "wrong-password", REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="198.51.100.66")
    cache.clear()
    locked = web_login(
        client, "resident", "correct-horse-battery", REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="198.51.100.66"
    )
    assert locked.status_code == 429
    owner = web_login(client, "resident", "correct-horse-battery", REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert owner.status_code == 302
