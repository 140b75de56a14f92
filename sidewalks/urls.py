from django.urls import path

from sidewalks import board_views
from sidewalks import views as sidewalk_views
from sidewalks.snow import views as snow_views

app_name = "sidewalks"
# Sidewalk permits (§ 303-3C, § 303-3D), surveys (§ 303-3E) and Board orders (Wis. Stat. § 66.0907)
urlpatterns = [
    path("apply/", sidewalk_views.apply, name="apply"),
    path("inspections/", sidewalk_views.to_inspect, name="to_inspect"),
    path("permits/<str:number>/", sidewalk_views.permit_detail, name="permit"),
    path("permits/<str:number>/permit.pdf", sidewalk_views.permit_pdf, name="permit_pdf"),
    path("permits/<str:number>/payment/", sidewalk_views.record_fee_payment, name="payment"),
    path("permits/<str:number>/issue/", sidewalk_views.issue, name="issue"),
    path("permits/<str:number>/standing/", sidewalk_views.accept_standing, name="accept_standing"),
    path("permits/<str:number>/inspect/", sidewalk_views.inspect, name="inspect"),
    path("permits/<str:number>/complete/", sidewalk_views.complete, name="complete"),
    path("parcels/", sidewalk_views.parcel_search, name="parcel_search"),
    path("surveys/", sidewalk_views.surveys, name="surveys"),
    path("surveys/<int:pk>/", sidewalk_views.survey, name="survey"),
    path("surveys/<int:pk>/propose/", sidewalk_views.propose, name="propose"),
    path("orders/", sidewalk_views.orders, name="orders"),
    path("orders/illegal/", sidewalk_views.order_illegal, name="order_illegal"),
    path("orders/board/", sidewalk_views.order_board, name="order_board"),
    path("minor-repairs/", sidewalk_views.minor_repairs, name="minor_repairs"),
    path("minor-repairs/<str:number>/", sidewalk_views.minor_repair, name="minor_repair"),
    path("orders/<str:number>/", sidewalk_views.order_detail, name="order"),
    path("orders/<str:number>/<slug:action>/", sidewalk_views.order_act, name="order_act"),
]

# Snow and ice (§ 303-8) and rubbish (§ 303-2): the owners' duties; the Village's work bills through permits.ledger
urlpatterns += [
    path("snow/report/", snow_views.snow_report, name="snow_report"),
    path("snow/report/thanks/", snow_views.snow_report_thanks, name="snow_report_thanks"),
    path("snow/follow/<str:token>/", snow_views.snow_follow, name="snow_follow"),
    path("snow/", snow_views.snow_office, name="snow"),
    path("snow/snowfalls/<int:pk>/", snow_views.snowfall_detail, name="snowfall_detail"),
    path("snow/cases/<str:number>/", snow_views.snow_case, name="snow_case"),
    path("snow/cases/<str:number>/clear/", snow_views.snow_case_clear, name="snow_case_clear"),
    path("snow/cases/<str:number>/close/", snow_views.snow_case_close, name="snow_case_close"),
    path("snow/cases/<str:number>/unoccupied/", snow_views.snow_case_unoccupied, name="snow_case_unoccupied"),
    path("snow/cases/<str:number>/assign/", snow_views.snow_case_assign, name="snow_case_assign"),
    path("rubbish/", snow_views.rubbish_cases, name="rubbish_cases"),
    path("rubbish/<str:number>/", snow_views.rubbish_case, name="rubbish_case"),
]

# Waivers put to the Village Board (§ 303-3D(8)(c), § 303-3D(9)); decided on the Board pages (permits.board)
urlpatterns += [path("waivers/request/", board_views.request_waiver, name="waiver_request")]
