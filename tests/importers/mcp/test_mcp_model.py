"""The DynamoDB MCP server's dynamodb_data_model.json becomes a project per
table: keys and indexes from its create_table parameters, entities and key
templates inferred from its items, access patterns read back from its AWS
CLI implementations; what it cannot carry is named."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.importers.sources import MCP_MODEL, read_design_source, source_kind
from modeler.review import review_design
from modeler.simulation.simulate import Simulation

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[2] / "examples"
MODEL = json.loads((HERE / "dynamodb_data_model.json").read_text())


def _read(model: dict | str, filename: str = "dynamodb_data_model.json"):
    text = model if isinstance(model, str) else json.dumps(model)
    return read_design_source(text.encode(), filename=filename)


def _keys(design) -> list[dict[str, str]]:
    return sorted(
        ({k: t.template for k, t in e.keys.items()} for e in design.entities),
        key=lambda keys: sorted(keys.items()),
    )


# Each example's model: the social graph's beside this file, the others in
# a folder named after the example (the MCP server always writes this name).
MODELS = {
    "social-graph": HERE / "dynamodb_data_model.json",
    "order-management": HERE / "order-management" / "dynamodb_data_model.json",
    "device-telemetry": HERE / "device-telemetry" / "dynamodb_data_model.json",
}


@pytest.mark.parametrize("example_name", sorted(MODELS))
def test_the_model_of_an_example_imports_to_the_examples_keys(example_name):
    found = _read(MODELS[example_name].read_text())
    example = read_design((EXAMPLES / f"{example_name}.yaml").read_text()).design

    assert found.kind == MCP_MODEL and found.ok, found.problems
    (design,) = found.designs
    assert design.table.name == example.table.name
    assert (design.table.partition_key, design.table.sort_key) == (
        example.table.partition_key,
        example.table.sort_key,
    )
    # create_table lists global and local indexes apart: compared by name.
    assert sorted(
        (i.name, i.kind, i.partition_key, i.sort_key, i.projection)
        for i in design.table.indexes
    ) == sorted(
        (i.name, i.kind, i.partition_key, i.sort_key, i.projection)
        for i in example.table.indexes
    )
    assert _keys(design) == _keys(example)
    # A sparse key is inferred from the items that lack it.
    assert sorted(_whens(design)) == sorted(_whens(example))


def _whens(design) -> list[tuple[str, str]]:
    return [(k, t.when) for e in design.entities for k, t in e.keys.items() if t.when]


def test_access_patterns_are_read_back_from_the_cli_commands():
    (design,) = _read(MODEL).designs
    patterns = {p.name: p for p in design.access_patterns}

    get = patterns["AP1 Get user profile"]
    assert get.operation == "GetItem"
    assert [(c.attribute, c.values) for c in get.key] == [
        ("PK", ("USER#{userId}",)),
        ("SK", ("PROFILE",)),
    ]
    follows = patterns["AP2 Users a user follows"]
    assert [(c.attribute, c.operator, c.values) for c in follows.key] == [
        ("PK", "=", ("USER#{followerId}",)),
        ("SK", "begins_with", ("FOLLOWS#",)),
    ]
    followers = patterns["AP3 Followers of a user"]
    assert followers.index == "GSI1"
    assert followers.key[0].values == ("USER#{followedId}",)
    assert len(follows.expects.entities) == 1


def _shape(pattern, named: dict[str, str]) -> tuple:
    """A pattern as compared: its entities by the name the one with the same
    keys has in `named` (a model's items name no entity); a write by each
    action's operation, entity, what it writes, its condition and (a
    command writing items one by one) how many items."""
    expects = pattern.expects
    return (
        pattern.operation,
        pattern.index,
        tuple((k.attribute, k.operator) for k in pattern.key),
        pattern.scan_forward,
        pattern.limit,
        pattern.consistent_read,
        tuple(named[e] for e in expects.entities) if expects else None,
        sorted((w.attribute, w.operator) for w in expects.where) if expects else None,
        tuple(
            (
                a.operation,
                named[a.entity],
                a.set,
                a.remove,
                a.condition,
                _count(a.count, pattern),
            )
            for a in pattern.actions
        ),
    )


def _count(count: str, pattern) -> str:
    """An action's count, a parameter's by its example (the model's commands
    write the example's number of items)."""
    examples = {p.name: p.example for p in pattern.parameters}
    return examples.get(count.strip("{}"), count) if count else "1"


def _signature(entity) -> tuple:
    return tuple(sorted((k, t.template) for k, t in entity.keys.items()))


@pytest.mark.parametrize("example_name", ["device-telemetry", "order-management"])
def test_an_examples_patterns_are_the_examples(example_name):
    """Read back from the CLI commands: a BETWEEN of the time range gives
    the range's ends as parameters, a begins_with prefix holding a value
    (METRIC#temperature#) the key's placeholder, --consistent-read its
    flag, a query of a sparse index (GSI2PK = OPEN) the items its condition
    holds for; an update its SET, REMOVE and condition (shipping an order
    leaves the sparse index), a transaction its actions (the order's three
    line items one Put of count 3); each is simulated and passes the
    review."""
    found = _read(MODELS[example_name].read_text())
    example = read_design((EXAMPLES / f"{example_name}.yaml").read_text()).design
    (design,) = found.designs
    by_keys = {_signature(e): e.name for e in example.entities}
    named = {e.name: by_keys[_signature(e)] for e in design.entities}
    imported = {
        p.name.split(" ", 1)[1]: _shape(p, named) for p in design.access_patterns
    }
    same = {e.name: e.name for e in example.entities}
    assert imported == {p.name: _shape(p, same) for p in example.access_patterns}
    review = review_design(design, simulation=Simulation(design))
    assert [r.pattern.name for r in review.runs if r is not None and not r.passed] == []
    flagged = [f for f in review.findings if f.severity in ("error", "warning")]
    assert [(f.code, f.message) for f in flagged] == []


def test_what_is_not_carried_is_named():
    model = copy.deepcopy(MODEL)
    model["access_patterns"].append(
        {
            "pattern": "5",
            "description": "Everything at once",
            "table": "social-graph",
            "implementation": "aws dynamodb transact-get-items --transact-items '[]'",
        }
    )
    notes = _read(model).notes

    assert any(
        n.startswith("access_patterns[3] (AP4 Search users by bio text): no DynamoDB")
        and "OpenSearch" in n
        for n in notes
    )
    assert any(
        n.startswith(
            "access_patterns[4] (AP5 Everything at once): not carried: "
            "`transact-get-items` is not read"
        )
        for n in notes
    )


def test_a_model_is_recognised_by_its_content():
    assert source_kind(json.dumps(MODEL)) == MCP_MODEL
    assert source_kind(json.dumps(MODEL).encode(), filename="m.json") == MCP_MODEL


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda m: m.pop("tables"), "tables", "is missing"),
        (
            lambda m: m["tables"][0]["KeySchema"][0].update(AttributeName="pk"),
            "tables[0].KeySchema[0].AttributeName",
            "not in the table's AttributeDefinitions",
        ),
        (
            lambda m: m["tables"][0]["AttributeDefinitions"][0].update(
                AttributeType="X"
            ),
            "tables[0].AttributeDefinitions[0].AttributeType",
            "expected S, N or B",
        ),
        (
            lambda m: m["items"].update({"<script>": []}),
            "items.<script>",
            "names no table",
        ),
        (
            lambda m: m["items"]["social-graph"].append({"DeleteRequest": {}}),
            "items.social-graph[7]",
            "expected {PutRequest",
        ),
        (
            lambda m: m.update(access_patterns="all of them"),
            "access_patterns",
            "expected a list",
        ),
    ],
)
def test_bad_input_names_the_json_path(change, path, words):
    model = copy.deepcopy(MODEL)
    change(model)

    found = _read(model)

    assert not found.designs
    ((where, message),) = [(p.path, p.message) for p in found.problems if p.is_error]
    assert where == path and words in message


def test_the_imported_patterns_are_simulated_and_pass_the_review():
    (design,) = _read(MODEL).designs

    review = review_design(design, simulation=Simulation(design))

    assert len([r for r in review.runs if r is not None]) == 3
    assert [r.pattern.name for r in review.runs if r is not None and not r.passed] == []
    assert [f.message for f in review.findings if f.severity == "error"] == []


def test_an_oversized_model_is_refused():
    text = json.dumps(MODEL).encode()

    found = read_design_source(text, filename="m.json", max_bytes=100)

    assert not found.designs
    ((message),) = [p.message for p in found.problems if p.is_error]
    assert f"the file is {len(text):,} bytes; data model files are limited" in message
