"""A write is costed from the transition it exists for: an update that moves
an item to another status (and another GSI key) is run on an item that is
not in that status yet, whatever the sample's mix, so it costs the index
writes the transition makes."""

from __future__ import annotations

import pytest

from modeler.designfile import read_design
from modeler.simulation import Simulation

ORDERS = """\
format: single-table-workbench/v1
name: Shipping
table:
  name: shipping
  partition_key: PK
  sort_key: SK
  indexes:
    - {name: ByStatus, partition_key: GSI1PK, sort_key: GSI1SK, projection: KEYS_ONLY}
entities:
  Order:
    attributes:
      orderId: {type: S, generator: ulid}
      status: {type: S, generator: {choice: {OPEN: 1, SHIPPED: 19}}}
    keys:
      PK: "ORDER#{orderId}"
      SK: "ORDER"
      GSI1PK: "STATUS#{status}"
      GSI1SK: "{orderId}"
    sample: {count: 200}
access_patterns:
  - name: Ship an order
    operation: UpdateItem
    entity: Order
    set: {status: SHIPPED, GSI1PK: "STATUS#SHIPPED"}
    traffic: {rps: 10, peak_rps: 50}
"""


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_an_update_is_costed_on_an_item_it_changes(seed: int) -> None:
    design = read_design(ORDERS).design
    simulation = Simulation(design, seed=seed)
    run = simulation.run(design.access_patterns[0])
    # 1 WCU on the table, 1 to delete the OPEN entry of ByStatus and 1 to
    # put the SHIPPED one: the transition, not a no-op on a shipped order.
    assert run.capacity.write == 3
    assert run.capacity.by_index == {"table": 1, "ByStatus": 2}
    assert run.transition == "status: OPEN -> SHIPPED"
