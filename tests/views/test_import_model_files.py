"""The project list's import and `manage.py import_design` take a OneTable
schema and a DynamoDB MCP server data model: the project has the file's
keys (and patterns), what it could not carry is listed, and bad input names
the JSON path and creates nothing."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils.html import escape

from modeler.importers.jsmodel import sandbox
from modeler.importers.jsmodel.sandbox import confinement_problem
from modeler.models import Project, Revision
from tests.views.conftest import stored_design

pytestmark = pytest.mark.django_db

SCHEMA = (
    Path(__file__).resolve().parents[1]
    / "importers"
    / "onetable"
    / ("social-graph.json")
)
SCRIPT = "<script>alert(1)</script>"


def _upload(content: str | bytes, name: str) -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/json")


def _state() -> tuple:
    return (Project.objects.count(), Revision.objects.count())


def test_a_onetable_schema_becomes_a_project_with_its_keys(owner, owner_client):
    response = owner_client.post(
        "/projects/import/", {"file": _upload(SCHEMA.read_bytes(), "social-graph.json")}
    )

    project = Project.objects.get()
    assert (project.owner, project.name) == (owner, "social graph")
    design = stored_design(project)
    assert design.entity("Follow").keys["GSI1SK"].template == "FOLLOWER#{followerId}"
    # What the schema held that the design does not is listed on the page.
    html = response.content.decode()
    assert response.status_code == 200
    assert escape("models.User.userId.validate: not carried") in html


def test_bad_input_names_the_path_and_creates_nothing(owner_client):
    schema = json.loads(SCHEMA.read_text())
    schema["models"]["User"]["PK"]["value"] = "USER#${nobody}"
    before = _state()

    response = owner_client.post(
        "/projects/import/", {"file": _upload(json.dumps(schema), "s.json")}
    )

    assert response.status_code == 422
    html = response.content.decode()
    assert '<code class="path">models.User.PK.value</code>' in html
    assert escape("${nobody} names no field of this model") in html
    assert _state() == before


def test_hostile_text_is_inert(owner_client):
    schema = json.loads(SCHEMA.read_text())
    schema["description"] = SCRIPT
    schema["models"]["User"]["SK"]["value"] = SCRIPT
    schema["models"]["User"]["bio"]["enum"] = [SCRIPT]
    response = owner_client.post(
        "/projects/import/",
        {"file": _upload(json.dumps(schema), f"{SCRIPT}.json")},
        follow=True,
    )

    assert response.status_code == 200
    project = Project.objects.get()
    assert stored_design(project).entity("User").keys["SK"].template == SCRIPT
    for url in ("", "entities/"):
        page = owner_client.get(f"/projects/{project.pk}/{url}").content.decode()
        assert SCRIPT not in page


def test_import_design_takes_a_onetable_schema(owner, tmp_path):
    out, err = StringIO(), StringIO()
    call_command(
        "import_design", str(SCHEMA), "--owner", owner.username, stdout=out, stderr=err
    )

    assert "Imported" in out.getvalue()
    assert "note: models.User.userId.validate: not carried" in err.getvalue()
    broken = tmp_path / "broken.json"
    broken.write_text('{"models": {"A": {}}, "indexes": {"primary": {}}}')
    with pytest.raises(CommandError):
        call_command(
            "import_design", str(broken), "--owner", owner.username, stderr=err
        )
    assert "indexes.primary.hash" in err.getvalue()
    assert Project.objects.count() == 1


MCP = (
    Path(__file__).resolve().parents[1]
    / "importers"
    / "mcp"
    / ("dynamodb_data_model.json")
)


def test_an_mcp_data_model_becomes_a_project_with_its_patterns(owner, owner_client):
    response = owner_client.post(
        "/projects/import/",
        {"file": _upload(MCP.read_bytes(), "dynamodb_data_model.json")},
    )

    project = Project.objects.get()
    design = stored_design(project)
    assert [p.name for p in design.access_patterns] == [
        "AP1 Get user profile",
        "AP2 Users a user follows",
        "AP3 Followers of a user",
    ]
    html = response.content.decode()
    assert escape("access_patterns[3] (AP4 Search users by bio text)") in html


def test_a_bad_mcp_data_model_names_the_path_and_creates_nothing(owner, tmp_path):
    model = json.loads(MCP.read_text())
    model["tables"][0]["KeySchema"][0]["KeyType"] = "PARTITION"
    broken = tmp_path / "dynamodb_data_model.json"
    broken.write_text(json.dumps(model))
    err = StringIO()

    with pytest.raises(CommandError):
        call_command(
            "import_design", str(broken), "--owner", owner.username, stderr=err
        )

    assert "tables[0].KeySchema[0]: expected {AttributeName, KeyType" in err.getvalue()
    assert _state() == (0, 0)


MODULES = Path(__file__).resolve().parents[1] / "importers" / "jsmodel"
needs_confinement = pytest.mark.skipif(
    bool(confinement_problem()), reason=confinement_problem() or "confined"
)


@needs_confinement
@pytest.mark.parametrize(
    "name", ["social-graph.electrodb.mjs", "social-graph.toolbox.mjs"]
)
def test_an_electrodb_or_toolbox_module_becomes_a_project(owner, owner_client, name):
    response = owner_client.post(
        "/projects/import/",
        {"file": _upload((MODULES / name).read_bytes(), name)},
    )

    assert response.status_code == 200
    project = Project.objects.get()
    design = stored_design(project)
    assert design.entity("Follow").keys["GSI1SK"].template == "FOLLOWER#{followerId}"
    assert "are not carried" in response.content.decode()


@needs_confinement
def test_a_hostile_module_creates_nothing(owner_client, tmp_path):
    target = tmp_path / "escaped"
    module = (
        'import { Entity } from "electrodb";\nimport fs from "node:fs";\n'
        f'fs.writeFileSync("{target}", "x");\n'
    )
    before = _state()

    response = owner_client.post(
        "/projects/import/", {"file": _upload(module, "evil.mjs")}
    )

    assert response.status_code == 422
    assert "the module tried to use FileSystemWrite" in response.content.decode()
    assert _state() == before
    assert not target.exists()


def test_a_server_with_modules_turned_off_says_so(owner_client):
    sandbox.configure(sandbox.Confinement(enabled=False))
    try:
        before = _state()
        response = owner_client.post(
            "/projects/import/",
            {
                "file": _upload(
                    (MODULES / "social-graph.electrodb.mjs").read_bytes(), "sg.mjs"
                )
            },
        )
    finally:
        sandbox.configure(sandbox.Confinement())
    assert response.status_code == 422
    assert "(JS_MODULE_IMPORT is off)" in response.content.decode()
    assert _state() == before


@needs_confinement
def test_import_design_takes_an_electrodb_module(owner, tmp_path):
    path = tmp_path / "social.mjs"
    path.write_bytes((MODULES / "social-graph.electrodb.mjs").read_bytes())
    out, err = StringIO(), StringIO()

    call_command(
        "import_design", str(path), "--owner", owner.username, stdout=out, stderr=err
    )

    assert "Imported" in out.getvalue()
    assert "note: ElectroDB states no traffic" in err.getvalue()
    design = stored_design(Project.objects.get())
    assert [p.name for p in design.access_patterns][:1] == ["User profile"]
    broken = tmp_path / "broken.mjs"
    broken.write_text('import { Entity } from "electrodb";\n\nnew Entity({;')
    with pytest.raises(CommandError):
        call_command(
            "import_design", str(broken), "--owner", owner.username, stderr=err
        )
    assert "broken.mjs, line 3: SyntaxError" in err.getvalue()
    assert Project.objects.count() == 1
