"""Every form of the site, as a person finds it: each demo account walks the pages it can reach from the home page,
and every form with method="post" it is shown is recorded with the values the page fills in. The hostile-input test
(test_every_form.py) posts each of those fields with each hostile value, so a new form or a new field is covered by
being on a page, without a new test."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.urls import Resolver404, resolve
from django.utils import timezone

# Pages a walk does not open: the back office has its own tests (tests/permits/test_admin*.py), the API is fuzzed
# from its serializers, files are not pages, and signing out would end the walk.
SKIP = ("/admin/", "/api/", "/static/", "/media/", "/accounts/logout/", "/bench/")
SKIP_SUFFIXES = (".pdf", ".csv", ".json", ".geojson", ".ics", ".xml", ".png", ".zip", ".txt")
PER_ROUTE = 2  # pages of one URL pattern opened per person: the second finds forms a status shows only sometimes


@dataclass
class Form:
    action: str
    route: str
    fields: dict[str, list[str]] = field(default_factory=dict)  # name -> values as the browser would post them
    kinds: dict[str, str] = field(default_factory=dict)  # name -> input type ("text", "textarea", "select", ...)
    files: list[str] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # each named submit button: a different action

    def key(self) -> tuple:
        buttons = tuple(sorted((name, tuple(v)) for name, v in self.fields.items() if self.kinds[name] == "submit"))
        return (self.route, tuple(sorted(self.fields)), buttons)

    def variants(self) -> list[Form]:
        """The form as each of its named buttons sends it (the plain form when it has none)."""
        if not self.buttons:
            return [self]
        return [
            Form(
                action=self.action,
                route=self.route,
                fields={**self.fields, name: [value]},
                kinds={**self.kinds, name: "submit"},
                files=self.files,
            )
            for name, value in dict.fromkeys(self.buttons)
        ]


def _plausible(kind: str, attrs: dict) -> str:
    """A value for an input the page leaves empty, so that the form gets past its required fields to its rules."""
    today = timezone.localdate()
    if kind == "date":
        return (today + timedelta(days=14)).isoformat()
    if kind == "datetime-local":
        return (today + timedelta(days=14)).isoformat() + "T09:00"
    if kind == "time":
        return "09:00"
    if kind == "number":
        return attrs.get("min") or "1"
    if kind == "email":
        return "hostile@example.org"
    if kind == "tel":
        return "920-555-0100"
    if kind == "url":
        return "https://example.org/"
    if kind == "password":
        return ""
    return "Test"


class _Forms(HTMLParser):
    def __init__(self, base: str):
        super().__init__(convert_charrefs=True)
        self.base = base
        self.forms: list[Form] = []
        self.links: list[str] = []
        self._form: Form | None = None
        self._textarea: str | None = None
        self._text = ""
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._option: tuple[str | None, bool] | None = None
        self._option_text = ""

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(urljoin(self.base, a["href"]))
        elif tag == "form":
            if a.get("method", "get").lower() == "post":
                action = urljoin(self.base, a.get("action") or self.base)
                self._form = Form(action=action, route="")
            else:
                self._form = None
        elif self._form is None:
            return
        elif tag == "input" and a.get("name"):
            name, kind = a["name"], a.get("type", "text").lower()
            if name == "csrfmiddlewaretoken":
                return
            if kind == "file":
                self._form.files.append(name)
            elif kind in ("checkbox", "radio"):
                self._form.kinds.setdefault(name, kind)
                self._form.fields.setdefault(name, [])
                if "checked" in a or (kind == "radio" and not self._form.fields[name]):
                    values = self._form.fields[name]
                    if kind == "radio":
                        values[:] = [a.get("value", "on")]
                    else:
                        values.append(a.get("value", "on"))
            elif kind in ("submit", "image"):
                self._form.buttons.append((name, a.get("value", "")))
            else:
                self._form.kinds[name] = kind
                self._form.fields[name] = [a.get("value") or _plausible(kind, a)]
        elif tag == "button" and a.get("name") and a.get("type", "submit") == "submit":
            self._form.buttons.append((a["name"], a.get("value", "")))
        elif tag == "textarea" and a.get("name"):
            self._textarea, self._text = a["name"], ""
        elif tag == "select" and a.get("name"):
            self._select, self._options = a["name"], []
        elif tag == "option" and self._select is not None:
            self._option, self._option_text = (a.get("value"), "selected" in a), ""

    def handle_data(self, data):
        if self._textarea is not None:
            self._text += data
        if self._option is not None:
            self._option_text += data

    def handle_endtag(self, tag):
        if self._form is None:
            return
        if tag == "textarea" and self._textarea is not None:
            self._form.fields[self._textarea] = [self._text.strip() or "Test"]
            self._form.kinds[self._textarea] = "textarea"
            self._textarea = None
        elif tag == "option" and self._option is not None:
            value, selected = self._option
            self._options.append((value if value is not None else self._option_text.strip(), selected))
            self._option = None
        elif tag == "select" and self._select is not None:
            chosen = [v for v, s in self._options if s] or [v for v, _ in self._options if v][:1]
            self._form.fields[self._select] = chosen
            self._form.kinds[self._select] = "select"
            self._select = None
        elif tag == "form":
            self.forms.append(self._form)
            self._form = None


def _route(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.route


def _walkable(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.netloc not in ("", "testserver") or parts.scheme not in ("", "http"):
        return None
    path = parts.path
    if path.startswith(SKIP) or path.endswith(SKIP_SUFFIXES):
        return None
    return path + (f"?{parts.query}" if parts.query and "page=" not in parts.query else "")


def walk(client, start: list[str], limit: int = 400) -> list[Form]:
    """The post forms on the pages reachable from `start` for the client's user: at most PER_ROUTE pages per URL
    pattern, `limit` pages in all."""
    seen_urls: set[str] = set()
    per_route: dict[str, int] = {}
    queue = list(start)
    forms: list[Form] = []
    opened = 0
    while queue and opened < limit:
        url = queue.pop(0)
        if url in seen_urls:
            continue
        seen_urls.add(url)
        route = _route(urlsplit(url).path)
        if route is None or per_route.get(route, 0) >= PER_ROUTE:
            continue
        per_route[route] = per_route.get(route, 0) + 1
        response = client.get(url)
        opened += 1
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = _Forms(url)
        parser.feed(response.content.decode("utf-8", "replace"))
        for form in parser.forms:
            action = _walkable(form.action)
            form_route = action and _route(urlsplit(action).path)
            if form_route is not None and action:
                form.action, form.route = action, form_route
                forms.extend(form.variants())
        for link in parser.links:
            target = _walkable(link)
            if target and target not in seen_urls:
                queue.append(target)
    return forms
