"""Helpers for the engine tests: table definitions, wire values, items."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

import pytest

from modeler.engine.errors import EngineError
from modeler.engine.size import item_size


def S(value: str) -> dict[str, str]:  # DynamoDB's type names
    return {"S": value}


def N(value: Any) -> dict[str, str]:
    return {"N": str(value)}


def B(value: bytes) -> dict[str, bytes]:
    return {"B": value}


def key_schema(partition: str | list[str], sort: str | list[str] | None = None):
    partition = [partition] if isinstance(partition, str) else partition
    sort = [] if sort is None else [sort] if isinstance(sort, str) else sort
    return [{"AttributeName": a, "KeyType": "HASH"} for a in partition] + [
        {"AttributeName": a, "KeyType": "RANGE"} for a in sort
    ]


def table_request(
    name: str = "Shop",
    *,
    partition: str = "PK",
    sort: str | None = "SK",
    types: dict[str, str] | None = None,
    gsis: list[dict[str, Any]] | None = None,
    lsis: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A CreateTable request; every key attribute is S unless `types` says."""
    types = types or {}
    used = [partition] + ([sort] if sort else [])
    for index in (gsis or []) + (lsis or []):
        used += [k["AttributeName"] for k in index["KeySchema"]]
    definitions = [
        {"AttributeName": a, "AttributeType": types.get(a, "S")}
        for a in dict.fromkeys(used)
    ]
    request: dict[str, Any] = {
        "TableName": name,
        "AttributeDefinitions": definitions,
        "KeySchema": key_schema(partition, sort),
        "BillingMode": "PAY_PER_REQUEST",
    }
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    if lsis:
        request["LocalSecondaryIndexes"] = lsis
    return request


def index(
    name: str,
    partition: str | list[str],
    sort: str | list[str] | None = None,
    projection: str = "ALL",
    include: list[str] | None = None,
) -> dict[str, Any]:
    spec: dict[str, Any] = {"ProjectionType": projection}
    if include:
        spec["NonKeyAttributes"] = include
    return {
        "IndexName": name,
        "KeySchema": key_schema(partition, sort),
        "Projection": spec,
    }


def item(pk: str, sk: str | None = None, **attributes: Any) -> dict[str, Any]:
    """A wire item; str values become S, int/float/Decimal N, bytes B."""
    out: dict[str, Any] = {"PK": S(pk)}
    if sk is not None:
        out["SK"] = S(sk)
    for name, value in attributes.items():
        out[name] = wire(value)
    return out


def wire(value: Any) -> dict[str, Any]:
    if (
        isinstance(value, dict)
        and len(value) == 1
        and next(iter(value))
        in ("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS")
    ):
        return value
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, str):
        return S(value)
    if isinstance(value, (int, float, Decimal)):
        return N(value)
    if isinstance(value, bytes):
        return B(value)
    raise TypeError(value)


def sks(response: dict[str, Any], attribute: str = "SK") -> list[Any]:
    """The values of one attribute in a response's Items, in order."""
    return [next(iter(i[attribute].values())) for i in response["Items"]]


def raises(code: str, message: str | None = None):
    """pytest.raises for an EngineError with this code (and message)."""

    class _Check:
        def __enter__(self):
            self._context = pytest.raises(EngineError)
            self.info = self._context.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self._context.__exit__(*exc)
            error = self.info.value
            assert error.code == code, error
            if message is not None:
                assert error.message == message, error.message
            return handled

    return _Check()


def write_like_model(
    table: Any, model: dict, item: dict[str, Any], delete: bool
) -> None:
    """Put `item` into `table`, or delete the item with its key, and the same
    in `model` (the items by (PK, SK)), as a naive table holds them."""
    key = (item["PK"], item["SK"])
    current = table.get({"PK": item["PK"], "SK": item["SK"]})
    if delete:
        table.write(current, None, 0)
        model.pop(key, None)
    else:
        table.write(current, item, table.check_item(item))
        model[key] = item


def assert_table_holds(table: Any, model: dict, pks: Iterable[str]) -> list:
    """`table` holds the items of `model` (by (PK, SK)), each partition's in
    order, with their count and sizes; returns them in key order."""
    expected = sorted(model.values(), key=lambda i: (i["PK"], i["SK"]))
    assert len(table) == len(model)
    assert table.store.bytes == sum(item_size(i) for i in model.values())
    for pk in pks:
        page = table.query(None, pk, [])
        assert page.items == [i for i in expected if i["PK"] == pk]
        assert page.bytes == sum(item_size(i) for i in page.items)
    return expected
