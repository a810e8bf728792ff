"""URLs of the design editor's sections (included by modeler.urls)."""

from django.urls import path

from modeler.views import (
    editor,
    editor_entities,
    editor_findings,
    editor_patterns,
    propose_keys,
)

P = "projects/<int:project_id>/"

urlpatterns = [
    path(f"{P}table/", editor.table_page, name="editor-table"),
    path(f"{P}table/settings/", editor.table_update, name="editor-table-update"),
    # Adding posts to the collection: `new` is a name like any other.
    path(f"{P}indexes/", editor.index_create, name="editor-index-create"),
    path(f"{P}indexes/<str:name>/", editor.index_edit, name="editor-index-edit"),
    path(f"{P}indexes/<str:name>/move/", editor.index_move, name="editor-index-move"),
    path(
        f"{P}indexes/<str:name>/delete/",
        editor.index_delete,
        name="editor-index-delete",
    ),
    path(f"{P}entities/", editor_entities.entities_page, name="editor-entities"),
    path(
        f"{P}entities/<str:name>/",
        editor_entities.entity_edit,
        name="editor-entity",
    ),
    path(
        f"{P}entities/<str:name>/preview/",
        editor_entities.entity_preview,
        name="editor-entity-preview",
    ),
    path(
        f"{P}entities/<str:name>/generator/",
        editor_entities.generator_picker,
        name="editor-generator-picker",
    ),
    path(
        f"{P}entities/<str:name>/delete/",
        editor_entities.entity_delete,
        name="editor-entity-delete",
    ),
    path(
        f"{P}findings/<str:section>/",
        editor_findings.editor_findings,
        name="editor-findings",
    ),
    path(f"{P}patterns/", editor_patterns.patterns_page, name="editor-patterns"),
    path(
        f"{P}patterns/new/",
        editor_patterns.pattern_create,
        name="editor-pattern-create",
    ),
    path(
        f"{P}patterns/preview/",
        editor_patterns.pattern_preview,
        name="editor-pattern-preview",
    ),
    path(
        f"{P}patterns/<int:position>/",
        editor_patterns.pattern_edit,
        name="editor-pattern",
    ),
    path(
        f"{P}patterns/<int:position>/move/",
        editor_patterns.pattern_move,
        name="editor-pattern-move",
    ),
    path(
        f"{P}patterns/<int:position>/delete/",
        editor_patterns.pattern_delete,
        name="editor-pattern-delete",
    ),
    path(f"{P}propose-keys/", propose_keys.propose_keys, name="propose-keys"),
    path(
        f"{P}propose-keys/proposals/",
        propose_keys.propose_keys_proposals,
        name="propose-keys-proposals",
    ),
    path(
        f"{P}propose-keys/<int:number>/adopt/",
        propose_keys.propose_keys_adopt,
        name="propose-keys-adopt",
    ),
]
