"""`check_design` keeps the problems of the designs it checked last, by
their content and the limits: the same answer as a fresh check, never a
stale one."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.design_check import _check, check_design, limits
from modeler.designfile import read_design

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def design() -> d.Design:
    return read_design((EXAMPLES / "order-management.yaml").read_bytes()).design


def test_a_kept_answer_is_a_fresh_check(design: d.Design) -> None:
    first = check_design(design)
    assert first == _check(design)
    first.append("changed by its caller")
    assert check_design(design) == _check(design)  # a list of its own


def test_an_edit_is_checked_again(design: d.Design) -> None:
    check_design(design)
    order = design.entity("Order")
    keys = {**order.keys, "PK": d.KeyTemplate("CUST#{nowhere}")}
    edited = dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(e, keys=keys) if e is order else e
            for e in design.entities
        ),
    )
    problems = check_design(edited)
    assert problems == _check(edited)
    assert any(p.path == "entities.Order.keys.PK" for p in problems)
    assert not any(p.path == "entities.Order.keys.PK" for p in check_design(design))


def test_other_limits_are_checked_again(design: d.Design) -> None:
    within = check_design(design)
    with limits.configured(limits.DesignLimits(entities=1)):
        past = check_design(design)
        assert past == _check(design)
        assert past != within
    assert check_design(design) == within


def _numbered_query_problems(low: str, high: str) -> list[str]:
    """The codes of the problems in a design whose Query reads a number
    sort key between `low` and `high`."""
    read = read_design(
        f"""
format: single-table-workbench/v1
name: Numbered readings
table:
  name: readings
  partition_key: {{name: PK, type: S}}
  sort_key: {{name: SK, type: N}}
entities:
  Reading:
    attributes:
      deviceId: {{type: S, generator: uuid}}
      seq: {{type: N, generator: {{int: {{min: 0, max: 1000}}}}}}
    keys: {{PK: "DEVICE#{{deviceId}}", SK: "{{seq}}"}}
access_patterns:
  - name: Readings in a range
    operation: Query
    key: {{PK: "DEVICE#{{deviceId}}", SK: {{between: ["{low}", "{high}"]}}}}
""".encode()
    )
    return [f.code for f in read.problems]


@pytest.mark.parametrize(
    ("low", "high", "reversed_"),
    [
        # 21 digits: one float for both, but DynamoDB keeps 38 and rejects
        # the first query's BETWEEN.
        ("100000000000000000001", "100000000000000000000", True),
        ("100000000000000000000", "100000000000000000001", False),
        ("-2", "-10", True),
        ("-10", "-2", False),
    ],
)
def test_a_reversed_number_range_is_found_at_full_precision(
    low: str, high: str, reversed_: bool
) -> None:
    codes = _numbered_query_problems(low, high)
    assert ("between-reversed" in codes) is reversed_


def test_a_tag_aws_refuses_is_named_with_its_characters(design: d.Design) -> None:
    table = dataclasses.replace(
        design.table,
        tags=(
            ("cost-centre:EU/1 ü", "team=orders@x+y_z.1 数据"),
            ('say "hi"', "back\\nslash"),
        ),
    )
    problems = [
        p
        for p in check_design(dataclasses.replace(design, table=table))
        if p.code.startswith("tag-")
    ]
    assert [(p.code, p.path, p.is_error) for p in problems] == [
        ("tag-key-characters", 'table.tags.say "hi"', False),
        ("tag-value-characters", 'table.tags.say "hi"', False),
    ]
    assert problems[0].message.startswith("AWS refuses the tag 'say \"hi\"': ")
    assert "its key has '\"'; deploying the table with it fails" in problems[0].message
    assert "its value has '\\\\'; deploying" in problems[1].message


def _with_conditions(design: d.Design, place: str, ship: str) -> d.Design:
    """The example with the conditions of placing an order (its Put of the
    order) and shipping one replaced."""

    def pattern(p: d.AccessPattern) -> d.AccessPattern:
        condition = {"Place an order with its line items": place, "Ship an order": ship}
        if p.name not in condition:
            return p
        first, *rest = p.actions
        return dataclasses.replace(
            p, actions=(dataclasses.replace(first, condition=condition[p.name]), *rest)
        )

    return dataclasses.replace(
        design, access_patterns=tuple(pattern(p) for p in design.access_patterns)
    )


def test_a_condition_on_an_attribute_no_item_has_is_a_warning(design: d.Design) -> None:
    # `pk` for the table's `PK`: the condition guards nothing, and placing
    # an order twice would overwrite the first without a word.
    problems = check_design(
        _with_conditions(
            design,
            "attribute_not_exists(pk)",
            'status = "OPEN" AND attribute_exists(shipedAt) AND size(tags) > {n}',
        )
    )
    unknown = [
        (p.severity, p.path, p.message)
        for p in problems
        if p.code == "condition-unknown-attribute"
    ]
    assert [path for _, path, _ in unknown] == [
        "access_patterns[6].actions[0].condition",
        "access_patterns[7].condition",
        "access_patterns[7].condition",
    ]
    assert {severity for severity, _, _ in unknown} == {"warning"}
    assert unknown[0][2] == (
        "'pk' is no attribute of Order nor a key attribute, so no item has it: "
        "attribute_not_exists(pk) always holds and a comparison with it never does"
    )
    assert "'shipedAt' is no attribute of Order" in unknown[1][2]
    assert "'tags' is no attribute of Order" in unknown[2][2]
    # The example's own conditions name what its items have.
    assert not any(
        p.code == "condition-unknown-attribute" for p in check_design(design)
    )
