"""Stating an access pattern by what it needs in the editor: the operation
"Not keyed yet" hides the index, key and filter, keeps the expectation
fields, and the pattern saves and reads back without a key."""

from __future__ import annotations

import pytest
from django.test import Client

from modeler.design import model as d
from modeler.models import Project
from tests.views.test_editor_edits import HTMX, _design, _url, pattern_data

NEEDS = {
    "name": "Orders of a customer, by date",
    "operation": "needs",
    "index": "GSI1",
    "key-PK": "CUST#{customerId}",
    "filter": 'status = "OPEN"',
    "expects_entities": "Order",
    "where-0-attribute": "customerId",
    "where-0-operator": "=",
    "where-0-value": "{customerId}",
    "order_by": "-orderDate, -orderId",
    "limit": "20",
    "rps": "50",
    "peak_rps": "400",
}


@pytest.mark.django_db
def test_a_pattern_stated_by_needs_saves_without_a_key(
    owner_client: Client, project: Project
):
    data = pattern_data(project, -1, **NEEDS)
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    pattern = _design(project).access_patterns[-1]
    assert pattern == d.AccessPattern(
        "Orders of a customer, by date",
        d.UNKEYED,
        limit=20,
        traffic=d.Traffic(50, 400),
        expects=d.Expectation(
            ("Order",),
            (d.Predicate("customerId", "=", ("{customerId}",)),),
            ("-orderDate", "-orderId"),
        ),
    )
    assert "no key yet" in response.content.decode()


@pytest.mark.django_db
def test_a_stored_needs_pattern_opens_as_not_keyed_yet_and_saves_unchanged(
    owner_client: Client, project: Project
):
    data = pattern_data(project, -1, **NEEDS)
    owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    position = len(_design(project).access_patterns) - 1
    before = _design(project).access_patterns[position]
    html = owner_client.get(
        _url("editor-pattern", project, position), **HTMX
    ).content.decode()
    assert '<option value="needs" selected>' in html
    assert '<div data-hide-for-operation="needs" hidden>' in html
    assert "Key condition" not in html and "data-unkeyed-note" in html
    assert "No request yet: the pattern is stated by what it needs" in html
    response = owner_client.post(
        _url("editor-pattern", project, position),
        pattern_data(project, position, description="Shown on the orders page"),
        **HTMX,
    )
    assert response.status_code == 200
    after = _design(project).access_patterns[position]
    assert after.description == "Shown on the orders page"
    assert after.expects == before.expects and not after.keyed


@pytest.mark.django_db
def test_needs_without_an_entity_is_refused_with_the_input_kept(
    owner_client: Client, project: Project
):
    data = pattern_data(project, -1, **{**NEEDS, "expects_entities": ""})
    data.pop("new-expects_entities")
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Choose what the pattern returns" in html
    assert 'value="Orders of a customer, by date"' in html
    assert 'value="-orderDate, -orderId"' in html
    names = [p.name for p in _design(project).access_patterns]
    assert "Orders of a customer, by date" not in names


@pytest.mark.django_db
def test_needs_on_an_unknown_attribute_is_shown_at_its_row(
    owner_client: Client, project: Project
):
    data = pattern_data(project, -1, **{**NEEDS, "where-0-attribute": "customerID"})
    response = owner_client.post(_url("editor-pattern-create", project), data, **HTMX)
    assert response.status_code == 422
    assert "no attribute &#x27;customerID&#x27; on Order" in response.content.decode()


@pytest.mark.django_db
def test_choosing_not_keyed_yet_shows_the_limit_and_hides_key_and_filter(
    owner_client: Client, project: Project
):
    data = pattern_data(project, 2, operation="needs", refresh_keys="1")
    data["refresh_keys"] = "1"
    html = owner_client.post(
        _url("editor-pattern-preview", project), data, **HTMX
    ).content.decode()
    assert 'data-operation=""' in html and "data-unkeyed-note" in html
    assert "Key condition" not in html
    assert 'name="p2-limit"' in html and 'type="hidden" name="p2-filter"' in html


@pytest.mark.django_db
def test_viewers_cannot_add_a_needs_pattern(viewer_client: Client, project: Project):
    data = pattern_data(project, -1, **NEEDS)
    response = viewer_client.post(_url("editor-pattern-create", project), data)
    assert response.status_code == 403
