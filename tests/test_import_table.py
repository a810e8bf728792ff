"""import_table: a live table on moto's DynamoDB server becomes a project,
its entities and key templates inferred from a sample of its items."""

from __future__ import annotations

import dataclasses
import http.server
import io
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.conversion import design_from_project
from modeler.design import model as d
from modeler.designfile import read_design
from modeler.exporters.tabledef import policy_configuration, scaling_targets
from modeler.importers.live import read_live_table, table_properties
from modeler.infra.dynamodb import Endpoint, make_client
from modeler.models import Project
from modeler.simulation import Simulation

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.yaml"))
# Items in each live table: past the 1,000 an import keeps, and every
# entity and key template shows; the examples' thousands only make moto slow.
LIVE_ITEMS = 1_500


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


def register_scaling(moto_url: str, table: str, design, target: float = 70.0) -> None:
    """Application Auto Scaling targets and policies for the table as the
    exports write them (or as `design` says)."""
    scaling = make_client(
        endpoint_url=moto_url, region="us-east-1", service="application-autoscaling"
    )
    for t in scaling_targets(design.table):
        resource = f"table/{table}" + (f"/index/{t.index}" if t.index else "")
        scaling.register_scalable_target(
            ServiceNamespace="dynamodb",
            ResourceId=resource,
            ScalableDimension=t.scalable_dimension,
            MinCapacity=t.min_capacity,
            MaxCapacity=t.max_capacity,
        )
        scaling.put_scaling_policy(
            PolicyName=f"{t.label}-policy",
            ServiceNamespace="dynamodb",
            ResourceId=resource,
            ScalableDimension=t.scalable_dimension,
            PolicyType="TargetTrackingScaling",
            TargetTrackingScalingPolicyConfiguration={
                "TargetValue": float(t.target or target),
                "PredefinedMetricSpecification": {"PredefinedMetricType": t.metric},
                **policy_configuration(t),
            },
        )


def load_example(path: Path, aws, moto_url: str) -> str:
    """The example's table on moto with its sample data, TTL, point-in-time
    recovery, tags and auto scaling set as the design says."""
    design = read_design(path.read_text()).design
    table = f"{design.table.name}-live"
    endpoint = Endpoint(
        design, make_client(endpoint_url=moto_url, region="us-east-1"), table_name=table
    )
    endpoint.create_table()
    endpoint.load(Simulation(design, items=LIVE_ITEMS).items)
    register_scaling(moto_url, table, design)
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


@pytest.fixture(scope="module")
def live_table(moto_url: str):
    """Each example's table on moto, loaded once for the module: import_table
    only reads it, and loading thousands of items into moto takes seconds."""
    tables: dict[Path, str] = {}

    def table_of(path: Path, aws) -> str:
        if path not in tables:
            tables[path] = load_example(path, aws, moto_url)
        return tables[path]

    return table_of


def templates(design) -> set[frozenset]:
    """Each entity's key templates and conditions, names aside."""
    return {
        frozenset((k, v.template, v.when) for k, v in e.keys.items())
        for e in design.entities
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_live_table_gives_back_the_examples_entities_and_key_templates(
    path, aws, moto_url, owner, live_table
):
    table = live_table(path, aws)
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
    assert design.table.billing_mode == example.table.billing_mode
    assert design.table.capacity == example.table.capacity
    assert design.table.ttl_attribute == example.table.ttl_attribute
    assert design.table.point_in_time_recovery == example.table.point_in_time_recovery
    assert 0 < len(design.sample_data.items) <= 1_000
    assert "kept as the project's own items" in stderr


def test_estimate_reads_no_item_and_creates_nothing(aws, moto_url, owner, live_table):
    table = live_table(EXAMPLES[0], aws)
    stdout, _ = import_table(moto_url, table, "--estimate")
    assert "read units (eventually consistent)" in stdout
    assert "Read " not in stdout
    assert not Project.objects.exists()


def test_a_missing_table_is_a_clear_error(aws, moto_url, owner):
    with pytest.raises(CommandError, match="nope: ResourceNotFoundException"):
        import_table(moto_url, "nope")
    assert not Project.objects.exists()


@pytest.fixture
def closed_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def not_dynamodb() -> Iterator[str]:
    """An HTTP server that answers every request 404, as a web server or a
    proxy at a wrong URL does."""

    class NotFound(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # the handler's name
            self.send_error(404)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join()
    server.server_close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--endpoint-url", "notaurl"],
            "members: the endpoint URL 'notaurl' is not a URL: give one such as "
            "http://localhost:8000 (DynamoDB Local) or leave it out for AWS",
        ),
        (
            ["--region", "eu west 1"],
            "members: 'eu west 1' is not an AWS region name (such as eu-west-1)",
        ),
        (
            ["--endpoint-url", "http://127.0.0.1:{closed_port}"],
            'members: Could not connect to the endpoint URL: "http://127.0.0.1:'
            '{closed_port}/": check the endpoint URL (or the region, for AWS) and '
            "that the endpoint is running",
        ),
        (
            ["--endpoint-url", "{not_dynamodb}"],
            "members: the endpoint answered HTTP 404 without a DynamoDB error: is "
            "its URL a DynamoDB endpoint's?",
        ),
    ],
    ids=["not a URL", "not a region", "nothing listening", "not DynamoDB"],
)
def test_an_endpoint_that_cannot_be_used_is_a_one_line_error(
    aws, owner, closed_port, not_dynamodb, args, message
):
    where = {"closed_port": closed_port, "not_dynamodb": not_dynamodb}
    with pytest.raises(CommandError) as raised:
        run(
            "import_table",
            "members",
            "--owner",
            "ada",
            *(a.format(**where) for a in args),
        )
    assert str(raised.value) == message.format(**where)
    assert not Project.objects.exists()


def test_missing_credentials_are_a_one_line_error(monkeypatch, moto_url, owner):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    # boto3's default session keeps the credentials it found first.
    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    with pytest.raises(CommandError) as raised:
        import_table(moto_url, "members")
    assert str(raised.value) == (
        "members: Unable to locate credentials: boto3 found no complete AWS "
        "credentials (it looks in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
        "AWS_PROFILE, ~/.aws and the instance's role; DynamoDB Local takes any "
        "values)"
    )
    monkeypatch.setenv("AWS_PROFILE", "nope")
    with pytest.raises(CommandError, match=r"The config profile \(nope\) could not"):
        import_table(moto_url, "members")
    assert not Project.objects.exists()


def described(name: str, *gsis: tuple[str, str, str]) -> dict:
    """DescribeTable's answer for an on-demand table keyed PK, SK (all S)
    with GSIs given as (name, partition key, sort key or "")."""
    names = ["PK", "SK"] + [k for _, pk, sk in gsis for k in (pk, sk) if k]
    return {
        "TableName": name,
        "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
        "AttributeDefinitions": [
            {"AttributeName": n, "AttributeType": "S"} for n in dict.fromkeys(names)
        ],
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": index,
                "KeySchema": [{"AttributeName": pk, "KeyType": "HASH"}]
                + ([{"AttributeName": sk, "KeyType": "RANGE"}] if sk else []),
                "Projection": {"ProjectionType": "ALL"},
            }
            for index, pk, sk in gsis
        ],
    }


def test_sparse_conditions_are_inferred_from_which_items_have_the_index_keys():
    props = described("tasks", ("Open", "GSI1PK", ""))
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


@pytest.mark.parametrize(
    ("values", "kind", "generator"),
    [
        (
            ["2025-01-03", "2024-12-30", "2025-02-01"],
            "S",
            {"date": {"from": "2024-12-30", "to": "2025-02-01"}},
        ),
        (
            ["2025-01-03T10:00:00.123Z", "2024-12-30T08:00:00Z"],
            "S",
            {
                "timestamp": {
                    "from": "2024-12-30T08:00:00Z",
                    "to": "2025-01-03T10:00:00Z",
                }
            },
        ),
        (
            ["PRD-00017", "PRD-12345", "PRD-99999"],
            "S",
            {"faker": {"provider": "bothify", "text": "PRD-#####"}},
        ),
        (["OPEN"] * 6 + ["SHIPPED"] * 4, "S", {"choice": {"OPEN": 6, "SHIPPED": 4}}),
        (["a@example.com", "b@example.org"], "S", {"faker": "email"}),
        (["01J0ZQ7W8M5W6N2A3B4C5D6E7F", "01J0ZQ7W8M5W6N2A3B4C5D6E7G"], "S", "ulid"),
        (["Order"] * 5, "S", {"constant": "Order"}),
        (["1", "5", "3"], "N", {"int": {"min": 1, "max": 5}}),
        (
            ["1.5", "20.25", "3"],
            "N",
            {"decimal": {"min": 1.5, "max": 20.25, "places": 2}},
        ),
        ([True, False, False, False], "BOOL", {"bool": 0.25}),
        # Too little to go by, or nothing that fits: the default stays.
        (["Order"] * 2, "S", None),
        (["Ann Lee", "Bo Chen", "Cy Diaz"], "S", None),
    ],
)
def test_generators_are_inferred_from_the_values(values, kind, generator):
    from modeler.importers.workbench_generators import inferred_generator

    wire = [{kind: v} for v in values]
    assert inferred_generator(wire, kind) == generator


def test_an_inferred_repeating_generator_never_keys_a_table_item():
    """Twelve orders of three customers: `customerId` looks like a choice of
    three, but a choice in the partition key would give all generated
    customers three keys between them; `status` is a choice."""
    props = described("orders")
    items = [
        {
            "PK": {"S": f"CUST#c{n % 3}"},
            "SK": {"S": f"ORDER#{n:04d}"},
            "customerId": {"S": f"c{n % 3}"},
            "status": {"S": ("OPEN", "SHIPPED")[n % 2]},
        }
        for n in range(12)
    ]
    result = read_live_table(table_properties(props), items, keep=10)
    (entity,) = result.designs[0].entities
    generators = {a.name: a.generator for a in entity.attributes}
    assert entity.keys["PK"].template == "CUST#{customerId}"
    assert generators["status"].kind == "choice"
    assert generators["customerId"] is None


def test_a_sort_key_that_starts_with_a_placeholder_is_a_kind_of_its_own():
    """Accounts with a profile, transactions keyed by their time first and
    group memberships, and an inverted index (SK, PK): three kinds, not one
    that a placeholder-first sort key would swallow; the transactions are
    named by the word in their sort key."""
    props = described("bank", ("Inverted", "SK", "PK"))
    items = []
    for account in range(6):
        pk = {"S": f"ACCT#{account:04d}"}
        items.append({"PK": pk, "SK": {"S": "PROFILE"}, "owner": {"S": "Ann"}})
        for n in range(4):
            when = f"2025-01-{n + 1:02d}T10:00:00Z"
            items.append(
                {"PK": pk, "SK": {"S": f"{when}#TX#{account}{n}"}, "amount": {"N": "5"}}
            )
        for n in range(2):
            group = f"GROUP#G{(account + n) % 3}"
            items.append({"PK": pk, "SK": {"S": group}, "role": {"S": "member"}})
    result = read_live_table(table_properties(props), items, keep=100)
    assert result.ok, result.all_problems
    (design,) = result.designs
    assert design.table.billing_mode == "PAY_PER_REQUEST"
    keys = {
        e.name: (e.keys["PK"].template, e.keys["SK"].template) for e in design.entities
    }
    assert keys == {
        "Profile": ("ACCT#{acctId:04d}", "PROFILE"),
        "Tx": ("ACCT#{acctId:04d}", "{skValue}#TX#{txId:02d}"),
        "Group": ("ACCT#{acctId:04d}", "GROUP#G{gId}"),
    }


def test_a_live_tables_own_auto_scaling_is_kept(aws, moto_url, owner):
    # The table scales its reads between 2 and 40 at 55%, never in and 120 s
    # apart when it scales out; its GSI not at all.
    path = next(p for p in EXAMPLES if p.stem == "device-telemetry")
    design = read_design(path.read_text()).design
    table = f"{design.table.name}-scaled"
    Endpoint(
        design, make_client(endpoint_url=moto_url, region="us-east-1"), table_name=table
    ).create_table()
    own = dataclasses.replace(
        design.table,
        capacity=dataclasses.replace(
            design.table.capacity,
            auto_scaling=d.AutoScaling(READS, None),
        ),
        indexes=(),
    )
    register_scaling(moto_url, table, dataclasses.replace(design, table=own))
    _, stderr = import_table(moto_url, table)
    imported = design_from_project(Project.objects.get()).table
    assert imported.capacity.auto_scaling == d.AutoScaling(READS, None)
    gsi = next(i for i in imported.indexes if i.is_global)
    assert gsi.capacity.auto_scaling == d.AUTO_SCALING_OFF
    assert (
        "auto scaling kept: the table: reads 2 to 40 units at 55% (never scales "
        "in, 120 s between scale-outs)"
    ) in stderr


READS = d.ScalingRange(2, 40, 55, scale_out_cooldown=120, disable_scale_in=True)
