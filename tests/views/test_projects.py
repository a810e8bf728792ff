"""The project pages: the list with its create and import forms, the design
overview, the YAML download, deleting and members."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import escape

from modeler import selectors
from modeler.design.model import Design
from modeler.design_check import check_design
from modeler.designfile import read_design
from modeler.importers.sources import KIND_LABELS
from modeler.models import Invitation, ItemSet, Membership, Project, Revision, Role
from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.conftest import stored_design

ORDER_YAML = (settings.BASE_DIR / "examples" / "order-management.yaml").read_text()
SCRIPT = "<script>alert(1)</script>"


def _html(response: HttpResponse) -> str:
    return response.content.decode()


def _state() -> tuple:
    """Everything the pages can change, to show that a refused request
    changed nothing."""
    return (
        sorted(Project.objects.values_list("pk", "name", "owner__username")),
        Revision.objects.count(),
        sorted(Membership.objects.values_list("project_id", "user__username", "role")),
    )


def _membership(project: Project, user: User) -> Membership:
    return Membership.objects.get(project=project, user=user)


# --- project-list ---------------------------------------------------------------


def test_list_shows_the_owners_projects_with_their_actions(project, owner_client):
    response = owner_client.get("/")

    assert response.status_code == 200
    html = _html(response)
    assert (
        f'<a href="/projects/{project.pk}/"><strong>Order management</strong></a>'
        in html
    )
    assert '<code class="key">order-management</code>' in html
    assert "<td>you</td>" in html
    assert f'href="/projects/{project.pk}/delete/"' in html


@pytest.mark.parametrize("member", ["editor", "viewer"])
def test_list_shows_shared_projects_with_their_owner(project, member, request):
    client = request.getfixturevalue(f"{member}_client")

    html = _html(client.get("/"))

    assert "<strong>Order management</strong>" in html
    assert "<td>owner</td>" in html
    assert "/delete/" not in html


def test_list_shows_only_the_users_projects(
    project, outsider, outsider_client, owner_client
):
    project_services.project_create(
        owner=outsider, design=project_services.new_design(name="Secret plans")
    )

    response = owner_client.get("/")
    assert [p.name for p in response.context["projects"]] == ["Order management"]
    assert b"Secret plans" not in response.content

    response = outsider_client.get("/")
    assert [p.name for p in response.context["projects"]] == ["Secret plans"]
    assert f'href="/projects/{project.pk}/"'.encode() not in response.content


def test_list_without_projects_says_how_to_start(outsider_client):
    html = _html(outsider_client.get("/"))

    assert "No projects yet." in html
    assert 'action="/projects/new/"' in html
    assert 'action="/projects/import/' in html


# What the import section must name for each kind of file the import reads.
IMPORT_KIND_NAMES = {
    "yaml": "YAML design file",
    "nosql-workbench": "NoSQL Workbench model",
    "cloudformation": "CloudFormation template",
    "terraform": "Terraform file",
    "sql-schema": "SQL schema",
    "onetable": "OneTable schema",
    "mcp-data-model": "DynamoDB MCP server",
    "electrodb": "ElectroDB",
    "dynamodb-toolbox": "DynamoDB-Toolbox",
}


def test_import_section_names_every_kind_of_file_it_reads(outsider_client):
    assert set(IMPORT_KIND_NAMES) == set(KIND_LABELS), (
        "a kind of file the import reads is missing here (and maybe on the page)"
    )
    html = _html(outsider_client.get("/"))
    section = html[
        html.index('id="import"') : html.index("</section>", html.index('id="import"'))
    ]
    intro = section[: section.index("<form")]
    for kind, name in IMPORT_KIND_NAMES.items():
        assert name in intro, f"the import section does not mention {kind}"


def test_each_label_of_the_list_names_a_field_of_its_own_form(
    outsider_client, settings
):
    """The list's create, import and live-table forms all have a name
    field: each has an id of its own, and each label's `for` names a field
    of the label's own form (the import form's "Project name" label used to
    focus the create form's field, both being `id_name`)."""
    settings.LIVE_TABLE_IMPORT = True
    html = _html(outsider_client.get("/"))
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    forms = re.findall(r"<form\b.*?</form>", html, flags=re.S)
    labelled = 0
    for form in forms:
        for target in re.findall(r'<label for="([^"]+)"', form):
            assert f'id="{target}"' in form, f"label for {target} is not in its form"
            labelled += 1
    assert labelled >= 9  # create 2, import 7, live table 3: at least


def test_list_queries_do_not_grow_with_the_projects(
    owner, outsider, owner_client, django_assert_max_num_queries
):
    for i in range(5):
        project_services.project_create(
            owner=owner, design=project_services.new_design(name=f"Mine {i}")
        )
        theirs = project_services.project_create(
            owner=outsider, design=project_services.new_design(name=f"Shared {i}")
        )
        member_services.membership_set(project=theirs, user=owner, role=Role.VIEWER)

    # The session, the user, the count of projects and a page of them with
    # their tables and owners.
    with django_assert_max_num_queries(4):
        response = owner_client.get("/")

    assert len(response.context["projects"]) == 10
    assert _html(response).count("<td>outsider</td>") == 5


def test_list_is_paged_with_real_links(
    owner, owner_client, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr("modeler.views.projects.PROJECTS_PER_PAGE", 2)
    for i in range(5):
        project_services.project_create(
            owner=owner, design=project_services.new_design(name=f"Project {i}")
        )

    first = _html(owner_client.get("/"))
    with django_assert_max_num_queries(4):
        response = owner_client.get("/?page=2")
    last = _html(owner_client.get("/?page=3"))

    names = [p.name for p in response.context["projects"]]
    assert names == ["Project 2", "Project 3"]
    assert "<strong>Project 0</strong>" in first
    assert "<strong>Project 2</strong>" not in first
    assert "<strong>Project 4</strong>" in last
    assert "Page 1 of 3 (1–2 of 5 projects)" in first
    assert '<a href="?page=2" rel="next">Next</a>' in first
    html = _html(response)
    assert '<a href="?page=1" rel="prev">Previous</a>' in html
    assert '<a href="?page=3">Last</a>' in html
    assert 'rel="next"' not in last
    # A page number past the end or not a number shows a page, not an error.
    assert owner_client.get("/?page=99").context["projects"].number == 3
    assert owner_client.get("/?page=x").context["projects"].number == 1
    # Every page keeps the ways to start a project.
    for page in (first, html, last):
        assert "Start from an example" in page
        assert 'action="/projects/import/"' in page
        assert 'action="/projects/new/"' in page


# --- project-create -------------------------------------------------------------


def test_create_makes_an_empty_project_and_opens_it(owner, owner_client):
    response = owner_client.post(
        "/projects/new/", {"name": "  Bookings ", "description": "Rooms and guests."}
    )

    project = Project.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/projects/{project.pk}/"
    assert (project.owner, project.name, project.description) == (
        owner,
        "Bookings",
        "Rooms and guests.",
    )
    design = selectors.project_design(project=project)
    assert design.table.name == "bookings"
    assert check_design(design) == []

    html = _html(owner_client.get(response["Location"]))
    assert "<h1>Bookings</h1>" in html
    assert "Created Bookings." in html


def test_create_gives_a_non_ascii_name_a_valid_table_name(owner_client):
    owner_client.post("/projects/new/", {"name": "Réservations 日本"})

    design = selectors.project_design(project=Project.objects.get())
    assert design.name == "Réservations 日本"
    assert design.table.name == "r-servations"
    assert check_design(design) == []


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("   ", "This field is required."),
        ("x" * 201, "Ensure this value has at most 200 characters (it has 201)."),
    ],
)
def test_create_with_a_bad_name_shows_the_error_and_keeps_the_input(
    owner_client, name, error
):
    response = owner_client.post(
        "/projects/new/", {"name": name, "description": "Keep me"}
    )

    assert response.status_code == 422
    assert response.context["create_form"].errors == {"name": [error]}
    html = _html(response)
    assert escape(error) in html
    assert ">\nKeep me</textarea>" in html
    assert not Project.objects.exists()


# --- project-import -------------------------------------------------------------


def _upload(content: str | bytes, name: str = "design.yaml") -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/yaml")


def test_import_an_uploaded_file(owner, owner_client, order_design):
    response = owner_client.post(
        "/projects/import/", {"file": _upload(ORDER_YAML, "order-management.yaml")}
    )

    project = Project.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/projects/{project.pk}/"
    assert project.owner == owner
    assert project.name == "Order management"
    assert [e.name for e in stored_design(project).entities] == [
        "Customer",
        "Order",
        "LineItem",
    ]
    assert selectors.project_design(project=project) == order_design
    assert "Imported Order management." in _html(owner_client.get(response["Location"]))


def test_import_pasted_text_under_another_name(outsider, outsider_client):
    response = outsider_client.post(
        "/projects/import/", {"text": ORDER_YAML, "name": "Shop orders"}
    )

    assert response.status_code == 302
    project = Project.objects.get()
    assert (project.owner, project.name) == (outsider, "Shop orders")
    assert len(stored_design(project).entities) == 3


def test_import_reports_the_number_of_warnings(owner_client):
    # A peak below the average is worth a warning but still imports.
    text = ORDER_YAML.replace(
        "traffic: {rps: 1, peak_rps: 2}", "traffic: {rps: 3, peak_rps: 2}"
    )
    problems = read_design(text).problems
    assert problems and not any(p.is_error for p in problems)

    response = owner_client.post("/projects/import/", {"text": text}, follow=True)

    warnings = len(problems)
    plural = "s" if warnings > 1 else ""
    assert f"Imported Order management with {warnings} warning{plural}." in _html(
        response
    )


def test_import_with_a_semantic_error_lists_the_problems_and_keeps_the_text(
    project, owner_client
):
    text = ORDER_YAML.replace(
        'SK: "ORDER#{orderDate}#{orderId}"', 'SK: "ORDER#{orderDat}#{orderId}"', 1
    )
    before = _state()

    response = owner_client.post("/projects/import/", {"text": text})

    assert response.status_code == 422
    html = _html(response)
    assert "Nothing was imported: the pasted text has problems, listed below." in html
    assert '<span class="muted small">line 67</span>' in html
    assert '<code class="path">entities.Order.keys.SK</code>' in html
    assert escape("unknown attribute 'orderDat' at column 7") in html
    assert f">\n{escape(text)}</textarea>" in html
    assert _state() == before


def test_import_reports_lines_of_the_text_as_pasted(owner_client):
    # Leading blank lines and indentation are kept, so line numbers match
    # what the user sees in the textarea.
    text = "\n\n" + ORDER_YAML.replace("{orderId}", "{orderID}", 1)

    response = owner_client.post("/projects/import/", {"text": text})

    assert response.status_code == 422
    problems = response.context["import_problems"]
    assert [(p.path, p.line) for p in problems if p.is_error][0] == (
        "entities.Order.keys.SK",
        69,
    )
    assert text.splitlines()[68].strip().startswith("SK:")
    assert f">\n{escape(text)}</textarea>" in _html(response)


def test_import_without_a_file_or_text_asks_for_one(owner_client):
    response = owner_client.post("/projects/import/", {"text": "  \n", "name": "x"})

    assert response.status_code == 422
    assert "Choose a design file or paste its text." in _html(response)
    assert 'value="x"' in _html(response)
    assert not Project.objects.exists()


def test_import_refuses_an_oversized_upload_before_reading_it(owner_client, settings):
    settings.DESIGN_FILE_MAX_BYTES = 100

    response = owner_client.post("/projects/import/", {"file": _upload("x" * 101)})

    assert response.status_code == 422
    assert response.context["import_form"].errors == {
        "file": [
            "design.yaml is 101 bytes; design files are limited to 100 bytes "
            "(setting DESIGN_FILE_MAX_BYTES)."
        ]
    }
    assert not Project.objects.exists()


def test_import_refuses_oversized_pasted_text(owner_client, settings):
    settings.DESIGN_FILE_MAX_BYTES = 100

    response = owner_client.post("/projects/import/", {"text": ORDER_YAML[:150]})

    assert response.status_code == 422
    assert "the file is 150 bytes; design files are limited to 100 bytes" in _html(
        response
    )
    assert not Project.objects.exists()


def _template(tables: int) -> str:
    """A CloudFormation template of `tables` on-demand tables."""
    resources = {
        f"Table{i}": {
            "Type": "AWS::DynamoDB::Table",
            "Properties": {
                "TableName": f"table-{i}",
                "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
            },
        }
        for i in range(tables)
    }
    return json.dumps(
        {"AWSTemplateFormatVersion": "2010-09-09", "Resources": resources}
    )


def test_import_refuses_more_tables_than_the_setting(owner_client, settings):
    settings.IMPORT_MAX_TABLES = 3
    text = _template(4)

    response = owner_client.post("/projects/import/", {"text": text})

    assert response.status_code == 422
    assert escape(
        "the CloudFormation template has 4 tables and an import makes at most 3 "
        "projects (the setting IMPORT_MAX_TABLES): name one in Table to import it "
        "alone, or raise IMPORT_MAX_TABLES"
    ) in _html(response)
    assert not Project.objects.exists()

    response = owner_client.post("/projects/import/", {"text": text, "table": "Table2"})

    # A template's notes (no entities yet) are shown on the list.
    assert response.status_code == 200
    assert list(Project.objects.values_list("name", flat=True)) == ["table-2"]
    assert "Imported from the CloudFormation template:" in _html(response)
    owner_client.post("/projects/import/", {"text": _template(3)})
    assert Project.objects.count() == 4


def test_import_of_a_table_the_file_lacks_keeps_the_input(owner_client):
    text = _template(2)

    response = owner_client.post("/projects/import/", {"text": text, "table": "orders"})

    assert response.status_code == 422
    html = _html(response)
    assert (
        escape(
            "the CloudFormation template has no table 'orders'; its tables: table-0, "
            "table-1"
        )
        in html
    )
    assert 'value="orders"' in html
    assert not Project.objects.exists()


BAD_FILES = {
    "malformed": ("name: [unclosed\n", "not valid YAML at line 2, column 1: "),
    "alias bomb": (
        "a: &a [x, x, x, x, x, x, x, x, x]\n"
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
        "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
        "aliases (*name) are not allowed in a design file",
    ),
    "deep nesting": ("[" * 100 + "]" * 100, "nested more than 40 levels deep"),
    "python tag": (
        "name: !!python/object/apply:os.system [echo hi]\n",
        "could not determine a constructor",
    ),
    "not a mapping": ("- a\n- b\n", "expected a mapping, found a list"),
    "empty design": ("{}\n", "expected a design"),
    "not UTF-8": (b"\x89PNG\r\n\x1a\n\x00", "the file is not UTF-8 text (byte 0)"),
}


@pytest.mark.parametrize(
    ("case", "as_upload"),
    [pytest.param(case, True, id=f"{case}, uploaded") for case in BAD_FILES]
    # A form field cannot carry bytes that are not text.
    + [
        pytest.param(case, False, id=f"{case}, pasted")
        for case, (content, _) in BAD_FILES.items()
        if isinstance(content, str)
    ],
)
def test_import_of_a_bad_file_changes_nothing(project, owner_client, case, as_upload):
    content, message = BAD_FILES[case]
    data = {"file": _upload(content)} if as_upload else {"text": content}
    before = _state()

    response = owner_client.post("/projects/import/", data)

    assert response.status_code == 422
    html = _html(response)
    source = "design.yaml" if as_upload else "the pasted text"
    assert f"Nothing was imported: {source} has problems" in html
    assert escape(message) in html
    if not as_upload:
        assert f">\n{escape(content)}</textarea>" in html
    assert _state() == before


def test_hostile_text_is_imported_and_escaped(owner_client):
    text = ORDER_YAML.replace("name: Order management", f"name: {SCRIPT}", 1).replace(
        "description: A registered customer and their profile.",
        f"description: {SCRIPT}",
    )

    response = owner_client.post("/projects/import/", {"text": text}, follow=True)

    project = Project.objects.get()
    assert project.name == SCRIPT
    assert stored_design(project).entity("Customer").description == SCRIPT
    pages = {
        "detail": response,
        "list": owner_client.get("/"),
        "members": owner_client.get(f"/projects/{project.pk}/members/"),
        "delete": owner_client.get(f"/projects/{project.pk}/delete/"),
    }
    for page, page_response in pages.items():
        html = _html(page_response)
        assert SCRIPT not in html, page
        assert escape(SCRIPT) in html, page
    # The entity's description, and the message naming the project.
    assert _html(response).count(escape(SCRIPT)) >= 5

    export = owner_client.get(f"/projects/{project.pk}/design.yaml")
    assert (
        export["Content-Disposition"]
        == 'attachment; filename="scriptalert1script.yaml"'
    )


# --- project-detail -------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "editor", "viewer"])
def test_detail_shows_the_design(project, order_design, role, request):
    client = request.getfixturevalue(f"{role}_client")

    response = client.get(f"/projects/{project.pk}/")

    assert response.status_code == 200
    html = _html(response)
    assert "<title>Order management · Single-table workbench</title>" in html
    assert "<h1>Order management</h1>" in html
    assert f'<span class="badge">{role}</span>' in html
    assert '<code class="key">PK (S) + SK (S)</code>' in html
    for entity in ("Customer", "Order", "LineItem"):
        assert f'">{entity}</span></h3>' in html
    for template in (
        "CUST#{customerId}",
        "ORDER#{orderDate}#{orderId}",
        "ITEM#{lineNo:03d}",
        "{orderDate}#{orderId}",
    ):
        assert f'">{template}</code>' in html
    assert "only while</span> <code>status = OPEN</code>" in html
    for pattern in order_design.access_patterns:
        assert f"<strong>{pattern.name}</strong>" in html
    assert f'href="/projects/{project.pk}/design.yaml"' in html
    assert (f'href="/projects/{project.pk}/delete/"' in html) == (role == "owner")


def test_detail_lists_the_design_check_problems(owner, owner_client, order_design):
    table = dataclasses.replace(order_design.table, name="x")
    project = project_services.project_create(
        owner=owner, design=dataclasses.replace(order_design, table=table)
    )

    html = _html(owner_client.get(f"/projects/{project.pk}/"))

    assert "Design check" in html
    assert '<code class="path">table.name</code>' in html
    assert escape("'x' is not a valid table name") in html


def test_detail_of_a_missing_project_is_404(project, owner_client):
    assert owner_client.get(f"/projects/{project.pk + 1}/").status_code == 404


def _bigger(design: Design, copies: int) -> Design:
    """The design with each entity repeated under other names."""
    extra = tuple(
        dataclasses.replace(e, name=f"{e.name}{i}")
        for i in range(copies)
        for e in design.entities
    )
    return dataclasses.replace(design, entities=design.entities + extra)


def test_detail_queries_do_not_grow_with_the_entities(
    project, owner, owner_client, order_design
):
    bigger = project_services.project_create(
        owner=owner, design=_bigger(order_design, 4)
    )
    assert len(stored_design(bigger).entities) == 15
    # Each process reads a revision's design from the database once (the
    # one that saved it too), then from memory.
    stored_design(project)

    counts = []
    for each in (project, bigger):
        with CaptureQueriesContext(connection) as queries:
            response = owner_client.get(f"/projects/{each.pk}/")
        assert response.status_code == 200
        counts.append(len(queries))

    # The session, the user, the project (its owner needs no membership),
    # the user's latest revisions (the Undo button), the latest approved
    # review and the header's count of unread review comments; the design
    # comes from memory (a revision never changes).
    assert counts == [6, 6]
    assert b'">LineItem3</span></h3>' in response.content


# --- project-export -------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "editor", "viewer"])
def test_export_downloads_a_file_that_imports_to_the_same_design(
    project, order_design, role, request
):
    client = request.getfixturevalue(f"{role}_client")

    response = client.get(f"/projects/{project.pk}/design.yaml")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/yaml; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="order-management.yaml"'
    )
    result = read_design(response.content)
    assert result.problems == ()
    assert result.design == order_design


def test_export_of_a_name_without_ascii_letters_is_called_design(owner, owner_client):
    project = project_services.project_create(
        owner=owner, design=project_services.new_design(name="日本語")
    )

    response = owner_client.get(f"/projects/{project.pk}/design.yaml")

    assert response["Content-Disposition"] == 'attachment; filename="design.yaml"'
    assert read_design(response.content).design.name == "日本語"


# --- project-delete -------------------------------------------------------------


def test_delete_page_says_what_will_be_lost(project, owner_client):
    response = owner_client.get(f"/projects/{project.pk}/delete/")

    assert response.status_code == 200
    html = _html(response)
    assert "<h1>Delete “Order management”?</h1>" in html
    assert "3 entities, 8 access patterns" in html
    assert "removes its 2 members" in html
    assert f'action="/projects/{project.pk}/delete/"' in html
    assert Project.objects.filter(pk=project.pk).exists()


def test_delete_removes_the_project_and_everything_in_it(project, owner_client):
    response = owner_client.post(f"/projects/{project.pk}/delete/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert not Project.objects.exists()
    assert not Revision.objects.exists()
    assert not ItemSet.objects.exists()
    assert not Membership.objects.exists()
    assert "Deleted Order management." in _html(owner_client.get("/"))


@pytest.mark.parametrize("role", ["editor", "viewer"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_owner_can_delete(project, role, method, request):
    client = request.getfixturevalue(f"{role}_client")
    before = _state()

    response = getattr(client, method)(f"/projects/{project.pk}/delete/")

    assert response.status_code == 403
    assert _state() == before


# --- project-members ------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "editor", "viewer"])
def test_members_page_lists_everyone(project, role, request):
    client = request.getfixturevalue(f"{role}_client")

    response = client.get(f"/projects/{project.pk}/members/")

    assert response.status_code == 200
    html = _html(response)
    assert '<td>owner</td><td><span class="badge">owner</span>' in html
    for member in ("editor", "viewer"):
        assert (
            f'<td>{member}</td>\n            <td><span class="badge">{member}' in html
        )
    # Only the owner gets the forms.
    assert ("Invite someone" in html) == (role == "owner")
    assert ("/remove/" in html) == (role == "owner")


def _invitation_link(message) -> str:
    return re.search(r"http://testserver(/invitations/\S+/)", message.body)[1]


def test_owner_invites_by_email_and_the_invitee_joins(
    project, outsider, owner_client, outsider_client, mailoutbox
):
    assert outsider_client.get(f"/projects/{project.pk}/").status_code == 404

    response = owner_client.post(
        f"/projects/{project.pk}/members/",
        {"email": "Out@Example.com", "role": "viewer"},
    )

    assert response.status_code == 302
    assert response["Location"] == f"/projects/{project.pk}/members/"
    page = _html(owner_client.get(response["Location"]))
    assert "Invitation sent to Out@Example.com" in page
    assert "out@example.com <span" in page  # listed as invited
    [message] = mailoutbox
    assert message.to == ["Out@Example.com"]
    link = _invitation_link(message)
    # Only the token's hash is kept.
    assert link.split("/")[2] not in str(
        list(Invitation.objects.values_list("token_hash", flat=True))
    )

    assert outsider_client.get(link).status_code == 200
    joined = outsider_client.post(link)

    assert joined["Location"] == f"/projects/{project.pk}/"
    assert _membership(project, outsider).role == Role.VIEWER
    assert outsider_client.get(f"/projects/{project.pk}/").status_code == 200
    assert not Invitation.objects.exists()
    # Used up.
    assert b"This invitation does not work" in outsider_client.get(link).content


def test_inviting_tells_nothing_about_accounts(project, owner, owner_client, outsider):
    outsider.email = "outsider@example.com"
    outsider.save()
    told = []
    for address in ("outsider@example.com", "nobody@example.com"):
        response = owner_client.post(
            f"/projects/{project.pk}/members/",
            {"email": address, "role": "editor"},
            follow=True,
        )
        assert response.status_code == 200
        message = [str(m) for m in response.context["messages"]]
        told.append([m.replace(address, "ADDRESS") for m in message])
        # Both wait as invitations, alike.
        assert f'{address} <span class="muted small">invited</span>' in _html(response)
    assert told[0] == told[1]
    assert not Membership.objects.filter(user=outsider).exists()


def test_an_invitation_link_asks_to_log_in_first(
    project, owner_client, client, mailoutbox
):
    owner_client.post(
        f"/projects/{project.pk}/members/", {"email": "a@example.com", "role": "viewer"}
    )
    link = _invitation_link(mailoutbox[0])
    response = client.get(link)
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={link}"


def test_a_wrong_or_old_invitation_does_not_work(
    project, owner_client, outsider_client, mailoutbox
):
    assert outsider_client.get("/invitations/not-a-token/").status_code == 404
    owner_client.post(
        f"/projects/{project.pk}/members/", {"email": "a@example.com", "role": "editor"}
    )
    Invitation.objects.update(created=timezone.now() - dt.timedelta(days=15))
    link = _invitation_link(mailoutbox[0])
    assert outsider_client.post(link).status_code == 404
    assert not Membership.objects.filter(role=Role.EDITOR, user__username="outsider")


def test_owner_withdraws_an_invitation(
    project, owner_client, mailoutbox, outsider_client
):
    owner_client.post(
        f"/projects/{project.pk}/members/", {"email": "a@example.com", "role": "editor"}
    )
    invitation = Invitation.objects.get()
    response = owner_client.post(
        f"/projects/{project.pk}/invitations/{invitation.pk}/cancel/"
    )
    assert response.status_code == 302
    assert not Invitation.objects.exists()
    assert outsider_client.get(_invitation_link(mailoutbox[0])).status_code == 404


def test_owner_changes_a_members_role(project, editor, owner_client, editor_client):
    membership = _membership(project, editor)
    response = owner_client.post(
        f"/projects/{project.pk}/members/", {"member": membership.pk, "role": "viewer"}
    )

    assert response.status_code == 302
    assert _membership(project, editor).role == Role.VIEWER
    assert Membership.objects.filter(project=project).count() == 2
    assert editor_client.post(f"/projects/{project.pk}/delete/").status_code == 403


@pytest.mark.parametrize(
    ("data", "form", "field", "error"),
    [
        (
            {"email": "not an address", "role": "editor"},
            "invite_form",
            "email",
            "Enter a valid email address.",
        ),
        (
            {"email": "", "role": "editor"},
            "invite_form",
            "email",
            "This field is required.",
        ),
        (
            {"email": "a@example.com", "role": "owner"},
            "invite_form",
            "role",
            "Select a valid choice. owner is not one of the available choices.",
        ),
        (
            {"member": "999999", "role": "editor"},
            "role_form",
            "member",
            "Select a valid choice. 999999 is not one of the available choices.",
        ),
    ],
)
def test_members_forms_show_their_errors(
    project, owner_client, mailoutbox, data, form, field, error
):
    before = _state()

    response = owner_client.post(f"/projects/{project.pk}/members/", data)

    assert response.status_code == 422
    assert response.context[form].errors == {field: [error]}
    assert escape(error) in _html(response)
    assert _state() == before
    assert mailoutbox == []
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("role", ["editor", "viewer"])
def test_only_the_owner_changes_members(project, outsider, role, request):
    client = request.getfixturevalue(f"{role}_client")
    before = _state()

    response = client.post(
        f"/projects/{project.pk}/members/", {"email": "a@example.com", "role": "editor"}
    )

    assert response.status_code == 403
    assert _state() == before


# --- project-member-remove ------------------------------------------------------


def test_owner_removes_a_member(project, viewer, owner_client, viewer_client):
    membership = _membership(project, viewer)

    response = owner_client.post(
        f"/projects/{project.pk}/members/{membership.pk}/remove/"
    )

    assert response.status_code == 302
    assert response["Location"] == f"/projects/{project.pk}/members/"
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert viewer_client.get(f"/projects/{project.pk}/").status_code == 404
    assert "Removed viewer." in _html(owner_client.get(response["Location"]))


def test_removing_a_membership_of_another_project_does_nothing(
    project, owner, outsider, viewer, owner_client
):
    theirs = project_services.project_create(
        owner=outsider, design=project_services.new_design(name="Theirs")
    )
    member_services.membership_set(project=theirs, user=viewer, role=Role.EDITOR)
    other = _membership(theirs, viewer)
    before = _state()

    response = owner_client.post(f"/projects/{project.pk}/members/{other.pk}/remove/")

    assert response.status_code == 302
    assert _state() == before


@pytest.mark.parametrize("role", ["editor", "viewer"])
def test_only_the_owner_removes_members(project, editor, role, request):
    client = request.getfixturevalue(f"{role}_client")
    membership = _membership(project, editor)
    before = _state()

    response = client.post(f"/projects/{project.pk}/members/{membership.pk}/remove/")

    assert response.status_code == 403
    assert _state() == before


# --- Every view: login, outsiders, CSRF, methods ---------------------------------

PROJECT_URLS = [
    ("get", "/projects/{project}/"),
    ("get", "/projects/{project}/design.yaml"),
    ("get", "/projects/{project}/delete/"),
    ("post", "/projects/{project}/delete/"),
    ("get", "/projects/{project}/members/"),
    ("post", "/projects/{project}/members/"),
    ("post", "/projects/{project}/members/{membership}/remove/"),
]
ALL_URLS = [
    ("get", "/"),
    ("post", "/projects/new/"),
    ("post", "/projects/import/"),
    *PROJECT_URLS,
]


def _url(template: str, project: Project, viewer: User) -> str:
    return template.format(
        project=project.pk, membership=_membership(project, viewer).pk
    )


@pytest.mark.parametrize(("method", "template"), ALL_URLS)
def test_anonymous_users_are_sent_to_log_in(project, viewer, client, method, template):
    url = _url(template, project, viewer)
    before = _state()

    response = getattr(client, method)(url)

    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={url}"
    assert _state() == before


@pytest.mark.parametrize(("method", "template"), PROJECT_URLS)
def test_outsiders_get_404(project, viewer, outsider_client, method, template):
    before = _state()

    response = getattr(outsider_client, method)(
        _url(template, project, viewer), {"email": "a@example.com", "role": "editor"}
    )

    assert response.status_code == 404
    assert _state() == before


@pytest.mark.parametrize(
    ("template", "data"),
    [
        ("/projects/new/", {"name": "New"}),
        ("/projects/import/", {"text": ORDER_YAML}),
        ("/projects/{project}/delete/", {}),
        ("/projects/{project}/members/", {"email": "a@example.com", "role": "editor"}),
        ("/projects/{project}/members/{membership}/remove/", {}),
    ],
)
def test_csrf_is_enforced(project, owner, viewer, outsider, template, data):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    before = _state()

    response = client.post(_url(template, project, viewer), data)

    assert response.status_code == 403
    assert b"CSRF verification failed" in response.content
    assert _state() == before


@pytest.mark.parametrize(
    ("method", "template"),
    [
        ("post", "/"),
        ("get", "/projects/new/"),
        ("get", "/projects/import/"),
        ("post", "/projects/{project}/"),
        ("delete", "/projects/{project}/"),
        ("post", "/projects/{project}/design.yaml"),
        ("put", "/projects/{project}/delete/"),
        ("delete", "/projects/{project}/delete/"),
        ("patch", "/projects/{project}/members/"),
        ("get", "/projects/{project}/members/{membership}/remove/"),
    ],
)
def test_wrong_methods_get_405(project, viewer, owner_client, method, template):
    before = _state()

    response = getattr(owner_client, method)(_url(template, project, viewer))

    assert response.status_code == 405
    assert _state() == before


# --- Start from an example ---------------------------------------------------------


@pytest.mark.django_db
def test_a_new_user_starts_from_an_example(outsider_client: Client, outsider: User):
    """The project list offers the examples; one click copies an example
    into the user's own projects (the examples folder is on the server,
    out of a browser user's reach)."""
    page = _html(outsider_client.get("/"))
    assert "Start from an example" in page
    assert 'action="/projects/examples/order-management/"' in page
    assert "examples/</code> folder" not in page

    response = outsider_client.post("/projects/examples/order-management/")

    project = Project.objects.get(owner=outsider)
    assert response.status_code == 302
    assert response["Location"] == f"/projects/{project.pk}/"
    assert stored_design(project) == read_design(ORDER_YAML.encode()).design
    [revision] = Revision.objects.filter(project=project)
    assert revision.summary == "copied from the example 'Order management'"
    # A second copy is a project of its own.
    outsider_client.post("/projects/examples/order-management/")
    assert Project.objects.filter(owner=outsider).count() == 2


@pytest.mark.django_db
def test_starting_from_an_example_needs_a_post_and_a_known_example(
    outsider_client: Client,
):
    assert outsider_client.get("/projects/examples/order-management/").status_code == (
        405
    )
    assert outsider_client.post("/projects/examples/nope/").status_code == 404
    assert not Project.objects.exists()
    anonymous = Client()
    response = anonymous.post("/projects/examples/order-management/")
    assert response.status_code == 302 and "/login/" in response["Location"]
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(User.objects.get(pk=outsider_client.session["_auth_user_id"]))
    assert checked.post("/projects/examples/order-management/").status_code == 403
    assert not Project.objects.exists()
