"""The project list's import takes a SQL schema dump and its query log:
the new project is a design stated by needs and opens on Propose keys;
bad input names the file, line and statement and creates nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from modeler.models import Project, Revision
from tests.views.conftest import stored_design

pytestmark = pytest.mark.django_db

PAGILA = Path(__file__).resolve().parents[1] / "importers" / "sql" / "pagila"
SCRIPT = "<script>alert(1)</script>"


def _upload(content: str | bytes, name: str) -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/sql")


def _state() -> tuple:
    return (Project.objects.count(), Revision.objects.count())


def test_a_schema_and_its_query_log_open_on_propose_keys(owner, owner_client):
    response = owner_client.post(
        "/projects/import/",
        {
            "file": _upload((PAGILA / "schema.sql").read_bytes(), "pagila.sql"),
            "queries": _upload((PAGILA / "queries.sql").read_bytes(), "queries.sql"),
        },
    )

    project = Project.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/projects/{project.pk}/propose-keys/"
    assert (project.owner, project.name) == (owner, "pagila")
    design = stored_design(project)
    assert len(design.entities) == 15
    assert len(design.access_patterns) == 11
    assert not any(p.keyed for p in design.access_patterns if p.is_read)
    assert "queries.sql, line 75: SELECT count(*)" in design.description
    page = owner_client.get(response["Location"]).content.decode()
    assert "Imported pagila." in page
    assert "25 notes on what the schema and query log held" in page


def test_a_schema_alone_is_imported(owner_client):
    response = owner_client.post(
        "/projects/import/",
        {"text": "CREATE TABLE public.note (note_id integer PRIMARY KEY, body text);"},
    )

    project = Project.objects.get()
    assert response["Location"] == f"/projects/{project.pk}/propose-keys/"
    (entity,) = stored_design(project).entities
    assert [a.name for a in entity.attributes] == ["note_id", "body"]


def test_the_query_logs_window_and_peak_give_its_traffic(owner_client):
    # pg_stat_statements counts calls since its last reset: 7,200 calls over
    # the 600 seconds the user states are 12 a second, at peak 5 times that.
    response = owner_client.post(
        "/projects/import/",
        {
            "file": _upload("CREATE TABLE a (id int PRIMARY KEY, b text);", "s.sql"),
            "queries": _upload(
                "query,calls\nSELECT * FROM a WHERE id = $1,7200\n", "q.csv"
            ),
            "window": "600",
            "peak": "5",
        },
    )

    project = Project.objects.get()
    assert response["Location"] == f"/projects/{project.pk}/propose-keys/"
    (pattern,) = stored_design(project).access_patterns
    assert (pattern.traffic.rps, pattern.traffic.peak_rps) == (12, 60)


@pytest.mark.parametrize(
    ("field", "value"), [("window", "0"), ("window", "inf"), ("peak", "0.5")]
)
def test_a_window_or_peak_out_of_range_is_refused(owner_client, field, value):
    before = _state()

    response = owner_client.post(
        "/projects/import/",
        {
            "file": _upload("CREATE TABLE a (id int PRIMARY KEY);", "s.sql"),
            field: value,
        },
    )

    assert response.status_code == 422
    assert _state() == before


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {
                "file": (
                    "s.sql",
                    "CREATE TABLE a (id int);\nCREATE TABLE b (id int REFERENCES);",
                )
            },
            (
                "line 2",
                "s.sql",
                "a CREATE TABLE that cannot be read as postgres SQL: Expected "
                "table name but got ')' in 'CREATE TABLE b (id int REFERENCES)' "
                "(statement: CREATE TABLE b (id int REFERENCES))",
            ),
        ),
        (
            {
                "file": ("s.sql", "CREATE TABLE a (id int PRIMARY KEY);"),
                "queries": (
                    "q.csv",
                    "query,calls\nSELECT * FROM a WHERE id = $1,lots\n",
                ),
            },
            ("line 2", "q.csv", "expected a number of calls"),
        ),
        (
            {
                "file": ("s.sql", "CREATE TABLE a (id int PRIMARY KEY);"),
                "queries": ("q.json", '[{"query": "SELECT 1", "calls": -1}]'),
            },
            ("", "q.json", "row 1: expected a number of calls of 0 or more"),
        ),
        (
            {
                "file": ("d.yaml", "format: single-table-workbench/v1\nname: x\n"),
                "queries": ("q.sql", "-- calls/s: 1\nSELECT 1;"),
            },
            ("", "q.sql", "a query log is read with a SQL schema"),
        ),
    ],
)
def test_bad_input_says_where_and_creates_nothing(owner_client, files, message):
    before = _state()

    response = owner_client.post(
        "/projects/import/",
        {field: _upload(text, name) for field, (name, text) in files.items()},
    )

    assert response.status_code == 422
    html = response.content.decode()
    line, path, text = message
    assert f'<code class="path">{path}</code>' in html
    assert escape(text) in html
    if line:
        assert f'<span class="muted small">{line}</span>' in html
    assert _state() == before


def test_an_oversized_query_log_is_refused(owner_client, settings):
    settings.DESIGN_FILE_MAX_BYTES = 100
    before = _state()

    response = owner_client.post(
        "/projects/import/",
        {
            "file": _upload("CREATE TABLE a (id int PRIMARY KEY);", "s.sql"),
            "queries": _upload("-- calls/s: 1\n" + "SELECT 1;\n" * 20, "q.sql"),
        },
    )

    assert response.status_code == 422
    assert "q.sql is 214 bytes; query logs are limited to 100 bytes" in (
        response.content.decode()
    )
    assert _state() == before


def test_hostile_names_are_escaped(owner_client):
    schema = (
        f'CREATE TABLE "{SCRIPT}" (id integer PRIMARY KEY, "{SCRIPT}" text);\n'
        f"COMMENT ON TABLE \"{SCRIPT}\" IS '{SCRIPT}';"
    )
    response = owner_client.post(
        "/projects/import/", {"file": _upload(schema, f"{SCRIPT}.sql")}, follow=True
    )

    assert response.status_code == 200
    project = Project.objects.get()
    (entity,) = stored_design(project).entities
    assert entity.name == "ScriptAlert1Script"
    assert "_script_alert_1___script_" in [a.name for a in entity.attributes]
    for url in ("", "entities/", "propose-keys/"):
        page = owner_client.get(f"/projects/{project.pk}/{url}").content.decode()
        assert SCRIPT not in page


def test_import_needs_a_login(client):
    response = client.post(
        "/projects/import/", {"text": "CREATE TABLE a (id int PRIMARY KEY);"}
    )

    assert response.status_code == 302
    assert "/login" in response["Location"] or "/accounts/" in response["Location"]
    assert Project.objects.count() == 0
