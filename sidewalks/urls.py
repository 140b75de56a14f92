from django.urls import path

app_name = "sidewalks"
urlpatterns: list = []

# Sidewalk permits (§ 303-3C, § 303-3D), surveys (§ 303-3E) and Board orders (Wis. Stat. § 66.0907)
from . import views as sidewalk_views  # noqa: E402

urlpatterns += [
    path("apply/", sidewalk_views.apply, name="apply"),
    path("permits/<str:number>/", sidewalk_views.permit_detail, name="permit"),
    path("permits/<str:number>/payment/", sidewalk_views.record_fee_payment, name="payment"),
    path("permits/<str:number>/issue/", sidewalk_views.issue, name="issue"),
    path("permits/<str:number>/inspect/", sidewalk_views.inspect, name="inspect"),
    path("permits/<str:number>/complete/", sidewalk_views.complete, name="complete"),
    path("parcels/", sidewalk_views.parcel_search, name="parcel_search"),
    path("surveys/", sidewalk_views.surveys, name="surveys"),
    path("surveys/<int:pk>/", sidewalk_views.survey, name="survey"),
    path("surveys/<int:pk>/propose/", sidewalk_views.propose, name="propose"),
    path("orders/", sidewalk_views.orders, name="orders"),
    path("orders/<str:number>/", sidewalk_views.order_detail, name="order"),
    path("orders/<str:number>/<slug:action>/", sidewalk_views.order_act, name="order_act"),
]
