"""Why a failing read left out an item it promises, told by the engine: a
sparse index without the item, another partition, a filter."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.simulation import Simulation
from modeler.simulation.misses import missed_items

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def simulation() -> Simulation:
    design = read_design((EXAMPLES / "order-management.yaml").read_text()).design
    return Simulation(design)


def _pattern(simulation: Simulation, name: str, **changes) -> d.AccessPattern:
    [pattern] = [p for p in simulation.design.access_patterns if p.name == name]
    return dataclasses.replace(pattern, **changes)


def test_an_item_outside_a_sparse_index_is_named_with_the_attribute_it_lacks(
    simulation: Simulation,
) -> None:
    every_order = d.Expectation(("Order",), (), ("orderDate", "orderId"))
    run = simulation.run(
        _pattern(simulation, "All open orders, oldest first", expects=every_order)
    )
    assert not run.passed and any("missing" in r for r in run.verdict.broken)
    misses = missed_items(simulation, run)
    assert misses and all(m.entity == "Order" for m in misses)
    assert all(m.item["status"] != "OPEN" for m in misses)
    assert misses[0].reason.startswith(
        "it is not in the index GSI2: it has no GSI2PK, GSI2SK"
    )


def test_another_partition_and_a_filter_are_told_apart(simulation: Simulation) -> None:
    # Orders of the customer in other statuses sit in other GSI1 partitions.
    any_status = d.Expectation(
        ("Order",), (d.Predicate("customerId", "=", ("{customerId}",)),), ()
    )
    run = simulation.run(
        _pattern(simulation, "Orders of a customer in a status", expects=any_status)
    )
    misses = missed_items(simulation, run)
    assert misses and all(m.entity == "Order" for m in misses)
    asked = run.calls[0].request["ExpressionAttributeValues"]
    [partition] = [v["S"] for v in asked.values()]
    miss = misses[0]
    assert miss.item["status"] != run.parameters["status"]
    assert miss.reason == (
        f"it is in another partition: its GSI1PK is '{miss.item['GSI1PK']}', "
        f"the request reads '{partition}'"
    )

    name = "Orders of a customer, newest first"
    filtered = _pattern(simulation, name, filter="total > 1000000")
    [miss, *_] = missed_items(simulation, simulation.run(filtered))
    assert miss.reason == "the filter total > 1000000 left it out after reading it"


def test_a_passing_read_names_nothing(simulation: Simulation) -> None:
    run = simulation.run(_pattern(simulation, "Orders of a customer, newest first"))
    assert run.passed and missed_items(simulation, run) == []
