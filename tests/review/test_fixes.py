"""Fixes keep the pattern's contract: a Scan for a status within a scope is
fixed by a sparse index keyed by both; a transaction past 100 items keeps
its atomicity first."""

from __future__ import annotations

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

ORDERS = """\
format: single-table-workbench/v1
name: Orders
table: {name: orders, partition_key: PK, sort_key: SK}
entities:
  Order:
    attributes:
      customerId: {type: S, generator: {choice: [c1, c2, c3, c4]}}
      orderId: {type: S, generator: ulid}
      status: {type: S, generator: {choice: {OPEN: 1, SHIPPED: 9}}}
    keys: {PK: "ORDER#{orderId}", SK: "ORDER"}
    sample: {count: 400}
access_patterns:
  - name: Open orders of a customer
    operation: Scan
    filter: 'customerId = {customerId} AND status = "OPEN"'
    expects: {entity: Order, where: {customerId: "{customerId}", status: OPEN}}
    traffic: {rps: 5, peak_rps: 10}
  - name: Close every order of a day
    operation: TransactWriteItems
    actions:
      - {operation: Update, entity: Order, set: {status: SHIPPED}, count: "{n}"}
    parameters:
      n: {type: N, example: "150"}
    traffic: {rps: 1, peak_rps: 1}
"""


def _findings() -> dict:
    result = read_design(ORDERS)
    assert result.design is not None, result.problems
    review = review_design(result.design, simulation=Simulation(result.design))
    return {f.code: f for f in review.findings}


def test_a_scan_for_a_status_within_a_scope_is_fixed_by_a_scoped_sparse_index():
    found = _findings()
    scan = found.get("no-index") or found["scan"]
    assert "sparse GSI whose partition key is 'CUSTOMERID#{customerId}#OPEN'" in (
        scan.fix
    )
    assert "written only while status = OPEN" in scan.fix


def test_a_transaction_past_100_items_keeps_its_atomicity_first():
    fix = _findings()["transaction-items"].fix
    assert fix.startswith("Keep in the transaction only the items that must change")
    assert "breaks its atomicity" in fix
