"""The key conditions of access patterns and actions: the full primary key
of a GetItem or an action, a Query's partition and sort key conditions."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal, InvalidOperation

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.design.parameters import placeholders
from modeler.design_check.indexes import lsi_partition_key

# An index's partition key attributes and sort key attributes.
IndexKeys = tuple[tuple[d.KeyAttribute, ...], tuple[d.KeyAttribute, ...]]


def table_keys(design: d.Design) -> IndexKeys:
    table = design.table
    return (table.partition_key,), ((table.sort_key,) if table.sort_key else ())


def index_keys(design: d.Design, index_name: str) -> IndexKeys | None:
    table = design.table
    if index_name == d.TABLE_INDEX:
        return table_keys(design)
    index = table.index(index_name)
    if index is None:
        return None
    if index.is_global:
        return index.partition_key, index.sort_key
    return lsi_partition_key(table, index), index.sort_key


def check_full_key(
    clauses: tuple[d.KeyClause, ...], keys: IndexKeys, path: str
) -> Iterator[Finding]:
    expected = [a.name for part in keys for a in part]
    given = [c.attribute for c in clauses]
    for name in expected:
        if name not in given:
            yield error(
                "primary-key-incomplete",
                path,
                f"needs the full primary key: '{name}' is missing",
            )
    for clause in clauses:
        if clause.attribute not in expected:
            yield error(
                "key-condition-not-table-key",
                f"{path}.{clause.attribute}",
                "is not a key attribute of the table: expected " + ", ".join(expected),
            )
        elif clause.operator != "=":
            yield error(
                "get-key-not-equal",
                f"{path}.{clause.attribute}",
                f"reading one item by key takes '=', not {clause.operator}",
            )


def check_query_key(
    design: d.Design, clauses: tuple[d.KeyClause, ...], keys: IndexKeys, path: str
) -> Iterator[Finding]:
    partition, sort = keys
    by_name = {c.attribute: c for c in clauses}
    for attr in partition:
        clause = by_name.get(attr.name)
        if clause is None:
            yield error(
                "partition-key-required",
                path,
                f"a Query needs the partition key '{attr.name}' with '='",
            )
        elif clause.operator != "=":
            yield error(
                "partition-key-not-equal",
                f"{path}.{attr.name}",
                f"the partition key condition is always '=', not {clause.operator}",
            )
    sort_names = [a.name for a in sort]
    used = [c for c in clauses if c.attribute in sort_names]
    for clause in clauses:
        if clause.attribute not in by_name or clause.attribute in (
            a.name for a in partition
        ):
            continue
        if clause.attribute not in sort_names:
            yield error(
                "key-condition-not-index-key",
                f"{path}.{clause.attribute}",
                "is not a key attribute of "
                "this index; key conditions use only "
                + ", ".join(a.name for a in partition + sort),
            )
    # Multi-attribute sort keys: conditions run left to right, equality on
    # every attribute before the last one conditioned.
    positions = sorted(sort_names.index(c.attribute) for c in used)
    if positions and positions != list(range(len(positions))):
        yield error(
            "sort-key-gap",
            path,
            "sort key conditions must cover the sort key "
            "attributes from the first, without gaps: " + ", ".join(sort_names),
        )
    for clause in used:
        cpath = f"{path}.{clause.attribute}"
        position = sort_names.index(clause.attribute)
        if position < len(used) - 1 and clause.operator != "=":
            yield error(
                "range-before-last-sort-key",
                cpath,
                "only the last sort key attribute of the "
                "condition may use a range; the ones before it take '='",
            )
        attr = sort[position]
        if clause.operator == "begins_with" and attr.type == "N":
            yield error(
                "begins-with-on-number",
                cpath,
                f"begins_with works on S and B sort keys; '{attr.name}' is a number",
            )
        expected_values = 2 if clause.operator == "between" else 1
        if len(clause.values) != expected_values:
            yield error(
                "key-operator-values",
                cpath,
                f"{clause.operator} takes {expected_values} "
                f"value{'s' if expected_values > 1 else ''}",
            )
        if clause.operator == "between" and len(clause.values) == 2:
            low, high = clause.values
            if not placeholders(low + high) and _between_reversed(low, high, attr.type):
                yield error(
                    "between-reversed",
                    cpath,
                    f"BETWEEN '{low}' AND '{high}': the first "
                    "value is greater than the second, which DynamoDB "
                    "rejects",
                )


def _between_reversed(low: str, high: str, attr_type: str) -> bool:
    if attr_type != "N":
        # S and B keys sort by their UTF-8 bytes.
        return low.encode("utf-8") > high.encode("utf-8")
    # Decimal, not float: DynamoDB keeps 38 digits, and two numbers that
    # round to one float would pass for equal however they are ordered.
    low_number, high_number = _key_number(low), _key_number(high)
    if low_number.is_nan() or high_number.is_nan():
        return False  # NaN orders before and after nothing
    return low_number > high_number


def _key_number(value: str) -> Decimal:
    try:
        return Decimal(value)
    except InvalidOperation:
        return Decimal(0)  # text that is no number orders as 0
