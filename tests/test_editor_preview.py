"""The editor's live previews (modeler.editor.preview): keys rendered from
example values, and the exact requests of access patterns."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.editor.preview import (
    entity_preview,
    example_values,
    pattern_preview,
    pattern_previews,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def design() -> d.Design:
    return read_design((EXAMPLES / "order-management.yaml").read_bytes()).design


def test_example_values_come_from_the_generators(design: d.Design) -> None:
    values = example_values(design, design.entity("Order"))
    assert values["status"] in {"OPEN", "SHIPPED", "DELIVERED", "CANCELLED"}
    assert len(values["orderId"]) == 26  # a ULID
    assert values["customerId"] == "customerId-1"  # a ref has no parent here
    assert example_values(design, design.entity("Order")) == values  # stable


def test_keys_render_from_typed_values(design: d.Design) -> None:
    order = design.entity("Order")
    preview = entity_preview(
        design,
        order,
        {
            "customerId": "c1",
            "orderId": "o9",
            "orderDate": "2025-03-01",
            "status": "OPEN",
        },
    )
    keys = {k.attribute: k for k in preview.keys}
    assert keys["PK"].value == "CUST#c1"
    assert keys["SK"].value == "ORDER#2025-03-01#o9"
    assert keys["GSI2PK"].value == "OPEN"  # the sparse condition holds
    shipped = entity_preview(design, order, {"customerId": "c1", "status": "SHIPPED"})
    keys = {k.attribute: k for k in shipped.keys}
    assert keys["GSI2PK"].note.startswith("absent: the condition status = OPEN")
    assert keys["SK"].error == "no example value for 'orderDate'"


def test_a_bad_example_is_reported(design: d.Design) -> None:
    preview = entity_preview(design, design.entity("LineItem"), {"lineNo": "seven"})
    assert "lineNo" in preview.example_errors


@pytest.mark.parametrize("levels", [101, 5_000])
def test_an_example_nested_too_deeply_is_reported(
    design: d.Design, levels: int
) -> None:
    deep = '{"a": ' * levels + "1" + "}" * levels
    preview = entity_preview(design, design.entity("Customer"), {"address": deep})
    assert preview.example_errors["address"] == (
        "the value is nested more than 100 levels deep, which this workbench "
        "does not read (a DynamoDB item nests at most 32 levels)"
    )


def test_a_query_request_with_example_parameters(design: d.Design) -> None:
    pattern = design.access_patterns[2]  # Orders of a customer, newest first
    preview = pattern_preview(design, pattern)
    assert not preview.problem
    (request,) = preview.requests
    body = json.loads(request.request)
    assert body["KeyConditionExpression"] == "#PK = :PK AND begins_with(#SK, :SK)"
    assert body["ScanIndexForward"] is False and body["Limit"] == 20
    assert body["ExpressionAttributeValues"][":SK"] == {"S": "ORDER#"}
    assert request.cli.startswith("aws dynamodb query --table-name order-management")


def test_a_write_pattern_sends_one_request_per_action(design: d.Design) -> None:
    pattern = design.access_patterns[-1]  # Ship an order
    (request,) = pattern_preview(design, pattern).requests
    assert request.operation == "UpdateItem"
    assert "REMOVE #GSI2PK, #GSI2SK" in json.loads(request.request)["UpdateExpression"]


def test_a_pattern_without_values_says_what_is_missing(design: d.Design) -> None:
    pattern = d.AccessPattern(
        "Broken", "Query", key=(d.KeyClause("PK", "=", ("X#{nowhere}",)),)
    )
    preview = pattern_preview(design, pattern)
    assert preview.problem.startswith("No request yet: no value for the parameter")


def test_the_kept_previews_are_fresh_ones(design: d.Design) -> None:
    fresh = tuple(pattern_preview(design, p) for p in design.access_patterns)
    assert pattern_previews(design) == fresh
    assert pattern_previews(design) == fresh  # kept
    first = design.access_patterns[0]
    limited = dataclasses.replace(first, limit=7)
    edited = dataclasses.replace(
        design, access_patterns=(limited, *design.access_patterns[1:])
    )
    previews = pattern_previews(edited)
    assert previews[0] == pattern_preview(edited, limited) != fresh[0]
    assert previews[1:] == fresh[1:]
    # A pattern's request follows the entities it reads.
    entities = tuple(
        dataclasses.replace(e, keys={**e.keys, "PK": d.KeyTemplate("C#{customerId}")})
        if e.name == "Customer"
        else e
        for e in design.entities
    )
    moved = dataclasses.replace(design, entities=entities)
    assert pattern_previews(moved) == tuple(
        pattern_preview(moved, p) for p in design.access_patterns
    )
