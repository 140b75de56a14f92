from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from .api import PermitViewSet
from .api_street_opening import StreetOpeningViewSet

router = DefaultRouter()
router.register("permits", PermitViewSet, basename="permit")
router.register("street-openings", StreetOpeningViewSet, basename="street-opening")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("", include(router.urls)),
]
