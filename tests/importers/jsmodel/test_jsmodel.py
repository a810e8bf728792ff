"""ElectroDB and DynamoDB-Toolbox modules in: files written from the
libraries' documentation for each shipped example import to the example's
keys, and the real libraries (tests/node) build those same keys from the
example's sample data; the module runs confined."""

from __future__ import annotations

import json
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.importers.jsmodel import ELECTRODB, TOOLBOX
from modeler.importers.jsmodel.sandbox import confinement_problem
from modeler.importers.sources import read_design_source
from modeler.keys import parse_template
from modeler.review import review_design
from modeler.sampledata.generate import generate
from modeler.simulation.simulate import Simulation

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
EXAMPLE = read_design((ROOT / "examples" / "social-graph.yaml").read_text()).design
ORDERS = read_design((ROOT / "examples" / "order-management.yaml").read_text()).design
TELEMETRY = read_design(
    (ROOT / "examples" / "device-telemetry.yaml").read_text()
).design
MODULES = {
    ELECTRODB: HERE / "social-graph.electrodb.mjs",
    TOOLBOX: HERE / "social-graph.toolbox.mjs",
}
# (module, library, example): every file written for a shipped example.
FILES = [
    (MODULES[ELECTRODB], ELECTRODB, EXAMPLE),
    (MODULES[TOOLBOX], TOOLBOX, EXAMPLE),
    (HERE / "order-management.electrodb.mjs", ELECTRODB, ORDERS),
    (HERE / "order-management.toolbox.mjs", TOOLBOX, ORDERS),
    (HERE / "device-telemetry.electrodb.mjs", ELECTRODB, TELEMETRY),
    (HERE / "device-telemetry.toolbox.mjs", TOOLBOX, TELEMETRY),
]
NODE_MODULES = ROOT / "tests" / "node" / "node_modules"

pytestmark = pytest.mark.skipif(
    bool(confinement_problem()), reason=confinement_problem() or "confined"
)


def _import(library: str, path: Path | None = None):
    path = path or MODULES[library]
    return read_design_source(path.read_bytes(), filename=path.name)


@pytest.mark.parametrize(("path", "library", "example"), FILES)
def test_the_module_of_an_example_imports_to_the_examples_keys(path, library, example):
    found = _import(library, path)

    assert found.kind == library and found.ok, found.problems
    (design,) = found.designs
    assert design.table.name == example.table.name
    assert design.table.partition_key == example.table.partition_key
    assert design.table.sort_key == example.table.sort_key
    assert [
        (i.name, i.kind, i.partition_key, i.sort_key) for i in design.table.indexes
    ] == [
        (i.name, i.kind, i.partition_key, i.sort_key)
        if library == TOOLBOX or i.kind == "global"
        # ElectroDB cannot say an index is local: a global index on the
        # table's partition key, and a note names it.
        else (i.name, "global", (example.table.partition_key,), i.sort_key)
        for i in example.table.indexes
    ]
    for index in example.table.indexes:
        named = any(n.startswith(f"index {index.name}: ") for n in found.notes)
        assert named == (library == ELECTRODB and index.kind == "local")
    if library == ELECTRODB:
        # ElectroDB states each index's projection; Toolbox cannot (a note).
        assert [i.projection for i in design.table.indexes] == [
            i.projection for i in example.table.indexes
        ]
    # Every key, its padding ({lineNo:03d}) and sparse condition (when) too.
    assert {e.name: e.keys for e in design.entities} == {
        e.name: e.keys for e in example.entities
    }


@pytest.mark.parametrize(
    "path", [path for path, library, _ in FILES if library == ELECTRODB]
)
def test_electrodb_indexes_serve_each_read_pattern_of_the_example(path):
    """ElectroDB's indexes are its access patterns: each read of the
    example has one of the same operation on the same index, keyed by the
    example's key attributes and perhaps the index's sort key after them
    (its sort key condition may differ: an index is read with
    begins_with)."""
    example = next(e for p, _, e in FILES if p == path)
    (design,) = _import(ELECTRODB, path).designs
    imported = {
        (p.operation, p.index, tuple(k.attribute for k in p.key))
        for p in design.access_patterns
    }

    for pattern in example.access_patterns:
        if pattern.operation not in ("GetItem", "Query"):
            continue
        keys = tuple(k.attribute for k in pattern.key)
        assert any(
            (operation, index) == (pattern.operation, pattern.index)
            and found[: len(keys)] == keys
            for operation, index, found in imported
        ), pattern.name


@pytest.mark.parametrize(("path", "library"), [(p, lib) for p, lib, _ in FILES])
def test_the_imported_patterns_are_simulated_and_pass_the_review(path, library):
    """A sparse index's query (the order management's open orders) promises
    only the items its condition holds for."""
    (design,) = _import(library, path).designs
    review = review_design(design, simulation=Simulation(design))
    assert [r.pattern.name for r in review.runs if r is not None and not r.passed] == []
    assert [
        (f.code, f.message)
        for f in review.findings
        if f.severity in ("error", "warning")
    ] == []


def test_optional_attributes_stay_optional():
    for library in (ELECTRODB, TOOLBOX):
        (design,) = _import(library).designs
        assert not design.entity("User").attribute("bio").required


def test_electrodb_indexes_are_its_access_patterns():
    (design,) = _import(ELECTRODB).designs
    patterns = {p.name: p for p in design.access_patterns}

    assert sorted(patterns) == [
        "Follow followers",
        "Follow following",
        "Follow following get",
        "User profile",
    ]
    followers = patterns["Follow followers"]
    assert followers.operation == "Query" and followers.index == "GSI1"
    assert [(k.attribute, k.operator, k.values) for k in followers.key] == [
        ("GSI1PK", "=", ("USER#{followedId}",)),
        ("GSI1SK", "begins_with", ("FOLLOWER#",)),
    ]
    assert patterns["User profile"].operation == "GetItem"
    get = patterns["Follow following get"]
    assert [p.attribute for p in get.expects.where] == ["followerId", "followedId"]


def test_toolbox_declares_no_patterns_and_the_notes_say_so():
    found = _import(TOOLBOX)

    assert found.designs[0].access_patterns == ()
    assert any("declares no access patterns" in n for n in found.notes)
    assert any("_et" in n for n in found.notes)


@pytest.mark.skipif(not NODE_MODULES.is_dir(), reason="tests/node not installed")
@pytest.mark.parametrize(("path", "library", "example"), FILES)
def test_the_real_library_builds_the_imported_designs_keys(
    path, library, example, tmp_path
):
    """The recorders stand in for the libraries on the server: here the
    real electrodb 3.9.3 / dynamodb-toolbox 2.10.6 run the same module on
    the example's sample data, and each item's keys are the ones the
    imported design's templates make."""
    (design,) = _import(library, path).designs
    data = generate(example, seed=7, limit=300)
    key_names = {name for entity in design.entities for name in entity.keys}
    items = [
        {"entity": entity, "item": {k: item[k] for k in item if k not in key_names}}
        for item, entity in zip(data.items, data.entities, strict=True)
    ]
    assert {i["entity"] for i in items} == {e.name for e in example.entities}
    (tmp_path / "node_modules").symlink_to(NODE_MODULES)
    shutil.copy(path, tmp_path / "model.mjs")
    shutil.copy(HERE / "keys.mjs", tmp_path / "keys.mjs")
    done = subprocess.run(
        [shutil.which("node") or "node", "keys.mjs", "./model.mjs", library],
        cwd=tmp_path,
        input=json.dumps(items, default=_number),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    built = json.loads(done.stdout)
    assert len(built) == len(items)
    for given, made in zip(items, built, strict=True):
        entity = design.entity(given["entity"])
        expected = {
            name: parse_template(key.template).render(given["item"])
            if _holds(key.when, given["item"])
            else None
            for name, key in entity.keys.items()
        }
        assert {name: made.get(name) for name in expected} == expected


def _number(value: object) -> float:
    assert isinstance(value, Decimal)
    return float(value)


def _holds(when: str, item: dict) -> bool:
    """A `when` of the examples: `attribute = VALUE`, or none."""
    if not when:
        return True
    attribute, value = (part.strip() for part in when.split("="))
    return str(item.get(attribute)) == value


LINES = """import { Table, Entity, item, string, number } from "dynamodb-toolbox";
const table = new Table({ name: "lines", partitionKey: { name: "PK", type: "string" },
  sortKey: { name: "SK", type: "string" } });
export const Line = new Entity({ name: "Line", table,
  schema: item({ orderId: string().key(), lineNo: number().key() }),
  computeKey: ({ orderId, lineNo }) => ({ PK: %s, SK: %s }),
});
"""


def test_a_numbers_zero_padding_is_carried_and_casing_is_named():
    module = LINES % (
        "`ORDER#${orderId.toUpperCase()}`",
        '`ITEM#${String(lineNo).padStart(3, "0")}`',
    )
    found = read_design_source(module.encode(), filename="lines.mjs")

    assert found.ok, found.problems
    (design,) = found.designs
    keys = design.entity("Line").keys
    assert (keys["PK"].template, keys["SK"].template) == (
        "ORDER#{orderId}",
        "ITEM#{lineNo:03d}",
    )
    notes = [n for n in found.notes if "does more than place attributes" in n]
    assert [n.split(":")[0] for n in notes] == ["Line.computeKey.PK"]
    assert "'ORDER#A7'" in notes[0]


def test_padding_the_design_cannot_hold_is_named():
    # Text padded with zeros, and a number padded with spaces.
    module = LINES % (
        '`ORDER#${orderId.padStart(5, "0")}`',
        '`ITEM#${String(lineNo).padStart(3, " ")}`',
    )
    found = read_design_source(module.encode(), filename="lines.mjs")

    assert found.ok, found.problems
    (design,) = found.designs
    keys = design.entity("Line").keys
    assert (keys["PK"].template, keys["SK"].template) == (
        "ORDER#{orderId}",
        "ITEM#{lineNo}",
    )
    notes = [n for n in found.notes if "does more than place attributes" in n]
    assert [n.split(":")[0] for n in notes] == [
        "Line.computeKey.PK",
        "Line.computeKey.SK",
    ]


SPARSE = """import { Table, Entity, item, string } from "dynamodb-toolbox";
const table = new Table({ name: "orders", partitionKey: { name: "PK", type: "string" },
  indexes: { GSI1: { type: "global",
    partitionKey: { name: "GSI1PK", type: "string" } } } });
export const Order = new Entity({ name: "Order", table,
  schema: item({
    orderId: string().key(),
    status: string().enum("OPEN", "SHIPPED"),
    note: string().optional(),
  }).and(() => ({ GSI1PK: string().optional().link(%s) })),
  computeKey: ({ orderId }) => ({ PK: `ORDER#${orderId}` }),
});
"""


def test_a_link_that_gives_a_value_for_one_enumerated_value_is_a_sparse_index():
    module = (
        SPARSE
        % '({ status, orderId }) => status === "OPEN" ? `O#${orderId}` : undefined'
    )
    found = read_design_source(module.encode(), filename="orders.mjs")

    assert found.ok, found.problems
    (design,) = found.designs
    key = design.entity("Order").keys["GSI1PK"]
    assert (key.template, key.when) == ("O#{orderId}", "status = OPEN")


def test_a_link_sparse_on_anything_else_is_named():
    module = SPARSE % "({ note }) => note === 'x' ? 'NOTED' : undefined"
    found = read_design_source(module.encode(), filename="orders.mjs")

    assert found.ok, found.problems
    (design,) = found.designs
    assert "GSI1PK" not in design.entity("Order").keys
    assert any(
        n.startswith("Order.schema.GSI1PK.link: gives no value for every item")
        for n in found.notes
    )


def test_a_toolbox_global_index_without_a_partition_key_is_refused_by_name():
    """The module runs (Toolbox does not check it), and the import named a
    path of its own intermediate document; it names the module's index."""
    module = """import { Table, Entity, item, string } from "dynamodb-toolbox";
const table = new Table({ name: "lines", partitionKey: { name: "PK", type: "string" },
  sortKey: { name: "SK", type: "string" },
  indexes: { ByStatus: { type: "global",
    sortKey: { name: "status", type: "string" } } } });
export const Line = new Entity({ name: "Line", table,
  schema: item({ id: string().key(), status: string() }),
  computeKey: ({ id }) => ({ PK: `LINE#${id}`, SK: "LINE" }),
});
"""
    found = read_design_source(module.encode(), filename="lines.mjs")

    assert not found.ok
    assert [(p.path, p.message) for p in found.problems] == [
        ("lines.mjs", "Table.indexes.ByStatus: a partitionKey {name, type} is required")
    ]
