"""Hypothesis strategies for random single-table designs, their items and
the requests sent to them.

Values come from small per-example pools so that partitions hold several
items and queries hit existing keys. Strings mix ASCII with characters whose
UTF-8 encodings are 2, 3 and 4 bytes long ("¿", "ｱ", "😀"), so that byte order
differs from UTF-16 order; numbers include negatives, decimals and 38-digit
values; binary values include bytes >= 0x80 so that signed order would be
wrong.

Numbers are also sent in non-canonical forms ("1.50", "1E+2", "007"), which
DynamoDB stores canonically ("1.5", "100", "7"); moto keeps them as sent, so
its numbers are compared in canonical form (see `Pair.theirs`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from tests.conformance.harness import (
    Design,
    IndexDef,
    KeyDef,
    Wire,
    number_text,
    order_key,
)

STRING_CHARACTERS = "Aaz09#¿éｱ😀"
SPECIAL_NUMBERS = (
    "99999999999999999999999999999999999999",
    "-99999999999999999999999999999999999999",
    "0.00000000000000000000000000000000000001",
    "-12345678901234567890.123456789012345678",
    "1E+2",
    "007",
    "-0.0",
)
BYTES = (0x00, 0x01, 0x61, 0x7F, 0x80, 0xFE, 0xFF)
NON_KEY = ("n", "s", "f")  # a number, a string and a boolean, never keys

strings = st.text(STRING_CHARACTERS, min_size=1, max_size=3)
small_numbers = st.decimals(
    min_value=-1000, max_value=1000, places=2, allow_nan=False, allow_infinity=False
)
# Canonical, or with trailing zeros ("1.50"); sums of these stay well within
# the 28 digits moto computes with (test_moto_differences).
small_number_texts = st.one_of(small_numbers.map(number_text), small_numbers.map(str))
numbers = st.one_of(small_number_texts, st.sampled_from(SPECIAL_NUMBERS)).map(
    lambda text: {"N": text}
)
binaries = st.lists(st.sampled_from(BYTES), min_size=1, max_size=3).map(
    lambda b: {"B": bytes(b)}
)
VALUES = {"S": strings.map(lambda s: {"S": s}), "N": numbers, "B": binaries}


def values(kind: str) -> st.SearchStrategy[Wire]:
    return VALUES[kind]


@st.composite
def designs(draw: st.DrawFn) -> Design:
    """A table keyed by pk (S or N) and an optional sk (S, N or B), with up
    to two GSIs. A GSI is keyed by its own attributes (which items may lack:
    a sparse index) or reuses the table's: sk as partition (an inverted
    index), pk as sort key."""
    types = {"pk": draw(st.sampled_from(["S", "N"]))}
    sort_type = draw(st.sampled_from([None, "S", "N", "B"]))
    if sort_type:
        types["sk"] = sort_type
    key = KeyDef("pk", "sk" if sort_type else None)
    indexes = []
    for n in range(draw(st.integers(0, 2))):
        partition = draw(st.sampled_from([f"g{n}p"] + (["sk"] if sort_type else [])))
        sort = draw(st.sampled_from([None, f"g{n}s", "pk"]))
        for attribute in (partition, sort):
            if attribute is not None and attribute not in types:
                types[attribute] = draw(st.sampled_from(["S", "N", "B"]))
        projection = draw(st.sampled_from(["ALL", "KEYS_ONLY", "INCLUDE"]))
        include = ("n", "f") if projection == "INCLUDE" else ()
        indexes.append(
            IndexDef(f"gsi{n}", KeyDef(partition, sort), projection, include)
        )
    return Design(key, types, tuple(indexes))


@dataclass
class Data:
    """A design, the value pools of its key attributes and its items."""

    design: Design
    pools: dict[str, list[Wire]]
    items: list[Wire]


@st.composite
def data(draw: st.DrawFn, min_items: int = 10, max_items: int = 20) -> Data:
    """A design and its items. Table keys are distinct combinations of pool
    values: a few partitions with several items each (or, without a sort
    key, more partitions)."""
    design = draw(designs())
    sizes = {"pk": (1, 2) if design.key.sort else (8, 16), "sk": (4, 10)}
    pools = {
        attribute: draw(
            st.lists(
                values(kind),
                min_size=sizes.get(attribute, (1, 3))[0],
                max_size=sizes.get(attribute, (1, 3))[1],
                unique_by=order_key,
            )
        )
        for attribute, kind in design.types.items()
    }
    combinations = list(itertools.product(*(pools[a] for a in design.key.attributes)))
    count = draw(
        st.integers(
            min(min_items, len(combinations)), min(max_items, len(combinations))
        )
    )
    chosen = draw(st.permutations(combinations))[:count]
    items = [
        dict(zip(design.key.attributes, key, strict=True))
        | draw(other_attributes(design, pools))
        for key in chosen
    ]
    return Data(design, pools, items)


def other_attributes(
    design: Design, pools: dict[str, list[Wire]]
) -> st.SearchStrategy[Wire]:
    """The attributes of an item beside its table key: each index-only key
    attribute present or not (sparse indexes), and some non-key ones."""
    optional: dict[str, st.SearchStrategy] = {
        a: st.sampled_from(pools[a]) for a in design.index_only_attributes
    }
    optional |= {
        "n": small_number_texts.map(lambda text: {"N": text}),
        "s": strings.map(lambda s: {"S": s}),
        "f": st.booleans().map(lambda b: {"BOOL": b}),
    }
    return st.fixed_dictionaries({}, optional=optional)


@st.composite
def pool_or_new(
    draw: st.DrawFn,
    data: Data,
    attribute: str,
    partition: tuple[str, Wire] | None = None,
) -> Wire:
    """A value of the attribute: mostly one that items have (in the given
    partition, when there is one), sometimes one from its pool, sometimes
    any, so that reads mostly hit items but also miss."""
    held = [
        item[attribute]
        for item in data.items
        if attribute in item
        and (partition is None or item.get(partition[0]) == partition[1])
    ]
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return draw(values(data.design.types[attribute]))
    if choice == 1 or not held:
        return draw(st.sampled_from(data.pools[attribute]))
    return draw(st.sampled_from(held))


def prefixes(value: Wire) -> st.SearchStrategy[Wire]:
    """Non-empty prefixes of an S or B value, for begins_with."""
    ((kind, data),) = value.items()
    return st.integers(1, len(data)).map(lambda n: {kind: data[:n]})


@st.composite
def filters(draw: st.DrawFn, request: dict[str, Any]) -> None:
    """Maybe add a FilterExpression on non-key attributes to a request."""
    choice = draw(st.sampled_from([None] * 6 + ["n>", "n<=", "s", "s^", "f", "n|f"]))
    if choice is None:
        return
    names = request.setdefault("ExpressionAttributeNames", {})
    values_ = request.setdefault("ExpressionAttributeValues", {})
    if choice in ("n>", "n<="):
        names["#fn"] = "n"
        values_[":fv"] = {"N": number_text(draw(small_numbers))}
        operator = choice[1:]
        request["FilterExpression"] = f"#fn {operator} :fv"
    elif choice == "s":
        names["#fs"] = "s"
        request["FilterExpression"] = "attribute_exists(#fs)"
    elif choice == "s^":
        names["#fs"] = "s"
        values_[":fv"] = draw(prefixes(draw(strings.map(lambda s: {"S": s}))))
        request["FilterExpression"] = "begins_with(#fs, :fv)"
    elif choice == "f":
        names["#ff"] = "f"
        values_[":fv"] = {"BOOL": draw(st.booleans())}
        request["FilterExpression"] = "#ff = :fv"
    else:
        names["#fn"] = "n"
        names["#ff"] = "f"
        values_[":fv"] = {"BOOL": True}
        request["FilterExpression"] = "attribute_not_exists(#fn) OR #ff = :fv"
    if not values_:
        del request["ExpressionAttributeValues"]


@st.composite
def projections(draw: st.DrawFn, design: Design, request: dict[str, Any]) -> None:
    """Maybe add a ProjectionExpression (through placeholders, some attribute
    names being reserved words) or Select=COUNT to a request. A GSI that does
    not project everything is asked only for what it projects (asking for
    more is a ValidationException, which moto does not give)."""
    choice = draw(st.sampled_from([None, None, "projection", "count"]))
    available = [*design.types, *NON_KEY]
    index = next(
        (i for i in design.indexes if i.name == request.get("IndexName")), None
    )
    if index is not None and index.projection != "ALL":
        projected = {
            *design.key.attributes,
            *index.key.attributes,
            *index.include,
        }
        available = [a for a in available if a in projected]
    if choice == "count":
        request["Select"] = "COUNT"
    elif choice == "projection":
        attributes = draw(
            st.lists(
                st.sampled_from(available),
                min_size=1,
                max_size=4,
                unique=True,
            )
        )
        names = request.setdefault("ExpressionAttributeNames", {})
        placeholders = []
        for n, attribute in enumerate(attributes):
            names[f"#p{n}"] = attribute
            placeholders.append(f"#p{n}")
        request["ProjectionExpression"] = ", ".join(placeholders)


SORT_OPERATORS = ("=", "<", "<=", ">", ">=", "BETWEEN", "begins_with")


@st.composite
def queries(draw: st.DrawFn, data: Data) -> dict[str, Any]:
    """A valid Query of the table or one of its indexes, without TableName."""
    design = data.design
    index = draw(st.sampled_from([None, *(i.name for i in design.indexes)]))
    key = design.key_for(index)
    request: dict[str, Any] = {}
    if index is not None:
        request["IndexName"] = index
    names = {"#k": key.partition}
    partition = draw(pool_or_new(data, key.partition))
    values_ = {":k": partition}
    condition = "#k = :k"
    if key.sort is not None:
        sort_type = design.types[key.sort]
        operators = [None, *SORT_OPERATORS]
        if sort_type == "N":
            operators.remove("begins_with")
        operator = draw(st.sampled_from(operators))
        if operator is not None:
            names["#s"] = key.sort
            value = pool_or_new(data, key.sort, (key.partition, partition))
            if operator == "BETWEEN":
                low, high = sorted([draw(value), draw(value)], key=order_key)
                values_ |= {":lo": low, ":hi": high}
                condition += " AND #s BETWEEN :lo AND :hi"
            elif operator == "begins_with":
                values_[":s"] = draw(prefixes(draw(value)))
                condition += " AND begins_with(#s, :s)"
            else:
                values_[":s"] = draw(value)
                condition += f" AND #s {operator} :s"
    request |= {
        "KeyConditionExpression": condition,
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values_,
        "ScanIndexForward": draw(st.booleans()),
    }
    if draw(st.integers(0, 4)) < 3:
        request["Limit"] = draw(st.integers(1, 3))
    draw(filters(request))
    draw(projections(design, request))
    return request


@st.composite
def scans(draw: st.DrawFn, design: Design) -> dict[str, Any]:
    """A valid Scan of the table or one of its indexes, without TableName."""
    request: dict[str, Any] = {}
    index = draw(st.sampled_from([None, *(i.name for i in design.indexes)]))
    if index is not None:
        request["IndexName"] = index
    limit = draw(st.one_of(st.none(), st.integers(1, 5)))
    if limit is not None:
        request["Limit"] = limit
    draw(filters(request))
    draw(projections(design, request))
    return request


def keys(data: Data) -> st.SearchStrategy[Wire]:
    """A table key: mostly one of an item's, sometimes any from the pools
    (often absent)."""
    attributes = data.design.key.attributes
    from_pools = st.fixed_dictionaries(
        {a: st.sampled_from(data.pools[a]) for a in attributes}
    )
    if not data.items:
        return from_pools
    existing = st.sampled_from(data.items).map(lambda i: {a: i[a] for a in attributes})
    return st.one_of(existing, existing, from_pools)


# --- Writes -------------------------------------------------------------------

CONDITIONS = (
    None,
    "attribute_exists(#c0)",
    "attribute_not_exists(#c0)",
    "#c1 < :c1",
    "attribute_not_exists(#c1) OR #c1 >= :c1",
    "#c2 = :c2",
)
RETURN_VALUES = {
    "put_item": ("NONE", "ALL_OLD"),
    "delete_item": ("NONE", "ALL_OLD"),
    "update_item": ("NONE", "ALL_OLD", "ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"),
}


@st.composite
def conditions(draw: st.DrawFn, request: dict[str, Any]) -> None:
    """Maybe add a ConditionExpression (on the partition key, on the number
    n or on the boolean f) to a write request."""
    condition = draw(st.sampled_from(CONDITIONS))
    if condition is None:
        return
    names = request.setdefault("ExpressionAttributeNames", {})
    values_ = request.setdefault("ExpressionAttributeValues", {})
    for placeholder, attribute in (("#c0", "pk"), ("#c1", "n"), ("#c2", "f")):
        if placeholder in condition:
            names[placeholder] = attribute
    if ":c1" in condition:
        values_[":c1"] = {"N": number_text(draw(small_numbers))}
    if ":c2" in condition:
        values_[":c2"] = {"BOOL": draw(st.booleans())}
    if not values_:
        del request["ExpressionAttributeValues"]
    request["ConditionExpression"] = condition
    if draw(st.booleans()):
        request["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"


@st.composite
def update_expressions(draw: st.DrawFn, data: Data) -> dict[str, Any]:
    """An UpdateExpression touching distinct attributes: n (incremented from
    a default, added to, removed), s and f (set, removed) and the
    index-only key attributes (set, which puts the item in the index, or
    removed, which takes it out of a sparse index)."""
    attributes = draw(
        st.lists(
            st.sampled_from([*NON_KEY, *data.design.index_only_attributes]),
            min_size=1,
            max_size=3,
            unique=True,
        )
    )
    clauses: dict[str, list[str]] = {"SET": [], "REMOVE": [], "ADD": []}
    names: dict[str, str] = {}
    values_: dict[str, Wire] = {}
    for n, attribute in enumerate(attributes):
        name, value = f"#u{n}", f":u{n}"
        names[name] = attribute
        actions = ["set", "remove"] + (["increment", "add"] if attribute == "n" else [])
        action = draw(st.sampled_from(actions))
        if action == "remove":
            clauses["REMOVE"].append(name)
            continue
        if attribute == "n":
            values_[value] = {"N": draw(small_number_texts)}
        elif attribute == "s":
            values_[value] = {"S": draw(strings)}
        elif attribute == "f":
            values_[value] = {"BOOL": draw(st.booleans())}
        else:
            values_[value] = draw(st.sampled_from(data.pools[attribute]))
        if action == "increment":
            values_[":zero"] = {"N": "0"}
            clauses["SET"].append(f"{name} = if_not_exists({name}, :zero) + {value}")
        elif action == "add":
            clauses["ADD"].append(f"{name} {value}")
        else:
            clauses["SET"].append(f"{name} = {value}")
    request: dict[str, Any] = {
        "UpdateExpression": " ".join(
            f"{verb} {', '.join(parts)}" for verb, parts in clauses.items() if parts
        ),
        "ExpressionAttributeNames": names,
    }
    if values_:
        request["ExpressionAttributeValues"] = values_
    return request


@st.composite
def writes(draw: st.DrawFn, data: Data) -> tuple[str, dict[str, Any]]:
    """A PutItem, UpdateItem or DeleteItem (operation name and request
    without TableName), maybe conditional, maybe returning values."""
    operation = draw(st.sampled_from(list(RETURN_VALUES)))
    request: dict[str, Any]
    if operation == "put_item":
        request = {
            "Item": draw(keys(data)) | draw(other_attributes(data.design, data.pools))
        }
    elif operation == "update_item":
        request = {"Key": draw(keys(data))} | draw(update_expressions(data))
    else:
        request = {"Key": draw(keys(data))}
    expression = request.get("UpdateExpression", "")
    if expression.startswith("REMOVE") and " ADD " not in expression:
        # Only removals: moto creates a missing item with just its key,
        # DynamoDB leaves it absent (pinned in test_moto_differences). The
        # condition makes both refuse a missing item.
        request["ConditionExpression"] = "attribute_exists(#c0)"
        request["ExpressionAttributeNames"]["#c0"] = "pk"
    else:
        draw(conditions(request))
    request["ReturnValues"] = draw(st.sampled_from(RETURN_VALUES[operation]))
    return operation, request
