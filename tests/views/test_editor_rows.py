"""The editor's repeated rows are formsets: the page posts each kind's
count with its rows, a refused save shows the rows it was sent (no more),
"More rows" adds some up to the limit, rows sent without their count or
in a flood are refused with a clear message and nothing is saved, and a
single write's one row must name its entity however little was typed."""

from __future__ import annotations

import pytest
from django.test import Client

from modeler.editor.forms.common import MAX_ROWS
from modeler.models import Project
from tests.views.test_editor_details import has_select, value_of
from tests.views.test_editor_edits import (
    HTMX,
    _design,
    _url,
    entity_data,
    pattern_data,
)

pytestmark = pytest.mark.django_db


def _entity_post(client: Client, project: Project, data: dict) -> tuple[int, str]:
    response = client.post(_url("editor-entity", project, "Customer"), data, **HTMX)
    return response.status_code, response.content.decode()


def test_the_pages_carry_each_row_kinds_count(owner_client: Client, project: Project):
    attributes = len(_design(project).entity("Customer").attributes)
    url = _url("editor-entity", project, "Customer")
    html = owner_client.get(url, **HTMX).content.decode()
    # The existing rows and two blank ones.
    assert value_of(html, "attr-TOTAL_FORMS") == str(attributes + 2)
    assert value_of(html, "attr-INITIAL_FORMS") == str(attributes)
    assert value_of(html, f"attr-{attributes + 1}-name") == ""
    assert value_of(html, f"attr-{attributes + 2}-name") is None

    pattern = _design(project).access_patterns[6]
    html = owner_client.get(_url("editor-pattern", project, 6), **HTMX)
    html = html.content.decode()
    assert value_of(html, "p6-param-TOTAL_FORMS") == str(len(pattern.parameters) + 2)
    assert value_of(html, "p6-action-TOTAL_FORMS") == str(len(pattern.actions) + 1)
    assert value_of(html, "p6-where-TOTAL_FORMS") is not None


def test_a_refused_save_shows_the_rows_it_was_sent(
    owner_client: Client, project: Project
):
    data = entity_data(project, "Customer", **{"attr-0-name": "bad name!"})
    total = data["attr-TOTAL_FORMS"]
    status, html = _entity_post(owner_client, project, data)
    assert status == 422
    assert "is not an attribute name" in html
    assert value_of(html, "attr-0-name") == "bad name!"
    assert value_of(html, f"attr-{total - 1}-name") == ""
    assert value_of(html, f"attr-{total}-name") is None


def test_a_row_added_by_more_rows_saves(owner_client: Client, project: Project):
    data = entity_data(project, "Customer", more_rows="1")
    total = data["attr-TOTAL_FORMS"]
    status, html = _entity_post(owner_client, project, data)
    assert status == 200
    assert value_of(html, "attr-TOTAL_FORMS") == str(total + 3)
    del data["more_rows"]
    data |= {
        "attr-TOTAL_FORMS": total + 3,
        f"attr-{total + 2}-name": "loyaltyTier",
        f"attr-{total + 2}-type": "S",
    }
    status, html = _entity_post(owner_client, project, data)
    assert status == 200, html[:2000]
    customer = _design(project).entity("Customer")
    assert customer.attributes[-1].name == "loyaltyTier"


def test_more_rows_stops_at_the_limit(owner_client: Client, project: Project):
    data = entity_data(project, "Customer", more_rows="1")
    data["attr-TOTAL_FORMS"] = MAX_ROWS - 1
    status, html = _entity_post(owner_client, project, data)
    assert status == 200
    assert value_of(html, "attr-TOTAL_FORMS") == str(MAX_ROWS)
    assert value_of(html, f"attr-{MAX_ROWS - 1}-name") == ""
    assert value_of(html, f"attr-{MAX_ROWS}-name") is None


def test_rows_without_their_count_are_refused(owner_client: Client, project: Project):
    before = _design(project).entity("Customer")
    data = entity_data(project, "Customer", description="changed")
    del data["attr-TOTAL_FORMS"]
    status, html = _entity_post(owner_client, project, data)
    assert status == 422
    assert "The attribute rows came without their count (attr-TOTAL_FORMS)" in html
    assert _design(project).entity("Customer") == before


def test_a_flood_of_rows_is_refused(owner_client: Client, project: Project):
    before = _design(project).entity("Customer")
    data = entity_data(project, "Customer", **{"attr-TOTAL_FORMS": 10**9})
    status, html = _entity_post(owner_client, project, data)
    assert status == 422
    assert "At most 1,000 attribute rows can be sent at once." in html
    assert _design(project).entity("Customer") == before


def test_a_single_write_must_name_its_entity(owner_client: Client, project: Project):
    """Switched from a Query to a PutItem and saved without choosing the
    item it writes: refused beside the entity, however little was typed."""
    before = _design(project).access_patterns[2]
    assert before.operation == "Query" and not before.actions
    data = pattern_data(project, 2, operation="PutItem")
    response = owner_client.post(_url("editor-pattern", project, 2), data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert has_select(html, "p2-action-0-entity")
    assert 'id="id_p2-action-0-entity_error"' in html
    assert "Choose the entity it writes or reads." in html
    assert _design(project).access_patterns[2] == before
