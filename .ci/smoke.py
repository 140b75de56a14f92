#!/usr/bin/env python3
"""Smoke test of a running production deploy (.ci/production_drill.sh starts it): standard library only.

It talks plain HTTP on loopback the way the Village's TLS-terminating proxy does (docs/howto/production.md:
`SECURE_SSL_REDIRECT` behind a proxy that sets `X-Forwarded-Proto`): every request carries `X-Forwarded-Proto: https`,
and the Secure session and CSRF cookies are sent back on that leg. It checks:

1. without the proxy header the site redirects to https (production settings are on);
2. static files are served from the manifest (hashed names) by whitenoise, drf-spectacular-sidecar's for /api/docs/;
3. each demo role logs in through the allauth login form (CSRF cookie + token) and `/start/` lands, with 200, on that
   role's start page (or, for Village staff while STAFF_MFA_REQUIRED is on, on the two-factor setup page);
4. the contractor submits a sidewalk permit application (§ 303-3C) and sees it listed under My applications;
5. the utility downloads the PDF of its issued street opening permit (§ 303-4) and it starts with %PDF.

Exit status 0 only if every check passed; each step prints its timing.
"""

from __future__ import annotations

import argparse
import datetime
import http.cookiejar
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

# Each demo account (README, "Demo accounts") and the path its start page begins with.
ROLES = {
    "clerk": "/admin/",
    "dpw": "/office/",
    "inspector": "/field/",
    "building": "/office/",
    "police": "/office/",
    "board": "/office/",
    "president": "/office/",
    "resident": "/permits/",
    "contractor": "/permits/",
    "utility": "/permits/",
}
STAFF = {"clerk", "dpw", "inspector", "building", "police", "board", "president"}
# Staff without a second factor land on the page that says it comes from the emailed enrolment link (OWASP ASVS V2.7).
MFA_SETUP = ("/account/second-factor/", "/accounts/2fa/")
FAILURES: list[str] = []


def step(name):
    def wrap(fn):
        def run(*args, **kwargs):
            started = time.monotonic()
            try:
                result = fn(*args, **kwargs)
            except Exception as error:  # noqa: BLE001 - every failure is reported, then the run fails
                FAILURES.append(f"{name}: {error}")
                print(f"  FAIL {name} ({time.monotonic() - started:.2f} s): {error}", flush=True)
                return None
            print(f"  ok   {name} ({time.monotonic() - started:.2f} s){': ' + result if result else ''}", flush=True)
            return result

        return run

    return wrap


class ProxyLegPolicy(http.cookiejar.DefaultCookiePolicy):
    """The loopback leg behind the TLS proxy: Secure cookies go back on it, as the proxy forwards them."""

    def return_ok_secure(self, cookie, request):
        return True


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Forms(HTMLParser):
    """Every <form> of a page: action, method and its fields (inputs, selects with options, textareas)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action") or "", "method": (a.get("method") or "get").lower(), "f": []})
        elif not self.forms:
            return
        elif tag in ("input", "textarea") and a.get("name"):
            self.forms[-1]["f"].append(
                {"name": a["name"], "type": a.get("type", "text" if tag == "input" else "textarea"), **a}
            )
        elif tag == "select" and a.get("name"):
            self._select = {"name": a["name"], "type": "select", "options": []}
            self.forms[-1]["f"].append(self._select)
        elif tag == "option" and self._select is not None:
            self._select["options"].append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None

    def form_with(self, field):
        for form in self.forms:
            if any(f["name"] == field for f in form["f"]):
                return form
        raise AssertionError(f"no form with a {field!r} field")


class Client:
    def __init__(self, base):
        self.base = base.rstrip("/")
        self.host = urllib.parse.urlsplit(self.base).netloc
        self.jar = http.cookiejar.CookieJar(policy=ProxyLegPolicy())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, path, data=None, *, proxy=True, follow=True):
        req = urllib.request.Request(self.base + path, data=data)
        if proxy:
            req.add_header("X-Forwarded-Proto", "https")
        if data is not None:
            req.add_header("Origin", f"https://{self.host}")
            req.add_header("Referer", f"https://{self.host}{path}")
        opener = self.opener if follow else urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(req, timeout=30) as response:
                return response.status, urllib.parse.urlsplit(response.url).path, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, urllib.parse.urlsplit(error.url).path, error.headers, error.read()

    def get(self, path, **kwargs):
        return self.request(path, **kwargs)

    def submit(self, path, form, values):
        """POST a parsed form: its hidden fields and defaults, then `values` on top."""
        data = []
        for field in form["f"]:
            name, kind = field["name"], field["type"]
            if name in values:
                continue
            if kind == "hidden" or (kind in ("text", "number", "date", "email") and field.get("value")):
                data.append((name, field.get("value", "")))
            elif kind in ("checkbox", "radio") and "checked" in field:
                data.append((name, field.get("value", "on")))
        data += [(k, v) for k, v in values.items() if v is not None]
        action = form["action"] or path
        return self.request(action, urllib.parse.urlencode(data).encode())


def parse(body) -> Forms:
    forms = Forms()
    forms.feed(body.decode("utf-8", "replace"))
    return forms


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


@step("without X-Forwarded-Proto the site redirects to https (SECURE_SSL_REDIRECT)")
def check_https_redirect(base):
    status, _, headers, _ = Client(base).get("/", proxy=False, follow=False)
    expect(status == 301 and headers.get("Location", "").startswith("https://"), f"got {status} {headers}")
    return headers["Location"]


@step("home page and manifest static files (whitenoise, hashed names)")
def check_static(base):
    client = Client(base)
    status, _, headers, body = client.get("/")
    expect(status == 200, f"home page {status}")
    expect("Strict-Transport-Security" in headers, "no HSTS header")
    expect(b"Demo mode" not in body, "the footer of a production site says Demo mode")
    html = body.decode()
    hashed = re.findall(r'(/static/[^"]+\.[0-9a-f]{12}\.(?:css|js))"', html)
    expect(len(hashed) >= 2, "static URLs are not hashed: " + ", ".join(re.findall(r'/static/[^"]+', html)))
    for url in hashed:
        status, _, headers, asset = client.get(url)
        expect(status == 200 and asset, f"{url}: {status}")
        expect("immutable" in headers.get("Cache-Control", ""), f"{url}: not cached as immutable")
    return ", ".join(u.rsplit("/", 1)[-1] for u in hashed)


@step("API docs with drf-spectacular-sidecar's collected assets (Swagger UI)")
def check_api_docs(base):
    client = Client(base)
    status, _, _, body = client.get("/api/docs/")
    expect(status == 200, f"/api/docs/ {status}")
    assets = re.findall(r'(/static/drf_spectacular_sidecar/[^"\']+\.[0-9a-f]{12}\.(?:css|js|png))', body.decode())
    expect(assets, "no hashed drf_spectacular_sidecar asset on /api/docs/")
    for url in assets:
        status, _, _, asset = client.get(url)
        expect(status == 200 and asset, f"{url}: {status}")
    return f"{len(assets)} assets"


def log_in(base, username, password) -> Client:
    client = Client(base)
    status, _, _, body = client.get("/accounts/login/")
    expect(status == 200, f"login page {status}")
    form = parse(body).form_with("login")
    expect(any(f["name"] == "csrfmiddlewaretoken" for f in form["f"]), "the login form has no CSRF token")
    expect(any(c.name == "csrftoken" for c in client.jar), "no CSRF cookie")
    status, path, _, body = client.submit("/accounts/login/", form, {"login": username, "password": password})
    expect(status == 200, f"login POST ended {status} at {path}")
    expect(any(c.name == "sessionid" for c in client.jar), f"no session after logging in (ended at {path})")
    return client


def check_role(base, username, password):
    @step(f"{username}: log in, /start/ lands on {ROLES[username]}")
    def run():
        client = log_in(base, username, password)
        status, path, _, body = client.get("/start/")
        expect(status == 200, f"/start/ ended {status} at {path}")
        if username in STAFF and path.startswith(MFA_SETUP):
            return f"200 at {path} (staff second factor required first, from the emailed link: OWASP ASVS V4.3.1, V2.7)"
        expect(path.startswith(ROLES[username]), f"/start/ ended at {path}, not {ROLES[username]}")
        expect(username.encode() in body.lower() or b"Log out" in body, "the page does not show a signed-in user")
        return f"200 at {path}"

    return run()


@step("contractor: submit a sidewalk permit application (§ 303-3C) and see it listed")
def check_application(base, password, tax_key):
    client = log_in(base, "contractor", password)
    status, _, _, body = client.get("/sidewalks/apply/")
    expect(status == 200, f"apply page {status}")
    form = parse(body).form_with("parcel")
    fields = {f["name"]: f for f in form["f"]}
    works = [f.get("value") for f in form["f"] if f["name"] == "work"]
    organizations = [v for v in fields.get("organization", {}).get("options", []) if v]
    # At least three days before the work (§ 303-3C): a week ahead.
    pour = datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=7)
    values = {
        "parcel": tax_key,
        "organization": organizations[0] if organizations else None,
        "work": next((w for w in works if "new" in w), works[0]),
        "frontage_feet": "66",
        "width_feet": "5",
        "thickness_inches": "4",
        "driveway_length_feet": "12",
        "driveway_thickness_inches": "6",
        "material": "concrete",
        "concrete_psi": "4000",
        "sacks_per_cubic_yard": "6",
        "pour_date": pour.isoformat(),
    }
    status, path, _, body = client.submit("/sidewalks/apply/", form, values)
    expect(status == 200, f"submission ended {status} at {path}")
    numbers = re.findall(r"/sidewalks/permits/([A-Z0-9-]+)/", path)
    expect(numbers, f"the application was not accepted (stayed at {path}): {errors_in(body)}")
    number = numbers[0]
    status, _, _, listing = client.get("/permits/")
    expect(status == 200 and number.encode() in listing, f"{number} is not listed under My applications")
    return number


def errors_in(body) -> str:
    text = re.sub(r"<[^>]+>", " ", body.decode("utf-8", "replace"))
    found = re.findall(r"[^.]*§ 303[^.]*\.|[^.]*required[^.]*\.", text)
    return " | ".join(" ".join(e.split()) for e in found[:5]) or "no message found"


@step("utility: download its issued street opening permit PDF (§ 303-4)")
def check_pdf(base, password):
    client = log_in(base, "utility", password)  # the demo's issued street opening is Rock River Gas & Electric's
    status, _, _, listing = client.get("/permits/")
    expect(status == 200, f"My applications {status}")
    numbers = sorted(set(re.findall(r'href="/permits/([A-Z0-9-]+)/"', listing.decode())))
    expect(numbers, "the utility has no permits listed")
    tried = []
    for number in numbers:
        status, _, headers, pdf = client.get(f"/permits/{number}/street-opening.pdf")
        tried.append(f"{number}:{status}")
        if status == 200:
            expect(pdf.startswith(b"%PDF"), f"{number}: the body does not start with %PDF")
            expect(headers.get_content_type() == "application/pdf", f"{number}: {headers.get_content_type()}")
            return f"{number}, {len(pdf)} bytes"
    raise AssertionError(f"no PDF among {', '.join(tried)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="e.g. http://127.0.0.1:8765")
    parser.add_argument("--password", required=True)
    parser.add_argument("--tax-key", default="266-1116-1001", help="a residential demo parcel")
    args = parser.parse_args()
    started = time.monotonic()
    check_https_redirect(args.base)
    check_static(args.base)
    check_api_docs(args.base)
    for username in ROLES:
        check_role(args.base, username, args.password)
    check_application(args.base, args.password, args.tax_key)
    check_pdf(args.base, args.password)
    print(f"smoke: {len(FAILURES)} failure(s) in {time.monotonic() - started:.1f} s", flush=True)
    for failure in FAILURES:
        print(f"  - {failure}", flush=True)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
