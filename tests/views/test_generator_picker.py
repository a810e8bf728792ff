"""The generator picker of the entity editor: a generator chosen by kind,
field by field, with the default that the attribute's name and type imply
and five sample values; it saves nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.views.conftest import stored_design

HTMX = {"HTTP_HX_REQUEST": "true"}
SCRIPT = "<script>alert(1)</script>"


def _picker(client: Client, project, **params) -> str:
    response = client.get(
        f"/projects/{project.pk}/entities/Order/generator/", params, **HTMX
    )
    assert response.status_code == 200
    return response.content.decode()


def _samples(html: str) -> list[str]:
    block = re.search(r"data-generator-samples>(.*?)</ol>", html, re.S)
    return re.findall(r"<code>(.*?)</code>", block[1]) if block else []


@pytest.mark.django_db
def test_it_starts_from_the_default_the_name_implies(owner_client: Client, project):
    html = _picker(owner_client, project, attr_name="deliveredOn", attr_type="S")
    assert "The default for a S named <code>deliveredOn</code>" in html
    assert '<option value="date" selected>' in html
    samples = _samples(html)
    assert len(samples) == 5
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", value) for value in samples)
    assert "data-generator-result>{date: {from: &#x27;2024-01-01&#x27;" in html


@pytest.mark.django_db
def test_it_starts_from_the_generator_as_typed(owner_client: Client, project):
    html = _picker(
        owner_client,
        project,
        attr_name="status",
        attr_type="S",
        current="{choice: {OPEN: 1, SHIPPED: 4}}",
    )
    assert 'value="OPEN: 1, SHIPPED: 4"' in html
    assert set(_samples(html)) <= {"OPEN", "SHIPPED"}


@pytest.mark.django_db
def test_choosing_a_kind_fills_its_fields_from_its_example(
    owner_client: Client, project
):
    html = _picker(
        owner_client,
        project,
        attr_name="total",
        attr_type="N",
        kind="int",
        shown_kind="date",
    )
    assert 'name="low"' in html and 'name="start"' not in html
    assert "data-generator-result>{int: {min: 1, max: 5}}" in html
    assert all(1 <= int(v) <= 5 for v in _samples(html))


@pytest.mark.django_db
def test_fields_make_the_generator_and_bad_ones_say_why(owner_client: Client, project):
    html = _picker(
        owner_client,
        project,
        attr_name="total",
        attr_type="N",
        kind="decimal",
        shown_kind="decimal",
        low="5",
        high="20",
        places="1",
    )
    assert "{decimal: {min: 5.0, max: 20.0, places: 1}}" in html
    assert all(5 <= float(v) <= 20 for v in _samples(html))

    html = _picker(
        owner_client,
        project,
        attr_name="total",
        attr_type="N",
        kind="int",
        shown_kind="int",
        low="9",
        high="1",
    )
    assert "To is below From." in html
    assert re.search(r'data-generator-use="" data-row="" disabled', html)

    html = _picker(
        owner_client,
        project,
        attr_name="name",
        attr_type="S",
        kind="faker",
        shown_kind="faker",
        provider="no_such_provider",
    )
    assert "is not a Faker provider" in html
    assert _samples(html) == []


@pytest.mark.django_db
def test_a_copy_of_a_parents_value_has_no_preview_but_can_be_used(
    owner_client: Client, project
):
    html = _picker(
        owner_client,
        project,
        attr_name="customerId",
        attr_type="S",
        current="{ref: Customer.customerId}",
    )
    assert "No preview here" in html
    assert 'data-generator-use="{ref: Customer.customerId}" data-row=""' in html
    assert "disabled" not in html.split("Use this generator")[0].rsplit("<button", 1)[1]


@pytest.mark.django_db
def test_it_saves_nothing_escapes_input_and_keeps_outsiders_out(
    owner_client: Client, viewer_client: Client, outsider_client: Client, project
):
    before = stored_design(project)
    html = _picker(owner_client, project, attr_name=SCRIPT, attr_type="<b>")
    assert SCRIPT not in html and "&lt;script&gt;" in html
    assert _picker(viewer_client, project, attr_name="x")
    url = f"/projects/{project.pk}/entities/Order/generator/"
    assert outsider_client.get(url).status_code == 404
    assert owner_client.post(url).status_code == 405
    assert stored_design(project) == before


@pytest.mark.django_db
def test_an_expiry_is_picked_from_a_time_of_the_item(owner_client: Client, project):
    html = _picker(
        owner_client,
        project,
        attr_name="expiresAt",
        attr_type="N",
        kind="expires",
        shown_kind="expires",
        moment="orderDate",
        days="30",
    )
    assert 'name="moment"' in html and 'name="low"' not in html
    assert "data-generator-result>{expires: {from: orderDate, days: 30}}" in html
    samples = _samples(html)
    assert len(samples) == 5 and all(v.isdigit() for v in samples), samples

    html = _picker(
        owner_client,
        project,
        attr_name="expiresAt",
        attr_type="N",
        kind="expires",
        shown_kind="expires",
        moment="status",
        days="",
    )
    assert "expires needs the number of days the item lives." in html
