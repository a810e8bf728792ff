"""import_table: a live table on moto's DynamoDB server becomes a project,
its entities and key templates inferred from a sample of its items."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.conversion import design_from_project
from modeler.designfile import read_design
from modeler.dynamodb import Endpoint, make_client
from modeler.exporters.live_import import read_live_table, table_properties
from modeler.models import Project
from modeler.simulation import Simulation

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.yaml"))


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("ada", password="pw")


def run(*args: str) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


def import_table(moto_url: str, table: str, *args: str) -> tuple[str, str]:
    return run(
        "import_table", table, "--owner", "ada", "--endpoint-url", moto_url, *args
    )


def load_example(path: Path, aws, moto_url: str, suffix: str = "live") -> str:
    """The example's table on moto with its sample data, TTL, point-in-time
    recovery and tags set as the design says."""
    design = read_design(path.read_text()).design
    table = f"{design.table.name}-{suffix}"
    endpoint = Endpoint(
        design, make_client(endpoint_url=moto_url, region="us-east-1"), table_name=table
    )
    endpoint.create_table()
    endpoint.load(Simulation(design).items)
    if design.table.ttl_attribute:
        aws.update_time_to_live(
            TableName=table,
            TimeToLiveSpecification={
                "Enabled": True,
                "AttributeName": design.table.ttl_attribute,
            },
        )
    aws.update_continuous_backups(
        TableName=table,
        PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": design.table.point_in_time_recovery
        },
    )
    return table


def templates(design) -> set[frozenset]:
    """Each entity's key templates and conditions, names aside."""
    return {
        frozenset((k, v.template, v.when) for k, v in e.keys.items())
        for e in design.entities
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_live_table_gives_back_the_examples_entities_and_key_templates(
    path, aws, moto_url, owner
):
    table = load_example(path, aws, moto_url)
    stdout, stderr = import_table(moto_url, table, "--sample", "3000")
    assert f"{table}: about " in stdout and "read units" in stdout
    assert "Sampling up to 3,000 items by a Scan in 4 parallel segments" in stdout
    (project,) = Project.objects.all()
    assert project.name == table
    design = design_from_project(project)
    example = read_design(path.read_text()).design
    assert templates(design) == templates(example)
    assert design.table.partition_key == example.table.partition_key
    assert design.table.sort_key == example.table.sort_key
    assert {i.name for i in design.table.indexes} == {
        i.name for i in example.table.indexes
    }
    assert design.table.ttl_attribute == example.table.ttl_attribute
    assert design.table.point_in_time_recovery == example.table.point_in_time_recovery
    assert 0 < len(design.sample_data.items) <= 1_000
    assert "kept as the project's own items" in stderr


def test_estimate_reads_no_item_and_creates_nothing(aws, moto_url, owner):
    table = load_example(EXAMPLES[0], aws, moto_url, "estimate")
    stdout, _ = import_table(moto_url, table, "--estimate")
    assert "read units (eventually consistent)" in stdout
    assert "Read " not in stdout
    assert not Project.objects.exists()


def test_a_missing_table_is_a_clear_error(aws, moto_url, owner):
    with pytest.raises(CommandError, match="nope: ResourceNotFoundException"):
        import_table(moto_url, "nope")
    assert not Project.objects.exists()


def test_sparse_conditions_are_inferred_from_which_items_have_the_index_keys():
    props = {
        "TableName": "tasks",
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK", "GSI1PK")
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": "Open",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
    }
    items = []
    for n in range(40):
        state = ("open", "done", "in review")[n % 3]
        item = {
            "PK": {"S": f"TEAM#{n % 4}"},
            "SK": {"S": f"TASK#{n:04d}"},
            "state": {"S": state},
        }
        if state == "in review":
            item["GSI1PK"] = {"S": f"TEAM#{n % 4}"}
        items.append(item)
    result = read_live_table(table_properties(props), items, keep=10)
    assert result.ok, result.all_problems
    (design,) = result.designs
    (entity,) = design.entities
    assert entity.keys["GSI1PK"].when == 'state = "in review"'
    # The index's partition key is the table's: one template for both.
    assert entity.keys["GSI1PK"].template == entity.keys["PK"].template
    assert entity.keys["PK"].template.startswith("TEAM#{")
    assert len(design.sample_data.items) == 10
    assert any("inferred the sparse condition" in n for n in result.tables[0].notes)
