"""The table's secondary indexes: quotas, names, key attributes (GSI and
LSI rules), projections and capacity."""

from __future__ import annotations

from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.problems import Problem
from modeler.design_check.common import error
from modeler.design_check.table import TABLE_NAME, check_scaling

MAX_GSIS = 20  # the default quota per table
MAX_LSIS = 5
MAX_KEY_ATTRIBUTES_PER_PART = 4  # multi-attribute GSI keys
MAX_PROJECTED_ATTRIBUTES = 100  # summed over all indexes of a table


def check_indexes(table: d.Table) -> Iterator[Problem]:
    seen: set[str] = set()
    types: dict[str, tuple[str, str]] = {
        a.name: (a.type, "the table") for a in table.key_attributes
    }
    gsis = [i for i in table.indexes if i.is_global]
    lsis = [i for i in table.indexes if not i.is_global]
    if len(gsis) > MAX_GSIS:
        yield error(
            "table.indexes",
            f"{len(gsis)} global secondary indexes; "
            f"the default quota is {MAX_GSIS} per table",
        )
    if len(lsis) > MAX_LSIS:
        yield error(
            "table.indexes",
            f"{len(lsis)} local secondary indexes; "
            f"DynamoDB allows at most {MAX_LSIS} per table",
        )
    projected = 0
    for i, index in enumerate(table.indexes):
        path = f"table.indexes[{i}]"
        if not TABLE_NAME.match(index.name):
            yield error(
                f"{path}.name",
                f"'{index.name}' is not a valid index "
                "name: 3 to 255 characters of letters, digits, '_', "
                "'-' and '.'",
            )
        if index.name in seen or index.name == d.TABLE_INDEX:
            yield error(
                f"{path}.name", f"the index name '{index.name}' is already used"
            )
        seen.add(index.name)
        if index.is_global:
            yield from _check_gsi_keys(index, path, table)
        else:
            yield from _check_lsi_keys(index, path, table)
        for attr in index.key_attributes:
            if not attr.name:
                yield error(f"{path}", "every key attribute needs a name")
                continue
            known = types.setdefault(attr.name, (attr.type, f"index {index.name}"))
            if known[0] != attr.type:
                yield error(
                    path,
                    f"key attribute '{attr.name}' is {attr.type} here but "
                    f"{known[0]} in {known[1]}; an attribute has one type "
                    "in AttributeDefinitions",
                )
        yield from _check_projection(index, path, table)
        if index.projection.type == "INCLUDE":
            projected += len(index.projection.attributes)
        yield from _check_capacity(index, path, table)
    if projected > MAX_PROJECTED_ATTRIBUTES:
        yield error(
            "table.indexes",
            f"{projected} projected non-key attributes "
            f"over all indexes; DynamoDB allows at most "
            f"{MAX_PROJECTED_ATTRIBUTES}",
        )


def _check_gsi_keys(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    if not 1 <= len(index.partition_key) <= MAX_KEY_ATTRIBUTES_PER_PART:
        yield error(
            f"{path}.partition_key",
            "a global secondary index has 1 to "
            f"{MAX_KEY_ATTRIBUTES_PER_PART} partition key attributes",
        )
    if len(index.sort_key) > MAX_KEY_ATTRIBUTES_PER_PART:
        yield error(
            f"{path}.sort_key",
            "a global secondary index has at most "
            f"{MAX_KEY_ATTRIBUTES_PER_PART} sort key attributes",
        )
    names = [a.name for a in index.key_attributes]
    for name in set(names):
        if names.count(name) > 1:
            yield error(path, f"'{name}' is used twice in the index key")


def _check_lsi_keys(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    if table.sort_key is None:
        yield error(path, "a local secondary index needs a table with a sort key")
    if index.partition_key and index.partition_key != (table.partition_key,):
        yield error(
            f"{path}.partition_key",
            "a local secondary index has the "
            f"table's partition key '{table.partition_key.name}'; leave "
            "it out or name that one",
        )
    if len(index.sort_key) != 1:
        yield error(
            f"{path}.sort_key",
            "a local secondary index has exactly one sort key attribute",
        )
    elif table.sort_key and index.sort_key[0].name == table.sort_key.name:
        yield error(
            f"{path}.sort_key",
            "a local secondary index needs a sort key other than the table's",
        )


def _check_capacity(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    if index.capacity and not index.is_global:
        yield error(
            f"{path}.capacity",
            "a local secondary index shares the "
            "table's capacity and takes none of its own",
        )
    if index.is_global and table.billing_mode == "PROVISIONED" and not (index.capacity):
        yield error(
            f"{path}.capacity",
            "a global secondary index of a "
            "PROVISIONED table needs read and write capacity units",
        )
    if index.is_global and table.billing_mode == "PAY_PER_REQUEST" and (index.capacity):
        yield error(
            f"{path}.capacity",
            "indexes of an on-demand table take no capacity units",
        )
    if index.capacity and index.is_global:
        yield from check_scaling(index.capacity, f"{path}.capacity.auto_scaling")


def _check_projection(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    projection = index.projection
    if projection.type == "INCLUDE" and not projection.attributes:
        yield error(f"{path}.projection", "INCLUDE needs the attributes to project")
    if projection.type != "INCLUDE" and projection.attributes:
        yield error(
            f"{path}.projection",
            f"{projection.type} takes no attribute "
            "list; use INCLUDE to name attributes",
        )
    keys = {a.name for a in table.key_attributes + index.key_attributes}
    for name in projection.attributes:
        if name in keys:
            yield error(
                f"{path}.projection.attributes",
                f"'{name}' is a key "
                "attribute, always projected; list only non-key attributes",
            )
    if len(set(projection.attributes)) != len(projection.attributes):
        yield error(f"{path}.projection.attributes", "an attribute is listed twice")


def lsi_partition_key(table: d.Table, index: d.Index) -> tuple[d.KeyAttribute, ...]:
    """An LSI's partition key: written or not, it is the table's."""
    return index.partition_key or (table.partition_key,)
