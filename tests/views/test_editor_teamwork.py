"""Two people in one entity at once: separate changes both land, only the
fields both changed are asked about (side by side, as form fields), a save
follows an entity renamed since, and one of an entity removed since keeps
the input, says who removed it and offers to save it as a new entity."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from modeler.models import Project
from tests.views.test_editor_edits import HTMX, _design, _url, element, entity_data


def _attribute_rows(data: dict[str, Any]) -> int:
    return int(data["attr-INITIAL_FORMS"])


def _with_attribute(data: dict[str, Any], name: str, kind: str) -> dict[str, Any]:
    row = _attribute_rows(data)
    return {
        **data,
        f"attr-{row}-name": name,
        f"attr-{row}-type": kind,
        f"attr-{row}-required": "on",
    }


@pytest.mark.django_db
def test_a_colleagues_new_attribute_survives_my_save_of_the_same_entity(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "Order", description="Orders, described by me")
    theirs = _with_attribute(entity_data(project, "Order"), "giftWrap", "BOOL")
    assert editor_client.post(_url("editor-entity", project, "Order"), theirs, **HTMX)
    response = owner_client.post(_url("editor-entity", project, "Order"), mine, **HTMX)

    assert response.status_code == 200
    order = _design(project).entity("Order")
    assert order.description == "Orders, described by me"
    assert "giftWrap" in [a.name for a in order.attributes]


@pytest.mark.django_db
def test_fields_both_changed_are_asked_side_by_side_and_keep_mine_keeps_theirs(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "Order", description="mine")
    theirs = _with_attribute(
        entity_data(project, "Order", description="theirs"), "giftWrap", "BOOL"
    )
    editor_client.post(_url("editor-entity", project, "Order"), theirs, **HTMX)
    response = owner_client.post(_url("editor-entity", project, "Order"), mine, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "you both changed description" in html
    assert 'data-conflict-field="description"' in html
    assert 'class="conflict-theirs-value" value="theirs"' in html
    assert 'class="conflict-mine-value" value="mine"' in html
    assert 'data-use-theirs="description" data-value="theirs"' in html
    # Not their whole entity as YAML: the fields, as form fields.
    assert "conflict-yaml" not in html
    # The form holds their attribute and my description.
    assert 'value="giftWrap"' in html
    assert re.search(r">\s*mine</textarea>", html), _around(html, "id_description")
    assert _design(project).entity("Order").description == "theirs"

    # Keep mine posts the form as shown: my description, their attribute.
    kept = {**mine, "keep_mine_at": str(_design_version(project))}
    kept = _with_attribute(kept, "giftWrap", "BOOL")
    response = owner_client.post(_url("editor-entity", project, "Order"), kept, **HTMX)
    assert response.status_code == 200, _around(response.content.decode(), "form-alert")
    order = _design(project).entity("Order")
    assert order.description == "mine"
    assert [a.name for a in order.attributes].count("giftWrap") == 1


def _around(html: str, text: str) -> str:
    at = html.find(text)
    return html[at - 100 : at + 300]


def _design_version(project: Project) -> int:
    project.refresh_from_db()
    return project.version


@pytest.mark.django_db
def test_keep_mine_is_asked_again_when_someone_saved_the_field_since(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "Order", description="mine")
    url = _url("editor-entity", project, "Order")
    editor_client.post(url, entity_data(project, "Order", description="one"), **HTMX)
    seen = _design_version(project)
    editor_client.post(url, entity_data(project, "Order", description="two"), **HTMX)

    response = owner_client.post(url, {**mine, "keep_mine_at": str(seen)}, **HTMX)

    assert response.status_code == 409
    assert _design(project).entity("Order").description == "two"


@pytest.mark.django_db
def test_a_save_follows_an_entity_renamed_since(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "Order", description="mine")
    editor_client.post(
        _url("editor-entity", project, "Order"),
        entity_data(project, "Order", name="Purchase"),
        **HTMX,
    )

    response = owner_client.post(_url("editor-entity", project, "Order"), mine, **HTMX)

    assert response.status_code == 200
    design = _design(project)
    assert design.entity("Order") is None
    assert design.entity("Purchase").description == "mine"
    assert response.headers["HX-Push-Url"].endswith("/entities/Purchase/")
    assert "Saved Purchase." in response.headers["HX-Trigger"]


@pytest.mark.django_db
def test_the_answer_to_a_save_after_a_rename_shows_the_new_name(
    owner_client: Client, editor_client: Client, project: Project
):
    """The owner's page still says LineItem; the answer to its save shows
    the entity as the editor named it, in the list beside the form too."""
    mine = entity_data(project, "LineItem", sample_max=9)
    editor_client.post(
        _url("editor-entity", project, "LineItem"),
        entity_data(project, "LineItem", name="OrderLine"),
        **HTMX,
    )

    response = owner_client.post(
        _url("editor-entity", project, "LineItem"), mine, **HTMX
    )

    assert response.status_code == 200
    assert _design(project).entity("OrderLine").sample.count.high == 9
    html = response.content.decode()
    listed = element(html, "entity-list")
    assert 'hx-swap-oob="true"' in listed
    assert ">OrderLine</span>" in listed
    assert "LineItem" not in listed
    editor = element(html, "entity-editor-heading")
    assert "OrderLine" in editor
    assert 'name="name" spellcheck="false" type="text" value="OrderLine"' in html
    assert f'action="/projects/{project.pk}/entities/OrderLine/"' in html


@pytest.mark.django_db
def test_two_renames_of_one_entity_are_asked_about(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "Order", name="Sale")
    editor_client.post(
        _url("editor-entity", project, "Order"),
        entity_data(project, "Order", name="Purchase"),
        **HTMX,
    )

    response = owner_client.post(_url("editor-entity", project, "Order"), mine, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "editor renamed entity Order to Purchase just now" in html
    assert 'data-use-theirs="name" data-value="Purchase"' in html
    # The form posts to the entity as it is called now.
    assert f'action="/projects/{project.pk}/entities/Purchase/"' in html
    assert {e.name for e in _design(project).entities} >= {"Purchase"}


@pytest.mark.django_db
def test_saving_an_entity_removed_since_keeps_the_input_and_offers_a_new_one(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "LineItem", description="kept input")
    editor_client.post(
        _url("editor-entity-delete", project, "LineItem"),
        {"version": project.version},
        **HTMX,
    )

    url = _url("editor-entity", project, "LineItem")
    response = owner_client.post(url, mine, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "editor deleted entity LineItem just now" in html
    assert re.search(r">\s*kept input</textarea>", html)
    assert 'name="as_new"' in html
    assert "Save as a new entity" in html
    # The editor's place, not a second workspace inside it.
    assert html.count('id="entity-editor"') == 1
    assert 'id="entity-create"' not in html
    assert response.headers["HX-Retarget"] == "#entity-editor"

    response = owner_client.post(url, {**mine, "as_new": "1"}, **HTMX)

    assert response.status_code == 200
    line_item = _design(project).entity("LineItem")
    assert line_item.description == "kept input"
    assert "Added LineItem." in response.headers["HX-Trigger"]


@pytest.mark.django_db
def test_opening_an_entity_removed_since_answers_in_the_editors_place(
    owner_client: Client, project: Project
):
    owner_client.post(
        _url("editor-entity-delete", project, "LineItem"),
        {"version": project.version},
        **HTMX,
    )

    response = owner_client.get(_url("editor-entity", project, "LineItem"), **HTMX)

    assert response.status_code == 410
    html = response.content.decode()
    assert "The entity &#x27;LineItem&#x27; no longer exists." in html
    assert html.count('id="entity-editor"') == 1
    assert 'class="tabs"' not in html


@pytest.mark.django_db
def test_a_viewer_cannot_save_a_removed_entity_as_new(
    viewer_client: Client, owner_client: Client, project: Project
):
    mine = entity_data(project, "LineItem", description="x")
    owner_client.post(
        _url("editor-entity-delete", project, "LineItem"),
        {"version": project.version},
        **HTMX,
    )
    response = viewer_client.post(
        _url("editor-entity", project, "LineItem"), {**mine, "as_new": "1"}, **HTMX
    )
    assert response.status_code == 403
    assert _design(project).entity("LineItem") is None


@pytest.mark.django_db
def test_a_save_from_a_page_shown_before_an_attribute_rename_keeps_the_rename(
    owner_client: Client, editor_client: Client, project: Project
):
    """The editor renames Order.orderDate to placedAt while the owner has
    Order and a pattern ordering by orderDate open: the owner's saves land
    and neither brings orderDate back."""
    from tests.views.test_editor_edits import pattern_data

    my_entity = entity_data(project, "Order", description="mine")
    my_pattern = pattern_data(project, 2, limit="25")
    names = [a.name for a in _design(project).entity("Order").attributes]
    renamed = entity_data(
        project, "Order", **{f"attr-{names.index('orderDate')}-name": "placedAt"}
    )
    editor_client.post(_url("editor-entity", project, "Order"), renamed, **HTMX)

    entity_saved = owner_client.post(
        _url("editor-entity", project, "Order"), my_entity, **HTMX
    )
    pattern_saved = owner_client.post(
        _url("editor-pattern", project, 2), my_pattern, **HTMX
    )

    assert (entity_saved.status_code, pattern_saved.status_code) == (200, 200)
    design = _design(project)
    order = design.entity("Order")
    assert order.description == "mine"
    assert [a.name for a in order.attributes].count("placedAt") == 1
    assert order.attribute("orderDate") is None
    assert order.keys["SK"].template == "ORDER#{placedAt}#{orderId}"
    newest = design.access_patterns[2]
    assert (newest.limit, newest.expects.order_by) == (25, ("-placedAt", "-orderId"))


@pytest.mark.django_db
def test_a_pattern_saved_after_the_attribute_it_writes_was_removed_says_so(
    owner_client: Client, editor_client: Client, project: Project
):
    """The editor removes Order.shippedAt while the owner edits the pattern
    that sets it: the owner's save says what the pattern names that is
    gone, with what the owner typed kept."""
    from tests.views.test_editor_edits import pattern_data

    mine = pattern_data(project, 7, description="Ships it, as typed")
    names = [a.name for a in _design(project).entity("Order").attributes]
    removed = entity_data(
        project, "Order", **{f"attr-{names.index('shippedAt')}-delete": "on"}
    )
    editor_client.post(_url("editor-entity", project, "Order"), removed, **HTMX)
    assert _design(project).entity("Order").attribute("shippedAt") is None

    response = owner_client.post(_url("editor-pattern", project, 7), mine, **HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    assert "no attribute &#x27;shippedAt&#x27; on Order" in html  # at the Set field
    assert "Ships it, as typed" in html
    assert _design(project).access_patterns[7].description != "Ships it, as typed"
