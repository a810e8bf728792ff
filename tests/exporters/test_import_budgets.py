"""Files that ask an importer for far more work than their size are read
within the import's budget: each local, condition and mapping entry is
evaluated once, a value past IMPORT_MAX_VALUE_BYTES and work past
IMPORT_MAX_STEPS or IMPORT_CPU_SECONDS are refused with a message naming
the setting, deep nesting is refused before anything recurses, and a large
NoSQL Workbench model is read in time that grows with its size, not its
square. Each hostile file takes well under a second of CPU."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.importers import budget as import_budget
from modeler.importers.budget import ImportLimits
from modeler.importers.sources import DesignFile, read_design_source
from modeler.importers.workbench_groups import _kind_names, key_shape_groups
from modeler.models import Project
from tests.exporters import hostile_files as hostile

VALUE_TOO_LARGE = (
    "evaluates to more than 100,000 bytes; this workbench allows at most that "
    "for one value (setting IMPORT_MAX_VALUE_BYTES)"
)
TOO_DEEP = (
    "nested more than 100 levels deep, which this workbench does not read "
    "(a DynamoDB item nests at most 32 levels)"
)


@pytest.fixture(autouse=True)
def _default_limits() -> Iterator[None]:
    # The defaults, whatever the environment sets; and Terraform's parser
    # loaded, so that its one-off start-up is not counted against a file.
    with import_budget.configured(ImportLimits()):
        read_design_source(hostile.tf_cycle(), filename="warm.tf")
        yield


def read(text: str, filename: str, *, cpu: float = 1.0) -> DesignFile:
    """The file read; it must take less than `cpu` seconds of CPU."""
    started = time.thread_time()
    found = read_design_source(text, filename=filename)
    spent = time.thread_time() - started
    assert spent < cpu, f"{spent:.2f} s of CPU"
    return found


def refusal(found: DesignFile) -> str:
    assert not found.ok
    assert not found.designs
    errors = [p for p in found.problems if p.is_error]
    assert len(errors) == 1, errors
    return errors[0].message


def test_locals_that_double_a_text_are_refused_at_the_limit():
    found = read(hostile.tf_doubling_locals(60), "double.tf")
    # 'ab' doubled 16 times is 131,072 bytes.
    assert refusal(found) == f"local.l16 {VALUE_TOO_LARGE}"


def test_locals_that_double_a_list_are_refused_at_the_limit():
    found = read(hostile.tf_doubling_lists(60), "lists.tf")
    assert refusal(found) == f"local.l15 {VALUE_TOO_LARGE}"


def test_many_chains_of_locals_are_refused_at_the_first_past_the_limit():
    found = read(hostile.tf_many_chains(chains=25), "chains.tf")
    assert refusal(found) == f"local.c0_14 {VALUE_TOO_LARGE}"


def test_each_local_is_evaluated_once():
    # Each local names the one before twice: 2**60 evaluations, or 61.
    with import_budget.configured(ImportLimits(steps=1_000)):
        found = read(hostile.tf_fanout_locals(60), "fanout.tf")
    assert found.ok, found.problems
    assert found.designs[0].table.name == "fan"


def test_a_cycle_of_locals_names_each_of_them():
    found = read(hostile.tf_cycle(), "cycle.tf")
    assert [(p.path, p.message) for p in found.problems if p.is_error] == [
        (
            'resource.aws_dynamodb_table."t".billing_mode',
            "local.a refers to itself through local.b -> local.c -> local.a",
        )
    ]


def test_a_local_used_by_several_tables_is_theirs_each():
    # Values of locals are shared by their uses; what one table's reading
    # changes in its arguments is not another's.
    text = """
locals {
  gsi = [{ name = "GSI1", hash_key = "G", projection_type = "ALL", bad = {} }]
}
""" + "".join(
        f"""
resource "aws_dynamodb_table" "t{n}" {{
  name = "table-{n}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key = "PK"
  attribute {{
    name = "PK"
    type = "S"
  }}
  attribute {{
    name = "G"
    type = "S"
  }}
  global_secondary_index = "${{local.gsi}}"
}}
"""
        for n in (1, 2)
    )
    found = read(text, "shared.tf")
    assert found.ok, found.problems
    assert [[i.name for i in d.table.indexes] for d in found.designs] == [
        ["GSI1"],
        ["GSI1"],
    ]


def test_conditions_nested_twice_over_are_evaluated_once():
    # The audit's template: Fn::And of the condition before, twice, 45 times.
    with import_budget.configured(ImportLimits(steps=1_000)):
        found = read(hostile.cfn_nested_conditions(45), "conditions.json")
    assert found.ok, found.problems
    assert found.designs[0].table.name == "tableA"


def test_a_cycle_of_conditions_names_each_of_them():
    found = read(hostile.cfn_condition_cycle(), "cycle.json")
    assert [(p.path, p.message) for p in found.problems if p.is_error] == [
        (
            "Resources.Table.Properties.BillingMode",
            "the condition A refers to itself through the condition B -> the "
            "condition C -> the condition A",
        )
    ]


def test_mapping_entries_that_double_are_refused_at_the_limit():
    found = read(hostile.cfn_doubling_mappings(60), "mappings.json")
    assert refusal(found) == f"the mapping entry M / k / v16 {VALUE_TOO_LARGE}"


@pytest.mark.parametrize(
    ("template", "function"),
    [(hostile.cfn_long_join, "Fn::Join"), (hostile.cfn_long_sub, "Fn::Sub")],
    ids=["join", "sub"],
)
def test_a_function_that_multiplies_a_text_is_refused_before_it_is_made(
    template, function
):
    # A gigabyte for Fn::Join, 100 MB for Fn::Sub, if they were made.
    found = read(template(), "multiplied.json")
    assert refusal(found) == f"{function} {VALUE_TOO_LARGE}"


def test_a_split_by_nothing_is_an_error_of_its_property():
    template = json.loads(hostile.cfn_nested(0))
    properties = template["Resources"]["Table"]["Properties"]
    properties["BillingMode"] = {"Fn::Select": [0, {"Fn::Split": ["", "abc"]}]}
    found = read(json.dumps(template), "split.json")
    assert [(p.path, p.message) for p in found.problems if p.is_error] == [
        ("Resources.Table.Properties.BillingMode", "Fn::Split's delimiter is empty")
    ]


@pytest.mark.parametrize(
    ("text", "filename"),
    [
        (hostile.tf_cycle(), "config.tf"),
        (hostile.cfn_nested_conditions(3), "template.json"),
    ],
    ids=["terraform", "cloudformation"],
)
def test_evaluation_steps_past_the_limit_are_refused(text, filename):
    with import_budget.configured(ImportLimits(steps=5)):
        found = read(text, filename)
    assert refusal(found) == (
        "evaluating the file's expressions takes more than 5 steps (its values "
        "refer to each other too many times); this workbench allows at most "
        "that (setting IMPORT_MAX_STEPS)"
    )


CPU_SPENT = (
    "this import took more than 0.001 s of CPU; this workbench allows at most "
    "that (setting IMPORT_CPU_SECONDS): import a smaller file, or split it"
)


@pytest.mark.parametrize(
    ("text", "filename"),
    [
        # Parsing alone: variables and no table.
        (
            "".join(f'variable "v{n}" {{\n  default = "{n}"\n}}\n' for n in range(300)),
            "variables.tf",
        ),
        (hostile.cfn_tagged(600), "template.json"),
        (hostile.nwb_facets_keyed_alike(20, 10), "model.json"),
        (hostile.nwb_kinds_by_shape(300), "model.json"),
    ],
    ids=["terraform", "cloudformation", "facets", "kinds of key"],
)
def test_an_import_stops_at_its_cpu_seconds(text, filename):
    with import_budget.configured(ImportLimits(cpu_seconds=0.001)):
        found = read(text, filename)
    assert refusal(found) == CPU_SPENT


@pytest.mark.parametrize("levels", [101, 900, 5_000])
@pytest.mark.parametrize(
    ("make", "filename", "what"),
    [
        (hostile.tf_nested, "deep.tf", "the configuration"),
        (hostile.cfn_nested, "deep.json", "the file"),
        (lambda n: hostile.nwb_nested_item(n // 2 + 1), "deep.json", "the file"),
    ],
    ids=["terraform", "cloudformation", "nosql-workbench"],
)
def test_deep_nesting_is_refused_before_anything_recurses(levels, make, filename, what):
    found = read(make(levels), filename)
    assert refusal(found) == f"{what} is {TOO_DEEP}"


@pytest.mark.parametrize("levels", [41, 900, 5_000])
@pytest.mark.parametrize("kind", ["design YAML", "template YAML"])
def test_deep_yaml_is_refused_as_before(levels, kind):
    head = (
        "format: single-table-workbench/v1\nx: "
        if kind == "design YAML"
        else "AWSTemplateFormatVersion: '2010-09-09'\nResources: "
    )
    found = read(head + "[" * levels + "]" * levels + "\n", "deep.yaml")
    assert "nested more than 40 levels deep" in refusal(found)


def test_a_model_of_many_facets_keyed_alike_is_read_in_one_pass():
    # Every facet's keys collide with every other's: they were merged one
    # pair at a time, each time reading the whole model again (the audit's
    # 300 facets ran for minutes; 40 took six seconds).
    found = read(hostile.nwb_facets_keyed_alike(40, 10), "model.json", cpu=3.0)
    assert found.ok, found.problems
    (design,) = found.designs
    assert [e.name for e in design.entities] == ["Kind0"]
    assert len(design.sample_data.items) == 400
    merged = [n for n in found.notes if " was merged into Kind0" in n]
    assert len(merged) == 39


@pytest.mark.parametrize(
    ("where", "path"),
    [
        ("table", "DataModel[0].ProvisionedCapacitySettings.ProvisionedThroughput"),
        ("index", "DataModel[0].GlobalSecondaryIndexes[0].ProvisionedThroughput"),
    ],
)
def test_a_provisioned_throughput_that_is_text_is_an_error(where, path):
    model = hostile.workbench_model(
        items=[],
        BillingMode="PROVISIONED",
        ProvisionedCapacitySettings={
            "ProvisionedThroughput": "5"
            if where == "table"
            else {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
        },
        GlobalSecondaryIndexes=[
            {
                "IndexName": "GSI1",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "G", "AttributeType": "S"}
                },
                "Projection": {"ProjectionType": "ALL"},
                "ProvisionedThroughput": "5" if where == "index" else None,
            }
        ],
    )
    found = read(json.dumps(model), "model.json")
    assert [(p.path, p.message) for p in found.problems if p.is_error] == [
        (
            path,
            "expected an object with ReadCapacityUnits and WriteCapacityUnits, "
            "found the text '5'",
        )
    ]


def test_a_facets_attributes_that_are_not_a_list_are_an_error():
    facet = {"FacetName": "F", "TableData": [], "NonKeyAttributes": 5}
    found = read(json.dumps(hostile.workbench_model([facet])), "model.json")
    assert [(p.path, p.message) for p in found.problems if p.is_error] == [
        (
            "DataModel[0].TableFacets[0].NonKeyAttributes",
            "expected a list, found the value 5",
        )
    ]


# --- Through the commands (the CI gate and the import) ------------------------

HOSTILE_FILES = {
    "double.tf": (hostile.tf_doubling_locals(60), f"local.l16 {VALUE_TOO_LARGE}"),
    "mappings.json": (
        hostile.cfn_doubling_mappings(60),
        f"the mapping entry M / k / v16 {VALUE_TOO_LARGE}",
    ),
    "join.json": (hostile.cfn_long_join(), f"Fn::Join {VALUE_TOO_LARGE}"),
    "deep.json": (hostile.nwb_nested_item(450), f"the file is {TOO_DEEP}"),
    "deep.tf": (hostile.tf_nested(900), f"the configuration is {TOO_DEEP}"),
    "throughput.json": (
        json.dumps(
            hostile.workbench_model(
                items=[],
                BillingMode="PROVISIONED",
                ProvisionedCapacitySettings={"ProvisionedThroughput": "5"},
            )
        ),
        "DataModel[0].ProvisionedCapacitySettings.ProvisionedThroughput: expected an "
        "object with ReadCapacityUnits and WriteCapacityUnits, found the text '5'",
    ),
}


def run(*args: str) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


@pytest.fixture
def hostile_file(request, tmp_path) -> tuple[Path, str]:
    name = request.param
    text, message = HOSTILE_FILES[name]
    path = tmp_path / name
    path.write_text(text)
    return path, message


@pytest.mark.parametrize("hostile_file", HOSTILE_FILES, indirect=True)
@pytest.mark.parametrize(
    "command",
    [
        ("check_design",),
        ("simulate",),
        ("export_design", "--format", "terraform"),
        ("sample_data", "--items", "1"),
    ],
    ids=lambda c: c[0],
)
def test_the_commands_refuse_a_hostile_file_with_its_message(hostile_file, command):
    path, message = hostile_file
    stdout = io.StringIO()
    started = time.thread_time()
    with pytest.raises(CommandError) as refused:
        call_command(command[0], str(path), *command[1:], stdout=stdout)
    assert time.thread_time() - started < 5.0
    # check_design lists the problems, then says how many; the others stop.
    assert message in stdout.getvalue() + str(refused.value)


@pytest.mark.parametrize("hostile_file", HOSTILE_FILES, indirect=True)
def test_import_design_refuses_a_hostile_file_and_creates_nothing(
    hostile_file, django_user_model
):
    django_user_model.objects.create_user("ada")
    path, message = hostile_file
    stderr = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_design", str(path), "--owner", "ada", stderr=stderr)
    assert message in stderr.getvalue()
    assert not Project.objects.exists()


def test_check_design_reads_the_audits_conditions_in_a_moment(tmp_path):
    path = tmp_path / "conditions.json"
    path.write_text(hostile.cfn_nested_conditions(45))
    started = time.thread_time()
    stdout, _ = run("check_design", str(path), "--no-review")
    assert time.thread_time() - started < 5.0
    assert "tableA: no errors" in stdout


def test_items_of_many_kinds_of_key_are_grouped_in_a_moment():
    # No facets, no type attribute: 3,000 items of 3,000 kinds of key,
    # alike enough to be one (4.5 million pairs; 1.4 s of CPU before).
    model = json.loads(hostile.nwb_kinds_by_shape(3_000))
    items = model["DataModel"][0]["TableData"]
    started = time.thread_time()
    groups = key_shape_groups(items, ["PK", "SK"], 2, "Items")
    assert time.thread_time() - started < 0.7
    assert [(g.name, len(g.items)) for g in groups] == [("Items", 3_000)]


def test_many_kinds_of_key_are_named_in_a_moment():
    # Kinds told apart by their partition key, their sort key or an index's:
    # each named by the word no other has (1.2 s of CPU for 3,000 before).
    shapes = (
        [(f"=W{n}", "=X", None) for n in range(2_000)]
        + [("=A", f"=Y{n}", None) for n in range(500)]
        + [("=Q", "=Q", f"=Z{n % 7}#{n}") for n in range(500)]
    )
    started = time.thread_time()
    names = _kind_names(shapes)
    assert time.thread_time() - started < 0.3
    assert len(set(names.values())) == 3_000
    assert names[("=W7", "=X", None)] == "W7"
    assert names[("=A", "=Y3", None)] == "Y3"
