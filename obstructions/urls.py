app_name = "obstructions"
urlpatterns: list = []
