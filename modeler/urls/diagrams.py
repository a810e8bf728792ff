"""URLs of the Key map, Item collections and Diagrams sections
(included by modeler.urls under a project's path)."""

from django.urls import path

from modeler.views import diagrams

urlpatterns = [
    path("key-map/", diagrams.keymap_page, name="keymap-page"),
    path("key-map/verdicts/", diagrams.keymap_verdicts, name="keymap-verdicts"),
    path("collections/", diagrams.collections_page, name="collections-page"),
    path("diagrams/", diagrams.diagrams_page, name="diagrams-page"),
    path(
        "diagrams/diagram.<str:fmt>", diagrams.diagram_download, name="diagram-download"
    ),
]
