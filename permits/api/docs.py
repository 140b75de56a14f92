"""The API's documentation pages, working under the site's Content-Security-Policy.

drf-spectacular's ReDoc page loads Google Fonts and starts ReDoc from an inline script, both refused by the CSP
(`script-src 'self'`), so it showed "Something went wrong". Here ReDoc is started by a vendored script
(static/js/redoc-init.js) from the sidecar's bundle, without the fonts; the page's CSP adds only what ReDoc itself
needs: the styles its components inject ('unsafe-inline' for styles only, never scripts) and its search worker
(blob:). Swagger UI's split view already loads its start script from the site; its inline <style> is cosmetic.
"""

from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from drf_spectacular.views import SpectacularRedocView

REDOC_CSP = {"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]}


@method_decorator(csp_update(REDOC_CSP), name="dispatch")
class RedocView(SpectacularRedocView):
    template_name = "api/redoc.html"
