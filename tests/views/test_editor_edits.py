"""Edits in the editor: the table, indexes, entities and access patterns.
For each endpoint: it saves (htmx and plain), viewers get 403, outsiders
404, invalid input comes back beside its field with the input kept (400),
and a stale version is refused with the input kept (409)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from modeler import design_check, selectors
from modeler.design import model as d
from modeler.design.model import Design
from modeler.designfile import dump_element
from modeler.editor.forms import EntityForm, IndexForm, PatternForm, TableForm
from modeler.importers.workbench import read_workbench
from modeler.models import Project
from modeler.sampledata import generate
from modeler.services import projects as project_services
from tests.exporters.helpers import EXAMPLES, example
from tests.views.conftest import example_design, project_with_members, with_roots

HTMX = {"HTTP_HX_REQUEST": "true"}
WORKBENCH = Path(__file__).resolve().parents[1] / "fixtures" / "nosql-workbench"


def _url(name: str, project: Project, *args: object) -> str:
    return reverse(name, args=[project.pk, *args])


def _design(project: Project) -> Design:
    project.refresh_from_db()
    return selectors.project_design(project=project)


def _flat(initial: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A form's initial values as the browser posts them."""
    data = {}
    for key, value in initial.items():
        if key.startswith("_") or value is None or value is False:
            continue
        name = f"{prefix}-{key}" if prefix else key
        data[name] = "on" if value is True else value
    return data


def table_data(project: Project, **changes: Any) -> dict[str, Any]:
    design = _design(project)
    return {**_flat(TableForm.initial_for(design.table, project.version)), **changes}


def entity_data(project: Project, entity_name: str, **changes: Any) -> dict[str, Any]:
    design = _design(project)
    initial = EntityForm.initial_for(design.entity(entity_name), project.version)
    return {**_flat(initial), **changes}


def pattern_data(project: Project, position: int, **changes: Any) -> dict[str, Any]:
    design = _design(project)
    pattern = design.access_patterns[position] if position >= 0 else None
    initial = PatternForm.initial_for(design, pattern, project.version)
    prefix = "new" if position < 0 else f"p{position}"
    changes = {f"{prefix}-{k}": v for k, v in changes.items()}
    return {**_flat(initial, prefix), "position": position, **changes}


def index_data(
    project: Project, index_name: str | None, **changes: Any
) -> dict[str, Any]:
    design = _design(project)
    index = design.table.index(index_name) if index_name else None
    data = _flat(IndexForm.initial_for(index, project.version), "index")
    return {**data, **{f"index-{k}": v for k, v in changes.items()}}


def element(html: str, element_id: str) -> str:
    """The element of an answer with this id, from its opening tag to the
    first closing tag of its kind (one that holds none of its own kind: a
    section, the entity list's nav)."""
    found = re.search(rf'<(\w+)[^>]*\sid="{element_id}"[^>]*>', html)
    assert found, f"no #{element_id} in the answer"
    end = html.index(f"</{found.group(1)}>", found.end())
    return html[found.start() : end]


# --- Table ----------------------------------------------------------------------


@pytest.mark.django_db
def test_owner_saves_table_settings_with_htmx(owner_client: Client, project: Project):
    data = table_data(
        project,
        billing_mode="PAY_PER_REQUEST",
        ttl_attribute="expiresAt",
        stream_view_type="NEW_AND_OLD_IMAGES",
        tags="team=orders\ncost=42",
    )
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert "designSaved" in response["HX-Trigger"]
    assert "Saved the table settings." in response["HX-Trigger"]
    table = _design(project).table
    assert table.ttl_attribute == "expiresAt"
    assert table.stream_view_type == "NEW_AND_OLD_IMAGES"
    assert table.tags == (("team", "orders"), ("cost", "42"))
    assert table.indexes  # the indexes stay


@pytest.mark.django_db
def test_a_tag_aws_refuses_is_saved_and_flagged_on_the_table_page(
    owner_client: Client, project: Project
):
    data = table_data(project, tags="cost=(EU)")
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 200
    assert _design(project).table.tags == (("cost", "(EU)"),)
    html = owner_client.get(_url("editor-table", project)).content.decode()
    assert (
        "AWS refuses the tag &#x27;cost&#x27;: a tag&#x27;s key and value hold "
        "letters, numbers, spaces and + - = . _ : / @ only, and its value has "
        "&#x27;(&#x27;, &#x27;)&#x27;; deploying the table with it fails" in html
    )


@pytest.mark.django_db
def test_editor_saves_table_settings_without_htmx(
    editor_client: Client, project: Project
):
    data = table_data(project, point_in_time_recovery="")
    data.pop("point_in_time_recovery")
    response = editor_client.post(_url("editor-table-update", project), data)
    assert response.status_code == 302
    assert response["Location"] == _url("editor-table", project)
    assert _design(project).table.point_in_time_recovery is False


@pytest.mark.django_db
def test_viewer_cannot_save_the_table(viewer_client: Client, project: Project):
    response = viewer_client.post(
        _url("editor-table-update", project), table_data(project)
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_outsider_gets_404_on_table_save(outsider_client: Client, project: Project):
    response = outsider_client.post(
        _url("editor-table-update", project), table_data(project)
    )
    assert response.status_code == 404


@pytest.mark.django_db
def test_invalid_table_input_is_shown_beside_the_field_and_kept(
    owner_client: Client, project: Project
):
    data = table_data(project, name="x!", billing_mode="PROVISIONED", tags="nonsense")
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "A provisioned table needs read units." in html
    assert "expected key=value" in html
    assert 'value="x!"' in html
    assert _design(project).table.name == "order-management"


@pytest.mark.django_db
def test_an_invalid_table_name_from_the_design_check_is_refused(
    owner_client: Client, project: Project
):
    response = owner_client.post(
        _url("editor-table-update", project), table_data(project, name="x!"), **HTMX
    )
    assert response.status_code == 422
    assert "is not a valid table name" in response.content.decode()
    assert _design(project).table.name == "order-management"


@pytest.mark.django_db
def test_separate_changes_to_the_table_from_one_version_both_land(
    owner_client: Client, editor_client: Client, project: Project
):
    data = table_data(project, ttl_attribute="expiresAt")
    editor_client.post(
        _url("editor-table-update", project),
        table_data(project, stream_view_type="NEW_IMAGE"),
        **HTMX,
    )
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 200
    table = _design(project).table
    assert (table.ttl_attribute, table.stream_view_type) == ("expiresAt", "NEW_IMAGE")


@pytest.mark.django_db
def test_stale_table_save_of_the_same_field_is_refused_and_input_kept(
    owner_client: Client, editor_client: Client, project: Project
):
    data = table_data(project, ttl_attribute="expiresAt")
    editor_client.post(
        _url("editor-table-update", project),
        table_data(project, ttl_attribute="goneAt"),
        **HTMX,
    )
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert "editor changed the table since you opened this page" in html
    assert "you both changed ttl attribute" in html
    assert 'value="expiresAt"' in html
    assert _design(project).table.ttl_attribute == "goneAt"


# --- Indexes --------------------------------------------------------------------


@pytest.mark.django_db
def test_add_a_gsi(owner_client: Client, project: Project):
    data = index_data(
        project,
        None,
        name="GSI4",
        pk_name_0="GSI4PK",
        pk_type_0="S",
        sk_name_0="GSI4SK",
        sk_type_0="S",
        projection_type="INCLUDE",
        projection_attributes=["email", "total"],
    )
    response = owner_client.post(_url("editor-index-create", project), data, **HTMX)
    assert response.status_code == 200, response.content.decode()
    index = _design(project).table.index("GSI4")
    assert index is not None and index.is_global
    assert index.projection.attributes == ("email", "total")
    assert response["HX-Retarget"] == "#indexes"


@pytest.mark.django_db
def test_an_lsi_on_the_tables_partition_key(owner_client: Client, project: Project):
    data = index_data(
        project,
        None,
        kind="local",
        name="LSI1",
        sk_name_0="orderTotal",
        sk_type_0="N",
        projection_type="KEYS_ONLY",
    )
    response = owner_client.post(_url("editor-index-create", project), data)
    assert response.status_code == 302
    index = _design(project).table.index("LSI1")
    assert index.kind == "local" and index.partition_key == ()


@pytest.mark.django_db
def test_a_gsi_without_a_partition_key_is_refused(
    owner_client: Client, project: Project
):
    data = index_data(project, None, name="GSI9", projection_type="ALL")
    response = owner_client.post(_url("editor-index-create", project), data, **HTMX)
    assert response.status_code == 422
    assert "A GSI needs a partition key attribute." in response.content.decode()
    assert 'value="GSI9"' in response.content.decode()


@pytest.mark.django_db
def test_a_duplicate_index_name_is_refused(owner_client: Client, project: Project):
    data = index_data(project, None, name="GSI1", pk_name_0="X")
    response = owner_client.post(_url("editor-index-create", project), data, **HTMX)
    assert response.status_code == 422
    assert "An index is already called &#x27;GSI1&#x27;." in response.content.decode()


@pytest.mark.django_db
def test_rename_an_index_follows_into_patterns(owner_client: Client, project: Project):
    data = index_data(project, "GSI1", name="ByEmail")
    response = owner_client.post(
        _url("editor-index-edit", project, "GSI1"), data, **HTMX
    )
    assert response.status_code == 200
    design = _design(project)
    assert design.table.index("ByEmail") is not None
    assert {p.index for p in design.access_patterns} >= {"ByEmail"}
    assert "GSI1" not in {p.index for p in design.access_patterns}


@pytest.mark.django_db
def test_index_edit_form_htmx_and_full_page(owner_client: Client, project: Project):
    url = _url("editor-index-edit", project, "GSI2")
    partial = owner_client.get(url, **HTMX).content.decode()
    assert "<html" not in partial and "Save GSI2" in partial
    assert "Save GSI2" in owner_client.get(url).content.decode()


@pytest.mark.django_db
def test_viewer_cannot_edit_or_delete_indexes(viewer_client: Client, project: Project):
    data = index_data(project, "GSI1")
    assert (
        viewer_client.post(_url("editor-index-edit", project, "GSI1"), data).status_code
        == 403
    )
    assert (
        viewer_client.get(_url("editor-index-delete", project, "GSI1")).status_code
        == 403
    )
    assert (
        viewer_client.post(
            _url("editor-index-move", project, "GSI1"), {"version": project.version}
        ).status_code
        == 403
    )


@pytest.mark.django_db
def test_move_an_index(editor_client: Client, project: Project):
    response = editor_client.post(
        _url("editor-index-move", project, "GSI2"),
        {"version": project.version, "direction": "up"},
        **HTMX,
    )
    assert response.status_code == 200
    assert [i.name for i in _design(project).table.indexes] == ["GSI2", "GSI1", "GSI3"]


@pytest.mark.django_db
def test_delete_an_index_asks_first_naming_dependants(
    owner_client: Client, project: Project
):
    url = _url("editor-index-delete", project, "GSI2")
    html = owner_client.get(url, **HTMX).content.decode()
    assert "Delete the index GSI2?" in html
    assert "Access pattern &#x27;All open orders, oldest first&#x27; queries it" in html
    assert "Entity Order has templates for GSI2PK, GSI2SK" in html
    assert _design(project).table.index("GSI2") is not None
    response = owner_client.post(url, {"version": project.version}, **HTMX)
    assert response.status_code == 200
    design = _design(project)
    assert design.table.index("GSI2") is None
    assert "GSI2PK" not in design.entity("Order").keys


@pytest.mark.django_db
def test_index_delete_from_an_unknown_version_is_refused(
    owner_client: Client, project: Project
):
    url = _url("editor-index-delete", project, "GSI2")
    response = owner_client.post(url, {"version": 99}, **HTMX)
    assert response.status_code == 409
    assert "This page showed version 99" in response.content.decode()
    assert _design(project).table.index("GSI2") is not None


@pytest.mark.django_db
def test_index_delete_from_an_older_page_keeps_the_edit_made_since(
    owner_client: Client, editor_client: Client, project: Project
):
    page_version = project.version
    editor_client.post(
        _url("editor-table-update", project),
        table_data(project, ttl_attribute="expiresAt"),
        **HTMX,
    )
    url = _url("editor-index-delete", project, "GSI2")
    response = owner_client.post(url, {"version": page_version}, **HTMX)
    assert response.status_code == 200
    design = _design(project)
    assert design.table.index("GSI2") is None
    assert design.table.ttl_attribute == "expiresAt"


# --- Entities -------------------------------------------------------------------


@pytest.mark.django_db
def test_add_an_entity_opens_its_editor(owner_client: Client, project: Project):
    response = owner_client.post(
        _url("editor-entities", project),
        {"new-version": project.version, "new-name": "Invoice"},
        **HTMX,
    )
    assert response.status_code == 200
    assert response["HX-Push-Url"] == _url("editor-entity", project, "Invoice")
    html = response.content.decode()
    assert "Save Invoice" in html
    # Without keys yet: a warning shown beside it, not an error.
    assert "Invoice has no keys yet; propose keys or write them" in html
    assert _design(project).entity("Invoice") is not None


@pytest.mark.django_db
def test_an_entity_and_an_index_named_new_have_pages(
    owner_client: Client, project: Project
):
    """Adding posts to the collection's URL, so `new` is a name like any
    other (it used to open the add endpoint: 405)."""
    response = owner_client.post(
        _url("editor-entities", project),
        {"new-version": project.version, "new-name": "new"},
    )
    assert response.status_code == 302
    page = owner_client.get(_url("editor-entity", project, "new"))
    assert page.status_code == 200
    assert "Save new" in page.content.decode()
    data = index_data(project, None, name="new", pk_name_0="newPK", pk_type_0="S")
    response = owner_client.post(_url("editor-index-create", project), data)
    assert response.status_code == 302, response.content.decode()
    page = owner_client.get(_url("editor-index-edit", project, "new"))
    assert page.status_code == 200
    assert "Save new" in page.content.decode()


@pytest.mark.django_db
def test_an_invalid_or_duplicate_entity_name_is_refused(
    owner_client: Client, project: Project
):
    url = _url("editor-entities", project)
    response = owner_client.post(
        url, {"new-version": project.version, "new-name": "9x"}, **HTMX
    )
    assert response.status_code == 422
    assert "is not an entity name" in response.content.decode()
    response = owner_client.post(
        url, {"new-version": project.version, "new-name": "Order"}, **HTMX
    )
    assert response.status_code == 422
    assert "An entity is already called" in response.content.decode()


@pytest.mark.django_db
def test_save_an_entity_with_attributes_and_keys(
    owner_client: Client, project: Project
):
    data = entity_data(
        project,
        "LineItem",
        **{
            "attr-6-name": "discount",
            "attr-6-type": "N",
            "attr-6-required": "on",
            "attr-6-generator": "{decimal: {min: 0, max: 20, places: 2}}",
            "key-GSI1PK-mode": "when",
            "key-GSI1PK-template": "PRODUCT#{productId}",
            "key-GSI1PK-when": "quantity > 3",
            "key-GSI1SK-mode": "when",
            "key-GSI1SK-template": "ITEM#{orderId}#{lineNo:03d}",
            "key-GSI1SK-when": "quantity > 3",
        },
    )
    response = owner_client.post(
        _url("editor-entity", project, "LineItem"), data, **HTMX
    )
    assert response.status_code == 200, response.content.decode()[:3000]
    entity = _design(project).entity("LineItem")
    assert entity.attribute("discount").generator.kind == "decimal"
    assert entity.keys["GSI1PK"].when == "quantity > 3"
    assert entity.sample.per == "Order"  # what the form does not show stays


@pytest.mark.django_db
def test_a_template_naming_an_unknown_attribute_is_refused_beside_it(
    editor_client: Client, project: Project
):
    data = entity_data(project, "Order", **{"key-SK-template": "ORDER#{orderDat}"})
    response = editor_client.post(_url("editor-entity", project, "Order"), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Unknown attribute &#x27;orderDat&#x27;" in html
    assert 'value="ORDER#{orderDat}"' in html
    assert (
        _design(project).entity("Order").keys["SK"].template
        == "ORDER#{orderDate}#{orderId}"
    )


@pytest.mark.django_db
def test_a_template_syntax_error_and_a_bad_generator_are_refused(
    owner_client: Client, project: Project
):
    data = entity_data(
        project,
        "Order",
        **{
            "key-PK-template": "CUST#{customerId",
            "attr-0-generator": "{int: [",
        },
    )
    response = owner_client.post(_url("editor-entity", project, "Order"), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Not a generator" in html
    assert 'value="CUST#{customerId"' in html


@pytest.mark.django_db
def test_rename_an_entity_follows_into_patterns_and_children(
    owner_client: Client, project: Project
):
    data = entity_data(project, "Order", name="Purchase")
    response = owner_client.post(_url("editor-entity", project, "Order"), data, **HTMX)
    assert response.status_code == 200
    design = _design(project)
    assert design.entity("Purchase") and design.entity("Order") is None
    assert design.entity("LineItem").sample.per == "Purchase"
    assert design.entity("LineItem").attribute("orderId").generator.params["value"] == (
        "Purchase.orderId"
    )
    assert any(
        "Purchase" in (p.expects.entities if p.expects else ())
        for p in design.access_patterns
    )


@pytest.mark.django_db
def test_saving_an_entity_keeps_the_order_of_its_generators_parameters(
    owner_client: Client, project: Project
):
    # The form wrote a generator's parameters sorted (a choice's options
    # too): a save of the description changed the YAML of the generators.
    before = _design(project)
    data = entity_data(project, "Order", description="Edited")
    response = owner_client.post(_url("editor-entity", project, "Order"), data, **HTMX)
    assert response.status_code == 200
    after = _design(project)
    assert after.entity("Order").description == "Edited"
    status = after.entity("Order").attribute("status").generator
    assert list(status.params) == ["OPEN", "SHIPPED", "DELIVERED", "CANCELLED"]
    assert dump_element("entity", after.entity("Order")) == dump_element(
        "entity", dataclasses.replace(before.entity("Order"), description="Edited")
    )


@pytest.mark.django_db
def test_renames_in_the_entity_form_keep_the_sample_data(
    owner_client: Client, project: Project
):
    before = _design(project)
    position = [a.name for a in before.entity("Customer").attributes].index("name")
    data = entity_data(
        project, "Customer", name="Client", **{f"attr-{position}-name": "fullName"}
    )
    response = owner_client.post(
        _url("editor-entity", project, "Customer"), data, **HTMX
    )
    assert response.status_code == 200
    after = _design(project)
    client = after.entity("Client")
    assert client.uid == before.entity("Customer").uid
    renamed = client.attribute("fullName")
    assert renamed.uid == before.entity("Customer").attribute("name").uid
    assert (client.seed_name, renamed.seed_name) == ("Customer", "name")
    expected = [
        {
            ("fullName" if k == "name" and e == "Customer" else k): v
            for k, v in i.items()
        }
        for i, e in zip(*_sample(before), strict=True)
    ]
    assert _sample(after)[0] == expected


def _sample(design: Design) -> tuple[list[dict], list[str]]:
    data = generate(with_roots(design, 20))
    return data.items, data.entities


@pytest.mark.django_db
def test_stale_entity_save_is_refused_with_input_kept(
    owner_client: Client, project: Project
):
    data = entity_data(project, "Customer", description="Changed in tab one")
    other = entity_data(project, "Customer", description="Changed in tab two")
    assert (
        owner_client.post(
            _url("editor-entity", project, "Customer"), data, **HTMX
        ).status_code
        == 200
    )
    response = owner_client.post(
        _url("editor-entity", project, "Customer"), other, **HTMX
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert (
        "You changed entity Customer in another tab since you opened this page" in html
    )
    assert "Changed in tab two" in html
    assert _design(project).entity("Customer").description == "Changed in tab one"


@pytest.mark.django_db
def test_two_people_editing_two_entities_from_one_version_both_save(
    owner_client: Client, editor_client: Client, project: Project
):
    mine = entity_data(project, "Customer", description="Owner's words")
    theirs = entity_data(project, "Order", description="Editor's words")
    first = editor_client.post(_url("editor-entity", project, "Order"), theirs, **HTMX)
    second = owner_client.post(_url("editor-entity", project, "Customer"), mine, **HTMX)
    assert (first.status_code, second.status_code) == (200, 200)
    design = _design(project)
    assert design.entity("Customer").description == "Owner's words"
    assert design.entity("Order").description == "Editor's words"
    latest = project.revisions.select_related("author").first()
    assert (latest.number, latest.author.username) == (3, "owner")
    assert latest.summary == "changed entity Customer (description)"


@pytest.mark.django_db
def test_viewer_cannot_save_or_delete_entities(viewer_client: Client, project: Project):
    data = entity_data(project, "Customer")
    assert (
        viewer_client.post(_url("editor-entity", project, "Customer"), data).status_code
        == 403
    )
    assert (
        viewer_client.post(
            _url("editor-entities", project), {"new-name": "X"}
        ).status_code
        == 403
    )
    assert (
        viewer_client.post(
            _url("editor-entity-delete", project, "Customer"),
            {"version": project.version},
        ).status_code
        == 403
    )


@pytest.mark.django_db
def test_outsider_gets_404_on_entity_endpoints(
    outsider_client: Client, project: Project
):
    for name in ("editor-entity", "editor-entity-delete"):
        assert outsider_client.get(_url(name, project, "Customer")).status_code == 404
    assert (
        outsider_client.post(
            _url("editor-entity-preview", project, "Customer"), {}
        ).status_code
        == 404
    )


@pytest.mark.django_db
def test_live_preview_renders_keys_and_inline_problems(
    viewer_client: Client, project: Project
):
    data = entity_data(
        project,
        "LineItem",
        **{
            "attr-0-example": "o-77",
            "attr-1-example": "4",
            "key-SK-template": "ITEM#{lineNo}#{colour}",
        },
    )
    response = viewer_client.post(
        _url("editor-entity-preview", project, "LineItem"), data, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "ORDER#o-77" in html  # PK rendered from the typed example
    assert "Unknown attribute &#x27;colour&#x27;" in html
    assert 'hx-swap-oob="true"' in html  # the problems beside each template
    assert (
        _design(project).entity("LineItem").keys["SK"].template == "ITEM#{lineNo:03d}"
    )


@pytest.mark.django_db
def test_preview_warns_of_an_unpadded_number(owner_client: Client, project: Project):
    data = entity_data(project, "LineItem", **{"key-SK-template": "ITEM#{lineNo}"})
    html = owner_client.post(
        _url("editor-entity-preview", project, "LineItem"), data
    ).content.decode()
    assert "placed unpadded in a string key" in html


@pytest.mark.django_db
def test_delete_an_entity_names_its_dependants_first(
    owner_client: Client, project: Project
):
    url = _url("editor-entity-delete", project, "Order")
    html = owner_client.get(url, **HTMX).content.decode()
    assert "Delete the entity Order?" in html
    assert (
        "Access pattern &#x27;Orders of a customer, newest first&#x27; expects it"
        in html
    )
    assert "Entity LineItem&#x27;s sample data is made per Order" in html
    assert _design(project).entity("Order") is not None
    response = owner_client.post(url, {"version": project.version}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#main"
    assert _design(project).entity("Order") is None


@pytest.mark.django_db
def test_a_missing_entity_says_so(owner_client: Client, project: Project):
    response = owner_client.get(_url("editor-entity", project, "Nope"))
    assert response.status_code == 404
    assert "no longer exists" in response.content.decode()


@pytest.mark.django_db
def test_more_rows_keeps_the_input(owner_client: Client, project: Project):
    data = entity_data(project, "Customer", description="kept", more_rows="1")
    response = owner_client.post(
        _url("editor-entity", project, "Customer"), data, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "kept" in html and 'name="attr-10-name"' in html
    assert _design(project).entity("Customer").description != "kept"


# --- Access patterns ------------------------------------------------------------


@pytest.mark.django_db
def test_add_a_query_pattern(owner_client: Client, project: Project):
    data = pattern_data(
        project,
        -1,
        **{
            "name": "Line items of an order",
            "operation": "Query",
            "index": "table",
            "key-PK": "ORDER#{orderId}",
            "sort-SK-op": "begins_with",
            "sort-SK-value": "ITEM#",
            "expects_entities": "LineItem",
            "where-0-attribute": "orderId",
            "where-0-operator": "=",
            "where-0-value": "{orderId}",
            "rps": "5",
            "peak_rps": "20",
        },
    )
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    pattern = _design(project).access_patterns[-1]
    assert pattern.name == "Line items of an order"
    assert [(c.attribute, c.operator) for c in pattern.key] == [
        ("PK", "="),
        ("SK", "begins_with"),
    ]
    assert pattern.expects.entities == ("LineItem",)


@pytest.mark.django_db
def test_an_update_with_a_counter_and_if_absent_saves_and_shows_its_request(
    owner_client: Client, project: Project
):
    data = pattern_data(
        project,
        -1,
        **{
            "name": "Add to an order's total",
            "operation": "UpdateItem",
            "action-0-entity": "Order",
            "action-0-add": "total={amount}",
            "action-0-set_if_absent": "shippedAt={now}",
            "param-0-name": "amount",
            "param-0-type": "N",
            "param-0-example": "12.50",
            "param-1-name": "now",
            "param-1-type": "S",
            "param-1-example": "2026-07-01T10:00:00Z",
            "rps": "2",
        },
    )
    preview = owner_client.post(
        _url("editor-pattern-preview", project), data, **HTMX
    ).content.decode()
    assert "ADD #total :total" in preview
    assert "if_not_exists(#shippedAt, :shippedAt)" in preview
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    action = _design(project).access_patterns[-1].actions[0]
    assert action.add == (("total", "{amount}"),)
    assert action.set_if_absent == (("shippedAt", "{now}"),)
    html = owner_client.get(
        _url("editor-pattern", project, len(_design(project).access_patterns) - 1),
        **HTMX,
    ).content.decode()
    assert 'value="total={amount}"' in html


@pytest.mark.django_db
def test_appending_to_a_number_is_refused_at_its_field(
    owner_client: Client, project: Project
):
    data = pattern_data(
        project,
        -1,
        **{
            "name": "Broken append",
            "operation": "UpdateItem",
            "action-0-entity": "Order",
            "action-0-append": "total=5",
        },
    )
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "append takes an attribute of type L; &#x27;total&#x27; is N" in html
    assert 'value="total=5"' in html
    assert "Broken append" not in [p.name for p in _design(project).access_patterns]


@pytest.mark.django_db
def test_a_query_without_its_partition_key_is_refused(
    owner_client: Client, project: Project
):
    data = pattern_data(project, -1, name="Broken", operation="Query", index="GSI1")
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 422
    assert "a Query needs the partition key" in response.content.decode()
    assert 'value="Broken"' in response.content.decode()


@pytest.mark.django_db
def test_edit_a_pattern_and_see_its_request(owner_client: Client, project: Project):
    url = _url("editor-pattern", project, 2)
    html = owner_client.get(url, **HTMX).content.decode()
    assert "KeyConditionExpression" in html and "begins_with(#SK, :SK)" in html
    data = pattern_data(project, 2, limit="50")
    response = owner_client.post(url, data, **HTMX)
    assert response.status_code == 200
    assert _design(project).access_patterns[2].limit == 50


@pytest.mark.django_db
def test_request_preview_follows_the_typed_input(
    viewer_client: Client, project: Project
):
    data = pattern_data(project, 2, limit="7", scan_forward="forward")
    response = viewer_client.post(_url("editor-pattern-preview", project), data, **HTMX)
    html = response.content.decode()
    assert "&quot;Limit&quot;: 7" in html
    assert "ScanIndexForward" not in html


@pytest.mark.django_db
def test_key_fields_follow_the_chosen_index(owner_client: Client, project: Project):
    data = pattern_data(project, 2, index="GSI2", refresh_keys="1")
    data["refresh_keys"] = "1"
    html = owner_client.post(
        _url("editor-pattern-preview", project), data, **HTMX
    ).content.decode()
    assert "GSI2PK" in html and "GSI2SK" in html


@pytest.mark.django_db
def test_move_and_delete_patterns(editor_client: Client, project: Project):
    names = [p.name for p in _design(project).access_patterns]
    response = editor_client.post(
        _url("editor-pattern-move", project, 1),
        {"version": project.version, "direction": "down"},
        **HTMX,
    )
    assert response.status_code == 200
    assert [p.name for p in _design(project).access_patterns][1:3] == [
        names[2],
        names[1],
    ]
    project.refresh_from_db()
    html = editor_client.get(
        _url("editor-pattern-delete", project, 0), **HTMX
    ).content.decode()
    assert "Delete the access pattern" in html
    response = editor_client.post(
        _url("editor-pattern-delete", project, 0), {"version": project.version}
    )
    assert response.status_code == 302
    assert names[0] not in [p.name for p in _design(project).access_patterns]


@pytest.mark.django_db
def test_pattern_saved_from_an_older_page_follows_it_where_it_moved(
    owner_client: Client, project: Project
):
    data = pattern_data(project, 0, description="Mine")
    name = _design(project).access_patterns[0].name
    owner_client.post(
        _url("editor-pattern-move", project, 0),
        {"version": project.version, "direction": "down"},
    )
    response = owner_client.post(_url("editor-pattern", project, 0), data, **HTMX)
    assert response.status_code == 200
    patterns = _design(project).access_patterns
    assert (patterns[1].name, patterns[1].description) == (name, "Mine")


@pytest.mark.django_db
def test_viewer_and_outsider_cannot_touch_patterns(
    viewer_client: Client, outsider_client: Client, project: Project
):
    data = pattern_data(project, 0)
    assert (
        viewer_client.post(_url("editor-pattern", project, 0), data).status_code == 403
    )
    assert (
        viewer_client.post(_url("editor-pattern-create", project), data).status_code
        == 403
    )
    assert outsider_client.get(_url("editor-pattern", project, 0)).status_code == 404
    assert (
        outsider_client.post(_url("editor-pattern-preview", project), data).status_code
        == 404
    )


@pytest.mark.django_db
def test_csrf_is_enforced(owner: Any, project: Project):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post(_url("editor-table-update", project), table_data(project))
    assert response.status_code == 403


@pytest.mark.django_db
def test_user_text_is_escaped(owner_client: Client, project: Project):
    data = entity_data(project, "Customer", description="<script>alert(1)</script>")
    owner_client.post(_url("editor-entity", project, "Customer"), data)
    html = owner_client.get(_url("editor-entity", project, "Customer")).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.django_db
def test_typed_values_are_escaped_in_inputs_and_selects(
    owner_client: Client, project: Project
):
    hostile = '"><script>alert(1)</script>'
    data = entity_data(
        project, "Customer", **{"attr-0-generator": hostile, "key-PK-template": hostile}
    )
    response = owner_client.post(
        _url("editor-entity", project, "Customer"), data, **HTMX
    )
    html = response.content.decode()
    assert "<script>alert(1)</script>" not in html
    assert 'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in html


@pytest.mark.django_db
def test_a_key_named_in_a_nosql_workbench_model_keeps_its_name(
    owner_client: Client, owner
):
    # An imported facet's KeyAttributeAlias (`playerID`) is shown beside the
    # key and survives a save of the entity, so that the export writes it.
    model = (WORKBENCH / "GamePlayerProfilesSchema.json").read_bytes()
    (design,) = read_workbench(model).designs
    project = project_services.project_create(owner=owner, design=design)
    page = owner_client.get(_url("editor-entity", project, "Items"))
    assert "named <code>ITEMS#ItemID</code> in NoSQL Workbench" in page.content.decode()
    data = entity_data(project, "Items", **{"key-SK-template": "ITEM#{itemsId:03d}"})
    response = owner_client.post(_url("editor-entity", project, "Items"), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    keys = _design(project).entity("Items").keys
    assert (keys["SK"].template, keys["SK"].alias) == (
        "ITEM#{itemsId:03d}",
        "ITEMS#ItemID",
    )
    assert keys["PK"].alias == "playerID"


@pytest.mark.django_db
def test_table_and_gsi_auto_scaling_are_set_in_their_forms(owner_client: Client, owner):
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    project = project_services.project_create(owner=owner, design=design)
    page = owner_client.get(_url("editor-table", project)).content.decode()
    assert "From the capacity to 10 times it (default)" in page
    data = table_data(
        project,
        auto_scaling="custom",
        read_min=2,
        read_max=40,
        read_target=60,
    )
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    capacity = _design(project).table.capacity
    assert capacity.auto_scaling == d.AutoScaling(d.ScalingRange(2, 40, 60), None)
    # Half a range is refused beside its field, the input kept.
    data = table_data(project, read_max="", write_min=3)
    data["write_max"] = ""
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Give the minimum too." not in html and "Give the maximum too." in html
    assert _design(project).table.capacity == capacity
    # A GSI's own: off.
    gsi = next(i.name for i in _design(project).table.indexes if i.is_global)
    data = index_data(project, gsi, auto_scaling="off")
    response = owner_client.post(_url("editor-index-edit", project, gsi), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    index = _design(project).table.index(gsi)
    assert index.capacity.auto_scaling == d.AUTO_SCALING_OFF


@pytest.mark.django_db
def test_auto_scaling_cooldowns_and_scale_in_are_set_in_the_form(
    owner_client: Client, owner
):
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    project = project_services.project_create(owner=owner, design=design)
    data = table_data(
        project,
        auto_scaling="custom",
        read_min=2,
        read_max=40,
        read_target=60,
        read_scale_in_cooldown=300,
        read_disable_scale_in="on",
        write_min=1,
        write_max=20,
        write_scale_out_cooldown=0,
    )
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    assert _design(project).table.capacity.auto_scaling == d.AutoScaling(
        d.ScalingRange(2, 40, 60, scale_in_cooldown=300, disable_scale_in=True),
        d.ScalingRange(1, 20, 70, scale_out_cooldown=0),
    )
    page = owner_client.get(_url("editor-table", project)).content.decode()
    assert (
        '<input id="id_read_scale_in_cooldown" min="0" name="read_scale_in_cooldown" '
        'type="number" value="300">'
    ) in page
    assert (
        '<input id="id_read_disable_scale_in" name="read_disable_scale_in" '
        'type="checkbox" checked>'
    ) in page
    overview = owner_client.get(f"/projects/{project.pk}/").content.decode()
    assert (
        "reads 2–40 at 60% (never scales in, 300 s between scale-ins), writes "
        "1–20 at 70% (0 s between scale-outs)"
    ) in overview
    # A negative cooldown is refused beside its field.
    data = table_data(project, read_scale_out_cooldown=-1)
    response = owner_client.post(_url("editor-table-update", project), data, **HTMX)
    assert response.status_code == 422
    assert (
        "Ensure this value is greater than or equal to 0." in response.content.decode()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("partial", [True, False])
def test_a_save_checks_the_design_once(
    owner_client: Client, project: Project, monkeypatch: pytest.MonkeyPatch, partial
):
    """The save decides the refusal, stores the revision and shows the
    section from one check of the edited design."""
    checks: list[int] = []
    original = design_check._checked.get

    def counted(key):
        checks.append(1)
        return original(key)

    monkeypatch.setattr(design_check._checked, "get", counted)
    data = pattern_data(project, 2, limit="50")
    headers = HTMX if partial else {}
    response = owner_client.post(_url("editor-pattern", project, 2), data, **headers)

    assert response.status_code == (200 if partial else 302)
    assert _design(project).access_patterns[2].limit == 50
    assert len(checks) == 1


@pytest.mark.django_db
def test_renaming_an_attribute_in_the_form_follows_into_its_generators(
    owner_client: Client, owner, editor, viewer
):
    """Renaming Reading.day and readingAt: the template that builds
    readingAt from day and the expiry counted from readingAt name the new
    names, so the save is not refused for a name the form no longer has,
    and the page shows them."""
    project = project_with_members(
        example_design("device-telemetry"), owner=owner, editor=editor, viewer=viewer
    )
    names = [a.name for a in _design(project).entity("Reading").attributes]
    data = entity_data(
        project,
        "Reading",
        **{
            f"attr-{names.index('day')}-name": "date",
            f"attr-{names.index('readingAt')}-name": "takenAt",
            "key-SK-template": "READING#{takenAt}",
            "key-LSI1SK-template": "METRIC#{metric}#{takenAt}",
            "key-GSI1PK-template": "DAY#{date}#{shard}",
            "key-GSI1SK-template": "{takenAt}#{deviceId}",
        },
    )

    response = owner_client.post(
        _url("editor-entity", project, "Reading"), data, **HTMX
    )

    assert response.status_code == 200
    reading = _design(project).entity("Reading")
    assert reading.attribute("takenAt").generator.params["value"] == "{date}T{clock}Z"
    assert reading.attribute("expiresAt").generator.params["from"] == "takenAt"
    html = response.content.decode()
    assert "{date}T{clock}Z" in html and "{day}T{clock}Z" not in html


@pytest.mark.django_db
def test_renaming_an_attribute_the_keys_use_is_saved_and_followed(
    owner_client: Client, project: Project
):
    """Order.orderDate renamed to placedAt, the key templates left as they
    were typed: the save follows the rename into the templates, the index
    projection and the patterns' order, and the page shows the new names."""
    names = [a.name for a in _design(project).entity("Order").attributes]
    data = entity_data(
        project, "Order", **{f"attr-{names.index('orderDate')}-name": "placedAt"}
    )

    response = owner_client.post(_url("editor-entity", project, "Order"), data, **HTMX)

    assert response.status_code == 200
    assert "Saved" in response["HX-Trigger"]
    design = _design(project)
    assert design.entity("Order").keys["SK"].template == "ORDER#{placedAt}#{orderId}"
    assert "placedAt" in design.table.index("GSI1").projection.attributes
    newest = design.access_patterns[2].expects
    assert newest.order_by == ("-placedAt", "-orderId")
    html = response.content.decode()
    assert "ORDER#{placedAt}#{orderId}" in html and "{orderDate}" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("section", "delete"),
    [
        ("patterns", ("editor-pattern-delete", 1)),
        ("indexes", ("editor-index-delete", "GSI2")),
        ("entities", ("editor-entity-delete", "Order")),
    ],
)
def test_a_delete_being_confirmed_loads_no_findings(
    editor_client: Client, project: Project, section: str, delete: tuple
):
    # The list or editor shown again with the question does not ask for the
    # review's findings: coming in above the question, they would move its
    # button as it is clicked. Shown without the question, they are asked.
    loader = f'id="review-loader-{section}"'
    name, argument = delete
    confirming = editor_client.get(_url(name, project, argument), **HTMX)
    assert confirming.status_code == 200
    html = confirming.content.decode()
    assert 'role="alertdialog"' in html
    assert loader not in html
    page = {
        "patterns": _url("editor-patterns", project),
        "indexes": _url("editor-table", project),
        "entities": _url("editor-entity", project, "Order"),
    }[section]
    assert loader in editor_client.get(page).content.decode()
