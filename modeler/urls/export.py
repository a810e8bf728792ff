"""URLs of the Export section (included by modeler.urls under a project's path)."""

from django.urls import path

from modeler.views import export

urlpatterns = [
    path("export/", export.export_page, name="export-page"),
    path("export/<str:format_name>/lint/", export.export_lint, name="export-lint"),
    path(
        "export/<str:format_name>/download/",
        export.export_download,
        name="export-download",
    ),
]
