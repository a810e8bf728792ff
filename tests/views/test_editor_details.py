"""The editor's second pass: an attribute's presence, max length and
description, the sample count's distribution and hot keys; per-action keys
of write patterns; a pattern form that follows its operation (htmx, and a
plain submit without JavaScript); and the design review's findings loaded
beside each part of a section."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.http import QueryDict
from django.test import Client

from modeler.designfile import read_design
from modeler.editor.forms import EntityForm, PatternForm
from modeler.models import Project, Role
from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.conftest import example_design
from tests.views.test_editor_edits import (
    HTMX,
    _design,
    _url,
    entity_data,
    pattern_data,
)

EXAMPLES = sorted((Path(settings.BASE_DIR) / "examples").glob("*.yaml"))


def value_of(html: str, name: str) -> str | None:
    """The value of the input named `name` (None without one; its
    attributes come in any order)."""
    tag = re.search(rf'<input[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    if tag is None:
        return None
    value = re.search(r'\bvalue="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


def has_select(html: str, name: str) -> bool:
    return re.search(rf'<select[^>]*\bname="{re.escape(name)}"', html) is not None


# --- Every example round-trips through the forms --------------------------------


def _posted(initial: dict, prefix: str = "") -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in initial.items():
        if key.startswith("_") or value is None or value is False:
            continue
        name = f"{prefix}-{key}" if prefix else key
        for item in value if isinstance(value, list) else [value]:
            data.appendlist(name, "on" if item is True else str(item))
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_entity_and_pattern_saves_unchanged_through_its_form(path: Path):
    """Opening a part and saving it without a change changes nothing: the
    presence, max lengths, Zipf and uniform counts, hot keys and action keys
    of the examples all come back as they were."""
    design = read_design(path.read_bytes()).design
    names = [e.name for e in design.entities]
    for entity in design.entities:
        form = EntityForm(
            _posted(EntityForm.initial_for(entity, 1)),
            table=design.table,
            entity=entity,
            entity_names=names,
        )
        assert form.is_valid(), (entity.name, form.errors)
        assert form.to_entity() == entity
    for position, pattern in enumerate(design.access_patterns):
        initial = PatternForm.initial_for(design, pattern, 1)
        form = PatternForm(
            _posted(initial, f"p{position}"),
            initial=initial,
            design=design,
            pattern=pattern,
            prefix=f"p{position}",
        )
        assert form.is_valid(), (pattern.name, form.errors)
        assert form.to_pattern() == pattern, pattern.name


# --- Attributes: presence, max length, description ------------------------------

# Order's attributes: 0 customerId, 1 orderId, 2 orderDate, 3 status,
# 4 total (N), 5 shippedAt (optional, presence 0.5).


@pytest.mark.django_db
def test_attribute_presence_length_and_description_are_saved(
    editor_client: Client, project: Project
):
    url = _url("editor-entity", project, "Order")
    html = editor_client.get(url, **HTMX).content.decode()
    assert 'name="attr-5-presence"' in html and 'name="attr-3-max_length"' in html
    data = entity_data(
        project,
        "Order",
        **{
            "attr-5-presence": "0.3",
            "attr-3-max_length": "12",
            "attr-3-description": "Where the order is: OPEN until shipped.",
        },
    )
    response = editor_client.post(url, data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:2000]
    order = _design(project).entity("Order")
    assert order.attribute("shippedAt").presence == 0.3
    assert order.attribute("status").max_length == 12
    assert order.attribute("status").description.startswith("Where the order is")
    # Shown again as saved, the disclosure open since it holds values.
    html = editor_client.get(url, **HTMX).content.decode()
    assert value_of(html, "attr-5-presence") == "0.3"
    assert "on 0.3 of items" in html


@pytest.mark.django_db
def test_a_required_attribute_below_full_presence_is_refused_beside_it(
    owner_client: Client, project: Project
):
    url = _url("editor-entity", project, "Order")
    data = entity_data(
        project, "Order", **{"attr-3-presence": "0.4", "description": "typed text"}
    )
    response = owner_client.post(url, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert "A required attribute is on every item" in html
    assert value_of(html, "attr-3-presence") == "0.4"  # the input is kept
    assert "typed text" in html
    assert _design(project).entity("Order").attribute("status").presence == 1.0


@pytest.mark.django_db
def test_a_max_length_on_a_number_and_a_presence_above_one_are_refused(
    owner_client: Client, project: Project
):
    url = _url("editor-entity", project, "Order")
    data = entity_data(
        project, "Order", **{"attr-4-max_length": "9", "attr-5-presence": "1.5"}
    )
    response = owner_client.post(url, data)  # the full page, without htmx
    html = response.content.decode()
    assert response.status_code == 422
    assert "<html" in html
    assert "A max length applies to S and B attributes only, not N." in html
    assert "Ensure this value is less than or equal to 1." in html
    assert value_of(html, "attr-4-max_length") == "9"


# --- The sample count: fixed, uniform, Zipf; hot keys ----------------------------


@pytest.mark.django_db
def test_sample_counts_of_every_distribution_and_hot_keys_are_saved(
    owner_client: Client, project: Project
):
    url = _url("editor-entity", project, "Order")
    html = owner_client.get(url, **HTMX).content.decode()
    # Order's Zipf count is shown for editing, not as "set in the file".
    assert '<option value="zipf" selected>' in html
    assert value_of(html, "sample_max") == "50"
    data = entity_data(
        project,
        "Order",
        sample_distribution="uniform",
        sample_min="2",
        sample_max="7",
        hot_keys="3",
        hot_share="0.25",
    )
    response = owner_client.post(url, data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:2000]
    sample = _design(project).entity("Order").sample
    assert (sample.count.distribution, sample.count.low, sample.count.high) == (
        "uniform",
        2,
        7,
    )
    assert (sample.hot_keys, sample.hot_share) == (3, 0.25)

    data = entity_data(
        project, "Order", sample_distribution="zipf", sample_s="", sample_max="9"
    )
    assert owner_client.post(url, data, **HTMX).status_code == 200
    count = _design(project).entity("Order").sample.count
    assert (count.distribution, count.s, count.high) == ("zipf", 1.2, 9)

    data = entity_data(
        project, "Customer", sample_distribution="fixed", sample_count="35"
    )
    url = _url("editor-entity", project, "Customer")
    assert owner_client.post(url, data, **HTMX).status_code == 200
    assert _design(project).entity("Customer").sample.count.value == 35


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("entity", "changes", "message"),
    [
        (
            "LineItem",
            {"sample_distribution": "uniform", "sample_min": "6", "sample_max": "2"},
            "The max (2) is less than the min (6).",
        ),
        (
            "Order",
            {"sample_distribution": "zipf", "sample_max": "0"},
            "A Zipf count needs a max of 1 or more.",
        ),
        (
            "Order",
            {"sample_distribution": "zipf", "sample_s": "0", "sample_max": "5"},
            "The exponent must be above 0.",
        ),
        (
            "Customer",
            {"hot_keys": "2", "hot_share": "0.5"},
            "Hot keys skew children toward some parents",
        ),
        ("Order", {"hot_share": "0.5"}, "How many parents are hot (1 or more)."),
        ("Order", {"hot_keys": "2", "hot_share": "1.5"}, "less than or equal to 1"),
        (
            "Customer",
            {"sample_distribution": "fixed", "sample_count": ""},
            "How many items: a whole number of 0 or more.",
        ),
    ],
)
def test_invalid_sample_settings_are_refused_beside_the_field(
    owner_client: Client, project: Project, entity: str, changes: dict, message: str
):
    before = _design(project).entity(entity).sample
    url = _url("editor-entity", project, entity)
    response = owner_client.post(url, entity_data(project, entity, **changes), **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    for name, value in changes.items():
        if value and name != "sample_distribution":
            assert value_of(html, name) == value
    assert _design(project).entity(entity).sample == before


# --- Per-action keys ------------------------------------------------------------


@pytest.fixture
def social(owner, editor, viewer) -> Project:
    project = project_services.project_create(
        owner=owner, design=example_design("social-graph")
    )
    member_services.membership_set(project=project, user=editor, role=Role.EDITOR)
    member_services.membership_set(project=project, user=viewer, role=Role.VIEWER)
    return project


def _position(project: Project, name: str) -> int:
    names = [p.name for p in _design(project).access_patterns]
    return names.index(name)


@pytest.mark.django_db
def test_an_actions_key_is_shown_edited_and_kept(owner_client: Client, social: Project):
    position = _position(social, "Follow a user")
    url = _url("editor-pattern", social, position)
    html = owner_client.get(url, **HTMX).content.decode()
    prefix = f"p{position}"
    assert value_of(html, f"{prefix}-action-0-key-PK") == "USER#{followedId}"
    assert value_of(html, f"{prefix}-action-0-key-SK") == "PROFILE"
    # Saving another field keeps the key (it used to be dropped).
    data = pattern_data(social, position, description="Checks the user exists.")
    assert owner_client.post(url, data, **HTMX).status_code == 200
    action = _design(social).access_patterns[position].actions[0]
    assert [(c.attribute, c.values) for c in action.key] == [
        ("PK", ("USER#{followedId}",)),
        ("SK", ("PROFILE",)),
    ]
    # And the key can be changed.
    data = pattern_data(social, position, **{"action-0-key-PK": "USER#{followerId}"})
    assert owner_client.post(url, data, **HTMX).status_code == 200
    action = _design(social).access_patterns[position].actions[0]
    assert action.key[0].values == ("USER#{followerId}",)


@pytest.mark.django_db
def test_an_action_key_with_a_bad_template_or_half_a_key_is_refused(
    owner_client: Client, social: Project
):
    position = _position(social, "Follow a user")
    url = _url("editor-pattern", social, position)
    data = pattern_data(social, position, **{"action-0-key-PK": "USER#{followedId"})
    response = owner_client.post(url, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert 'value="USER#{followedId"' in html
    assert "field-invalid" in html
    data = pattern_data(social, position, **{"action-0-key-SK": ""})
    response = owner_client.post(url, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert "needs the full primary key: &#x27;SK&#x27; is missing" in html
    assert _design(social).access_patterns[position].actions[0].key[1].values == (
        "PROFILE",
    )


@pytest.mark.django_db
def test_a_single_write_takes_its_key_on_its_item(
    owner_client: Client, project: Project
):
    """UpdateItem's key is its one action's (as the design file writes it
    at the pattern's level), not a key condition."""
    url = _url("editor-pattern", project, 7)  # Ship an order, UpdateItem
    html = owner_client.get(url, **HTMX).content.decode()
    assert "Key condition" not in html
    assert "The item it writes" in html
    data = pattern_data(
        project,
        7,
        **{
            "action-0-key-PK": "CUST#{customerId}",
            "action-0-key-SK": "ORDER#{orderDate}#{orderId}",
        },
    )
    response = owner_client.post(url, data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    pattern = _design(project).access_patterns[7]
    assert pattern.key == ()
    assert [c.attribute for c in pattern.actions[0].key] == ["PK", "SK"]
    assert pattern.actions[0].operation == "Update"


# --- The form follows the operation ---------------------------------------------


def _refresh(client: Client, project: Project, position: int, **changes: str) -> str:
    data = pattern_data(project, position, **changes)
    data["refresh_keys"] = "1"
    response = client.post(_url("editor-pattern-preview", project), data, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_fields_follow_the_operation(viewer_client: Client, project: Project):
    query = _refresh(viewer_client, project, 2, operation="Query")
    assert 'id="pattern-op-p2"' in query
    assert "Key condition" in query and 'name="p2-filter"' in query
    assert has_select(query, "p2-scan_forward") and 'name="p2-limit"' in query
    assert not has_select(query, "p2-action-0-entity")

    scan = _refresh(viewer_client, project, 2, operation="Scan")
    assert "Key condition" not in scan
    assert 'type="text"' in re.search(r'<input[^>]*name="p2-filter"[^>]*>', scan)[0]
    assert not has_select(scan, "p2-scan_forward")  # a Scan has no order

    put = _refresh(viewer_client, project, 2, operation="PutItem", filter="total > 1")
    assert "The item it writes" in put
    assert has_select(put, "p2-action-0-entity")
    assert "Set <span" not in put  # a Put sets no attributes
    # What PutItem does not take is kept as typed, hidden, for switching back.
    assert 'type="hidden" name="p2-filter" value="total &gt; 1"' in put
    assert 'type="hidden" name="p2-key-PK"' in put

    transact = _refresh(viewer_client, project, 2, operation="TransactWriteItems")
    assert "Its actions" in transact and "p2-action-0-count" in transact
    assert '<option value="ConditionCheck">' in transact
    batch_get = _refresh(viewer_client, project, 2, operation="BatchGetItem")
    assert '<option value="Get">' in batch_get
    assert '<option value="Put">' not in batch_get


@pytest.mark.django_db
def test_switching_operations_does_not_add_blank_rows(
    viewer_client: Client, project: Project
):
    html = _refresh(viewer_client, project, 6, operation="TransactWriteItems")
    # Two actions and one blank row, however often the operation changes.
    assert "p6-action-2-entity" in html and "p6-action-3-entity" not in html


@pytest.mark.django_db
def test_a_save_stores_only_what_the_operation_takes(
    owner_client: Client, project: Project
):
    url = _url("editor-pattern", project, 2)
    data = pattern_data(
        project,
        2,
        operation="PutItem",
        **{"action-0-entity": "Order", "name": "Put an order"},
    )
    response = owner_client.post(url, data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:3000]
    pattern = _design(project).access_patterns[2]
    assert pattern.operation == "PutItem"
    assert pattern.key == () and pattern.limit is None and pattern.scan_forward
    assert [(a.operation, a.entity) for a in pattern.actions] == [("Put", "Order")]


@pytest.mark.django_db
def test_without_javascript_a_plain_submit_reshows_the_form(
    owner_client: Client, project: Project
):
    url = _url("editor-pattern", project, 2)
    before = _design(project).access_patterns[2]
    data = pattern_data(project, 2, operation="DeleteItem", filter="typed filter")
    data["refresh_form"] = "1"
    response = owner_client.post(url, data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and "The item it writes" in html
    assert 'value="typed filter"' in html
    assert "Show the fields of this operation and index" in html  # the noscript
    assert _design(project).access_patterns[2] == before  # nothing saved


# --- Review findings beside each part -------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("page", "args", "section"),
    [
        ("editor-table", (), "table"),
        ("editor-table", (), "indexes"),
        ("editor-entities", (), "entities"),
        ("editor-patterns", (), "patterns"),
    ],
)
def test_sections_load_their_findings_separately(
    viewer_client: Client, project: Project, page: str, args: tuple, section: str
):
    findings = _url("editor-findings", project, section)
    review = _url("review-page", project)
    for kwargs in ({}, HTMX):
        html = viewer_client.get(_url(page, project, *args), **kwargs).content.decode()
        assert f'hx-get="{findings}' in html
        assert 'hx-trigger="load"' in html
        assert f'href="{review}"' in html  # without JavaScript, a plain link


@pytest.mark.django_db
def test_findings_fill_the_slots_of_patterns_indexes_and_entities(
    viewer_client: Client, project: Project
):
    html = viewer_client.get(
        _url("editor-findings", project, "patterns"), **HTMX
    ).content.decode()
    assert 'id="review-loader-patterns"' in html
    # Find customer by email (position 1) has a finding; each slot is swapped.
    assert 'id="review-pattern-1" hx-swap-oob="true"' in html
    assert re.search(r'id="review-pattern-1" hx-swap-oob="true">\s*<details', html)
    assert re.search(r'id="review-pattern-0" hx-swap-oob="true">\s*</div>', html)
    assert "Review: 1 advice" in html
    assert 'class="finding-location"' not in html  # the location is implied

    indexes = viewer_client.get(
        _url("editor-findings", project, "indexes"), **HTMX
    ).content.decode()
    assert 'id="review-index-0" hx-swap-oob="true"' in indexes

    entities = viewer_client.get(
        _url("editor-findings", project, "entities") + "?entity=Order", **HTMX
    ).content.decode()
    assert 'id="review-entity-Order" hx-swap-oob="true"' in entities
    assert 'id="review-entity-detail" hx-swap-oob="true"' in entities


@pytest.mark.django_db
def test_findings_access(
    owner_client: Client,
    editor_client: Client,
    outsider_client: Client,
    project: Project,
):
    url = _url("editor-findings", project, "table")
    assert owner_client.get(url, **HTMX).status_code == 200
    assert editor_client.get(url).status_code == 200
    assert outsider_client.get(url, **HTMX).status_code == 404
    assert owner_client.post(url, **HTMX).status_code == 405
    assert owner_client.get(_url("editor-findings", project, "nope")).status_code == 404
