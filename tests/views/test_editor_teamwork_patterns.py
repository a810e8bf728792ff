"""Two people in one access pattern or index at once (issue 39 items 3-4):
a save of a pattern or an index someone deleted since keeps the input,
says who deleted it and when, and offers to save it as a new one; one
renamed or moved since is followed; separate changes to one pattern's
clauses both land, and only a clause both changed is asked about."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from modeler.models import Project
from tests.views.test_editor_edits import (
    HTMX,
    _design,
    _url,
    element,
    index_data,
    pattern_data,
    table_data,
)


def _names(project: Project) -> list[str]:
    return [p.name for p in _design(project).access_patterns]


def _delete_pattern(client: Client, project: Project, position: int) -> None:
    url = _url("editor-pattern-delete", project, position)
    response = client.post(url, {"version": project.version}, **HTMX)
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("which", ["first", "last"])
def test_saving_a_pattern_removed_since_keeps_the_input_and_offers_a_new_one(
    owner_client: Client, editor_client: Client, project: Project, which: str
):
    position = 0 if which == "first" else len(_names(project)) - 1
    name = _names(project)[position]
    mine = pattern_data(project, position, description="kept input")
    _delete_pattern(editor_client, project, position)

    url = _url("editor-pattern", project, position)
    response = owner_client.post(url, mine, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert f"editor deleted access pattern {name} just now" in html
    assert re.search(r">\s*kept input</textarea>", html)
    assert "Save as a new access pattern" in html
    assert html.count('id="pattern-form"') == 1
    assert 'id="pattern-removed"' in html
    assert name not in _names(project)

    response = owner_client.post(url, {**mine, "as_new": "1"}, **HTMX)

    assert response.status_code == 200
    assert f"Added the access pattern &#x27;{name}&#x27;." in (
        response.headers["HX-Trigger"].replace("'", "&#x27;")
    )
    saved = next(p for p in _design(project).access_patterns if p.name == name)
    assert saved.description == "kept input"


@pytest.mark.django_db
def test_a_pattern_moved_since_is_saved_not_the_one_now_in_its_place(
    owner_client: Client, editor_client: Client, project: Project
):
    names = _names(project)
    mine = pattern_data(project, 1, description="mine")
    _delete_pattern(editor_client, project, 0)

    response = owner_client.post(_url("editor-pattern", project, 1), mine, **HTMX)

    assert response.status_code == 200
    design = _design(project)
    assert design.access_patterns[0].name == names[1]
    assert design.access_patterns[0].description == "mine"
    assert design.access_patterns[1].name == names[2]
    assert design.access_patterns[1].description != "mine"


@pytest.mark.django_db
def test_a_refused_save_of_a_moved_pattern_is_shown_where_it_is_now(
    owner_client: Client, editor_client: Client, project: Project
):
    names = _names(project)
    mine = pattern_data(project, 2, description="mine", name="")
    _delete_pattern(editor_client, project, 0)

    response = owner_client.post(_url("editor-pattern", project, 2), mine, **HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    # Named and posted by its place now, and by its identity.
    assert 'id="id_p1-description"' in html
    assert f'action="/projects/{project.pk}/patterns/1/"' in html
    assert f"<h3>Edit '{names[2]}'</h3>" in html
    uid = _design(project).access_patterns[1].uid
    assert f'name="uid" value="{uid}"' in html


@pytest.mark.django_db
def test_saving_a_pattern_renamed_since_keeps_their_name_and_my_change(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = pattern_data(project, 1, description="mine")
    theirs = pattern_data(project, 1, name="Renamed by editor")
    assert editor_client.post(_url("editor-pattern", project, 1), theirs, **HTMX)

    response = owner_client.post(_url("editor-pattern", project, 1), mine, **HTMX)

    assert response.status_code == 200
    pattern = _design(project).access_patterns[1]
    assert (pattern.name, pattern.description) == ("Renamed by editor", "mine")
    assert (
        "Saved the access pattern 'Renamed by editor'."
        in (response.headers["HX-Trigger"])
    )


@pytest.mark.django_db
def test_separate_clauses_of_one_pattern_both_land_and_a_shared_one_is_asked(
    owner_client: Client, editor_client: Client, project: Project
):
    url = _url("editor-pattern", project, 1)
    before = _design(project).access_patterns[1]
    mine = pattern_data(project, 1, description="mine", rps="7")
    theirs = pattern_data(project, 1, description="theirs", limit="5")
    assert editor_client.post(url, theirs, **HTMX).status_code == 200

    response = owner_client.post(url, mine, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "you both changed description" in html
    assert html.count("data-conflict-field=") == 1
    # Their limit is in the form beside my traffic: Keep mine saves both.
    assert re.search(r'<input[^>]*name="p1-limit"[^>]*value="5"', html)
    assert re.search(r'<input[^>]*name="p1-rps"[^>]*value="7', html)
    assert _design(project).access_patterns[1].description == "theirs"

    kept = re.search(r'name="p1-keep_mine_at" type="hidden" value="(\d+)"', html)
    version = kept.group(1)
    response = owner_client.post(url, {**mine, "p1-keep_mine_at": version}, **HTMX)

    assert response.status_code == 200
    pattern = _design(project).access_patterns[1]
    assert pattern.description == "mine"
    assert pattern.traffic.rps == 7  # mine
    assert pattern.limit == 5  # theirs, kept by Keep mine
    assert before.limit != 5


# --- Indexes ----------------------------------------------------------------------


@pytest.mark.django_db
def test_saving_an_index_removed_since_keeps_the_input_and_offers_a_new_one(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = index_data(project, "GSI3", projection_type="KEYS_ONLY")
    editor_client.post(
        _url("editor-index-delete", project, "GSI3"),
        {"version": project.version},
        **HTMX,
    )

    url = _url("editor-index-edit", project, "GSI3")
    response = owner_client.post(url, mine, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "editor deleted index GSI3 just now" in html
    assert 'value="KEYS_ONLY" selected' in html or re.search(
        r'<option value="KEYS_ONLY"[^>]*selected', html
    )
    assert "Save as a new index" in html
    assert _design(project).table.index("GSI3") is None

    response = owner_client.post(url, {**mine, "as_new": "1"}, **HTMX)

    assert response.status_code == 200
    index = _design(project).table.index("GSI3")
    assert index.projection.type == "KEYS_ONLY"


@pytest.mark.django_db
def test_saving_an_index_renamed_since_follows_it(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = index_data(project, "GSI3", projection_type="KEYS_ONLY")
    editor_client.post(
        _url("editor-index-edit", project, "GSI3"),
        index_data(project, "GSI3", name="GSI9"),
        **HTMX,
    )

    response = owner_client.post(
        _url("editor-index-edit", project, "GSI3"), mine, **HTMX
    )

    assert response.status_code == 200
    design = _design(project)
    assert design.table.index("GSI3") is None
    assert design.table.index("GSI9").projection.type == "KEYS_ONLY"
    assert "Saved the index GSI9." in response.headers["HX-Trigger"]


def _version_inputs(html: str) -> set[str]:
    """The versions the forms in `html` post."""
    tags = re.findall(r'<input[^>]*\bname="(?:index-)?version"[^>]*>', html)
    return {value for tag in tags for value in re.findall(r'value="(\d*)"', tag)}


@pytest.mark.django_db
def test_a_table_save_from_an_older_page_shows_the_indexes_as_saved(
    owner_client: Client, editor_client: Client, project: Project
):
    """The Table & indexes page shows both: the answer to the owner's save
    of the table brings the indexes as the editor left them, not as the
    owner's page showed them (with links to an index called GSI3)."""
    mine = table_data(project, tags="team=orders")
    editor_client.post(
        _url("editor-index-edit", project, "GSI3"),
        index_data(project, "GSI3", name="GSI9"),
        **HTMX,
    )

    response = owner_client.post(_url("editor-table-update", project), mine, **HTMX)

    assert response.status_code == 200
    assert _design(project).table.tags == (("team", "orders"),)
    html = response.content.decode()
    assert "team=orders</textarea>" in element(html, "table-settings")
    indexes = element(html, "indexes")
    assert 'hx-swap-oob="true"' in indexes
    assert f"/projects/{project.pk}/indexes/GSI9/" in indexes
    assert ">GSI3<" not in indexes
    assert "/indexes/GSI3/" not in indexes
    assert _version_inputs(indexes) == {str(project.version)}


@pytest.mark.django_db
def test_an_index_save_from_an_older_page_shows_the_table_as_saved(
    owner_client: Client, editor_client: Client, project: Project
):
    """The answer to the owner's save of an index brings the table settings
    as the editor saved them, at the new version: the owner's form, left as
    it was and given the new version, would have put the old tags back."""
    mine = index_data(project, "GSI3", projection_type="KEYS_ONLY")
    editor_client.post(
        _url("editor-table-update", project),
        table_data(project, tags="team=bob"),
        **HTMX,
    )

    response = owner_client.post(
        _url("editor-index-edit", project, "GSI3"), mine, **HTMX
    )

    assert response.status_code == 200
    design = _design(project)
    assert design.table.index("GSI3").projection.type == "KEYS_ONLY"
    assert design.table.tags == (("team", "bob"),)
    settings = element(response.content.decode(), "table-settings")
    assert 'hx-swap-oob="true"' in settings
    assert "team=bob" in settings
    assert "commerce" not in settings
    assert _version_inputs(settings) == {str(project.version)}


@pytest.mark.django_db
def test_a_viewer_cannot_save_a_removed_pattern_or_index_as_new(
    viewer_client: Client, owner_client: Client, project: Project
):
    mine = pattern_data(project, 0, description="x")
    index = index_data(project, "GSI3")
    _delete_pattern(owner_client, project, 0)
    owner_client.post(
        _url("editor-index-delete", project, "GSI3"),
        {"version": project.version},
        **HTMX,
    )
    names = _names(project)
    response = viewer_client.post(
        _url("editor-pattern", project, 0), {**mine, "as_new": "1"}, **HTMX
    )
    assert response.status_code == 403
    response = viewer_client.post(
        _url("editor-index-edit", project, "GSI3"), {**index, "as_new": "1"}, **HTMX
    )
    assert response.status_code == 403
    assert _names(project) == names
    assert _design(project).table.index("GSI3") is None


@pytest.mark.django_db
def test_both_rename_one_index_keep_mine_keeps_their_projection(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = index_data(project, "GSI3", name="GSI8")
    theirs = index_data(project, "GSI3", name="GSI9", projection_type="KEYS_ONLY")
    editor_client.post(_url("editor-index-edit", project, "GSI3"), theirs, **HTMX)

    response = owner_client.post(
        _url("editor-index-edit", project, "GSI3"), mine, **HTMX
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-conflict-field="index-name"' in html
    # Their projection is in the form beside my name; it posts to the
    # index as it is called now.
    assert re.search(r'<option value="KEYS_ONLY" selected>', html)
    assert f'action="/projects/{project.pk}/indexes/GSI9/"' in html
    kept = re.search(r'name="index-keep_mine_at" type="hidden" value="(\d+)"', html)

    shown = {
        **mine,
        "index-projection_type": "KEYS_ONLY",
        "index-keep_mine_at": kept.group(1),
    }
    response = owner_client.post(
        _url("editor-index-edit", project, "GSI9"), shown, **HTMX
    )

    assert response.status_code == 200, response.content.decode()[:2000]
    design = _design(project)
    assert design.table.index("GSI9") is None
    assert design.table.index("GSI8").projection.type == "KEYS_ONLY"
