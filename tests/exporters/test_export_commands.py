"""export_design in every format, import_design of NoSQL Workbench models,
and the commands that take a design FILE reading both kinds of file."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import hcl2
import pytest
import yaml
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import read_design
from modeler.models import Project
from modeler.services import projects as project_services
from tests.exporters.helpers import EXAMPLES, FIXTURES, ROOT, example

ORDERS = [p for p in EXAMPLES if p.stem == "order-management"][0]
TELEMETRY = [p for p in EXAMPLES if p.stem == "device-telemetry"][0]
BANK = FIXTURES / "BankModel.json"
CHAT = FIXTURES / "ChatSystemSchema.json"


def run(*args: str) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("ada", password="pw")


@pytest.mark.parametrize(
    ("format_name", "parse"),
    [
        ("yaml", lambda t: read_design(t).design),
        ("terraform", hcl2.loads),
        ("cloudformation-yaml", yaml.safe_load),
        ("cloudformation-json", json.loads),
        ("cli-json", json.loads),
        ("nosql-workbench", json.loads),
        ("iam-policy", json.loads),
    ],
)
def test_export_design_file_in_every_format(format_name, parse):
    stdout, _ = run("export_design", str(TELEMETRY), "--format", format_name)
    assert parse(stdout)


def test_cloudformation_and_cli_json_describe_the_example(tmp_path):
    stdout, _ = run("export_design", str(TELEMETRY), "--format", "cloudformation-json")
    props = json.loads(stdout)["Resources"]["Table"]["Properties"]
    assert props["BillingMode"] == "PROVISIONED"
    stdout, _ = run("export_design", str(TELEMETRY), "--format", "cli-json")
    assert json.loads(stdout)["KeySchema"] == props["KeySchema"]


def test_export_a_project_to_a_file(owner, tmp_path):
    project = project_services.project_create(owner=owner, design=example(ORDERS))
    path = tmp_path / "orders.tf"
    stdout, stderr = run(
        "export_design", str(project.pk), "--format", "terraform", "-o", str(path)
    )
    assert stdout == "" and stderr == f"Wrote {path}\n"
    assert 'resource "aws_dynamodb_table" "order_management"' in path.read_text()


def test_workbench_export_lists_what_the_format_cannot_hold():
    stdout, stderr = run("export_design", str(ORDERS), "--format", "nosql-workbench")
    assert json.loads(stdout)["ModelMetadata"]["Version"] == "3.0"
    assert "note: not exported: 8 access pattern(s)" in stderr or (
        "access pattern(s): NoSQL Workbench models have no access patterns" in stderr
    )
    assert "table settings:" in stderr


def test_iam_policy_options_and_a_clear_error_for_a_missing_tenant():
    stdout, _ = run(
        "export_design",
        str(ORDERS),
        "--format",
        "iam-policy",
        "--region",
        "eu-west-1",
        "--account",
        "123456789012",
    )
    resources = [s["Resource"] for s in json.loads(stdout)["Statement"]]
    assert "arn:aws:dynamodb:eu-west-1:123456789012:table/order-management" in resources
    no_tenant = "iam-policy: No policy: no tenant attribute"
    with pytest.raises(CommandError, match=no_tenant):
        run("export_design", str(ORDERS), "--format", "iam-policy", "--tenant")


def test_export_design_reads_a_workbench_model_and_names_its_table():
    stdout, _ = run("export_design", str(CHAT), "--format", "cloudformation-yaml")
    assert yaml.safe_load(stdout)["Parameters"]["TableName"]["Default"] == "Chat"
    stdout, _ = run(
        "export_design", f"{BANK}#TransactionHistory", "--format", "cli-json"
    )
    assert json.loads(stdout)["TableName"] == "TransactionHistory"
    with pytest.raises(
        CommandError, match=r"the NoSQL Workbench model has 2 tables \(PaymentScheduler"
    ):
        run("export_design", str(BANK), "--format", "cli-json")
    with pytest.raises(
        CommandError, match="the NoSQL Workbench model has no table 'Nope'"
    ):
        run("export_design", f"{BANK}#Nope", "--format", "cli-json")


def test_import_design_makes_a_project_per_table_and_lists_what_it_left(owner):
    stdout, stderr = run("import_design", str(BANK), "--owner", "ada")
    names = sorted(Project.objects.values_list("name", flat=True))
    assert names == ["Bank — PaymentScheduler", "Bank — TransactionHistory"]
    assert stdout.count("Imported ") == 2
    assert "note: PaymentScheduler: model metadata not kept" in stderr


def test_import_design_and_check_design_take_terraform_and_cloudformation(
    owner, tmp_path
):
    from modeler.exporters.terraform import export_terraform

    main = tmp_path / "main.tf"
    main.write_text(export_terraform(example(ORDERS)))
    stdout, stderr = run("import_design", str(main), "--owner", "ada")
    (project,) = Project.objects.all()
    assert project.name == "order-management"
    assert f"{main}: note: the tag Environment is set from the variable" in stderr
    stdout, _ = run("check_design", str(main), "--no-review")
    assert "advice: terraform: a configuration describes the table" in stdout
    assert "no errors" in stdout


def test_import_design_with_a_name_prefixes_each_table(owner):
    run("import_design", str(BANK), "--owner", "ada", "--project", "Payments")
    assert sorted(Project.objects.values_list("name", flat=True)) == [
        "Payments — PaymentScheduler",
        "Payments — TransactionHistory",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"ModelName": "x", "DataModel": [', "not valid JSON at line 1"),
        (
            '{"ModelName": "x", "ModelMetadata": {"Version": "9.0"}, '
            '"DataModel": [{}]}',
            "unknown version '9.0'",
        ),
        (
            '{"ModelName": "x", "DataModel": "tables"}',
            "expected a list of at least one",
        ),
    ],
)
def test_import_design_of_a_bad_model_creates_nothing(
    owner, tmp_path, content, message
):
    path = tmp_path / "model.json"
    path.write_text(content)
    stderr = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_design", str(path), "--owner", "ada", stderr=stderr)
    assert caught.value.returncode == 1
    assert message in stderr.getvalue()
    assert not Project.objects.exists()


def test_an_oversize_model_is_refused(owner, tmp_path, settings):
    settings.DESIGN_FILE_MAX_BYTES = 1000
    path = tmp_path / "big.json"
    path.write_text('{"ModelName": "x", "DataModel": []}' + " " * 2000)
    stderr = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_design", str(path), "--owner", "ada", stderr=stderr)
    assert "design files are limited to 1,000 bytes" in stderr.getvalue() or (
        "model files are limited to 1,000 bytes" in stderr.getvalue()
    )
    assert not Project.objects.exists()


def test_check_design_and_simulate_take_a_workbench_model():
    stdout = io.StringIO()
    call_command("check_design", str(CHAT), "--no-review", stdout=stdout)
    assert "advice: nosql-workbench: auto scaling" in stdout.getvalue()
    assert "no errors" in stdout.getvalue()
    stdout = io.StringIO()
    call_command(
        "sample_data", f"{BANK}#PaymentScheduler", "--items", "5", stdout=stdout
    )
    lines = stdout.getvalue().splitlines()
    # The generated items, then the model's own four as they were.
    assert len(lines) == 5 + 4
    assert '"Status#Time":{"S":"PENDING#2019-09-25T010101"}' in "".join(lines)


def test_workbench_export_with_generated_items_and_a_bad_count():
    stdout, _ = run(
        "export_design",
        str(ORDERS),
        "--format",
        "nosql-workbench",
        "--generated-items",
        "2",
    )
    facets = json.loads(stdout)["DataModel"][0]["TableFacets"]
    assert all(1 <= len(f["TableData"]) <= 2 for f in facets)
    with pytest.raises(CommandError, match="--generated-items takes 0 to 50"):
        run(
            "export_design",
            str(ORDERS),
            "--format",
            "nosql-workbench",
            "--generated-items",
            "51",
        )


def test_a_terraform_export_loads_neither_the_simulator_nor_botocore():
    """Writing a file is quick: a fresh process exporting Terraform does not
    import the simulator, the engine's client or botocore."""
    script = (
        "import sys\n"
        "from django.core.management import execute_from_command_line\n"
        "execute_from_command_line(['manage.py', 'export_design',"
        f" {str(ORDERS)!r}, '--format', 'terraform', '-o', '/dev/null'])\n"
        "heavy = ('botocore', 'modeler.engine.client', 'modeler.simulation.simulate')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    process = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "workbench.settings", "PATH": ""},
        timeout=60,
        check=False,
        text=True,
    )

    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == "[]"


def test_import_design_of_one_table_of_a_model(owner):
    stdout, stderr = run(
        "import_design", f"{BANK}#TransactionHistory", "--owner", "ada"
    )
    (project,) = Project.objects.all()
    assert project.name == "Bank — TransactionHistory"
    assert stdout.count("Imported ") == 1
    assert "PaymentScheduler" not in stderr


def test_import_design_of_a_table_the_file_lacks_names_its_tables(owner):
    stderr = io.StringIO()
    with pytest.raises(CommandError, match="not imported"):
        call_command(
            "import_design", f"{BANK}#Payments", "--owner", "ada", stderr=stderr
        )
    assert (
        "error: file: the NoSQL Workbench model has no table 'Payments'; its "
        "tables: PaymentScheduler, TransactionHistory"
    ) in stderr.getvalue()
    assert not Project.objects.exists()


def template_of(tables: dict[str, dict]) -> str:
    return json.dumps(
        {
            "AWSTemplateFormatVersion": "2010-09-09",
            "Parameters": {"Stage": {"Type": "String"}},
            "Resources": {
                logical: {"Type": "AWS::DynamoDB::Table", "Properties": props}
                for logical, props in tables.items()
            },
        }
    )


def table_properties(name: str) -> dict:
    return {
        "TableName": name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
    }


def test_import_design_of_one_table_leaves_the_others_unread(owner, tmp_path):
    # The other table's key schema is a parameter without a default: an
    # import of every table fails on it, an import of Orders does not.
    broken = table_properties("events") | {"KeySchema": {"Ref": "Stage"}}
    path = tmp_path / "stack.json"
    path.write_text(
        template_of({"Orders": table_properties("orders"), "Events": broken})
    )
    with pytest.raises(CommandError, match="not imported"):
        run("import_design", str(path), "--owner", "ada")
    for named in ("orders", "Orders"):  # its TableName or its logical id
        run("import_design", f"{path}#{named}", "--owner", "ada")
    assert list(Project.objects.values_list("name", flat=True)) == ["orders"] * 2
    # A command that reads one design asks for one before reading any.
    stdout = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_design", str(path), stdout=stdout)
    assert stdout.getvalue() == (
        f"{path}: error: file: the CloudFormation template has 2 tables (orders, "
        f"events); name one as {path}#TABLE (import_design imports them all)\n"
    )


def test_import_design_refuses_more_tables_than_the_setting(owner, tmp_path, settings):
    settings.IMPORT_MAX_TABLES = 2
    path = tmp_path / "stack.json"
    path.write_text(
        template_of({f"T{i}": table_properties(f"table-{i}") for i in range(3)})
    )
    stderr = io.StringIO()
    with pytest.raises(CommandError, match="not imported"):
        call_command("import_design", str(path), "--owner", "ada", stderr=stderr)
    assert (
        "error: file: the CloudFormation template has 3 tables and an import makes "
        "at most 2 projects (the setting IMPORT_MAX_TABLES): name one as "
        "FILE#TABLE to import it alone, or raise IMPORT_MAX_TABLES"
    ) in stderr.getvalue()
    assert not Project.objects.exists()
    run("import_design", f"{path}#table-2", "--owner", "ada")
    assert list(Project.objects.values_list("name", flat=True)) == ["table-2"]


TWO_TABLES_TF = """
resource "aws_dynamodb_table" "orders" {
  name         = "orders-table"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "PK"
  attribute {
    name = "PK"
    type = "S"
  }
}
resource "aws_dynamodb_table" "events" {
  name         = "events-table"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "ID"
  attribute {
    name = "ID"
    type = "S"
  }
}
"""


@pytest.mark.parametrize("named", ["orders", "orders-table"])
def test_a_terraform_table_is_named_by_its_name_or_its_resource(tmp_path, named):
    main = tmp_path / "main.tf"
    main.write_text(TWO_TABLES_TF)
    stdout, _ = run("export_design", f"{main}#{named}", "--format", "cli-json")
    assert json.loads(stdout)["TableName"] == "orders-table"
