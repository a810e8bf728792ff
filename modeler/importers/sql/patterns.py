"""A query log's statements become access patterns: each SELECT a read
stated by what it needs (the entities it returns, the attributes it fixes
by equality, the one it reads a range of, its order and limit), each
INSERT, UPDATE and DELETE of one row a write, with traffic from the calls
over the sampling window (peak a stated multiple). A statement that no
single key-based request can serve is listed with the reason and what to
do instead."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from modeler.importers.budget import check_cpu
from modeler.importers.sql.entities import Names
from modeler.importers.sql.logs import Logged, read_log
from modeler.importers.sql.schema import Schema
from modeler.importers.sql.statements import quoted

# A limit stated as a parameter (pg_stat_statements writes LIMIT 10 as
# LIMIT $2) is read as this many.
DEFAULT_LIMIT = 25
_RANGES = {exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}


@dataclass
class FoundPatterns:
    patterns: list[dict[str, Any]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    inferred: list[str] = field(default_factory=list)
    # What a pattern leaves out of its statement (a joined table's columns).
    not_carried: list[str] = field(default_factory=list)


class Unsupported(Exception):
    """A statement that becomes no pattern: why, and what to do instead."""

    def __init__(self, reason: str, suggestion: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.suggestion = suggestion


def patterns_from_log(
    text: str,
    *,
    file: str,
    schema: Schema,
    names: Names,
    specs: dict[str, dict[str, Any]],
    window: float,
    peak: float,
) -> FoundPatterns:
    found = FoundPatterns()
    by_name: dict[str, dict[str, Any]] = {}
    for logged in read_log(text, file=file, dialect=schema.dialect):
        check_cpu()
        where = f"{file}, {logged.place}"
        rps = logged.rate if logged.rate is not None else (logged.calls or 0) / window
        if rps <= 0:
            found.unsupported.append(
                f"{where}: {quoted(logged.text)}: never ran in the window; no pattern"
            )
            continue
        try:
            pattern = _Converter(schema, names, specs).convert(logged)
        except Unsupported as exc:
            found.unsupported.append(
                f"{where}: {quoted(logged.text)}: {exc.reason}. Instead: "
                f"{exc.suggestion}"
            )
            continue
        rps = float(f"{rps:.4g}")
        name = pattern["name"]
        left_out = pattern.pop("not_carried", "")
        if name in by_name:  # the same request written twice: its traffic adds up
            traffic = by_name[name]["traffic"]
            traffic["rps"] = float(f"{traffic['rps'] + rps:.4g}")
            traffic["peak_rps"] = float(f"{traffic['rps'] * peak:.4g}")
            continue
        pattern["traffic"] = {"rps": rps, "peak_rps": float(f"{rps * peak:.4g}")}
        by_name[name] = pattern
        found.patterns.append(pattern)
        found.inferred.append(f"pattern '{name}' from {where}")
        if left_out:
            found.not_carried.append(f"pattern '{name}' ({where}): {left_out}")
    return found


_TEXT_SEARCH = "a search service (OpenSearch fed by the table's stream) answers it"
_AGGREGATE = (
    "keep the figure in an aggregate item that a stream handler updates on "
    "each write, and read that item by key"
)


class _Converter:
    def __init__(
        self, schema: Schema, names: Names, specs: dict[str, dict[str, Any]]
    ) -> None:
        self.schema = schema
        self.names = names
        self.specs = specs
        self.parameters: dict[str, dict[str, Any]] = {}

    def convert(self, logged: Logged) -> dict[str, Any]:
        if logged.text.rstrip().endswith("..."):
            raise Unsupported(
                "the statement is cut short (the digest's text was truncated)",
                "raise performance_schema_max_digest_length, or write it in full",
            )
        parsed = _parse(_undigested(logged.text), self.schema.dialect)
        if isinstance(parsed, exp.Select):
            pattern = self._read(parsed)
        elif isinstance(parsed, exp.Insert):
            pattern = self._insert(parsed)
        elif isinstance(parsed, exp.Update):
            pattern = self._update(parsed)
        elif isinstance(parsed, exp.Delete):
            pattern = self._delete(parsed)
        else:
            raise Unsupported(
                "it is neither a SELECT, INSERT, UPDATE nor DELETE",
                "leave it out: it is not a request to the data",
            )
        if logged.name:
            pattern["name"] = logged.name
        if self.parameters:
            pattern["parameters"] = self.parameters
        return pattern

    # Tables and columns ------------------------------------------------

    def _tables(self, statement: exp.Expr) -> dict[str, str]:
        """Alias (or name) -> table, of the tables the statement reads."""
        tables: dict[str, str] = {}
        for table in statement.find_all(exp.Table):
            if table.name not in self.schema.tables:
                raise Unsupported(
                    f"it reads {table.name}, which the schema has no table of",
                    "import the schema that creates it, or leave the statement out",
                )
            tables[table.alias_or_name] = table.name
        return tables

    def _column(self, column: exp.Column, tables: dict[str, str]) -> tuple[str, str]:
        if column.table:
            table = tables.get(column.table)
            if table is None:
                raise Unsupported(
                    f"it names {column.table}.{column.name}, which is no table of "
                    "the statement",
                    "write the statement as the application sends it",
                )
            if self.schema.tables[table].column(column.name) is None:
                raise Unsupported(
                    f"table {table} has no column {column.name}",
                    "check the statement against the schema",
                )
            return table, column.name
        owners = [
            t
            for t in dict.fromkeys(tables.values())
            if self.schema.tables[t].column(column.name) is not None
        ]
        if not owners:
            raise Unsupported(
                f"no table of the statement has a column {column.name}",
                "check the statement against the schema",
            )
        return owners[0], column.name

    def _attribute(self, table: str, column: str) -> str:
        name = self.names.attribute(table, column)
        entity = self.names.entities[table]
        if name is None or name not in self.specs[entity]["attributes"]:
            raise Unsupported(
                f"{table}.{column} is not carried into the design",
                _TEXT_SEARCH,
            )
        return name

    # Reads ----------------------------------------------------------------

    def _read(self, select: exp.Select) -> dict[str, Any]:
        if select.find(exp.Subquery) or any(
            s is not select for s in select.find_all(exp.Select)
        ):
            raise Unsupported(
                "it holds a subquery, which one key-based request cannot run",
                "state each of its reads as a statement of its own",
            )
        if select.args.get("group") or select.find(exp.AggFunc):
            whole = select.args.get("where") is None
            raise Unsupported(
                "it aggregates "
                + ("over the whole table" if whole else "the rows it reads")
                + " (COUNT, SUM, GROUP BY…), which DynamoDB does not compute",
                _AGGREGATE,
            )
        tables = self._tables(select)
        same = self._join_equalities(select, tables)
        equal: list[tuple[str, str, str]] = []  # table, column, value
        ranges: list[tuple[str, str, str, tuple[str, ...]]] = []
        where = select.args.get("where")
        if where is None:
            raise Unsupported(
                "it reads every row (no WHERE): a Scan of the whole table",
                "state what the page filters by, or read an export to S3 for analytics",
            )
        for predicate in _conjuncts(where.this):
            self._predicate(predicate, tables, same, equal, ranges)
        order = [
            (self._column(o.this, tables), bool(o.args.get("desc")))
            for o in (select.args.get("order") or exp.Order()).expressions
            if isinstance(o.this, exp.Column)
        ]
        if select.args.get("order") and len(order) != len(
            select.args["order"].expressions
        ):
            raise Unsupported(
                "it orders by an expression, not by columns",
                "order by a column that holds the value",
            )
        entity_table = self._entity_table(tables, same, equal, ranges, order)
        attr = lambda column: self._attribute(entity_table, column)  # noqa: E731
        entity_columns = self._on(entity_table, same)
        where_spec: dict[str, Any] = {}
        for table, column, value in equal:
            where_spec[attr(entity_columns[(table, column)])] = value
        for table, column, operator, values in ranges:
            name = attr(entity_columns[(table, column)])
            where_spec[name] = {
                operator: list(values) if len(values) > 1 else values[0]
            }
        entities = [self.names.entities[entity_table]]
        if not ranges and not order:
            # A join on the equality columns reads both tables' rows: one item
            # collection may hold both.
            for other in dict.fromkeys(tables.values()):
                if other != entity_table and all(
                    (other, c) in self._on(other, same).values()
                    or self._on(other, same).get((t, c))
                    for t, c, _ in equal
                ):
                    entities.append(self.names.entities[other])
        needs: dict[str, Any] = {
            "entity": entities if len(entities) > 1 else entities[0],
            "where": where_spec,
        }
        if order:
            needs["order_by"] = [
                ("-" if desc else "") + attr(entity_columns[(t, c)])
                for (t, c), desc in order
            ]
        pattern: dict[str, Any] = {
            "name": _read_name(entities, where_spec, needs.get("order_by", [])),
            "needs": needs,
        }
        limit = select.args.get("limit")
        if limit is not None:
            pattern["limit"] = _limit(limit)
        read = {t for t, e in self.names.entities.items() if e in entities}
        joined = _joined_columns(select, tables, read)
        if joined:
            pattern["not_carried"] = (
                f"it also selects {', '.join(joined)} of a joined table, which "
                f"{' and '.join(entities)} items do not hold: copy those "
                "attributes onto them (denormalise), or read the joined item "
                "with a request of its own"
            )
        return pattern

    def _join_equalities(
        self, select: exp.Select, tables: dict[str, str]
    ) -> dict[tuple[str, str], set[tuple[str, str]]]:
        """Columns the joins make equal, each to all of its equals."""
        same: dict[tuple[str, str], set[tuple[str, str]]] = {}
        conditions = [j.args.get("on") for j in select.args.get("joins") or []]
        where = select.args.get("where")
        if where is not None:
            conditions.append(where.this)
        for condition in conditions:
            if condition is None:
                continue
            for predicate in _conjuncts(condition):
                if (
                    isinstance(predicate, exp.EQ)
                    and isinstance(predicate.this, exp.Column)
                    and isinstance(predicate.expression, exp.Column)
                ):
                    a = self._column(predicate.this, tables)
                    b = self._column(predicate.expression, tables)
                    group = same.get(a, {a}) | same.get(b, {b})
                    for member in group:
                        same[member] = group
        return same

    def _on(
        self, table: str, same: dict[tuple[str, str], set[tuple[str, str]]]
    ) -> dict[tuple[str, str], str]:
        """(table, column) -> the column of `table` that holds its value."""
        found: dict[tuple[str, str], str] = {}
        for column in self.schema.tables[table].columns:
            found[(table, column.name)] = column.name
            for other in same.get((table, column.name), ()):
                found.setdefault(other, column.name)
        return found

    def _predicate(
        self,
        predicate: exp.Expr,
        tables: dict[str, str],
        same: dict[tuple[str, str], set[tuple[str, str]]],
        equal: list[tuple[str, str, str]],
        ranges: list[tuple[str, str, str, tuple[str, ...]]],
    ) -> None:
        if isinstance(predicate, exp.Or):
            raise Unsupported(
                "its WHERE is a chain of ORs, which no key condition states",
                "make each alternative a pattern of its own (one request each), "
                "or put the alternatives in a sparse index's key",
            )
        if _is_text_search(predicate):
            raise Unsupported(
                "it searches text (full-text match, or LIKE with a leading wildcard)",
                _TEXT_SEARCH,
            )
        if isinstance(predicate, exp.EQ) and isinstance(predicate.this, exp.Column):
            if isinstance(predicate.expression, exp.Column):
                return  # a join, read by _join_equalities
            table, column = self._column(predicate.this, tables)
            value = self._value(predicate.expression, table, column, "")
            equal.append((table, column, value))
            return
        for kind, operator in _RANGES.items():
            if isinstance(predicate, kind) and isinstance(predicate.this, exp.Column):
                table, column = self._column(predicate.this, tables)
                suffix = "from" if operator.startswith(">") else "to"
                value = self._value(predicate.expression, table, column, suffix)
                ranges.append((table, column, operator, (value,)))
                break
        else:
            if isinstance(predicate, exp.Between) and isinstance(
                predicate.this, exp.Column
            ):
                table, column = self._column(predicate.this, tables)
                low = self._value(predicate.args["low"], table, column, "from")
                high = self._value(predicate.args["high"], table, column, "to")
                ranges.append((table, column, "between", (low, high)))
            elif isinstance(predicate, exp.Like) and isinstance(
                predicate.this, exp.Column
            ):
                table, column = self._column(predicate.this, tables)
                prefix = _prefix(predicate.expression)
                if not prefix:
                    # A digest writes every pattern as ?: a prefix and a
                    # search for a word inside cannot be told apart.
                    raise Unsupported(
                        f"'{quoted(predicate.sql())}' matches a pattern passed "
                        "as a parameter, which may search inside the text",
                        "for a prefix search, write it as LIKE 'prefix%' in a SQL "
                        f"query file; {_TEXT_SEARCH}",
                    )
                ranges.append((table, column, "begins_with", (prefix,)))
            else:
                raise Unsupported(
                    f"'{quoted(predicate.sql())}' is neither an equality nor a "
                    "range of one column (IN lists, NULL tests, <> and "
                    "functions are not key conditions)",
                    "an IN list is one request per value (BatchGetItem); a NULL "
                    "test is a sparse index; write the equality the page sends",
                )
        if len(ranges) > 1:
            raise Unsupported(
                "it reads ranges of two columns; a key condition reads a range of one",
                "read the range of one in the key and filter by the other, or "
                "combine them in one sort key",
            )

    def _entity_table(
        self,
        tables: dict[str, str],
        same: dict[tuple[str, str], set[tuple[str, str]]],
        equal: list[tuple[str, str, str]],
        ranges: list[tuple[str, str, str, tuple[str, ...]]],
        order: list[tuple[tuple[str, str], bool]],
    ) -> str:
        needed = [(t, c) for t, c, _ in equal] + [(t, c) for t, c, _, _ in ranges]
        needed += [column for column, _ in order]
        candidates = list(dict.fromkeys(tables.values()))
        for table in candidates:
            on = self._on(table, same)
            if all(column in on for column in needed):
                return table
        raise Unsupported(
            "its conditions and order are on columns of several tables ("
            + ", ".join(f"{t}.{c}" for t, c in dict.fromkeys(needed))
            + "), which no one item holds",
            "copy the columns it filters and orders by onto the items it returns "
            "(denormalise), then state it on that table",
        )

    def _value(self, value: exp.Expr, table: str, column: str, suffix: str) -> str:
        if isinstance(value, exp.Literal | exp.Boolean):
            text = (
                value.name
                if isinstance(value, exp.Literal)
                else str(value.this).lower()
            )
            if "{" in text or "}" in text:
                raise Unsupported(
                    "a constant holds { or }, which a template cannot state",
                    "pass it as a parameter",
                )
            return text
        if isinstance(value, exp.Placeholder | exp.Parameter):
            attribute = self._attribute(table, column)
            if not suffix:
                return "{" + attribute + "}"
            name = f"{attribute}_{suffix}"
            spec = self.specs[self.names.entities[table]]["attributes"][attribute]
            self.parameters[name] = {
                "type": spec["type"] if spec["type"] in ("S", "N") else "S",
                "example": _example(spec, suffix),
            }
            return "{" + name + "}"
        raise Unsupported(
            f"it compares {table}.{column} with '{quoted(value.sql())}', "
            "neither a parameter nor a constant",
            "compute the value in the application and pass it as a parameter",
        )

    # Writes ---------------------------------------------------------------

    def _insert(self, insert: exp.Insert) -> dict[str, Any]:
        if insert.find(exp.Select):
            raise Unsupported(
                "it inserts the rows of a SELECT", "write each item with PutItem"
            )
        target = (
            insert.this.this if isinstance(insert.this, exp.Schema) else insert.this
        )
        table = self._table(target)
        entity = self.names.entities[table]
        article = "an" if entity[:1] in "AEIO" else "a"
        return {
            "name": f"Create {article} {entity}",
            "operation": "PutItem",
            "entity": entity,
        }

    def _update(self, update: exp.Update) -> dict[str, Any]:
        table = self._table(update.this)
        entity = self.names.entities[table]
        self._identifies(update, table, "update")
        tables = {update.this.alias_or_name: table}
        sets: dict[str, str] = {}
        adds: dict[str, str] = {}
        key = set(self.schema.tables[table].primary_key)
        for assignment in update.expressions:
            if not isinstance(assignment, exp.EQ) or not isinstance(
                assignment.this, exp.Column
            ):
                raise Unsupported(
                    f"'{quoted(assignment.sql())}' is no assignment of a column",
                    "write the value the column gets",
                )
            _, column = self._column(assignment.this, tables)
            if column in key:
                raise Unsupported(
                    f"it changes {column}, part of the table's primary key",
                    "write a new item and delete the old one (a transaction)",
                )
            attribute = self._attribute(table, column)
            value = assignment.expression
            if isinstance(value, exp.Add | exp.Sub) and isinstance(
                value.this, exp.Column
            ):
                amount = value.expression
                if isinstance(amount, exp.Literal) and not amount.is_string:
                    adds[attribute] = (
                        "-" if isinstance(value, exp.Sub) else ""
                    ) + amount.name
                    continue
            if isinstance(value, exp.Literal | exp.Boolean):
                sets[attribute] = self._value(value, table, column, "")
                continue
            if isinstance(value, exp.Placeholder | exp.Parameter):
                spec = self.specs[entity]["attributes"][attribute]
                if spec["type"] not in ("S", "N", "BOOL"):
                    raise Unsupported(
                        f"it sets {column}, of type {spec['type']}, from a parameter",
                        "set it in the design's editor",
                    )
                name = f"new_{attribute}"
                self.parameters[name] = {
                    "type": spec["type"] if spec["type"] in ("S", "N") else "S",
                    "example": _example(spec, "new"),
                }
                sets[attribute] = "{" + name + "}"
                continue
            if isinstance(value, exp.Func) and not value.args.get("expressions"):
                # now(), CURRENT_TIMESTAMP: the application's clock
                name = f"new_{attribute}"
                spec = self.specs[entity]["attributes"][attribute]
                self.parameters[name] = {"type": "S", "example": _example(spec, "new")}
                sets[attribute] = "{" + name + "}"
                continue
            raise Unsupported(
                f"it sets {column} to '{quoted(value.sql())}'",
                "compute the value in the application and pass it",
            )
        pattern: dict[str, Any] = {
            "name": f"Update {', '.join(list(sets) + list(adds))} of a {entity}",
            "operation": "UpdateItem",
            "entity": entity,
        }
        if sets:
            pattern["set"] = sets
        if adds:
            pattern["add"] = adds
        return pattern

    def _delete(self, delete: exp.Delete) -> dict[str, Any]:
        table = self._table(delete.this)
        self._identifies(delete, table, "delete")
        entity = self.names.entities[table]
        return {
            "name": f"Delete a {entity}",
            "operation": "DeleteItem",
            "entity": entity,
        }

    def _table(self, target: exp.Expr) -> str:
        if not isinstance(target, exp.Table) or target.name not in self.schema.tables:
            raise Unsupported(
                f"it writes {target.sql()}, which the schema has no table of",
                "import the schema that creates it",
            )
        return target.name

    def _identifies(self, statement: exp.Expr, table: str, verb: str) -> None:
        """A write of one row: its WHERE fixes the primary key (or a unique
        column set) by equality."""
        where = statement.args.get("where")
        fixed = set()
        if where is not None:
            for predicate in _conjuncts(where.this):
                if isinstance(predicate, exp.Or):
                    break
                if isinstance(predicate, exp.EQ) and isinstance(
                    predicate.this, exp.Column
                ):
                    fixed.add(predicate.this.name)
        shape = self.schema.tables[table]
        keys = [shape.primary_key, *shape.uniques]
        if not any(key and set(key) <= fixed for key in keys):
            raise Unsupported(
                f"it may {verb} many rows (its WHERE does not fix {table}'s "
                "primary key)",
                f"query the items first, then {verb} each by its key",
            )


# MySQL's digest text writes a list of values as `(...)` (VALUES (...),
# IN (...)) and the further rows of a many-row INSERT as `/* , ... */`.
_DIGEST_LIST = re.compile(r"\(\s*\.\.\.\s*\)")
_DIGEST_MORE_ROWS = re.compile(r"/\*\s*,\s*\.\.\.\s*\*/")


def _undigested(text: str) -> str:
    """A digest's statement as SQL a parser reads: each list of values one
    parameter."""
    return _DIGEST_LIST.sub("(?)", _DIGEST_MORE_ROWS.sub(" ", text))


def _parse(text: str, dialect: str) -> exp.Expr:
    from modeler.importers.sql.statements import Statement

    statement = Statement(text, 1)
    parsed = statement.parse(dialect)
    if parsed is None:
        why, _ = statement.unreadable(dialect)
        raise Unsupported(
            f"it cannot be read as {dialect} SQL" + (f" ({why})" if why else ""),
            "write it as the database runs it",
        )
    return parsed


def _joined_columns(
    select: exp.Select, tables: dict[str, str], read: set[str]
) -> list[str]:
    """The columns a SELECT takes from the tables other than those it reads
    items of (`read`): "product.title", "product.*"."""
    found: list[str] = []
    for selected in select.expressions:
        column = selected.this if isinstance(selected, exp.Alias) else selected
        if isinstance(column, exp.Star):  # SELECT *: every table's columns
            found += [f"{t}.*" for t in dict.fromkeys(tables.values()) if t not in read]
        elif isinstance(column, exp.Column) and column.table:
            table = tables.get(column.table)
            if table is not None and table not in read:
                found.append(f"{table}.{column.name or '*'}")
    return list(dict.fromkeys(found))


def _conjuncts(condition: exp.Expr) -> list[exp.Expr]:
    condition = condition.unnest() if isinstance(condition, exp.Paren) else condition
    if isinstance(condition, exp.And):
        return _conjuncts(condition.this) + _conjuncts(condition.expression)
    return [condition]


def _is_text_search(predicate: exp.Expr) -> bool:
    if isinstance(predicate, exp.MatchAgainst):
        return True
    if predicate.find(exp.MatchAgainst) or "@@" in predicate.sql(dialect="postgres"):
        return True
    if isinstance(predicate, exp.Like | exp.ILike):
        pattern = predicate.expression
        return isinstance(pattern, exp.Literal) and pattern.name.startswith("%")
    return isinstance(predicate, exp.ILike)


def _prefix(pattern: exp.Expr) -> str:
    """`'abc%'` -> `abc`; "" for anything else."""
    if isinstance(pattern, exp.Literal) and pattern.is_string:
        text = pattern.name
        if text.endswith("%") and not any(c in text[:-1] for c in "%_{}"):
            return text[:-1]
    return ""


def _limit(limit: exp.Expr) -> int:
    value = limit.args.get("expression")
    if isinstance(value, exp.Literal) and not value.is_string:
        try:
            return max(1, int(value.name))
        except ValueError:
            return DEFAULT_LIMIT
    return DEFAULT_LIMIT


def _example(spec: dict[str, Any], suffix: str) -> str:
    generator = spec.get("generator")
    params = next(iter(generator.values())) if isinstance(generator, dict) else {}
    kind = next(iter(generator)) if isinstance(generator, dict) else generator
    if kind in ("date", "timestamp") and isinstance(params, dict):
        day = "2025-01-01" if suffix in ("from", "new", "prefix") else "2026-01-01"
        return day if kind == "date" else day + "T00:00:00Z"
    if kind in ("int", "decimal") and isinstance(params, dict):
        low, high = params.get("min", 0), params.get("max", 100)
        return str((low + high) // 2)
    if kind == "choice":
        values = params.get("value") if isinstance(params, dict) else params
        if isinstance(values, list) and values:
            return str(values[0])
    if spec.get("type") == "N":
        return "1"
    if spec.get("type") == "BOOL":
        return "true"
    return "a"


def _read_name(entities: list[str], where: dict[str, Any], order: list[str]) -> str:
    parts = []
    for name, value in where.items():
        if isinstance(value, dict):
            ((operator, _),) = value.items()
            parts.append(f"{name} {operator}")
        else:
            parts.append(name if value.startswith("{") else f"{name} = {value}")
    name = f"{' and '.join(entities)} by {', '.join(parts)}"
    if order:
        name += ", ordered by " + ", ".join(order)
    return name[:200]
