from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from permits import views as permit_views
from permits.api.docs import RedocView
from permits.online_payments.urls import gateway_urlpatterns

admin.site.site_header = "Theresa Permits: back office"
admin.site.site_title = "Theresa Permits"
admin.site.index_title = "Clerk-Treasurer and staff"

urlpatterns = [
    path("", permit_views.home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("permits.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("", include("permits.urls")),
    path("", include("permits.ledger.urls")),
    path("", include("permits.online_payments.urls")),
    *gateway_urlpatterns,
    path("", include("permits.board.urls")),
    path("sidewalks/", include("sidewalks.urls")),
    path("obstructions/", include("obstructions.urls")),
    path("", include("permits.streetmap.urls")),
    path("reports/", include("permits.reports.urls")),
]
