from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from permits.api import PermitViewSet
from permits.api_street_opening import StreetOpeningViewSet

router = DefaultRouter()
router.register("permits", PermitViewSet, basename="permit")
router.register("street-openings", StreetOpeningViewSet, basename="street-opening")

# Sidewalk permits and parcel search (issue 4). A URL module: importing the sidewalks app here is acceptable.
from sidewalks.api import ParcelViewSet, SidewalkPermitViewSet  # noqa: E402

router.register("sidewalk-permits", SidewalkPermitViewSet, basename="sidewalk-permit")
router.register("parcels", ParcelViewSet, basename="parcel")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("", include(router.urls)),
]
