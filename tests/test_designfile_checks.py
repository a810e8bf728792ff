"""Reading a design file: expectations' `exists`, filters and conditions
read as DynamoDB reads them, and the choices a field takes."""

from __future__ import annotations

import pytest

from modeler.design import model as d
from modeler.designfile import dump_design, read_design

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


CHECKED = """\
format: single-table-workbench/v1
name: Orders
table: {{name: orders, partition_key: {{name: PK, type: S}}}}
entities:
  Order:
    attributes:
      orderId: {{type: S, generator: uuid}}
      status: {{type: S, generator: {{choice: [OPEN, SHIPPED]}}}}
    keys: {{PK: "ORDER#{{orderId}}"}}
access_patterns:
  - name: Orders not shipped
    operation: Scan
    filter: '{filter}'
  - name: Ship an order
    operation: UpdateItem
    entity: Order
    set: {{status: SHIPPED}}
    condition: '{condition}'
"""


def _problems(filter: str, condition: str) -> list[tuple[str, str, int]]:
    result = read_design(CHECKED.format(filter=filter, condition=condition))
    return [
        (p.path, p.message, p.line) for p in result.problems if p.severity == "error"
    ]


def test_filters_and_conditions_are_read_as_dynamodb_reads_them():
    assert _problems('status <> "SHIPPED"', "attribute_exists(PK)") == []


def test_a_filter_dynamodb_cannot_parse_is_an_error_in_its_words():
    assert _problems("status = = OPEN", "attribute_exists(PK)") == [
        (
            "access_patterns[0].filter",
            'Invalid FilterExpression: Syntax error; token: "=", near: "= = #OPEN"',
            13,
        )
    ]


def test_a_condition_that_says_not_equal_the_sql_way_is_told_the_dynamodb_way():
    assert _problems("attribute_exists(status)", 'status != "SHIPPED"') == [
        (
            "access_patterns[1].condition",
            "cannot read 'status != \"SHIPPED\"' at column 8; DynamoDB writes "
            "'not equal' as <>",
            18,
        )
    ]


def test_an_unknown_stream_view_type_lists_the_choices_and_leaving_it_out():
    result = read_design(
        "format: single-table-workbench/v1\n"
        "name: Streams\n"
        "table: {name: t, partition_key: {name: PK, type: S}, stream: ALL}\n"
    )
    assert [(p.path, p.message) for p in result.problems] == [
        (
            "table.stream",
            "'ALL' is not one of: NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, "
            "KEYS_ONLY; or leave stream out",
        )
    ]


def _table_problems(table: str) -> list[tuple[str, str]]:
    result = read_design(
        f"format: single-table-workbench/v1\nname: Limits\ntable: {table}\n"
    )
    return [(p.path, p.message) for p in result.problems if p.severity == "error"]


@pytest.mark.parametrize(
    "kms_key",
    [
        "alias/orders",
        "1234abcd-12ab-34cd-56ef-1234567890ab",
        "mrk-1234abcd12ab34cd56ef1234567890ab",
        "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        "arn:aws:kms:eu-west-1:123456789012:alias/orders",
    ],
)
def test_a_kms_key_in_any_form_aws_takes(kms_key):
    table = (
        "{name: limits, partition_key: {name: PK, type: S}, "
        f"encryption: {{type: KMS, kms_key: '{kms_key}'}}}}"
    )
    assert _table_problems(table) == []


@pytest.mark.parametrize("kms_key", ["orders", "alias/", 'alias/x"; rm -rf /'])
def test_a_kms_key_aws_would_not_take_is_an_error(kms_key):
    table = (
        "{name: limits, partition_key: {name: PK, type: S}, "
        f"encryption: {{type: KMS, kms_key: '{kms_key}'}}}}"
    )
    assert _table_problems(table) == [
        (
            "table.encryption.kms_key",
            "expected a KMS key id, key ARN, alias (alias/name) or alias ARN",
        )
    ]


def test_key_attribute_and_ttl_names_have_at_most_255_bytes():
    long = "k" * 256
    table = (
        f"{{name: limits, partition_key: {{name: {long}, type: S}}, "
        f"ttl_attribute: {long}}}"
    )
    assert _table_problems(table) == [
        (
            "table",
            f"the key attribute name '{long[:40]}…' has 256 bytes; DynamoDB "
            "allows at most 255",
        ),
        ("table.ttl_attribute", "a TTL attribute name has at most 255 bytes"),
    ]


def test_a_design_file_saved_with_a_byte_order_mark_reads():
    text = (
        "format: single-table-workbench/v1\nname: BOM\n"
        "table: {name: bom-table, partition_key: {name: PK, type: S}}\n"
    )
    result = read_design(("\ufeff" + text).encode("utf-8"))
    assert result.design is not None, result.problems
    assert result.design.name == "BOM"


def test_a_design_file_not_in_utf8_says_where():
    result = read_design("name: Caf\u00e9\n".encode("latin-1"))
    assert [(p.path, p.message) for p in result.problems] == [
        ("file", "the file is not UTF-8 text (byte 9)")
    ]


def _scaled(billing: str) -> str:
    return (
        "format: single-table-workbench/v1\nname: Scaled\n"
        "table: {name: scaled, partition_key: {name: PK, type: S}, "
        f"billing: {billing}}}\n"
    )


def test_auto_scaling_reads_and_writes_back_as_given():
    text = _scaled(
        "{mode: PROVISIONED, read: 50, write: 20, auto_scaling: "
        "{read: {min: 10, max: 400, target: 60}, write: false}}"
    )
    result = read_design(text)
    assert result.design is not None, result.problems
    capacity = result.design.table.capacity
    assert capacity == d.Capacity(
        50, 20, d.AutoScaling(d.ScalingRange(10, 400, 60), None)
    )
    assert capacity.scaling("write") is None
    again = read_design(dump_design(result.design)).design
    assert again.table.capacity == capacity
    off = read_design(
        _scaled("{mode: PROVISIONED, read: 5, write: 5, auto_scaling: off}")
    )
    assert off.design.table.capacity.auto_scaling == d.AUTO_SCALING_OFF
    assert "auto_scaling: false" in dump_design(off.design)
    # Left out: the exports' default, from the capacity to ten times it.
    plain = read_design(_scaled("{mode: PROVISIONED, read: 5, write: 5}")).design
    assert plain.table.capacity.scaling("read") == d.ScalingRange(5, 50, 70)
    assert "auto_scaling" not in dump_design(plain)


@pytest.mark.parametrize(
    ("scaling", "path", "message"),
    [
        (
            "{read: {min: 50, max: 10}}",
            "table.billing.auto_scaling.read",
            "the minimum (50) is above the maximum (10)",
        ),
        (
            "{write: {min: 1, max: 50000}}",
            "table.billing.auto_scaling.write.max",
            "auto scaling goes up to 40,000 units, found 50,000",
        ),
        (
            "{read: {min: 1, max: 10, target: 95}}",
            "table.billing.auto_scaling.read.target",
            "a target utilisation is 20 to 90 percent, found 95",
        ),
        (
            "{read: {min: 1}}",
            "table.billing.auto_scaling.read.max",
            "is required",
        ),
    ],
)
def test_an_auto_scaling_range_aws_would_refuse_is_an_error(scaling, path, message):
    billing = f"{{mode: PROVISIONED, read: 5, write: 5, auto_scaling: {scaling}}}"
    result = read_design(_scaled(billing))
    assert (path, message) in [(p.path, p.message) for p in result.problems]


def test_a_capacity_outside_its_range_is_a_warning_and_on_demand_takes_none():
    billing = (
        "{mode: PROVISIONED, read: 5, write: 5, auto_scaling: "
        "{read: {min: 10, max: 20}}}"
    )
    result = read_design(_scaled(billing))
    assert [(p.severity, p.path, p.message) for p in result.problems] == [
        (
            "warning",
            "table.billing.auto_scaling.read",
            "the provisioned read capacity (5) is outside auto scaling's range "
            "(10 to 20): auto scaling sets it to 10",
        )
    ]
    on_demand = read_design(_scaled("{mode: PAY_PER_REQUEST, auto_scaling: off}"))
    assert [(p.path, p.message) for p in on_demand.problems] == [
        (
            "table.billing.auto_scaling",
            "scales provisioned capacity: give read and write units too",
        )
    ]
