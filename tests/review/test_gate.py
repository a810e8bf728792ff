"""The review as a CI gate: a pattern that returns other items than it
promises is an error finding that names them, and `check_design` exits 1;
the same design with the pattern written right passes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

DESIGN = """\
format: single-table-workbench/v1
name: Newest orders
table: {name: shop, partition_key: PK, sort_key: SK}
entities:
  Customer:
    attributes: {customerId: {type: S, generator: uuid}}
    keys: {PK: "CUST#{customerId}", SK: "PROFILE"}
    sample: {count: 5}
  Order:
    attributes:
      customerId: {type: S, generator: {ref: Customer.customerId}}
      orderId: {type: S, generator: ulid}
      orderDate: {type: S, generator: {date: {from: 2024-01-01, to: 2024-12-31}}}
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderDate}#{orderId}"}
    sample: {per: Customer, count: 30}
access_patterns:
  - name: Ten newest orders of a customer
    operation: Query
    key: {PK: "CUST#{customerId}", SK: {begins_with: "ORDER#"}}
    scan_forward: FORWARD
    limit: 10
    expects:
      entity: Order
      where: {customerId: "{customerId}"}
      order_by: [-orderDate, -orderId]
    traffic: {rps: 5, peak_rps: 20}
"""


def _design(forward: bool):
    text = DESIGN.replace("FORWARD", "true" if forward else "false")
    result = read_design(text)
    assert result.design is not None, result.problems
    return text, result.design


def test_a_broken_promise_is_an_error_that_names_the_items() -> None:
    _text, design = _design(forward=True)  # oldest first: the wrong ten
    review = review_design(design, simulation=Simulation(design))
    (broken,) = [f for f in review.findings if f.code == "pattern-fails"]
    assert broken.severity == "error"
    assert broken.message == (
        "Ten newest orders of a customer does not return what it promises"
    )
    assert broken.location.path == "access_patterns[0]"
    missing = [line for line in broken.evidence if line.startswith("missing: CUST#")]
    assert len(missing) == 5  # the first five of the ten named, by key
    assert any("not promised: CUST#" in line for line in broken.evidence)


def test_the_pattern_written_right_raises_nothing() -> None:
    _text, design = _design(forward=False)
    review = review_design(design, simulation=Simulation(design))
    assert [f for f in review.findings if f.code == "pattern-fails"] == []


@pytest.mark.parametrize(("forward", "fails"), [(True, True), (False, False)])
def test_check_design_exits_1_on_a_broken_promise(
    tmp_path: Path, forward: bool, fails: bool
) -> None:
    text, _design_ = _design(forward)
    path = tmp_path / "orders.yaml"
    path.write_text(text)
    stdout = io.StringIO()
    if fails:
        with pytest.raises(CommandError) as error:
            call_command("check_design", str(path), stdout=stdout)
        assert error.value.returncode == 1
        assert "error: pattern-fails" in stdout.getvalue() or (
            "does not return what it promises" in stdout.getvalue()
        )
    else:
        call_command("check_design", str(path), stdout=stdout)
        assert "does not return what it promises" not in stdout.getvalue()
