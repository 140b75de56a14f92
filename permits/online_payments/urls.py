from django.urls import path

from permits.online_payments import views

app_name = "online_payments"
urlpatterns = [
    path("pay/permit/<str:number>/", views.pay_permit, name="pay_permit"),
    path("pay/charge/<str:number>/", views.pay_charge, name="pay_charge"),
    path("pay/<uuid:token>/card/", views.card, name="card"),
    path("pay/<uuid:token>/", views.result, name="result"),
    path("office/online-payments/", views.office_list, name="office_list"),
    path("office/online-payments/<uuid:token>/refund/", views.refund_online, name="refund_online"),
    path("office/receipts/<str:receipt_number>/refund/", views.refund_receipt, name="refund_receipt"),
    path("office/settlement/", views.settlements, name="settlements"),
    path("office/settlement/<str:day>/", views.settlement, name="settlement"),
    path("office/settlement/<str:day>.csv", views.settlement_csv, name="settlement_csv"),
    path("office/settlement/<str:day>.pdf", views.settlement_pdf, name="settlement_pdf"),
]

# The gateway's callbacks, under the names django-payments reverses (process_payment, static_process_payment).
gateway_urlpatterns = [
    path("payments/process/<uuid:token>/", views.gateway_process, name="process_payment"),
    path("payments/process/<slug:variant>/", views.gateway_webhook, name="static_process_payment"),
]
