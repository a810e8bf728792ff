"""An attribute from a column: its DynamoDB type from the SQL type, and a
sample data generator from the type, the name and the constraints (an
enum or CHECK list becomes a choice, an auto-numbered key a sequence)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from modeler.design import model as d
from modeler.importers.sql.schema import Column

T = exp.DataType.Type
_NUMBERS = {
    T.TINYINT, T.UTINYINT, T.SMALLINT, T.USMALLINT, T.MEDIUMINT, T.UMEDIUMINT,
    T.INT, T.UINT, T.BIGINT, T.UBIGINT, T.SERIAL, T.SMALLSERIAL, T.BIGSERIAL,
    T.DECIMAL, T.UDECIMAL, T.FLOAT, T.DOUBLE, T.MONEY, T.SMALLMONEY, T.YEAR,
    T.BIT,
}  # fmt: skip
_INTEGERS = {
    T.TINYINT, T.UTINYINT, T.SMALLINT, T.USMALLINT, T.MEDIUMINT, T.UMEDIUMINT,
    T.INT, T.UINT, T.BIGINT, T.UBIGINT, T.SERIAL, T.SMALLSERIAL, T.BIGSERIAL,
    T.YEAR, T.BIT,
}  # fmt: skip
_BINARY = {
    T.BINARY, T.VARBINARY, T.BLOB, T.TINYBLOB, T.MEDIUMBLOB, T.LONGBLOB,
}  # fmt: skip
_TIMESTAMPS = {
    T.TIMESTAMP, T.TIMESTAMPTZ, T.TIMESTAMPLTZ, T.DATETIME, T.DATETIME64,
    T.TIMESTAMP_S, T.TIMESTAMP_MS, T.TIMESTAMP_NS,
}  # fmt: skip
_TEXT_ONLY = {T.JSON, T.JSONB, T.XML, T.INET, T.INTERVAL, T.TIME, T.TIMETZ}
_FROM, _TO = "2024-01-01", "2026-06-30"

# Name hints for text columns, first match wins: (pattern, generator).
_TEXT_HINTS: tuple[tuple[str, Any], ...] = (
    (r"e_?mail", {"faker": "email"}),
    (r"first_?name|given_?name", {"faker": "first_name"}),
    (r"last_?name|surname|family_?name", {"faker": "last_name"}),
    (r"user_?name|login", {"faker": "user_name"}),
    (r"password|secret|hash", {"faker": "sha1"}),
    (r"phone|mobile|fax", {"faker": "phone_number"}),
    (r"postal|zip", {"faker": "postcode"}),
    (r"country", {"faker": "country"}),
    (r"city|town", {"faker": "city"}),
    (r"district|state|region|province", {"faker": "state"}),
    (r"address|street", {"faker": "street_address"}),
    (r"url|website|link", {"faker": "url"}),
    (r"company|organi[sz]ation", {"faker": "company"}),
    (r"title|headline|subject", {"faker": "catch_phrase"}),
    (r"description|comment|note|text|body|bio|summary", {"faker": "sentence"}),
    (r"name$", {"faker": "name"}),
)
_NUMBER_HINTS: tuple[tuple[str, Any], ...] = (
    (r"amount|price|cost|rate|total|fee|balance", {"decimal": {"min": 0, "max": 100}}),
    (r"year", {"int": {"min": 1990, "max": 2026}}),
    (r"length|duration|minutes|days", {"int": {"min": 1, "max": 200}}),
    (r"^(is_)?active|enabled|flag", {"choice": [0, 1]}),
    (r"quantity|qty|count", {"int": {"min": 1, "max": 20}}),
)


def is_full_text(column: Column) -> bool:
    """A full-text search column (tsvector), which DynamoDB has no
    counterpart of."""
    return column.type.this == T.USERDEFINED and column.type_name.startswith("tsvector")


@dataclass(frozen=True)
class Typed:
    """A column's DynamoDB type and generator, and its largest length."""

    type: str
    generator: Any
    max_length: int | None = None


def typed(column: Column, *, key: bool) -> Typed:
    """The attribute a column becomes; `key` for a column of its table's
    primary key (an auto-numbered one counts 1, 2, 3...)."""
    sql = column.type
    kind = sql.this
    name = column.name.lower()
    if column.check_values:
        return Typed("S", {"choice": list(column.check_values)})
    if kind in (T.ENUM, T.ENUM8, T.ENUM16):
        values = [v.this for v in sql.expressions if isinstance(v, exp.Literal)]
        return Typed("S", {"choice": values} if values else None)
    if kind == T.SET:
        values = [v.this for v in sql.expressions if isinstance(v, exp.Literal)]
        return Typed("SS", {"list": {"of": {"choice": values}, "min": 1, "max": 2}})
    if kind == T.BOOLEAN or (kind == T.TINYINT and _size(sql) == 1):
        return Typed("BOOL", "bool")
    if kind in _NUMBERS:
        return Typed("N", _number(column, key=key, integer=kind in _INTEGERS))
    if kind in _BINARY or (kind == T.VARBINARY):
        return Typed("B", None)
    if kind == T.UUID:
        return Typed("S", "uuid")
    if kind == T.DATE:
        return Typed("S", {"date": {"from": _FROM, "to": _TO}})
    if kind in _TIMESTAMPS:
        return Typed("S", {"timestamp": {"from": _FROM, "to": _TO}})
    if kind == T.ARRAY:
        return Typed("L", {"list": {"of": {"faker": "word"}, "min": 0, "max": 4}})
    if kind in _TEXT_ONLY:
        return Typed("S", {"faker": "word"})
    length = _size(sql)
    if key:
        return Typed("S", "uuid" if not length or length >= 36 else "ulid", length)
    for pattern, generator in _TEXT_HINTS:
        if re.search(pattern, name):
            return Typed("S", generator, length)
    return Typed("S", {"faker": "word"}, length)


def _number(column: Column, *, key: bool, integer: bool) -> Any:
    if key and integer:
        return "sequence"
    name = column.name.lower()
    for pattern, generator in _NUMBER_HINTS:
        if re.search(pattern, name):
            if "decimal" in generator and integer:
                return {"int": {"min": 0, "max": 100}}
            return generator
    if integer:
        return {"int": {"min": 0, "max": 1000}}
    places = _size(column.type, 1)
    return {"decimal": {"min": 0, "max": 1000, "places": min(places or 2, 6)}}


def _size(sql: exp.DataType, position: int = 0) -> int | None:
    """A type's length (`varchar(20)`) or, at 1, its scale."""
    params = sql.expressions
    if len(params) <= position:
        return None
    value = params[position].this
    value = getattr(value, "this", value)
    try:
        return int(str(value))
    except ValueError:
        return None


def generator_of(spec: Any) -> d.Generator | None:
    """The design's generator for a design file's spelling of one."""
    if spec is None:
        return None
    if isinstance(spec, str):
        return d.Generator(spec)
    ((kind, params),) = spec.items()
    if not isinstance(params, dict):
        params = {"value": params}
    return d.Generator(kind, d.freeze(params))
