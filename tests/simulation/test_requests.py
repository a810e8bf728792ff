"""Building real requests from patterns: what the simulator sends and what
a designer copies into code."""

from __future__ import annotations

import json
import shlex
from decimal import Decimal
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.simulation.requests import (
    ExpressionBuilder,
    RequestError,
    cli_command,
    create_table_request,
    read_request,
    write_action_request,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def orders():
    return read_design((EXAMPLES / "order-management.yaml").read_text()).design


def pattern(design, name):
    return next(p for p in design.access_patterns if p.name == name)


@pytest.mark.parametrize(
    ("source", "expression", "values"),
    [
        ('status = "OPEN"', "#status = :s", {":s": "OPEN"}),
        (
            "total >= 100 AND status <> {status}",
            "#total >= :n AND #status <> :status",
            {":n": Decimal(100), ":status": "SHIPPED"},
        ),
        ("attribute_exists(shippedAt)", "attribute_exists(#shippedAt)", {}),
        (
            'begins_with(name, "A") or not contains(tags, {status})',
            "begins_with(#name, :s) OR NOT contains(#tags, :status)",
            {":s": "A", ":status": "SHIPPED"},
        ),
        (
            "items[2].price between 1 and 9",
            "#items[2].#price BETWEEN :n AND :n2",
            {":n": Decimal(1), ":n2": Decimal(9)},
        ),
        ("size(name) > 3", "size(#name) > :n", {":n": Decimal(3)}),
    ],
)
def test_designer_expressions_become_dynamodb_expressions(source, expression, values):
    builder = ExpressionBuilder.new({"status": "SHIPPED"})
    assert builder.text(source) == expression
    assert builder.values == values
    # Every bare name is aliased, so reserved words such as status never bite.
    assert all(alias.startswith("#") for alias in builder.names)


def test_an_unbound_parameter_is_a_clear_error():
    with pytest.raises(RequestError, match="no value for the parameter 'status'"):
        ExpressionBuilder.new({}).text("status = {status}")


def test_query_request_has_the_key_condition_index_and_order(orders):
    request = read_request(
        orders,
        pattern(orders, "Orders of a customer in a status"),
        {"customerId": "C1", "status": "OPEN"},
    )
    assert request["IndexName"] == "GSI1"
    assert request["KeyConditionExpression"] == "#GSI1PK = :GSI1PK"
    assert request["ExpressionAttributeValues"] == {":GSI1PK": {"S": "CUST#C1#OPEN"}}
    assert request["ScanIndexForward"] is False
    assert request["ReturnConsumedCapacity"] == "INDEXES"


def test_begins_with_and_limit(orders):
    request = read_request(
        orders,
        pattern(orders, "Orders of a customer, newest first"),
        {"customerId": "C1"},
    )
    assert request["KeyConditionExpression"] == ("#PK = :PK AND begins_with(#SK, :SK)")
    assert request["ExpressionAttributeValues"][":SK"] == {"S": "ORDER#"}
    assert request["Limit"] == 20


def test_get_item_request_has_the_full_key(orders):
    request = read_request(
        orders, pattern(orders, "Get customer profile"), {"customerId": "C9"}
    )
    assert request["Key"] == {"PK": {"S": "CUST#C9"}, "SK": {"S": "PROFILE"}}
    assert "KeyConditionExpression" not in request


def test_update_request_sets_removes_and_conditions(orders):
    ship = pattern(orders, "Ship an order")
    item = {
        "PK": "CUST#C1",
        "SK": "ORDER#2025-01-01#O1",
        "customerId": "C1",
        "orderId": "O1",
        "orderDate": "2025-01-01",
        "status": "OPEN",
    }
    operation, request = write_action_request(
        orders, ship.actions[0], {"shippedAt": "2025-01-03T10:00:00Z"}, item
    )
    assert operation == "UpdateItem"
    assert request["Key"] == {
        "PK": {"S": "CUST#C1"},
        "SK": {"S": "ORDER#2025-01-01#O1"},
    }
    assert request["UpdateExpression"] == (
        "SET #status = :status, #shippedAt = :shippedAt, #GSI1PK = :GSI1PK "
        "REMOVE #GSI2PK, #GSI2SK"
    )
    values = request["ExpressionAttributeValues"]
    assert values[":GSI1PK"] == {"S": "CUST#C1#SHIPPED"}
    assert request["ConditionExpression"] == "#status = :s"
    assert values[":s"] == {"S": "OPEN"}


def test_update_sets_a_list_map_or_boolean_from_a_parameter_as_itself():
    """`set: {tags: "{tags}"}` writes the list, not its text."""
    design = read_design(
        """
format: single-table-workbench/v1
name: Posts
table: {name: posts, partition_key: {name: PK, type: S}}
entities:
  Post:
    attributes:
      postId: {type: S}
      tags: {type: L}
      meta: {type: M}
      pinned: {type: BOOL}
      views: {type: N}
    keys: {PK: "POST#{postId}"}
access_patterns:
  - name: Retag a post
    operation: UpdateItem
    entity: Post
    set: {tags: "{tags}", meta: "{meta}", pinned: "{pinned}", views: "{views}"}
"""
    ).design
    retag = design.access_patterns[0]
    _, request = write_action_request(
        design,
        retag.actions[0],
        {"tags": ["a", "b"], "meta": {"by": "ann"}, "pinned": "true", "views": "7"},
        {"PK": "POST#p1", "postId": "p1"},
    )
    values = request["ExpressionAttributeValues"]
    assert values[":tags"] == {"L": [{"S": "a"}, {"S": "b"}]}
    assert values[":meta"] == {"M": {"by": {"S": "ann"}}}
    assert values[":pinned"] == {"BOOL": True}
    assert values[":views"] == {"N": "7"}


def test_create_table_defines_exactly_the_key_attributes(orders):
    request = create_table_request(orders)
    names = [d["AttributeName"] for d in request["AttributeDefinitions"]]
    assert names == [
        "PK",
        "SK",
        "GSI1PK",
        "GSI1SK",
        "GSI2PK",
        "GSI2SK",
        "GSI3PK",
        "GSI3SK",
    ]
    gsi1 = request["GlobalSecondaryIndexes"][0]
    assert gsi1["Projection"] == {
        "ProjectionType": "INCLUDE",
        "NonKeyAttributes": ["orderDate", "status", "total", "shippedAt"],
    }
    assert request["BillingMode"] == "PAY_PER_REQUEST"
    assert "ProvisionedThroughput" not in gsi1


def test_create_table_of_a_provisioned_table_with_an_lsi():
    design = read_design((EXAMPLES / "device-telemetry.yaml").read_text()).design
    request = create_table_request(design)
    assert request["ProvisionedThroughput"] == {
        "ReadCapacityUnits": 1400,
        "WriteCapacityUnits": 4000,
    }
    (lsi,) = request["LocalSecondaryIndexes"]
    assert lsi["KeySchema"] == [
        {"AttributeName": "PK", "KeyType": "HASH"},
        {"AttributeName": "LSI1SK", "KeyType": "RANGE"},
    ]
    assert request["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"] == {
        "ReadCapacityUnits": 100,
        "WriteCapacityUnits": 2500,
    }


def test_cli_command_is_a_valid_shell_command(orders):
    request = read_request(
        orders,
        pattern(orders, "Orders of a customer, newest first"),
        {"customerId": "it's"},
    )
    command = cli_command("Query", request)
    words = shlex.split(command)
    assert words[:3] == ["aws", "dynamodb", "query"]
    assert "--no-scan-index-forward" in words
    values = json.loads(words[words.index("--expression-attribute-values") + 1])
    assert values[":PK"] == {"S": "CUST#it's"}
    assert words[words.index("--limit") + 1] == "20"


def test_cli_command_writes_binary_values_and_sets_as_base64():
    request = {
        "TableName": "files",
        "Key": {"PK": {"S": "FILE#f1"}, "SK": {"B": b"\x00\x01"}},
        "ExpressionAttributeValues": {
            ":digests": {"BS": [b"\x01", b"\xff"]},
            ":meta": {"M": {"BS": {"L": [{"B": b"\x02"}]}}},
        },
    }
    words = shlex.split(cli_command("GetItem", request))
    assert json.loads(words[words.index("--key") + 1])["SK"] == {"B": "AAE="}
    values = json.loads(words[words.index("--expression-attribute-values") + 1])
    assert values == {
        ":digests": {"BS": ["AQ==", "/w=="]},
        # A map entry named BS is a name, not a binary set.
        ":meta": {"M": {"BS": {"L": [{"B": "Ag=="}]}}},
    }
