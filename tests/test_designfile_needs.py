"""A read access pattern stated by what it needs (`needs`), before any key
serves it: read, written back, and checked like an expectation."""

from __future__ import annotations

import pytest

from modeler.design import model as d
from modeler.design_check import check_design
from modeler.designfile import dump_design, read_design

HEADER = """\
format: single-table-workbench/v1
name: Orders
table: {name: orders, partition_key: PK, sort_key: SK}
entities:
  Order:
    attributes:
      customerId: {type: S, generator: ulid}
      orderId: {type: S, generator: ulid}
      orderDate: {type: S, generator: {date: {from: "2025-01-01", to: "2026-06-30"}}}
access_patterns:
"""
NEEDS = """\
  - name: Orders of a customer, newest first
    needs:
      entity: Order
      where: {customerId: "{customerId}"}
      order_by: [-orderDate, -orderId]
    limit: 20
    parameters: {customerId: {type: S, example: C1}}
    traffic: {rps: 50, peak_rps: 400}
"""


def _problems(text: str) -> list[tuple[str, str, str, int | None]]:
    return [(p.severity, p.path, p.message, p.line) for p in read_design(text).problems]


def test_a_needs_pattern_reads_as_an_unkeyed_read_with_its_expectation():
    result = read_design(HEADER + NEEDS)
    assert result.design is not None, result.problems
    (pattern,) = result.design.access_patterns
    assert pattern.operation == d.UNKEYED
    assert not pattern.keyed and pattern.is_read and pattern.kind == "read"
    assert pattern.operation_label == "no key yet"
    assert pattern.expects == d.Expectation(
        ("Order",),
        (d.Predicate("customerId", "=", ("{customerId}",)),),
        ("-orderDate", "-orderId"),
    )
    assert (pattern.limit, pattern.traffic) == (20, d.Traffic(50, 400))
    assert pattern.parameters == (d.Parameter("customerId", "S", "C1"),)


def test_a_needs_pattern_writes_back_as_needs_and_reads_back_equal():
    design = read_design(HEADER + NEEDS).design
    text = dump_design(design)
    assert "needs:" in text
    assert "operation" not in text and "expects" not in text
    assert read_design(text).design == design


def test_an_entity_without_keys_is_a_warning_in_a_design_stated_by_needs():
    assert _problems(HEADER + NEEDS) == [
        (
            "warning",
            "entities.Order.keys",
            "Order has no keys yet; propose keys or write them",
            5,
        )
    ]


def test_a_partial_table_key_stays_an_error():
    text = HEADER.replace(
        "access_patterns:", '    keys: {PK: "CUST#{customerId}"}\naccess_patterns:'
    )
    (error,) = [p for p in read_design(text + NEEDS).problems if p.is_error]
    assert (error.path, error.message) == (
        "entities.Order.keys",
        "every entity needs a template for the table's sort key 'SK'",
    )


def test_a_pattern_with_neither_operation_nor_needs_says_both_ways():
    text = HEADER + "  - name: Orders\n    traffic: {rps: 1}\n"
    assert (
        "error",
        "access_patterns[0].operation",
        "is required (or state what the pattern reads under needs, to have its "
        "keys proposed)",
        11,
    ) in _problems(text)


def test_needs_with_an_operation_is_an_error_on_its_line():
    text = HEADER + (
        "  - name: Orders\n    operation: Scan\n    needs: {entity: Order}\n"
    )
    assert _problems(text) == [
        (
            "error",
            "access_patterns[0].needs",
            "a pattern with an operation states what it returns under expects; "
            "leave out operation to have its keys proposed",
            13,
        )
    ]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("key", '{PK: "CUST#{customerId}"}'),
        ("index", "GSI1"),
        ("filter", "'status = \"OPEN\"'"),
        ("scan_forward", "false"),
        ("actions", "[{operation: Get, entity: Order}]"),
        ("entity", "Order"),
        ("condition", "attribute_exists(PK)"),
    ],
)
def test_needs_takes_no_key_or_request_field_and_the_error_names_it(field, value):
    text = HEADER + NEEDS + f"    {field}: {value}\n"
    assert _problems(text) == [
        (
            "error",
            f"access_patterns[0].{field}",
            f"a pattern stated by needs has no {field}: its keys are still to be "
            "proposed (or give it an operation)",
            19,
        )
    ]


def test_needs_with_expects_says_where_the_expectation_goes():
    text = HEADER + NEEDS + "    expects: {entity: Order}\n"
    (problem,) = _problems(text)
    assert problem[1:3] == (
        "access_patterns[0].expects",
        "a pattern stated by needs says what it returns there, not under expects",
    )


@pytest.mark.parametrize("needs", ["{where: {customerId: C1}}", "", "{}"])
def test_needs_names_an_entity(needs):
    text = HEADER + f"  - name: Orders\n    needs: {needs}\n"
    problems = [p for p in _problems(text) if p[0] == "error"]
    assert problems == [
        (
            "error",
            "access_patterns[0].needs.entity",
            "is required: the entity (or list of entities) the pattern returns",
            12,
        )
    ]


def test_needs_is_checked_as_an_expectation_with_paths_under_needs():
    text = HEADER + (
        "  - name: Orders\n"
        "    needs: {entity: Order, where: {customerID: x}, order_by: [-placed]}\n"
        "  - name: Nothing\n"
        "    needs: {entity: Invoice}\n"
    )
    errors = [p[1:3] for p in _problems(text) if p[0] == "error"]
    assert errors == [
        (
            "access_patterns[0].needs.where.customerID",
            "no attribute 'customerID' on Order",
        ),
        ("access_patterns[0].needs.order_by", "no attribute 'placed' on Order"),
        ("access_patterns[1].needs.entity", "unknown entity 'Invoice'"),
    ]


def test_an_unkeyed_pattern_built_without_an_entity_is_an_error():
    design = read_design(HEADER + NEEDS).design
    pattern = d.AccessPattern("Orders", d.UNKEYED)
    problems = check_design(
        d.Design(
            design.name,
            design.table,
            entities=design.entities,
            access_patterns=(pattern,),
        )
    )
    assert [(p.path, p.message) for p in problems if p.is_error] == [
        (
            "access_patterns[0].needs.entity",
            "is required: the entity (or list of entities) the pattern returns",
        )
    ]
