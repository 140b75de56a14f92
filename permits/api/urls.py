"""The API, version 1: the core's endpoints and each permit type's, from the registry (permits.kinds)."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from permits import kinds
from permits.api.auth import obtain_auth_token
from permits.api.shared import ParcelViewSet, PermitViewSet

router = DefaultRouter()
router.register("permits", PermitViewSet, basename="permit")
router.register("parcels", ParcelViewSet, basename="parcel")
for route in kinds.api_routes():
    router.register(route.prefix, route.viewset, basename=route.basename)

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("", include(router.urls)),
]
