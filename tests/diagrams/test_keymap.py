"""The key map and the access-pattern map of the examples."""

from __future__ import annotations

import dataclasses

from modeler.design import model as d
from modeler.diagrams import key_map, pattern_map, run_verdicts
from modeler.simulation import Verdict
from tests.diagrams.helpers import example, hostile, simulation


def _cells(name: str, design: d.Design) -> dict[tuple[str, str], object]:
    keymap = key_map(design)
    row = next(r for r in keymap.rows if r.entity == name)
    return {
        (c.index, c.attribute): cell
        for c, cell in zip(keymap.columns, row.cells, strict=True)
    }


def test_one_column_per_key_attribute_of_the_table_and_each_index():
    keymap = key_map(example("order-management"))
    assert [(c.index, c.attribute) for c in keymap.columns] == [
        ("table", "PK"),
        ("table", "SK"),
        ("GSI1", "GSI1PK"),
        ("GSI1", "GSI1SK"),
        ("GSI2", "GSI2PK"),
        ("GSI2", "GSI2SK"),
        ("GSI3", "GSI3PK"),
        ("GSI3", "GSI3SK"),
    ]
    assert [(g.name, g.span) for g in keymap.groups] == [
        ("table", 2),
        ("GSI1", 2),
        ("GSI2", 2),
        ("GSI3", 2),
    ]
    assert keymap.groups[1].projection == "INCLUDE orderDate, status, total, shippedAt"
    assert [r.entity for r in keymap.rows] == ["Customer", "Order", "LineItem"]
    assert [r.colour for r in keymap.rows] == [0, 1, 2]


def test_cells_hold_templates_sparse_conditions_and_absence():
    design = example("order-management")
    order = _cells("Order", design)
    assert order["table", "SK"].template == "ORDER#{orderDate}#{orderId}"
    assert order["GSI2", "GSI2PK"].when == "status = OPEN"
    assert order["GSI2", "GSI2PK"].sparse
    assert not order["GSI1", "GSI1PK"].sparse
    customer = _cells("Customer", design)
    assert customer["GSI2", "GSI2PK"].absent
    assert customer["GSI3", "GSI3SK"].absent
    row = next(r for r in key_map(design).rows if r.entity == "Customer")
    assert row.indexes == ("GSI1",)
    assert row.absent_from == ("GSI2", "GSI3")
    assert [a.name for a in row.attributes][:3] == ["customerId", "name", "email"]


def test_a_template_of_an_optional_attribute_makes_the_index_sparse():
    design = example("order-management")
    customer = design.entity("Customer")
    keys = dict(customer.keys) | {"GSI3PK": d.KeyTemplate("PHONE#{phone}")}
    keys["GSI3SK"] = d.KeyTemplate("PROFILE")
    changed = dataclasses.replace(customer, keys=keys)
    design = dataclasses.replace(
        design,
        entities=tuple(changed if e.name == "Customer" else e for e in design.entities),
    )
    cell = _cells("Customer", design)["GSI3", "GSI3PK"]
    assert cell.optional == ("phone",)
    assert cell.sparse and not cell.absent


def test_an_lsi_shows_the_table_partition_key_as_shared():
    keymap = key_map(example("device-telemetry"))
    lsi = [(c.role, c.attribute, c.shared) for c in keymap.columns if c.index == "LSI1"]
    table_pk = example("device-telemetry").table.partition_key.name
    assert lsi == [("partition", table_pk, True), ("sort", "LSI1SK", False)]


def test_the_pattern_map_shows_requests_with_placeholders():
    rows = pattern_map(example("order-management"))
    newest = rows[2]
    assert newest.operation == "Query" and newest.index == "table"
    assert newest.key == "#PK = :PK AND begins_with(#SK, :SK)"
    assert dict(newest.values) == {":PK": "CUST#{customerId}", ":SK": "ORDER#"}
    assert dict(newest.names) == {"#PK": "PK", "#SK": "SK"}
    assert newest.options == ("ScanIndexForward=false", "Limit=20")
    assert newest.returns.startswith("Order where customerId")
    get = rows[0]
    assert get.key == '{"PK": "CUST#{customerId}", "SK": "PROFILE"}'
    place = rows[6]
    assert place.kind == "write"
    assert (
        "Put LineItem (PK = ORDER#{orderId}, SK = ITEM#{lineNo:03d}) × {itemCount}"
        in (place.key)
    )
    assert not any(r.scan for r in rows)


def test_a_scan_is_highlighted_and_a_filter_keeps_its_placeholders():
    rows = pattern_map(hostile())
    assert [r.scan for r in rows] == [False, True]
    design = example("order-management")
    pattern = dataclasses.replace(
        design.access_patterns[2], filter='total > {minimum} and status <> "OPEN"'
    )
    row = pattern_map(dataclasses.replace(design, access_patterns=(pattern,)))[0]
    assert row.filter == "#total > :minimum AND #status <> :s"
    assert dict(row.values)[":minimum"] == "{minimum}"
    assert dict(row.values)[":s"] == "OPEN"


def test_verdicts_come_from_the_simulator():
    sim = simulation("order-management")
    runs = [sim.run(p) for p in sim.design.access_patterns]
    failed = dataclasses.replace(runs[0], error="the simulator failed on this")
    verdicts = run_verdicts([*runs, failed, None])
    assert len(verdicts) == len(sim.design.access_patterns) + 2
    assert all(v.passed for v in verdicts[:-2])
    assert verdicts[-2] == Verdict(False, ("the simulator failed on this",))
    assert not verdicts[-1].passed
