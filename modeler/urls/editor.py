"""URLs of the design editor's sections (included by modeler.urls under a
project's path)."""

from django.urls import path

from modeler.views import (
    editor,
    editor_entities,
    editor_findings,
    editor_patterns,
    propose_keys,
)

urlpatterns = [
    path("table/", editor.table_page, name="editor-table"),
    path("table/settings/", editor.table_update, name="editor-table-update"),
    # Adding posts to the collection: `new` is a name like any other.
    path("indexes/", editor.index_create, name="editor-index-create"),
    path("indexes/<str:name>/", editor.index_edit, name="editor-index-edit"),
    path("indexes/<str:name>/move/", editor.index_move, name="editor-index-move"),
    path("indexes/<str:name>/delete/", editor.index_delete, name="editor-index-delete"),
    path("entities/", editor_entities.entities_page, name="editor-entities"),
    path("entities/<str:name>/", editor_entities.entity_edit, name="editor-entity"),
    path(
        "entities/<str:name>/preview/",
        editor_entities.entity_preview,
        name="editor-entity-preview",
    ),
    path(
        "entities/<str:name>/generator/",
        editor_entities.generator_picker,
        name="editor-generator-picker",
    ),
    path(
        "entities/<str:name>/delete/",
        editor_entities.entity_delete,
        name="editor-entity-delete",
    ),
    path(
        "findings/<str:section>/",
        editor_findings.editor_findings,
        name="editor-findings",
    ),
    path("patterns/", editor_patterns.patterns_page, name="editor-patterns"),
    path("patterns/new/", editor_patterns.pattern_create, name="editor-pattern-create"),
    path(
        "patterns/preview/",
        editor_patterns.pattern_preview,
        name="editor-pattern-preview",
    ),
    path(
        "patterns/<int:position>/", editor_patterns.pattern_edit, name="editor-pattern"
    ),
    path(
        "patterns/<int:position>/move/",
        editor_patterns.pattern_move,
        name="editor-pattern-move",
    ),
    path(
        "patterns/<int:position>/delete/",
        editor_patterns.pattern_delete,
        name="editor-pattern-delete",
    ),
    path("propose-keys/", propose_keys.propose_keys, name="propose-keys"),
    path(
        "propose-keys/proposals/",
        propose_keys.propose_keys_proposals,
        name="propose-keys-proposals",
    ),
    path(
        "propose-keys/<int:number>/adopt/",
        propose_keys.propose_keys_adopt,
        name="propose-keys-adopt",
    ),
]
