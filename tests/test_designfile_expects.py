"""An expectation's `exists` and `not_exists` take true or false, and false
means the other operator."""

from __future__ import annotations

import pytest

from modeler.designfile import read_design

DESIGN = """\
format: single-table-workbench/v1
name: Orders
table: {{name: orders, partition_key: {{name: PK, type: S}}}}
entities:
  Order:
    attributes:
      orderId: {{type: S, generator: uuid}}
      shippedAt: {{type: S, required: false}}
    keys: {{PK: "ORDER#{{orderId}}"}}
access_patterns:
  - name: Unshipped orders
    operation: Scan
    filter: attribute_not_exists(shippedAt)
    expects: {{entity: Order, where: {{shippedAt: {where}}}}}
"""


@pytest.mark.parametrize(
    ("where", "operator"),
    [
        ("{not_exists: true}", "not_exists"),
        ("{exists: false}", "not_exists"),
        ("{exists: true}", "exists"),
        ("{not_exists: false}", "exists"),
    ],
)
def test_exists_takes_true_or_false(where, operator):
    result = read_design(DESIGN.format(where=where))
    assert result.design is not None, result.problems
    (predicate,) = result.design.access_patterns[0].expects.where
    assert (predicate.attribute, predicate.operator) == ("shippedAt", operator)


def test_exists_with_another_value_is_an_error_on_its_line():
    result = read_design(DESIGN.format(where='{exists: "no"}'))
    assert result.design is None
    assert [(p.path, p.message, p.line) for p in result.problems] == [
        (
            "access_patterns[0].expects.where.shippedAt.exists",
            "expected true or false, found 'no'",
            14,
        )
    ]
