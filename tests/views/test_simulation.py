"""The Simulation section: the page with its sample data panel, one pattern's
result, the seed, importing and removing the user's own items, and the
download of the sample data."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from modeler.design.model import Design, Parameter, thaw
from modeler.design_check import limits
from modeler.models import Project
from modeler.sampledata import generate, read_items, write_jsonl
from modeler.services import projects as project_services
from modeler.services import sample_data as sample_services
from modeler.simulation import Simulation
from tests.views.conftest import (
    logged_in,
    project_with_members,
    store_own_items,
    stored_design,
    with_roots,
)
from tests.views.starting import opened, start_jobs

SCRIPT = "<script>alert(1)</script>"
CUSTOMER = (
    '{"PK": {"S": "CUST#mine"}, "SK": {"S": "PROFILE"}, '
    '"customerId": {"S": "mine"}, "name": {"S": "Ada"}}'
)
CUSTOMER_CSV = "PK,SK,customerId,name\nCUST#mine,PROFILE,mine,Ada\n"
CUSTOMER_WORKBENCH = json.dumps(
    {
        "ModelName": "Mine",
        "DataModel": [
            {"TableName": "order-management", "TableData": [json.loads(CUSTOMER)]}
        ],
    }
)
STORED_CUSTOMER = {
    "PK": {"S": "CUST#mine"},
    "SK": {"S": "PROFILE"},
    "customerId": {"S": "mine"},
    "name": {"S": "Ada"},
}


def _html(response: HttpResponse) -> str:
    return response.content.decode()


def _project(owner: User, editor: User, viewer: User, design: Design) -> Project:
    return project_with_members(design, owner=owner, editor=editor, viewer=viewer)


@pytest.fixture
def project(owner, editor, viewer, small_design) -> Project:
    return _project(owner, editor, viewer, small_design)


def _url(project: Project, rest: str = "") -> str:
    return f"/projects/{project.pk}/simulation/{rest}"


def _state(project: Project) -> tuple:
    """What the writes change, to show that a refused one changed nothing."""
    design = stored_design(project)
    return (project.version, design.sample_data.seed, thaw(design.sample_data.items))


def _upload(content: str | bytes, name: str = "items.jsonl") -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def _import(
    client: Client,
    project: Project,
    content: str | bytes,
    *,
    name: str = "items.jsonl",
    mode: str = "replace",
    version: int = 1,
) -> HttpResponse:
    return client.post(
        _url(project, "items/"),
        {"file": _upload(content, name), "mode": mode, "version": version},
    )


HTMX = {"HX-Request": "true"}

# Every endpoint: its method and its path after simulation/.
ENDPOINTS = [
    ("get", ""),
    ("get", "0/"),
    ("get", "sample-data.jsonl"),
    ("post", "sample-data.jsonl"),
    ("post", "seed/"),
    ("post", "items/"),
    ("post", "items/remove/"),
]
ENDPOINT_IDS = [f"{method} {path or 'page'}" for method, path in ENDPOINTS]


# --- Access --------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path"), ENDPOINTS, ids=ENDPOINT_IDS)
def test_outsiders_get_404_and_change_nothing(project, outsider_client, method, path):
    before = _state(project)

    response = getattr(outsider_client, method)(_url(project, path))

    assert response.status_code == 404
    assert _state(project) == before


@pytest.mark.parametrize(("method", "path"), ENDPOINTS, ids=ENDPOINT_IDS)
def test_anonymous_visitors_are_sent_to_log_in(project, method, path):
    response = getattr(Client(), method)(_url(project, path))

    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={_url(project, path)}"


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("seed/", {"seed": 7, "version": 1}),
        ("items/", {"file": CUSTOMER, "mode": "replace", "version": 1}),
        ("items/remove/", {"version": 1}),
    ],
)
def test_viewers_cannot_write(project, viewer_client, path, data):
    store_own_items(project, [STORED_CUSTOMER])
    if "file" in data:
        data = {**data, "file": _upload(data["file"])}
    before = _state(project)

    response = viewer_client.post(_url(project, path), data)

    assert response.status_code == 403
    assert _state(project) == before


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("seed/", {"seed": 7, "version": 1}),
        ("items/", {"file": CUSTOMER, "mode": "replace", "version": 1}),
        ("items/remove/", {"version": 1}),
    ],
)
def test_posts_need_the_csrf_token(project, owner, path, data):
    store_own_items(project, [STORED_CUSTOMER])
    if "file" in data:
        data = {**data, "file": _upload(data["file"])}
    client = logged_in(owner, enforce_csrf_checks=True)
    before = _state(project)

    response = client.post(_url(project, path), data)

    assert response.status_code == 403
    assert b"CSRF" in response.content
    assert _state(project) == before


# The sample file takes a GET (the file, or its waiting page) and a POST
# (the waiting page's start form).
@pytest.mark.parametrize(
    ("method", "path"),
    [e for e in ENDPOINTS if e[1] != "sample-data.jsonl"],
    ids=[f"{m} {p or 'page'}" for m, p in ENDPOINTS if p != "sample-data.jsonl"],
)
def test_endpoints_refuse_the_other_method(project, owner_client, method, path):
    other = "post" if method == "get" else "get"

    assert getattr(owner_client, other)(_url(project, path)).status_code == 405


# --- simulation-page -----------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "editor", "viewer"])
def test_page_shows_the_sample_data_and_each_patterns_result(
    project, small_design, role, request
):
    client = request.getfixturevalue(f"{role}_client")

    start_jobs(client, project)
    response = client.get(_url(project))

    assert response.status_code == 200
    html = _html(response)
    assert (
        "<title>Simulation · Order management · Single-table workbench</title>" in html
    )
    assert f'href="{_url(project)}" aria-current="page">Simulation</a>' in html
    assert "<dt>Seed</dt><dd>42</dd>" in html
    generated = generate(small_design, seed=42).counts()
    assert {c.name: c.generated for c in response.context["counts"]} == generated
    assert response.context["generated_total"] == sum(generated.values())
    assert f"<dd>{sum(generated.values())}</dd>" in html
    assert f'href="{_url(project, "sample-data.jsonl")}">Download .jsonl' in html
    # The job ran (at once, in tests) and stored every result, shown in place.
    assert 'data-job-state="done"' in html
    assert 'hx-trigger="every 1s"' not in html
    for position, pattern in enumerate(small_design.access_patterns):
        assert f">{pattern.name}</h3>" in html
        slot = html.split(f'id="pattern-{position}-result">', 1)[1]
        assert slot.lstrip().startswith('<div class="sim-result" data-verdict="pass">')
    assert 'data-simulation-summary data-total="8"' in html
    # Only editors and owners get the forms.
    can_write = role != "viewer"
    assert (f'action="{_url(project, "seed/")}"' in html) == can_write
    assert (f'action="{_url(project, "items/")}"' in html) == can_write


def test_page_counts_the_users_own_items(project, owner_client):
    # Two customers, and an item that no entity's keys describe.
    lines = [
        CUSTOMER,
        CUSTOMER.replace("mine", "other"),
        '{"PK": {"S": "SOMETHING"}, "SK": {"S": "ELSE"}}',
    ]
    _import(owner_client, project, "\n".join(lines))

    start_jobs(owner_client, project)
    response = owner_client.get(_url(project))

    counts = {c.name: (c.generated, c.own) for c in response.context["counts"]}
    assert counts["Customer"] == (3, 2)
    assert counts[""] == (0, 1)
    html = _html(response)
    assert "<dt>Your items</dt><dd>3</dd>" in html
    assert '<span class="muted">Not recognised</span>' in html
    assert "Remove my 3 items" in html
    assert 'name="mode" value="add"' in html


def test_page_queries_do_not_grow_with_the_users_items(project, owner_client):
    counts = []
    for lines in ([], [CUSTOMER.replace("mine", str(i)) for i in range(20)]):
        if lines:
            _import(owner_client, project, "\n".join(lines))
        start_jobs(owner_client, project)
        owner_client.get(_url(project))  # runs the design's job
        with CaptureQueriesContext(connection) as queries:
            response = owner_client.get(_url(project))
        assert response.status_code == 200
        counts.append(len(queries))

    # The session, the user, the project (its owner needs no membership),
    # the user's latest revisions (the Undo button), the header's count of
    # unread review comments, the design's job and its results; the design
    # comes from memory (a revision never changes).
    assert counts == [7, 7]
    assert "<dt>Your items</dt><dd>20</dd>" in _html(response)


def test_page_for_htmx_is_the_section_without_the_layout(project, owner_client):
    response = owner_client.get(_url(project), headers=HTMX)

    assert response.status_code == 200
    html = _html(response)
    assert html.lstrip().startswith('<div id="simulation">')
    assert "<html" not in html
    assert 'id="sample-data"' in html
    assert html.count('class="sim-slot"') == 8


def test_page_of_a_design_without_patterns_says_how_to_add_them(owner, owner_client):
    project = project_services.project_create(
        owner=owner, design=project_services.new_design(name="Empty")
    )

    html = _html(owner_client.get(_url(project)))

    assert "No access patterns to simulate yet." in html
    assert f'<a href="/projects/{project.pk}/">Open the design</a>' in html


def test_page_of_a_design_whose_sample_data_cannot_be_made(
    owner, owner_client, small_design
):
    # Customers made per line item, which are made per order, made per
    # customer: none can come first.
    customer = small_design.entity("Customer")
    looped = dataclasses.replace(
        small_design,
        entities=tuple(
            dataclasses.replace(e, sample=dataclasses.replace(e.sample, per="LineItem"))
            if e is customer
            else e
            for e in small_design.entities
        ),
    )
    project = project_services.project_create(owner=owner, design=looped)

    start_jobs(owner_client, project)
    response = owner_client.get(_url(project))

    assert response.status_code == 200
    html = _html(response)
    assert (
        '<p class="alert alert-error" role="alert">The sample data cannot be made: '
        in html
    )
    assert "depend on each other" in html
    assert 'data-job-state="failed"' in html
    assert 'class="sim-slot"' not in html  # no pattern result is shown
    assert f'action="{_url(project, "run/")}"' in html  # Run again
    assert "sample-data.jsonl" not in html
    assert "The patterns cannot run until the sample data can be made." in html

    response = owner_client.get(_url(project, "0/"), headers=HTMX)
    assert response.status_code == 200
    assert 'data-verdict="error"' in _html(response)
    assert "The sample data cannot be made: " in _html(response)

    response = _download(owner_client, project, follow=True)
    assert response.redirect_chain == [(_url(project), 302)]
    assert "Nothing to download. The sample data cannot be made: " in _html(response)


def test_page_of_a_table_the_engine_refuses_says_why(owner, owner_client, small_design):
    table = dataclasses.replace(small_design.table, name="x")
    project = project_services.project_create(
        owner=owner, design=dataclasses.replace(small_design, table=table)
    )

    start_jobs(owner_client, project)
    response = owner_client.get(_url(project))

    assert response.status_code == 200
    assert (
        "The table cannot be created: ValidationException: 1 validation error "
        "detected: Value &#x27;x&#x27; at &#x27;tableName&#x27;" in _html(response)
    )


def test_page_escapes_what_the_designer_wrote(owner, owner_client, small_design):
    patterns = (
        dataclasses.replace(small_design.access_patterns[0], name=SCRIPT),
    ) + small_design.access_patterns[1:]
    project = project_services.project_create(
        owner=owner,
        design=dataclasses.replace(small_design, name=SCRIPT, access_patterns=patterns),
    )

    pages = [owner_client.get(_url(project)), owner_client.get(_url(project, "0/"))]

    for response in pages:
        assert SCRIPT not in _html(response)
        assert escape(SCRIPT) in _html(response)


def test_returned_items_escape_what_the_user_stored(owner, owner_client, small_design):
    profile = small_design.access_patterns[0]  # GetItem of a customer's profile
    patterns = (
        dataclasses.replace(
            profile, parameters=(Parameter("customerId", example="mine"),)
        ),
    ) + small_design.access_patterns[1:]
    project = project_services.project_create(
        owner=owner, design=dataclasses.replace(small_design, access_patterns=patterns)
    )
    store_own_items(project, [{**STORED_CUSTOMER, "name": {"S": SCRIPT}}])

    start_jobs(owner_client, project)
    pages = [
        owner_client.get(_url(project)),
        owner_client.get(_url(project, "0/"), headers=HTMX),
    ]

    for response in pages:
        html = _html(response)
        assert SCRIPT not in html
        assert f"<td>{escape(SCRIPT)}</td>" in html
        assert '<td class="key-column">CUST#mine</td>' in html


# --- simulation-pattern --------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "editor", "viewer"])
def test_pattern_result_for_htmx_is_the_fragment(project, role, request):
    client = request.getfixturevalue(f"{role}_client")

    start_jobs(client, project)
    response = client.get(_url(project, "2/"), headers=HTMX)

    assert response.status_code == 200
    html = _html(response)
    assert html.lstrip().startswith('<div class="sim-result" data-verdict="pass">')
    assert "<html" not in html
    assert (
        "<strong>Passes</strong>: returns exactly what it promises, here and on "
        "20 more draws of its parameters." in html
    )
    assert "<summary>Query request</summary>" in html
    assert "&quot;KeyConditionExpression&quot;: &quot;#PK = :PK AND begins_with" in html
    assert "aws dynamodb query --table-name order-management" in html
    assert "<dt>ScannedCount</dt>" in html
    assert '<span class="entity-chip entity-1">Order</span>' in html


def test_pattern_result_has_a_page_of_its_own(project, owner_client, small_design):
    start_jobs(owner_client, project)
    response = owner_client.get(_url(project, "2/"))

    assert response.status_code == 200
    html = _html(response)
    name = small_design.access_patterns[2].name
    assert f"<title>{escape(name)} · Simulation · Order management" in html
    assert f'<a href="{_url(project)}#pattern-2">← All patterns</a>' in html
    assert 'aria-current="page">Simulation</a>' in html
    assert 'data-verdict="pass"' in html


def test_pattern_results_of_writes_show_only_the_patterns_parameters(
    project, owner_client
):
    # "Ship an order" binds every attribute of the order it updates.
    start_jobs(owner_client, project)
    html = _html(owner_client.get(_url(project, "7/"), headers=HTMX))

    assert 'data-verdict="pass"' in html
    assert "<dt>Write units</dt>" in html
    assert "<code>shippedAt=" in html
    assert "<code>GSI1PK=" not in html


def test_pattern_beyond_the_last_is_404(project, owner_client):
    assert owner_client.get(_url(project, "8/")).status_code == 404


def test_pattern_that_breaks_the_simulator_shows_the_error(
    project, owner_client, monkeypatch, caplog
):
    def broken(self, pattern):
        raise KeyError("GSI9")

    monkeypatch.setattr(Simulation, "run", broken)

    start_jobs(owner_client, project)
    response = owner_client.get(_url(project, "1/"), headers=HTMX)

    assert response.status_code == 200
    html = _html(response)
    assert 'data-verdict="error"' in html
    assert (
        "<strong>Error:</strong> the simulator failed on this pattern "
        "(KeyError: &#x27;GSI9&#x27;)" in html
    )
    assert "Simulating the pattern 'Find customer by email' failed" in caplog.text


# --- simulation-seed -----------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "editor"])
def test_seed_change_regenerates_the_sample_data(project, small_design, role, request):
    client = request.getfixturevalue(f"{role}_client")

    response = client.post(_url(project, "seed/"), {"seed": "7", "version": "1"})

    assert response.status_code == 302
    assert response["Location"] == _url(project)
    assert _state(project)[:2] == (2, 7)
    start_jobs(client, project)
    page = client.get(_url(project))
    assert "The sample data now comes from seed 7." in _html(page)
    assert "<dt>Seed</dt><dd>7</dd>" in _html(page)
    assert page.context["generated_total"] == len(generate(small_design, seed=7))


def test_seed_change_through_htmx_swaps_in_the_section(project, owner_client):
    response = owner_client.post(
        _url(project, "seed/"), {"seed": "7", "version": "1"}, headers=HTMX, follow=True
    )

    assert response.redirect_chain == [(_url(project), 302)]
    html = _html(response)
    assert html.lstrip().startswith('<div id="simulation">')
    assert "<dt>Seed</dt><dd>7</dd>" in html
    assert json.loads(response["HX-Trigger"]) == {
        "showMessage": {
            "messages": [
                {
                    "message": "The sample data now comes from seed 7.",
                    "level": "success",
                }
            ]
        }
    }


@pytest.mark.parametrize(
    ("seed", "error"),
    [
        ("-1", "Ensure this value is greater than or equal to 0."),
        ("seven", "Enter a whole number."),
        ("", "This field is required."),
        (str(2**63), f"Ensure this value is less than or equal to {2**63 - 1}."),
    ],
)
def test_seed_that_is_not_a_number_is_refused(project, owner_client, seed, error):
    before = _state(project)

    response = owner_client.post(_url(project, "seed/"), {"seed": seed, "version": 1})

    assert response.status_code == 422
    assert response.context["seed_form"].errors == {"seed": [error]}
    assert escape(error) in _html(response)
    assert _state(project) == before


def test_a_seed_that_makes_more_items_than_the_site_allows_is_refused(
    project, owner_client
):
    """Counts drawn from a distribution depend on the seed: 200 items at seed
    42, 367 at seed 2."""
    before = _state(project)

    with limits.configured(limits.DesignLimits(sample_items=300)):
        response = owner_client.post(_url(project, "seed/"), {"seed": 2, "version": 1})
        refused = _state(project)
        fine = owner_client.post(_url(project, "seed/"), {"seed": 7, "version": 1})

    assert response.status_code == 422
    (error,) = response.context["seed_form"].errors["seed"]
    assert error.startswith("From seed 2, ")
    assert "this workbench allows at most 300 (setting SAMPLE_MAX_ITEMS)" in error
    assert error.endswith("Pick another seed, or lower a count in Entities.")
    assert escape(error) in _html(response)
    assert refused == before
    assert fine.status_code == 302 and _state(project)[:2] == (2, 7)


def test_seed_form_error_through_htmx_swaps_only_the_panel(project, owner_client):
    response = owner_client.post(
        _url(project, "seed/"), {"seed": "-1", "version": 1}, headers=HTMX
    )

    assert response.status_code == 422
    assert response["HX-Retarget"] == "#sample-data"
    html = _html(response)
    assert html.lstrip().startswith(
        '<section class="card sample-data" id="sample-data"'
    )
    assert "hx-trigger" not in html
    assert "Ensure this value is greater than or equal to 0." in html


def test_seed_change_on_a_stale_page_is_refused(project, owner_client, editor):
    sample_services.sample_seed_set(project=project, seed=5, version=1, author=editor)
    before = _state(project)

    response = owner_client.post(_url(project, "seed/"), {"seed": "7", "version": "1"})

    assert response.status_code == 422
    html = _html(response)
    assert "editor changed the sample seed since you opened this page" in html
    # The form keeps the input and now carries the current version.
    assert 'name="seed" value="7"' in html
    assert '<input type="hidden" name="version" value="2">' in html
    assert _state(project) == before


# --- simulation-items-import ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("items.jsonl", CUSTOMER + "\n"),
        ("items.csv", CUSTOMER_CSV),
        ("model.json", CUSTOMER_WORKBENCH),
        # Spreadsheets write a byte-order mark at the start.
        ("excel.csv", "\ufeff" + CUSTOMER_CSV),
    ],
)
def test_import_stores_the_items_of_a_file(project, editor_client, name, content):
    response = editor_client.post(
        _url(project, "items/"),
        {"file": _upload(content, name), "mode": "replace", "version": 1},
    )

    assert response.status_code == 302
    assert response["Location"] == _url(project)
    assert _state(project) == (2, 42, [STORED_CUSTOMER])
    start_jobs(editor_client, project)
    page = editor_client.get(_url(project))
    assert f"Imported 1 item from {name}; you have 1 of your own now." in _html(page)
    counts = {c.name: c.own for c in page.context["counts"]}
    assert counts["Customer"] == 1


def test_import_replaces_or_adds_to_the_stored_items(project, owner_client):
    other = CUSTOMER.replace("mine", "other")
    renamed = CUSTOMER.replace("Ada", "Grace")
    _import(owner_client, project, CUSTOMER)

    response = _import(owner_client, project, other, mode="add", version=2)
    assert response.status_code == 302
    assert [i["customerId"]["S"] for i in _state(project)[2]] == ["mine", "other"]

    # An item with a stored item's key replaces it, as PutItem would.
    _import(owner_client, project, renamed, mode="add", version=3)
    items = _state(project)[2]
    assert [(i["customerId"]["S"], i["name"]["S"]) for i in items] == [
        ("mine", "Grace"),
        ("other", "Ada"),
    ]

    _import(owner_client, project, other, mode="replace", version=4)
    assert [i["customerId"]["S"] for i in _state(project)[2]] == ["other"]


def test_import_of_a_bad_file_lists_every_problem_and_keeps_nothing(
    project, owner_client
):
    _import(owner_client, project, CUSTOMER)
    before = _state(project)
    lines = [
        CUSTOMER.replace("mine", "new"),
        "{not json",
        '{"PK": {"S": "CUST#x"}}',
        '{"PK": {"N": "1"}, "SK": {"S": "PROFILE"}}',
        '{"PK": {"S": "CUST#y',
    ]

    response = _import(owner_client, project, "\n".join(lines), version=2)

    assert response.status_code == 422
    html = _html(response)
    assert "Nothing was imported: items.jsonl has 4 problems, listed below." in html
    for line, message in [
        (2, "not JSON: Expecting property name enclosed in double quotes at column 2"),
        (3, "has no 'SK', the table's key"),
        (4, "'PK' is N; the table's key is S"),
        (5, "not JSON: Unterminated string starting at column 14"),
    ]:
        assert (
            f'<code class="path">items.jsonl:{line}</code> <span>{escape(message)}'
            in html
        )
    assert _state(project) == before


def test_import_error_through_htmx_swaps_only_the_panel(project, owner_client):
    response = owner_client.post(
        _url(project, "items/"),
        {"file": _upload("{not json"), "mode": "replace", "version": 1},
        headers=HTMX,
    )

    assert response.status_code == 422
    assert response["HX-Retarget"] == "#sample-data"
    assert "items.jsonl:1</code>" in _html(response)
    assert not stored_design(project).sample_data.items


def test_import_through_htmx_swaps_in_the_section(project, owner_client):
    response = owner_client.post(
        _url(project, "items/"),
        {"file": _upload(CUSTOMER), "mode": "replace", "version": 1},
        headers=HTMX,
        follow=True,
    )

    html = _html(response)
    assert html.lstrip().startswith('<div id="simulation">')
    assert "<dt>Your items</dt><dd>1</dd>" in html
    assert "Imported 1 item from items.jsonl" in response["HX-Trigger"]


def test_import_refuses_an_oversized_file_before_reading_it(
    project, owner_client, settings
):
    settings.DESIGN_FILE_MAX_BYTES = 100
    before = _state(project)

    response = _import(owner_client, project, CUSTOMER + "\n" + CUSTOMER)

    assert response.status_code == 422
    size = len(CUSTOMER) * 2 + 1
    assert response.context["import_form"].errors == {
        "file": [
            f"items.jsonl is {size} bytes; item files are limited to 100 bytes "
            "(setting DESIGN_FILE_MAX_BYTES)."
        ]
    }
    assert _state(project) == before
    # The form said so before the file was chosen.
    assert "At most 1,000 items in a file of at most 100 bytes." in _html(
        owner_client.get(_url(project))
    )


def test_import_refuses_a_file_that_is_not_utf8(project, owner_client):
    response = _import(owner_client, project, b"PK,SK\n\xff\xfe,x\n", name="items.csv")

    assert response.status_code == 422
    assert response.context["import_form"].errors == {
        "file": [
            "items.csv is not UTF-8 text (byte 6); save it as UTF-8 and upload it "
            "again."
        ]
    }
    assert not stored_design(project).sample_data.items


def test_import_without_a_file_asks_for_one(project, owner_client):
    response = owner_client.post(_url(project, "items/"), {"mode": "add", "version": 1})

    assert response.status_code == 422
    assert response.context["import_form"].errors == {
        "file": ["This field is required."]
    }


def test_import_refuses_more_items_than_a_project_keeps(
    project, owner_client, monkeypatch
):
    monkeypatch.setattr(sample_services, "OWN_ITEMS_MAX", 1)
    _import(owner_client, project, CUSTOMER)
    before = _state(project)

    response = _import(
        owner_client, project, CUSTOMER.replace("mine", "other"), mode="add", version=2
    )

    assert response.status_code == 422
    assert (
        "Nothing was imported. That would make 2 items of your own; a project keeps "
        "at most 1" in _html(response)
    )
    assert _state(project) == before


def test_import_on_a_stale_page_keeps_the_seed_set_since(project, owner_client):
    sample_services.sample_seed_set(project=project, seed=5, version=1, author=None)

    response = _import(owner_client, project, CUSTOMER, version=1)

    assert response.status_code == 302
    version, seed, items = _state(project)
    assert (version, seed, len(items)) == (3, 5, 1)


def test_import_over_items_imported_since_is_refused(project, owner_client, editor):
    _import(logged_in(editor), project, CUSTOMER, version=1)
    before = _state(project)

    response = _import(owner_client, project, CUSTOMER.replace("mine", "x"), version=1)

    assert response.status_code == 422
    assert "Nothing was imported. editor changed the own sample items since" in _html(
        response
    )
    assert _state(project) == before


# --- simulation-items-remove ---------------------------------------------------


def test_remove_deletes_the_users_items(project, editor_client):
    _import(editor_client, project, CUSTOMER + "\n" + CUSTOMER.replace("mine", "x"))

    response = editor_client.post(_url(project, "items/remove/"), {"version": 2})

    assert response.status_code == 302
    assert response["Location"] == _url(project)
    assert _state(project) == (3, 42, [])
    html = _html(editor_client.get(_url(project)))
    assert "Removed 2 items of yours." in html
    assert "Remove my" not in html


def test_remove_through_htmx_swaps_in_the_section(project, owner_client):
    _import(owner_client, project, CUSTOMER)

    response = owner_client.post(
        _url(project, "items/remove/"), {"version": 2}, headers=HTMX, follow=True
    )

    assert _html(response).lstrip().startswith('<div id="simulation">')
    assert "Removed 1 item of yours." in response["HX-Trigger"]
    assert not stored_design(project).sample_data.items


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"version": 1},
            "Nothing was removed. You changed the own sample items in another tab",
        ),
        ({}, "Nothing was removed: reload the page and try again."),
    ],
)
def test_remove_on_a_stale_page_is_refused(project, owner_client, data, message):
    _import(owner_client, project, CUSTOMER)
    before = _state(project)

    response = owner_client.post(_url(project, "items/remove/"), data, follow=True)

    assert message in _html(response)
    assert _state(project) == before


# --- simulation-download -------------------------------------------------------


def _download(client: Client, project: Project, **options: bool) -> HttpResponse:
    """The sample file as a browser gets it: its waiting page posts the
    start form as it loads (a GET asks for nothing), then asks again."""
    url = _url(project, "sample-data.jsonl")
    opened(client, url)
    return client.get(url, **options)


@pytest.mark.parametrize("role", ["owner", "editor", "viewer"])
def test_download_is_every_item_as_a_line_of_dynamodb_json(
    project, small_design, owner_client, role, request
):
    _import(owner_client, project, CUSTOMER)
    client = request.getfixturevalue(f"{role}_client")

    response = _download(client, project)

    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="order-management-sample-data.jsonl"'
    )
    text = b"".join(response.streaming_content).decode()
    lines = text.splitlines()
    generated = len(generate(small_design, seed=42))
    assert len(lines) == generated + 1
    assert all(json.loads(line) for line in lines)
    items = read_items(text, design=small_design, source="download")
    assert len(items) == len(lines)
    assert json.loads(lines[-1]) == STORED_CUSTOMER


def test_download_of_a_large_data_set_comes_in_chunks(
    owner, editor, viewer, order_design, owner_client
):
    project = _project(owner, editor, viewer, with_roots(order_design, 40))

    response = _download(owner_client, project)

    chunks = list(response.streaming_content)
    assert len(chunks) > 1
    lines = b"".join(chunks).decode().splitlines()
    assert len(lines) == sum(chunk.count(b"\n") for chunk in chunks)
    assert len({line for line in lines}) == len(lines)


def test_a_design_past_a_lowered_bytes_limit_fails_its_job_before_any_item(
    owner, editor, viewer, owner_client, monkeypatch
):
    """A design saved before the site lowered SAMPLE_MAX_BYTES: its job
    refuses it, naming the setting, and makes nothing."""
    from modeler.designfile import read_design
    from tests.test_limits import blobs_text

    project = _project(owner, editor, viewer, read_design(blobs_text(300)).design)

    def no_items(*args, **kwargs):
        raise AssertionError("an item was made")

    monkeypatch.setattr("modeler.simulation.simulate.generate", no_items)
    with limits.configured(limits.DesignLimits(sample_bytes=50_000_000)):
        start_jobs(owner_client, project)
        html = _html(owner_client.get(_url(project)))
        download = _download(owner_client, project, follow=True)

    assert (
        "The sample data cannot be made: Doc&#x27;s 300 items of about 389,151 "
        "bytes each would make the sample data about 116,745,300 bytes; this "
        "workbench allows at most 50,000,000 bytes (setting SAMPLE_MAX_BYTES)."
    ) in html
    assert 'data-job-state="failed"' in html
    assert "Nothing to download. The sample data cannot be made: " in _html(download)


def _file_sizes(design: Design) -> tuple[int, int]:
    """The bytes of the design's items (DynamoDB's measure), and of their
    file."""
    simulation = Simulation(design)
    written = sum(len(line.encode()) + 1 for line in write_jsonl(simulation.items))
    return sum(simulation.item_sizes), written


@pytest.mark.parametrize("where", ["before", "while writing"])
def test_a_sample_file_past_its_bytes_is_not_written(
    project, small_design, owner_client, settings, where
):
    """Refused at once when the items alone take more than the file may
    (their JSON is larger still), else where the writing passes it; either
    way nothing stays on the disk."""
    items, written = _file_sizes(small_design)
    assert items < written
    settings.SAMPLE_FILE_MAX_BYTES = (
        items - 1 if where == "before" else (items + written) // 2
    )

    response = _download(owner_client, project, follow=True)

    assert response.redirect_chain == [(_url(project), 302)]
    assert (
        "Nothing to download. The sample data file would pass the "
        f"{settings.SAMPLE_FILE_MAX_BYTES:,} bytes a file may take "
        "(SAMPLE_FILE_MAX_BYTES): lower the counts in Sample data"
    ) in _html(response)
    media = Path(settings.MEDIA_ROOT)
    assert not media.exists() or not any(p.is_file() for p in media.rglob("*"))
    # Raised enough, once the refusal is no longer kept (a minute): written.
    settings.SAMPLE_FILE_MAX_BYTES = written
    cache.clear()
    assert _download(owner_client, project).status_code == 200


def test_a_large_value_is_shown_by_its_start_and_length(owner, editor, viewer):
    from modeler.designfile import read_design

    design = read_design("""\
format: single-table-workbench/v1
name: Notes
table: {name: notes, partition_key: PK, sort_key: SK}
entities:
  Note:
    attributes:
      noteId: {type: S, generator: uuid}
      body: {type: S, max_length: 100000}
    keys: {PK: "NOTE#{noteId}", SK: "NOTE"}
    sample: {count: 5}
access_patterns:
  - name: Get a note
    operation: GetItem
    key: {PK: "NOTE#{noteId}", SK: "NOTE"}
    expects: {entity: Note, where: {noteId: "{noteId}"}}
    traffic: {rps: 1}
""").design
    project = _project(owner, editor, viewer, design)
    client = logged_in(owner)
    start_jobs(client, project)
    html = _html(client.get(_url(project, "0/"), headers=HTMX))
    # The body is made at its max_length, 100,000 characters (a GetItem of
    # it costs 12.5 RCU), and the items table shows its start only.
    assert "12.50 RCU" in html
    assert "… (100,000 characters)" in html
    assert len(html) < 50_000


def test_a_pattern_that_fails_a_draw_says_which_on_its_result(owner, editor, viewer):
    from modeler.designfile import read_design
    from tests.review.test_draws import HOTEL

    design = read_design(HOTEL.replace("UPPER", "")).design
    project = _project(owner, editor, viewer, design)
    client = logged_in(owner)
    start_jobs(client, project)
    html = _html(client.get(_url(project, "0/"), headers=HTMX))
    # The designer's own dates pass; a range ending on a day with check-ins
    # drops them, as the review and `simulate` say.
    assert 'data-verdict="fail"' in html
    assert re.search(r"<strong>Fails</strong> on a (day-change|boundary) draw", html)
    assert "expected items missing" in html or "expected item missing" in html
    assert "missing: <code>HOTEL#" in html


def test_a_failing_read_shows_each_missing_item_and_why(
    owner, editor, viewer, small_design, owner_client
):
    """ "1 of 1 expected item missing" is not enough: the result names the
    item, opens the request, and says why the request left it out."""
    patterns = list(small_design.access_patterns)
    every_order = dataclasses.replace(
        patterns[5].expects, where=(), order_by=("orderDate", "orderId")
    )
    patterns[5] = dataclasses.replace(patterns[5], expects=every_order)
    design = dataclasses.replace(small_design, access_patterns=tuple(patterns))
    project = _project(owner, editor, viewer, design)

    start_jobs(owner_client, project)
    html = _html(owner_client.get(_url(project, "5/"), headers=HTMX))
    assert 'data-verdict="fail"' in html
    assert "<strong>Not returned:</strong>" in html
    assert "It is not in the index GSI2: it has no GSI2PK, GSI2SK" in html
    # An order that is no longer open: the sparse index leaves it out.
    statuses = set(re.findall(r"<dt>status</dt><dd><code>(\w+)</code>", html))
    assert statuses and "OPEN" not in statuses
    assert '<details class="request-details" open>' in html
