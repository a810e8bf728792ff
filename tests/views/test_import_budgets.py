"""The web's imports within their budgets: a hostile design file uploaded or
pasted on the project list, and a hostile file of items on the Simulation
page, are refused on the form with the reason, quickly, and change
nothing."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.utils.html import escape

from modeler.importers import budget as import_budget
from modeler.importers.budget import ImportLimits
from modeler.importers.sources import read_design_source
from modeler.models import Project, Revision
from tests.exporters import hostile_files as hostile
from tests.views.conftest import project_with_members, stored_design

VALUE_TOO_LARGE = (
    "evaluates to more than 100,000 bytes; this workbench allows at most that "
    "for one value (setting IMPORT_MAX_VALUE_BYTES)"
)
TOO_DEEP = (
    "nested more than 100 levels deep, which this workbench does not read "
    "(a DynamoDB item nests at most 32 levels)"
)

DESIGN_FILES = {
    "double.tf": (hostile.tf_doubling_locals(60), f"local.l16 {VALUE_TOO_LARGE}"),
    "lists.tf": (hostile.tf_doubling_lists(60), f"local.l15 {VALUE_TOO_LARGE}"),
    "mappings.json": (
        hostile.cfn_doubling_mappings(60),
        f"the mapping entry M / k / v16 {VALUE_TOO_LARGE}",
    ),
    "sub.json": (hostile.cfn_long_sub(), f"Fn::Sub {VALUE_TOO_LARGE}"),
    "deep-item.json": (hostile.nwb_nested_item(450), f"the file is {TOO_DEEP}"),
    "deeper-item.json": (hostile.nwb_nested_item(2_500), f"the file is {TOO_DEEP}"),
    "deep.template": (hostile.cfn_nested(900), f"the file is {TOO_DEEP}"),
    "deep.tf": (hostile.tf_nested(900), f"the configuration is {TOO_DEEP}"),
    "throughput.json": (
        json.dumps(
            hostile.workbench_model(
                items=[],
                BillingMode="PROVISIONED",
                ProvisionedCapacitySettings={"ProvisionedThroughput": "5"},
            )
        ),
        "expected an object with ReadCapacityUnits and WriteCapacityUnits, found "
        "the text '5'",
    ),
}


@pytest.fixture(autouse=True)
def _default_limits(owner_client):
    # The defaults, whatever the environment sets; and Terraform's parser
    # loaded and the page's templates compiled, so that their one-off
    # start-up is not counted against a file.
    with import_budget.configured(ImportLimits()):
        read_design_source(hostile.tf_cycle(), filename="warm.tf")
        owner_client.get("/projects/")
        yield


def _html(response: HttpResponse) -> str:
    return response.content.decode()


def _upload(content: str, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content.encode(), "application/octet-stream")


def _state() -> tuple:
    return (sorted(Project.objects.values_list("pk", "name")), Revision.objects.count())


def _timed_post(client, url: str, data: dict) -> HttpResponse:
    started = time.thread_time()
    response = client.post(url, data)
    # The server's own thread: the request's whole CPU time. Unbudgeted,
    # these files ran for minutes; refused, each takes about 0.1 s (figures
    # in bench/import_budget.py), so a bound well under the 20 s budget
    # tells a refusal from a runaway on a busy shared core as well.
    assert time.thread_time() - started < 5.0
    return response


@pytest.mark.parametrize("name", DESIGN_FILES)
def test_a_hostile_design_file_is_refused_on_the_form(project, owner_client, name):
    content, message = DESIGN_FILES[name]
    before = _state()

    response = _timed_post(
        owner_client, "/projects/import/", {"file": _upload(content, name)}
    )

    assert response.status_code == 422
    html = _html(response)
    assert f"Nothing was imported: {name} has problems" in html
    assert escape(message) in html
    assert _state() == before


def test_a_hostile_pasted_configuration_is_refused_and_kept_on_the_form(
    owner_client,
):
    content, message = DESIGN_FILES["double.tf"]

    response = _timed_post(owner_client, "/projects/import/", {"text": content})

    assert response.status_code == 422
    html = _html(response)
    assert escape(message) in html
    assert f">\n{escape(content)}</textarea>" in html
    assert not Project.objects.exists()


def test_the_audits_conditions_import_in_a_moment(owner_client):
    response = _timed_post(
        owner_client,
        "/projects/import/",
        {"file": _upload(hostile.cfn_nested_conditions(45), "conditions.json")},
    )

    assert response.status_code == 200  # the list, with what was not carried over
    assert list(Project.objects.values_list("name", flat=True)) == ["tableA"]


def test_a_web_import_stops_at_its_cpu_seconds(owner_client):
    model = hostile.nwb_facets_keyed_alike(20, 10)
    with import_budget.configured(ImportLimits(cpu_seconds=0.001)):
        response = owner_client.post(
            "/projects/import/", {"file": _upload(model, "model.json")}
        )

    assert response.status_code == 422
    assert "(setting IMPORT_CPU_SECONDS)" in _html(response)
    assert not Project.objects.exists()


# --- The Simulation page's items ----------------------------------------------


def _deep_csv(levels: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["PK", "SK", "deep (M)"])
    # A cell of an M attribute is JSON: plain, or DynamoDB JSON.
    writer.writerow(["CUST#1", "PROFILE", '{"a": ' * levels + "1" + "}" * levels])
    return out.getvalue()


ITEM_FILES = {
    "deep.jsonl": (hostile.items_nested(450), f"the item is {TOO_DEEP}"),
    "deeper.jsonl": (hostile.items_nested(2_500), f"the item is {TOO_DEEP}"),
    "deep.csv": (_deep_csv(5_000), f"column 'deep': the value is {TOO_DEEP}"),
    "deep-model.json": (hostile.nwb_nested_item(2_500), f"the model is {TOO_DEEP}"),
    # Deeper than DynamoDB allows, not than the reader can read.
    "forty.jsonl": (
        hostile.items_nested(40),
        "Nesting Levels have exceeded supported limits: DynamoDB nests an "
        "item's values at most 32 levels",
    ),
}


@pytest.fixture
def small_project(owner, editor, viewer, small_design) -> Project:
    return project_with_members(small_design, owner=owner, editor=editor, viewer=viewer)


@pytest.mark.parametrize("name", ITEM_FILES)
def test_a_hostile_items_file_is_refused_on_the_form(small_project, owner_client, name):
    content, message = ITEM_FILES[name]
    project = small_project
    before = stored_design(project).sample_data.items, project.version

    # (The page around the form takes its own time: the reading's is measured
    # in tests/sampledata/test_files.py.)
    response = owner_client.post(
        f"/projects/{project.pk}/simulation/items/",
        {"file": _upload(content, name), "mode": "replace", "version": 1},
    )

    assert response.status_code == 422
    html = _html(response)
    assert f"Nothing was imported: {name} has 1 problem" in html
    assert f'<code class="path">{name}:' in html
    assert escape(message) in html
    project.refresh_from_db()
    assert (stored_design(project).sample_data.items, project.version) == before
