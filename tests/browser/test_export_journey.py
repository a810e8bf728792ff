"""A designer takes a design to deployment: import a NoSQL Workbench model
from the project list, open the Export section, read the Terraform, see
cfn-lint pass the CloudFormation, copy it, download the IAM policy and read
the code of an access pattern."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from modeler.conversion import design_from_project
from modeler.designfile import read_design
from modeler.models import Project
from modeler.services import projects as project_services
from tests.exporters.helpers import EXAMPLES_DIR as EXAMPLES
from tests.exporters.helpers import FIXTURES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINT_TIMEOUT_MS = 60_000


def _log_in(page, username: str, password: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/$"))


def test_import_a_workbench_model_and_export_it(page, screenshot):
    ada = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    orders = project_services.project_create(owner=ada, design=design)
    _log_in(page, "ada", "correct-horse-battery")

    page.set_input_files("#import_file", str(FIXTURES / "ChatSystemSchema.json"))
    page.click("#import button[type=submit]")
    report = page.locator(".import-report")
    expect(report).to_contain_text("Imported from the NoSQL Workbench model")
    expect(report).to_contain_text("auto scaling kept: the table: reads 1 to 10 units")
    screenshot("export-01-import-report")
    project = Project.objects.exclude(pk=orders.pk).get()

    report.locator("a", has_text="Chat").click()
    page.click("nav.tabs >> text=Export")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/export/$"))
    code = page.locator("#export-code")
    expect(code).to_contain_text('resource "aws_dynamodb_table" "chat"')
    expect(code.locator("span.nt, span.na").first).to_be_visible()
    screenshot("export-02-terraform")

    page.click(".export-formats >> text=CloudFormation (YAML)")
    expect(page).to_have_url(re.compile(r"\?format=cloudformation-yaml$"))
    expect(page.locator("#export-lint")).to_contain_text(
        "No errors, no warnings.", timeout=LINT_TIMEOUT_MS
    )
    expect(code).to_contain_text("AWS::ApplicationAutoScaling::ScalableTarget")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("button[data-copy=export-code]")
    expect(page.locator("button[data-copy=export-code]")).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("AWSTemplateFormatVersion:")
    screenshot("export-03-cloudformation-lint")

    # The order-management example has access patterns: its policy and code.
    page.goto(f"/projects/{orders.pk}/export/?format=iam-policy")
    page.fill("#id_region", "eu-west-1")
    page.fill("#id_account", "123456789012")
    page.click("text=Update the IAM policy")
    expect(code).to_contain_text(
        "arn:aws:dynamodb:eu-west-1:123456789012:table/order-management/index/GSI1"
    )
    with page.expect_download() as download:
        page.click(".export-preview a[download]")
    policy = json.loads(Path(download.value.path()).read_text())
    assert policy["Version"] == "2012-10-17"
    screenshot("export-04-iam-policy")

    page.click(".export-formats >> text=Code per access pattern")
    first = page.locator(".pattern-code").first
    expect(first).to_contain_text("Get customer profile", timeout=LINT_TIMEOUT_MS)
    expect(first.locator("code").first).to_contain_text("client.get_item(")
    expect(page.locator(".pattern-code")).to_have_count(8)
    screenshot("export-05-code")


def test_the_terraform_export_imports_back_as_the_same_table(page, screenshot):
    """Download a project's Terraform from the Export section and import
    the file from the project list: the new project has the same table."""
    ada = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "device-telemetry.yaml").read_bytes()).design
    telemetry = project_services.project_create(owner=ada, design=design)
    _log_in(page, "ada", "correct-horse-battery")

    page.goto(f"/projects/{telemetry.pk}/export/?format=terraform")
    with page.expect_download() as download:
        page.click(".export-preview a[download]")
    path = Path(download.value.path()).with_name("main.tf")
    Path(download.value.path()).rename(path)

    page.goto("/")
    page.set_input_files("#import_file", str(path))
    page.click("#import button[type=submit]")
    report = page.locator(".import-report")
    expect(report).to_contain_text("Imported from the Terraform configuration")
    expect(report).to_contain_text("the tag Environment is set from the variable")
    screenshot("export-06-terraform-import")
    imported = Project.objects.exclude(pk=telemetry.pk).get()
    report.locator("a", has_text="device-telemetry").click()
    expect(page).to_have_url(re.compile(rf"/projects/{imported.pk}/$"))
    for index in ("GSI1", "LSI1"):
        expect(page.locator("main")).to_contain_text(index)
    table = design_from_project(imported).table
    assert {i.name: i for i in table.indexes} == {
        i.name: i for i in design.table.indexes
    }
    assert (table.capacity, table.ttl_attribute, table.encryption) == (
        design.table.capacity,
        design.table.ttl_attribute,
        design.table.encryption,
    )


def test_preview_copy_and_download_the_python_module_and_its_tests(page, screenshot):
    """The Python data access module and its generated tests are previewed
    highlighted; Copy puts the module's text on the clipboard, and the
    downloaded test module names the module it tests."""
    ada = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    orders = project_services.project_create(owner=ada, design=design)
    _log_in(page, "ada", "correct-horse-battery")

    page.goto(f"/projects/{orders.pk}/export/")
    page.click(".export-formats >> text=Python data access (boto3)")
    expect(page).to_have_url(re.compile(r"\?format=python$"))
    code = page.locator("#export-code")
    expect(code).to_contain_text("def orders_of_a_customer_newest_first(")
    # Highlighted: a keyword and a class name are spans of their own.
    expect(code.locator("span.k", has_text="def").first).to_be_visible()
    expect(code.locator("span.nc", has_text="Order").first).to_be_visible()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("button[data-copy=export-code]")
    expect(page.locator("button[data-copy=export-code]")).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith('"""Data access for the design')
    assert "class Order:\n" in copied  # the text, not the markup
    screenshot("export-07-python-module")

    page.click(".export-formats >> text=Python data access tests (pytest)")
    expect(page).to_have_url(re.compile(r"\?format=python-tests$"))
    expect(code).to_contain_text("import order_management_access as access")
    expect(code).to_contain_text("def test_orders_of_a_customer_newest_first(")
    expect(code.locator("span.nn", has_text="order_management_access")).to_be_visible()
    with page.expect_download() as download:
        page.click(".export-preview a[download]")
    assert download.value.suggested_filename == "order_management_access_test.py"
    text = Path(download.value.path()).read_text()
    assert "def test_all_open_orders_oldest_first(" in text
    screenshot("export-08-python-tests")
