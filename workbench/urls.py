from django.urls import include, path

urlpatterns = [
    path("", include("modeler.urls")),
]
