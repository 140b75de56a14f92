from functools import cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.functional import SimpleLazyObject

from permits.roles import is_village_staff
from permits.village_office import office_facts


def village(request):
    return {
        "VILLAGE_NAME": settings.VILLAGE_NAME,
        # The record the clerk keeps at /office/village-office/, read once per request and only by a page that shows
        # it (the footer); it renders as its address.
        "VILLAGE_OFFICE": SimpleLazyObject(office_facts),
        "is_village_staff": is_village_staff(request.user),
        "nav": nav_urls(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF),
    }


# The links of every page's header and footer (templates/base.html), reversed once per process, prefix and URLconf:
# 27 reverse() calls on every request would be a fifth of a kept list's time under load.
NAV_URL_NAMES = (
    "account_login",
    "account_logout",
    "account_signup",
    "admin:index",
    "api-docs",
    "board:board",
    "home",
    "obstructions:cases",
    "obstructions:complaint",
    "permits:apply",
    "permits:lookup",
    "permits:my_applications",
    "permits:office",
    "permits:rules",
    "permits:search",
    "permits:start",
    "permits:tokens",
    "reports:index",
    "streetmap:map",
)


@cache
def nav_urls(script_prefix: str, urlconf: str) -> dict[str, str]:
    return {name.replace(":", "_").replace("-", "_"): reverse(name, urlconf=urlconf) for name in NAV_URL_NAMES}
