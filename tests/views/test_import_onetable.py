"""The project list's import and `manage.py import_design` take a OneTable
schema: the project has the schema's keys, what it could not carry is
listed, and bad input names the JSON path and creates nothing."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils.html import escape

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
