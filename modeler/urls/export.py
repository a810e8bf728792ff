"""URLs of the Export section (included by modeler.urls)."""

from django.urls import path

from modeler.views import export

P = "projects/<int:project_id>/"

urlpatterns = [
    path(f"{P}export/", export.export_page, name="export-page"),
    path(f"{P}export/<str:format_name>/lint/", export.export_lint, name="export-lint"),
    path(
        f"{P}export/<str:format_name>/download/",
        export.export_download,
        name="export-download",
    ),
]
