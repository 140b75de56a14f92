app_name = "sidewalks"
urlpatterns: list = []
