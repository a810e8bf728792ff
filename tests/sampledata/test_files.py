"""Sample items in files: written as DynamoDB JSON lines, read from JSON
lines, CSV and NoSQL Workbench models, all or nothing, with file and line."""

from __future__ import annotations

import json
import time
from decimal import Decimal

import pytest

from modeler.engine.types import (
    BinarySet,
    NumberSet,
    StringSet,
    item_to_json_wire,
)
from modeler.importers import budget as import_budget
from modeler.sampledata import (
    ItemsFileError,
    generate,
    read_csv,
    read_items,
    read_jsonl,
    write_jsonl,
)
from tests.exporters.helpers import FIXTURES
from tests.exporters.hostile_files import items_nested, nwb_nested_item
from tests.sampledata.helpers import design_from, example


@pytest.fixture(scope="module")
def orders():
    return example("order-management")


def test_jsonl_written_then_read_gives_the_same_items(orders):
    items = generate(orders, limit=300).items
    text = "\n".join(write_jsonl(items))
    assert read_jsonl(text, design=orders, source="items.jsonl") == items


def test_every_dynamodb_type_survives_the_round_trip(orders):
    item = {
        "PK": "A",
        "SK": "B",
        "s": "ü",
        "n": Decimal("-1.50"),
        "b": b"\x00\xff",
        "t": True,
        "z": None,
        "l": [Decimal(1), "x"],
        "m": {"k": [b"\x01"]},
        "ss": StringSet({"a", "b"}),
        "ns": NumberSet({Decimal(2)}),
        "bs": BinarySet({b"\x02"}),
    }
    line = next(write_jsonl([item]))
    assert json.loads(line)["b"] == {"B": "AP8="}, "binary values in base64"
    assert read_jsonl(line, design=orders, source="x") == [item]


def wire_dicts_line(item):
    """How the lines were written before: the wire dicts, then json.dumps."""
    return json.dumps(
        item_to_json_wire(item), ensure_ascii=False, separators=(",", ":")
    )


def test_lines_are_those_the_wire_dicts_gave(orders):
    items = generate(orders, limit=2000).items
    assert list(write_jsonl(items)) == [wire_dicts_line(i) for i in items]


@pytest.mark.parametrize(
    "item",
    [
        # Numbers whose Decimal text is not DynamoDB's.
        {"PK": "A", "n": Decimal("1.50")},
        {"PK": "A", "n": Decimal("1E+2")},
        {"PK": "A", "n": Decimal("-0.00")},
        {"PK": "A", "n": Decimal("1E-7")},
        {"PK": "A", "n": Decimal("-12.5")},
        # Names and text the JSON and the line's own template must escape.
        {"PK": "100%", "%s": "%d", 'q"\\': "tab\tnew\nline ü \u2028"},
        # The same names with values of other types: another shape.
        {"PK": "A", "n": "text"},
        {"PK": "A", "n": [Decimal("2.0"), {"m": Decimal(3)}], "b": b"\x00"},
        # Subclasses and Python numbers take the general way.
        {"PK": "A", "i": 7, "f": 0.5, "t": False},
    ],
)
def test_every_shape_of_line_is_the_wire_dicts_text(item):
    assert next(write_jsonl([item])) == wire_dicts_line(item)


def test_lines_of_a_dynamodb_export_are_read_too(orders):
    line = json.dumps({"Item": {"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}}})
    assert read_jsonl(line, design=orders, source="x") == [
        {"PK": "CUST#1", "SK": "PROFILE"}
    ]


def test_every_bad_line_is_reported_and_nothing_is_read(orders):
    text = "\n".join(
        [
            '{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}}',
            '{"PK": {"S": "CUST#2"}',
            '{"SK": {"S": "PROFILE"}}',
            "",
            '{"PK": {"N": "1"}, "SK": {"S": "PROFILE"}}',
            '{"PK": {"S": "A"}, "SK": {"S": "B"}, "x": {"Q": "1"}}',
            '{"PK": {"S": "A"}, "SK": {"S": "B"}, "big": {"S": "'
            + "x" * 409_600
            + '"}}',
        ]
    )
    with pytest.raises(ItemsFileError) as caught:
        read_jsonl(text, design=orders, source="items.jsonl")
    messages = [str(p) for p in caught.value.problems]
    assert messages[0].startswith("items.jsonl:2: not JSON")
    assert messages[1] == "items.jsonl:3: has no 'PK', the table's key"
    assert messages[2] == "items.jsonl:5: 'PK' is N; the table's key is S"
    assert messages[3].startswith("items.jsonl:6: not an item in DynamoDB JSON")
    assert messages[4].startswith("items.jsonl:7: the item has 409,6")
    assert "DynamoDB's limit is 409,600" in messages[4]


def test_csv_cells_take_their_types_from_the_design(orders):
    text = (
        "PK,SK,total,status,quantity (N),note\n"
        "CUST#1,ORDER#2025-01-01#1,12.50,OPEN,3,\n"
    )
    (item,) = read_csv(text, design=orders, source="orders.csv")
    assert item == {
        "PK": "CUST#1",
        "SK": "ORDER#2025-01-01#1",
        "total": Decimal("12.50"),
        "status": "OPEN",
        "quantity": Decimal(3),
    }


def test_csv_problems_name_the_line_and_column(orders):
    text = "PK,SK,total\nCUST#1,PROFILE,12\nCUST#2,PROFILE,lots\n,PROFILE,1\n"
    with pytest.raises(ItemsFileError) as caught:
        read_csv(text, design=orders, source="orders.csv")
    messages = [str(p) for p in caught.value.problems]
    assert messages[0].startswith("orders.csv:3: column 'total': ")
    assert messages[1] == "orders.csv:4: has no 'PK', the table's key"


def test_a_nosql_workbench_model_gives_its_table_data():
    design = design_from("""
        format: single-table-workbench/v1
        name: Payments
        table:
          name: PaymentScheduler
          partition_key: {name: AccountID, type: S}
          sort_key: {name: ScheduledTime, type: S}
        """)
    text = (FIXTURES / "BankModel.json").read_text()
    items = read_items(text, design=design, source="BankModel.json")
    assert len(items) == 4
    assert items[0]["AccountID"] == "Account1"
    assert items[0]["Status#Time"] == "PENDING#2019-09-25T010101"


def test_read_items_tells_the_kinds_apart(orders):
    jsonl = '{"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}}'
    csv = "PK,SK\nCUST#1,PROFILE\n"
    assert read_items(jsonl, design=orders, source="a") == read_items(
        csv, design=orders, source="b"
    )


TOO_DEEP = (
    "nested more than 100 levels deep, which this workbench does not read "
    "(a DynamoDB item nests at most 32 levels)"
)


def _deep_cell(levels: int) -> str:
    cell = '{"a": ' * levels + "1" + "}" * levels
    return 'PK,SK,deep (M)\nCUST#1,PROFILE,"' + cell.replace('"', '""') + '"\n'


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("deep.jsonl", items_nested(450), f"the item is {TOO_DEEP}"),
        ("deeper.jsonl", items_nested(5_000), f"the item is {TOO_DEEP}"),
        ("deep.csv", _deep_cell(300), f"column 'deep': the value is {TOO_DEEP}"),
        ("deeper.csv", _deep_cell(5_000), f"column 'deep': the value is {TOO_DEEP}"),
        ("deep.json", nwb_nested_item(2_500), f"the model is {TOO_DEEP}"),
        (
            "forty.jsonl",
            items_nested(40),
            "Nesting Levels have exceeded supported limits: DynamoDB nests an "
            "item's values at most 32 levels",
        ),
    ],
)
def test_items_nested_too_deeply_are_a_problem_of_their_line(
    orders, name, text, message
):
    started = time.thread_time()
    with pytest.raises(ItemsFileError) as refused:
        read_items(text, design=orders, source=name)
    assert time.thread_time() - started < 5.0
    assert [(p.line, p.message) for p in refused.value.problems] == [
        (2 if name.endswith(".csv") else 1, message)
    ]


def test_items_as_deep_as_dynamodb_allows_are_read(orders):
    (item,) = read_items(items_nested(31), design=orders, source="x")
    depth, value = 0, item["deep"]
    while isinstance(value, dict):
        depth, value = depth + 1, value.get("a")
    assert depth == 31


def test_reading_items_stops_at_the_cpu_seconds_of_an_import(orders):
    text = "\n".join(write_jsonl(generate(orders, limit=300).items))
    with (
        import_budget.configured(import_budget.ImportLimits(cpu_seconds=0.001)),
        pytest.raises(ItemsFileError) as refused,
    ):
        read_items(text, design=orders, source="items.jsonl")
    (problem,) = refused.value.problems
    assert "(setting IMPORT_CPU_SECONDS)" in problem.message
