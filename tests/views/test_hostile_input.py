"""Hostile input, posted to every form and uploaded in every file the site
takes: a NUL character, huge text, non-finite and huge numbers, markup,
template and path tricks. Each answer is a page with a clear error or a
clean save, never a server error, and whatever is stored can be stored on
every database (CI runs this suite on PostgreSQL as well as on SQLite:
PostgreSQL refuses NUL in text and JSON)."""

from __future__ import annotations

import json
import re
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from modeler import selectors
from modeler.design_check import check_storable
from modeler.models import Project
from tests.views.test_editor_edits import (
    entity_data,
    index_data,
    pattern_data,
    table_data,
)

HTMX = {"HTTP_HX_REQUEST": "true"}
HOSTILE = {
    "nul": "before\x00after",
    "huge": "x" * 200_000,
    "markup": "<script>alert(1)</script>\"'><img src=x onerror=alert(1)>",
    "template": "{{ settings.SECRET_KEY }}{% debug %}${x}%{y}",
    "numbers": "1e400",
    "path": "../../../../etc/passwd",
    "control": "\x1b[31m\r\n\t\x7f\u2028",
    # Valid, and longer than the columns it would go to (PostgreSQL refuses).
    "long": "a" * 300 + "@example.com",
}
pytestmark = pytest.mark.django_db


def url(name: str, project: Project, *args: object) -> str:
    return reverse(name, args=[project.pk, *args])


def stored_cleanly(project: Project) -> None:
    project.refresh_from_db()
    design = selectors.project_design(project=project)
    assert check_storable(design) == []


# Per field of the editor's forms (each post may save and re-check the
# design): what breaks storage or parsing. The rest go to the name fields.
PER_FIELD = ("nul", "huge", "numbers")


def post_each_field(client: Client, target: str, data: dict, project: Project):
    """Post the valid form with one text field at a time made hostile."""
    for field, value in data.items():
        if not isinstance(value, str) or field.endswith(("version", "position")):
            continue
        if re.match(r"(\w+-)?((attr|param|where|action)-[1-9]|key-(?!PK-))", field):
            continue  # rows and keys past the first have the same fields
        kinds = HOSTILE if field.endswith("name") else PER_FIELD
        for kind in kinds:
            hostile = HOSTILE[kind]
            project.refresh_from_db()
            changed = {**data, field: hostile}
            for name in changed:
                if name == "version" or name.endswith("-version"):
                    changed[name] = project.version
            response = client.post(target, changed, **HTMX)
            assert response.status_code < 500, (field, kind, response.status_code)
            stored_cleanly(project)


def test_the_table_form(owner_client, project):
    post_each_field(
        owner_client,
        url("editor-table-update", project),
        table_data(project),
        project,
    )


def test_the_index_form(owner_client, project):
    post_each_field(
        owner_client,
        url("editor-index-create", project),
        index_data(project, None, name="GSI9", partition_key="GSI9PK"),
        project,
    )


def test_the_entity_form(owner_client, project):
    post_each_field(
        owner_client,
        url("editor-entity", project, "Order"),
        entity_data(project, "Order"),
        project,
    )


def test_the_access_pattern_form_and_its_preview(owner_client, project):
    data = pattern_data(project, 7)
    post_each_field(owner_client, url("editor-pattern", project, 7), data, project)
    post_each_field(owner_client, url("editor-pattern-preview", project), data, project)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_project_forms(owner_client, project, kind):
    hostile = HOSTILE[kind]
    responses = [
        owner_client.post("/projects/new/", {"name": hostile, "description": hostile}),
        owner_client.post(
            url("project-members", project), {"email": hostile, "role": "viewer"}
        ),
        owner_client.post(
            url("project-members", project), {"member": hostile, "role": hostile}
        ),
        owner_client.post(
            url("simulation-seed", project),
            {"seed": hostile, "version": project.version},
        ),
        owner_client.post(
            url("review-prices", project),
            {
                "region": hostile,
                "taken": hostile,
                "read_request_per_million": hostile,
                "write_request_per_million": "1e400",
                "rcu_hour": "NaN",
                "wcu_hour": "-Infinity",
                "storage_gb_month": "0.25",
                "stored_items": hostile,
            },
        ),
    ]
    for response in responses:
        assert response.status_code < 500
    # Not name__contains: SQLite's LIKE ends its pattern at a NUL.
    assert all("\x00" not in p.name for p in Project.objects.all())
    stored_cleanly(project)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_account_forms(client, owner, kind):
    hostile = HOSTILE[kind]
    for path, data in (
        (
            "/signup/",
            {
                "username": hostile,
                "email": hostile,
                "password1": hostile,
                "password2": hostile,
            },
        ),
        ("/password-reset/", {"email": hostile}),
        ("/login/", {"username": hostile, "password": hostile}),
    ):
        assert client.post(path, data).status_code < 500


DESIGN_WITH_NUL = """\
format: single-table-workbench/v1
name: "Nul\\0name"
table: {name: nul-table, partition_key: {name: PK, type: S}}
entities:
  Thing:
    description: "a\\0b"
    attributes: {id: {type: S, generator: ulid}}
    keys: {PK: "T#{id}"}
"""
WORKBENCH_WITH_NUL = json.dumps(
    {
        "ModelName": "Nul\u0000model",
        "ModelMetadata": {},
        "DataModel": [
            {
                "TableName": "nul-table",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}
                },
                "NonKeyAttributes": [],
                "TableData": [{"PK": {"S": "A\u0000B"}}],
            }
        ],
    }
)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("design.yaml", DESIGN_WITH_NUL),
        ("model.json", WORKBENCH_WITH_NUL),
        ("design.yaml", "name: \x00"),
        ("design.yaml", b"\xff\xfe not utf-8"),
        ("design.yaml", "a: [" * 5000),
        ("model.json", '{"DataModel": [' * 500),
        ("design.yaml", "- " * 100_000),
    ],
)
def test_design_files_that_cannot_be_stored_are_refused(owner_client, name, content):
    data = content.encode() if isinstance(content, str) else content
    response = owner_client.post(
        "/projects/import/", {"file": SimpleUploadedFile(name, data)}
    )
    assert response.status_code == 422, response.status_code
    assert not Project.objects.exists()
    pasted = owner_client.post(
        "/projects/import/", {"text": data.decode(errors="replace")}
    )
    assert pasted.status_code == 422
    assert not Project.objects.exists()


def test_a_nul_in_a_design_file_is_named_with_its_path(owner_client):
    response = owner_client.post("/projects/import/", {"text": DESIGN_WITH_NUL})
    html = response.content.decode()
    assert "contains a NUL character" in html
    assert "entities.Thing.description" in html


@pytest.mark.parametrize(
    "content",
    [
        '{"PK": {"S": "CUST#\\u0000"}, "SK": {"S": "PROFILE"}}\n',
        '{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}, "n\\u0000": {"S": "x"}}\n',
        '{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}, "m": {"M": {"a": {"L": '
        '[{"S": "\\u0000"}]}}}}\n',
        '{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}, "n": {"N": "1e400"}}\n',
        "PK,SK,name\nCUST#1,PROFILE,a\x00b\n",
    ],
)
def test_item_files_that_cannot_be_stored_are_refused(owner_client, project, content):
    response = owner_client.post(
        url("simulation-items-import", project),
        {
            "file": SimpleUploadedFile("items.jsonl", content.encode()),
            "mode": "replace",
            "version": project.version,
        },
    )
    assert response.status_code < 500
    project.refresh_from_db()
    assert selectors.project_design(project=project).sample_data.items == ()


def test_an_example_nested_too_deeply_is_an_error_of_its_field(owner_client, project):
    # An M attribute's example is JSON, read for the live preview: nested
    # 5,000 levels it was a server error.
    data = entity_data(project, "Customer")
    row = next(
        key.split("-")[1]
        for key, value in data.items()
        if key.startswith("attr-") and key.endswith("-name") and value == "address"
    )
    data[f"attr-{row}-example"] = '{"a": ' * 5_000 + "1" + "}" * 5_000

    response = owner_client.post(
        url("editor-entity-preview", project, "Customer"), data, **HTMX
    )

    assert response.status_code == 200
    assert "the value is nested more than 100 levels deep" in response.content.decode()


def _alias_bomb(levels: int = 7) -> str:
    """YAML of ten values, each level ten of the one before: 10**levels."""
    lines = ["l0: &l0 [" + ", ".join(["x"] * 10) + "]"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [" + ", ".join([f"*l{n - 1}"] * 10) + "]")
    return "{int: {" + ", ".join(lines) + "}}"


@pytest.mark.parametrize(
    ("generator", "message"),
    [
        # Ten million values from 400 characters: 15 s of CPU, then stored.
        (_alias_bomb(), "Not a generator: aliases (*name) are not allowed."),
        (
            "[" * 999 + "]" * 999,
            "Not a generator: the document is nested more than 40 levels deep.",
        ),
    ],
    ids=["aliases", "nested"],
)
def test_a_generator_that_would_blow_up_is_refused(
    owner_client, project, generator, message
):
    before = project.version
    data = entity_data(project, "Order", **{"attr-0-generator": generator})

    started = time.thread_time()
    response = owner_client.post(url("editor-entity", project, "Order"), data, **HTMX)

    assert time.thread_time() - started < 5.0
    assert response.status_code == 422
    assert message in response.content.decode()
    project.refresh_from_db()
    assert project.version == before
