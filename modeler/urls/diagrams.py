"""URLs of the Key map, Item collections and Diagrams sections."""

from django.urls import path

from modeler.views import diagrams

urlpatterns = [
    path(
        "projects/<int:project_id>/key-map/",
        diagrams.keymap_page,
        name="keymap-page",
    ),
    path(
        "projects/<int:project_id>/key-map/verdicts/",
        diagrams.keymap_verdicts,
        name="keymap-verdicts",
    ),
    path(
        "projects/<int:project_id>/collections/",
        diagrams.collections_page,
        name="collections-page",
    ),
    path(
        "projects/<int:project_id>/diagrams/",
        diagrams.diagrams_page,
        name="diagrams-page",
    ),
    path(
        "projects/<int:project_id>/diagrams/diagram.<str:fmt>",
        diagrams.diagram_download,
        name="diagram-download",
    ),
]
