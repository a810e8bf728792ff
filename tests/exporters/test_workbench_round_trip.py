"""A design kept in git as YAML, exported to NoSQL Workbench and imported
back, is the same YAML: a git diff of the round trip is empty (same
entities, same sample items in the same order)."""

from __future__ import annotations

import json

import pytest

from modeler.designfile import dump_design, read_design
from modeler.exporters.nosql_workbench import export_workbench
from modeler.importers.workbench import read_workbench
from tests.exporters.helpers import WORKBENCH_FIXTURES


def designs_of(model: str | bytes) -> list:
    result = read_workbench(model)
    assert result.ok, result.all_problems
    return result.designs


def round_trip(text: str) -> str:
    """The design YAML exported as a model and imported back, as YAML."""
    design = read_design(text).design
    assert design is not None
    (again,) = designs_of(export_workbench(design))
    return dump_design(again)


@pytest.mark.parametrize("path", WORKBENCH_FIXTURES, ids=lambda p: p.stem)
def test_every_fixture_goes_through_yaml_and_workbench_unchanged(path):
    for design in designs_of(path.read_bytes()):
        text = dump_design(design)
        assert round_trip(text) == text


def S(text: str) -> dict:
    return {"S": text}


def key(name: str) -> dict:
    return {"AttributeName": name, "AttributeType": "S"}


def facet(name: str, items: list[dict]) -> dict:
    return {
        "FacetName": name,
        "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
        "TableData": items,
        "NonKeyAttributes": sorted({k for i in items for k in i} - {"PK", "SK"}),
    }


def banking(facets: list[dict], table_data: list[dict] = ()) -> str:
    return json.dumps(
        {
            "ModelName": "Banking",
            "ModelMetadata": {"Version": "3.0", "AWSService": "Amazon DynamoDB"},
            "DataModel": [
                {
                    "TableName": "banking",
                    "KeyAttributes": {"PartitionKey": key("PK"), "SortKey": key("SK")},
                    "NonKeyAttributes": [key("GSI1PK"), key("GSI1SK")],
                    "GlobalSecondaryIndexes": [
                        {
                            "IndexName": "GSI1",
                            "KeyAttributes": {
                                "PartitionKey": key("GSI1PK"),
                                "SortKey": key("GSI1SK"),
                            },
                            "Projection": {"ProjectionType": "ALL"},
                        }
                    ],
                    "TableFacets": facets,
                    "TableData": list(table_data),
                    "BillingMode": "PAY_PER_REQUEST",
                }
            ],
        }
    )


TRANSACTIONS = facet(
    "transaction",
    [
        {
            "PK": S("111"),
            "SK": S("TXN#2024-04-19#7879"),
            "amount": {"N": "251"},
            "GSI1PK": S("TX#2024-04-19"),
            "GSI1SK": S("111"),
        },
        {"PK": S("111"), "SK": S("2024-06-17#6163"), "amount": {"N": "147"}},
        {"PK": S("853"), "SK": S("TX#2024-03-18#1284"), "amount": {"N": "492"}},
    ],
)
ACCOUNTS = facet(
    "account",
    [
        {
            "PK": S("111"),
            "SK": S("METADATA"),
            "balance": S("1375"),
            "GSI1PK": S("C30"),
            "GSI1SK": S("BAL#1375"),
        },
        {"PK": S("853"), "SK": S("METADATA"), "balance": S("250")},
    ],
)


def test_entities_merged_for_colliding_keys_make_every_item_they_hold():
    # A transaction's sort key is any text, so an account's METADATA item
    # could be one: the two facets are one entity. Its index keys are
    # inferred from both kinds of item, not kept from the transactions
    # alone (TX#{txId} while amount = 251), which the account items' index
    # keys do not fit; the round trip then made them placeholders and
    # inferred `balance = "1375"` from the account item.
    result = read_workbench(banking([TRANSACTIONS, ACCOUNTS]))
    (design,) = result.designs
    (entity,) = design.entities
    assert entity.keys["GSI1PK"].template == "{gsi1pkValue}"
    assert entity.keys["GSI1PK"].when == ""
    notes = result.tables[0].notes
    assert any("account was merged into transaction" in n for n in notes)
    # The notes of the two facets' own inference went with it.
    assert not any("amount = 251" in n for n in notes)
    text = dump_design(design)
    assert round_trip(text) == text


def test_items_of_no_facet_leave_the_entity_their_keys_match_as_it_was():
    # The table's own data holds a customer-keyed item with index keys the
    # customer facet has not: the export files it in that facet, and its
    # import must not give the customer an index key.
    customers = facet(
        "customer", [{"PK": S("CUSTOMER#C30"), "SK": S("PROFILE"), "name": S("Ann")}]
    )
    stray = {
        "PK": S("CUSTOMER#C31"),
        "SK": S("PROFILE"),
        "GSI1PK": S("X#12"),
        "GSI1SK": S("Y"),
    }
    (design,) = designs_of(banking([customers, ACCOUNTS], [stray]))
    assert "GSI1PK" not in design.entity("customer").keys
    text = dump_design(design)
    assert round_trip(text) == text


def test_interleaved_items_keep_their_order_and_new_ones_follow():
    # A model without facets holds its items in one list; the export holds
    # each entity's in its facet.
    customer = {"PK": S("CUSTOMER#C30"), "SK": S("PROFILE"), "name": S("Ann")}
    other = {"PK": S("CUSTOMER#C31"), "SK": S("PROFILE"), "name": S("Bob")}
    (design,) = designs_of(banking([], [customer, *ACCOUNTS["TableData"], other]))
    assert [e.name for e in design.entities] == ["Customer", "Metadata"]
    order = ["CUSTOMER#C30", "111", "853", "CUSTOMER#C31"]
    assert [i["PK"]["S"] for i in design.sample_data.items] == order
    text = dump_design(design)
    assert round_trip(text) == text
    # An item added in NoSQL Workbench (first in its facet) comes after the
    # design's own items, which keep their order.
    model = json.loads(export_workbench(design))
    facets = model["DataModel"][0]["TableFacets"]
    facets[0]["TableData"].insert(
        0, {"PK": S("CUSTOMER#C99"), "SK": S("PROFILE"), "name": S("Cy")}
    )
    (again,) = designs_of(json.dumps(model))
    assert [i["PK"]["S"] for i in again.sample_data.items] == [*order, "CUSTOMER#C99"]
