"""The Export section (preview, copy, download, cfn-lint, code per pattern,
the IAM policy options) and the project list's import of NoSQL Workbench
models."""

from __future__ import annotations

import dataclasses
import json

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape

from modeler.conversion import design_from_project
from modeler.design import model as d
from modeler.exporters.formats import EXPORT_FORMATS
from modeler.models import Project
from modeler.services import projects as project_services
from tests.exporters.helpers import FIXTURES
from tests.views.conftest import logged_in, stored_design
from tests.views.starting import start_jobs

FORMATS = list(EXPORT_FORMATS)
SCRIPT = "<script>alert(1)</script>"


def url(project, tail: str = "") -> str:
    return f"/projects/{project.pk}/export/{tail}"


def html(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("who", ["owner", "editor", "viewer"])
def test_every_member_sees_the_export_section(request, project, who):
    client = request.getfixturevalue(f"{who}_client")
    response = client.get(url(project))
    assert response.status_code == 200
    page = html(response)
    assert 'aria-current="page">Export</a>' in page
    assert "Terraform" in page and "resource</span>" in page
    for name in FORMATS:
        assert f'href="?format={name}"' in page


def test_outsiders_get_404_and_strangers_the_login(project, outsider_client):
    for tail in (
        "",
        "?format=iam-policy",
        "terraform/download/",
        "cloudformation-yaml/lint/",
    ):
        assert outsider_client.get(url(project, tail)).status_code == 404
    response = Client().get(url(project))
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("name", FORMATS)
def test_each_format_previews_highlighted_and_downloads(project, viewer_client, name):
    response = viewer_client.get(url(project, f"?format={name}"))
    assert response.status_code == 200
    assert 'id="export-code"' in html(response)
    assert '<span class="' in html(response)
    download = viewer_client.get(url(project, f"{name}/download/"))
    assert download.status_code == 200
    chosen = EXPORT_FORMATS[name]
    assert download["Content-Disposition"] == (
        f'attachment; filename="{chosen.filename(design_from_project(project))}"'
    )
    assert chosen.filename(design_from_project(project)).startswith(
        ("order-management", "order_management")
    )
    if chosen.language == "json":
        json.loads(download.content)
    elif chosen.language == "yaml":
        yaml.safe_load(download.content)


def test_unknown_formats_are_404(project, owner_client):
    assert owner_client.get(url(project, "?format=pdf")).status_code == 404
    assert owner_client.get(url(project, "pdf/download/")).status_code == 404
    assert owner_client.get(url(project, "terraform/lint/")).status_code == 404


def test_htmx_gets_only_the_preview_or_the_section(project, owner_client):
    response = owner_client.get(
        url(project, "?format=cli-json"),
        headers={"HX-Request": "true", "HX-Target": "export-preview"},
    )
    page = html(response)
    assert page.lstrip().startswith('<div class="export-layout" id="export-preview">')
    assert (
        'href="?format=cli-json" hx-get="?format=cli-json" aria-current="true"' in page
    )
    assert "<html" not in page and "AWS CLI create-table" in page
    response = owner_client.get(url(project), headers={"HX-Request": "true"})
    assert html(response).lstrip().startswith('<div id="export">')


def test_cloudformation_shows_cfn_lint_beside_it(project, owner_client):
    page = html(owner_client.get(url(project, "?format=cloudformation-yaml")))
    assert f'hx-get="{url(project, "cloudformation-yaml/lint/")}"' in page
    response = owner_client.get(
        url(project, "cloudformation-yaml/lint/"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "No errors, no warnings." in html(response)
    # Without JavaScript, the lint runs with the page.
    page = html(owner_client.get(url(project, "?format=cloudformation-json&lint=1")))
    assert "No errors, no warnings." in page
    assert f'hx-get="{url(project, "cloudformation-json/lint/")}"' not in page


def test_workbench_export_says_what_the_model_cannot_hold(project, owner_client):
    page = html(owner_client.get(url(project, "?format=nosql-workbench")))
    assert "Not in the model:" in page and "access pattern(s)" in page


def test_iam_policy_options_and_their_errors(project, owner_client):
    page = html(
        owner_client.get(
            url(project, "?format=iam-policy&region=eu-west-1&account=123456789012")
        )
    )
    assert "arn:aws:dynamodb:eu-west-1:123456789012:table/order-management" in page
    assert "need partition keys" not in page
    assert "needs partition keys that all start with the same attribute" in page
    page = html(
        owner_client.get(url(project, "?format=iam-policy&region=mars&account=12"))
    )
    assert "Give a region such as eu-west-1, or *." in page
    assert "Give the 12-digit account id, or *." in page
    assert 'id="export-code"' not in page
    download = owner_client.get(
        url(project, "iam-policy/download/?region=eu-west-1&account=123456789012")
    )
    assert b"eu-west-1:123456789012" in download.content


def test_code_per_pattern_has_python_and_cli_with_copy_buttons(project, viewer_client):
    start_jobs(viewer_client, project)
    response = viewer_client.get(url(project, "?format=code"))
    page = html(response)
    assert page.count('class="pattern-code"') == 8
    assert 'data-copy="code-py-1"' in page and 'data-copy="code-cli-1"' in page
    assert "get_paginator" in page
    assert 'id="code-cli-1"><span class="c">' not in page
    assert 'id="code-cli-1">aws<span class="w"> </span>dynamodb' in page
    module = viewer_client.get(url(project, "patterns.py/download/"))
    compile(module.content.decode(), "patterns.py", "exec")
    script = viewer_client.get(url(project, "patterns.sh/download/"))
    assert script.content.startswith(b"#!/bin/sh\n")


def test_user_text_is_escaped_in_every_preview(owner, order_design, owner_client):
    table = dataclasses.replace(order_design.table, tags=(("note", SCRIPT),))
    design = dataclasses.replace(order_design, table=table, name=f"X {SCRIPT}")
    project = project_services.project_create(owner=owner, design=design)
    for name in FORMATS:
        page = html(owner_client.get(url(project, f"?format={name}")))
        assert SCRIPT not in page, name
    assert escape("alert(1)") in page


def test_the_export_section_writes_nothing(project, owner_client):
    assert owner_client.post(url(project)).status_code == 405
    assert owner_client.post(url(project, "terraform/download/")).status_code == 405


# --- Import on the project list ----------------------------------------------------


def upload(path) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, path.read_bytes(), "application/json")


def test_import_a_workbench_model_with_two_tables(owner, owner_client):
    response = owner_client.post(
        "/projects/import/", {"file": upload(FIXTURES / "BankModel.json")}
    )
    assert response.status_code == 200
    names = sorted(Project.objects.values_list("name", flat=True))
    assert names == ["Bank — PaymentScheduler", "Bank — TransactionHistory"]
    page = html(response)
    assert "Imported from the NoSQL Workbench model:" in page
    assert "what the import inferred or left out" in page
    assert "model metadata not kept" in page
    for project in Project.objects.all():
        assert f'href="/projects/{project.pk}/"' in page


def test_import_pasted_workbench_json_with_a_name(owner, owner_client):
    text = (FIXTURES / "ChatSystemSchema.json").read_text()
    response = owner_client.post(
        "/projects/import/", {"text": text, "name": "Chat app"}
    )
    assert response.status_code == 200
    (project,) = Project.objects.all()
    assert project.name == "Chat app"
    assert "auto scaling kept: the table: reads 1 to 10 units at 70%" in html(response)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not valid JSON at line 1, column 2"),
        (
            b'{"ModelName": "x", "DataModel": {}}',
            "expected a list of at least one table",
        ),
        (
            b'{"ModelName": "x", "ModelMetadata": {"Version": "7.0"}, '
            b'"DataModel": [{}]}',
            "unknown version &#x27;7.0&#x27;",
        ),
    ],
)
def test_bad_workbench_files_create_nothing(owner_client, content, message):
    response = owner_client.post(
        "/projects/import/",
        {"file": SimpleUploadedFile("model.json", content, "application/json")},
    )
    assert response.status_code == 422
    assert message in html(response)
    assert "Nothing was imported: model.json has problems" in html(response)
    assert not Project.objects.exists()


def test_import_a_terraform_file_and_a_cloudformation_template(owner, owner_client):
    from tests.exporters.test_infra_import import TEMPLATE, TERRAFORM_FILE

    response = owner_client.post(
        "/projects/import/",
        {"file": SimpleUploadedFile("main.tf", TERRAFORM_FILE.encode(), "text/plain")},
    )
    assert response.status_code == 200
    page = html(response)
    assert "Imported from the Terraform configuration:" in page
    assert "the design uses the resource name &#x27;carts&#x27;" in page
    assert sorted(Project.objects.values_list("name", flat=True)) == [
        "carts",
        "staging-shop-orders",
    ]
    response = owner_client.post(
        "/projects/import/", {"text": TEMPLATE, "name": "Orders"}
    )
    assert response.status_code == 200
    assert "Imported from the CloudFormation template:" in html(response)
    project = Project.objects.get(name="Orders")
    assert project.table_name == "prod-orders"


def test_a_template_with_an_unknowable_property_creates_nothing(owner_client):
    from tests.exporters.test_infra_import import TEMPLATE

    response = owner_client.post(
        "/projects/import/",
        {"text": TEMPLATE.replace("    Default: 40\n", "")},
    )
    assert response.status_code == 422
    page = html(response)
    assert "Resources.Orders.Properties.ProvisionedThroughput" in page
    assert "the parameter ReadUnits has no Default; give it one to import" in page
    assert not Project.objects.exists()


def test_an_oversize_model_is_refused(owner_client, settings):
    settings.DESIGN_FILE_MAX_BYTES = 100
    content = json.dumps({"ModelName": "x", "DataModel": [], "pad": "x" * 200})
    response = owner_client.post(
        "/projects/import/",
        {
            "file": SimpleUploadedFile(
                "model.json", content.encode(), "application/json"
            )
        },
    )
    assert response.status_code == 422
    assert "design files are limited to 100 bytes" in html(response)
    assert not Project.objects.exists()


def test_import_needs_csrf(owner):
    client = logged_in(owner, enforce_csrf_checks=True)
    response = client.post(
        "/projects/import/", {"file": upload(FIXTURES / "ChatSystemSchema.json")}
    )
    assert response.status_code == 403
    assert not Project.objects.exists()


def test_workbench_export_can_add_generated_items(project, owner_client):
    page = html(owner_client.get(url(project, "?format=nosql-workbench&generated=2")))
    assert 'name="generated"' in page and 'value="2"' in page
    download = owner_client.get(url(project, "nosql-workbench/download/?generated=2"))
    facets = json.loads(download.content)["DataModel"][0]["TableFacets"]
    assert all(1 <= len(f["TableData"]) <= 2 for f in facets)
    page = html(owner_client.get(url(project, "?format=nosql-workbench&generated=99")))
    assert "Ensure this value is less than or equal to 50." in page
    assert 'id="export-code"' not in page


def test_a_design_saved_with_a_broken_template_says_why_there_is_no_model(
    owner, order_design, owner_client
):
    customer = order_design.entities[0]
    broken = dataclasses.replace(
        customer, keys={**customer.keys, "PK": d.KeyTemplate("CUST#{customerId")}
    )
    design = dataclasses.replace(
        order_design, entities=(broken, *order_design.entities[1:])
    )
    project = project_services.project_create(owner=owner, design=design)
    response = owner_client.get(url(project, "?format=nosql-workbench"))
    assert response.status_code == 200
    assert "No model: entities.Customer.keys.PK: unclosed" in html(response)
    assert owner_client.get(url(project, "terraform/download/")).status_code == 200


def test_an_lsi_saved_without_its_sort_key_gives_a_message_not_an_error(
    owner, order_design, owner_client
):
    lsi = d.Index("LSI1", "local", (), ())
    table = dataclasses.replace(
        order_design.table, indexes=(*order_design.table.indexes, lsi)
    )
    project = project_services.project_create(
        owner=owner, design=dataclasses.replace(order_design, table=table)
    )
    response = owner_client.get(url(project, "?format=terraform"))
    assert response.status_code == 200
    assert "This export cannot be made from the design as saved" in html(response)
    # The CloudFormation is made, and cfn-lint says what is wrong with it.
    response = owner_client.get(url(project, "cloudformation-yaml/lint/"))
    assert 'class="badge badge-error"' in html(response)
    assert "No errors, no warnings." not in html(response)


@pytest.mark.parametrize("name", [n for n, f in EXPORT_FORMATS.items() if f.options])
def test_every_option_of_a_format_is_a_field_of_the_page_and_a_flag_of_the_command(
    project, owner_client, order_design, name
):
    """The formats' options are declared once: the page and export_design
    both read them."""
    from django.core.management import load_command_class

    chosen = EXPORT_FORMATS[name]
    page = html(owner_client.get(url(project, f"?format={name}")))
    parser = load_command_class("modeler", "export_design").create_parser(
        "manage.py", "export_design"
    )
    flags = {flag for action in parser._actions for flag in action.option_strings}
    for option in chosen.options:
        assert option.flag in flags
        if option.unavailable is None or not option.unavailable(order_design):
            assert f'name="{option.name}"' in page


def test_the_tenant_switch_names_the_designs_tenant_attribute(owner):
    from tests.exporters.test_code_and_policy import tenant_design

    project = project_services.project_create(owner=owner, design=tenant_design())
    client = logged_in(owner)
    page = html(client.get(url(project, "?format=iam-policy")))
    assert 'name="tenant"' in page
    assert "The caller&#x27;s tenant is tenantId" in page
    assert "needs partition keys that all start" not in page
    page = html(client.get(url(project, "?format=iam-policy&tenant=on")))
    assert "dynamodb:LeadingKeys" in page
    assert "iam-policy/download/?tenant=on" in page


@pytest.mark.parametrize("who", ["owner", "editor", "viewer"])
def test_the_endpoint_section_says_how_to_serve_the_design(request, project, who):
    client = request.getfixturevalue(f"{who}_client")
    response = client.get(url(project, "?format=endpoint"))
    assert response.status_code == 200
    page = html(response)
    assert 'href="?format=endpoint"' in page
    text = page.replace('<span class="w"> </span>', " ")
    assert "serve_dynamodb" in text and str(project.pk) in text
    assert "@aws-sdk/client-dynamodb" in text
    assert escape(stored_design(project).table.name) in page
    partial = client.get(
        url(project, "?format=endpoint"),
        headers={"HX-Request": "true", "HX-Target": "export-preview"},
    )
    assert '<div class="export-layout" id="export-preview">' in html(partial)
    assert "<html" not in html(partial)


def test_outsiders_do_not_see_the_endpoint_section(project, outsider_client):
    assert outsider_client.get(url(project, "?format=endpoint")).status_code == 404


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("typescript", "ordersOfACustomerNewestFirst"),
        ("typescript-tests", "ordersOfACustomerNewestFirst"),
        ("electrodb", "GSI2"),
        ("dynamodb-toolbox", "computeKey"),
    ],
)
def test_the_generated_code_formats_preview_their_code(
    project, viewer_client, name, shown
):
    page = html(viewer_client.get(url(project, f"?format={name}")))
    assert shown in page
    # Highlighted as code: `import` is a keyword span of its own.
    assert '<span class="k">import</span>' in page
    assert 'data-copy="export-code"' in page
