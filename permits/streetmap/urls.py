from django.urls import path, re_path

from permits.streetmap import views

app_name = "streetmap"
urlpatterns = [
    path("map/", views.public_map, name="map"),
    path("map/list/", views.public_map, {"list_only": True}, name="list"),
    path("map/data.geojson", views.map_data, name="map_data"),
    path("map/subscribe/", views.subscribe, name="subscribe"),
    path("map/subscriptions/<uuid:token>/", views.subscription, name="subscription"),
    path("data/", views.data_page, name="data"),
    path("data/wzdx.geojson", views.wzdx_feed, name="wzdx"),
    re_path(r"^data/blds/permits\.(?P<fmt>csv|json)$", views.blds_permits, name="blds_permits"),
    re_path(r"^data/blds/status-changes\.(?P<fmt>csv|json)$", views.blds_status_changes, name="blds_status_changes"),
    path("data/streets/<int:pk>.ics", views.street_calendar, name="street_calendar"),
    path("calendar/<uuid:token>.ics", views.my_calendar_feed, name="my_calendar_feed"),
    path("account/calendar/", views.my_calendar, name="my_calendar"),
    path("permits/<str:number>/place/", views.place, name="place"),
    path("permits/<str:number>/conflicts-seen/", views.conflicts_seen, name="conflicts_seen"),
]
