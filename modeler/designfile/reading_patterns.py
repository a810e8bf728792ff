"""Reading a design file's access patterns: keys, filters, parameters,
expectations and write actions.
"""

from __future__ import annotations

from typing import Any

from modeler.design import model as d
from modeler.designfile.fields import NEEDS_FIELDS, PATTERN_FIELDS
from modeler.designfile.reader_base import (
    ReaderBase,
    is_scalar,
    scalar_text,
    value_kind,
)


class PatternReader(ReaderBase):
    # Access patterns --------------------------------------------------------

    def access_pattern(self, data: Any, path: str) -> d.AccessPattern:
        spec = self.mapping(data, path, allowed=PATTERN_FIELDS)
        if "needs" in spec and "operation" not in spec:
            return self.unkeyed_pattern(spec, path)
        if "needs" in spec:
            self.error(
                "needs-with-operation",
                f"{path}.needs",
                "a pattern with an operation states what it returns under "
                "expects; leave out operation to have its keys proposed",
            )
        operation = self.choice(spec, "operation", path, d.OPERATIONS, "Query")
        if "operation" not in spec:
            self.error(
                "operation-required",
                f"{path}.operation",
                "is required (or state what the pattern reads under needs, "
                "to have its keys proposed)",
            )
        actions: tuple[d.Action, ...] = ()
        single = {"PutItem": "Put", "UpdateItem": "Update", "DeleteItem": "Delete"}
        key: tuple[d.KeyClause, ...] = ()
        if operation in single:
            actions = (
                self.action({**spec, "operation": single[operation]}, path, sugar=True),
            )
        else:
            for field in ("entity", *d.UPDATE_WAYS, "remove", "condition"):
                if field in spec:
                    self.error(
                        "field-not-for-operation",
                        f"{path}.{field}",
                        f"is for PutItem, UpdateItem and "
                        f"DeleteItem; {operation} does not take it",
                    )
            key = self.key_clauses(spec.get("key"), f"{path}.key")
        if operation in d.MULTI_ITEM_OPERATIONS:
            actions = tuple(
                self.action(item, f"{path}.actions[{i}]")
                for i, item in enumerate(
                    self.sequence(spec.get("actions"), f"{path}.actions")
                )
            )
        elif "actions" in spec:
            self.error(
                "actions-unsupported",
                f"{path}.actions",
                "only batch and transaction operations take a list of actions",
            )
        return d.AccessPattern(
            operation=operation,
            index=self.text(spec, "index", path, d.TABLE_INDEX),
            key=key,
            filter=self.text(spec, "filter", path, ""),
            expects=self.expectation(spec.get("expects"), f"{path}.expects"),
            actions=actions,
            **self.options(spec, path, keyed=True),
            **self.pattern_common(spec, path),
        )

    def unkeyed_pattern(self, spec: dict, path: str) -> d.AccessPattern:
        """A read stated by what it needs (`needs`, shaped as `expects`),
        whose operation, index and key are still to be proposed."""
        for field in spec:
            if field in PATTERN_FIELDS and field not in NEEDS_FIELDS:
                self.error(
                    "needs-with-expects",
                    f"{path}.{field}",
                    "a pattern stated by needs says what it returns there, "
                    "not under expects"
                    if field == "expects"
                    else f"a pattern stated by needs has no {field}: its keys "
                    "are still to be proposed (or give it an operation)",
                )
        return d.AccessPattern(
            operation=d.UNKEYED,
            expects=self.expectation(spec.get("needs") or {}, f"{path}.needs"),
            **self.options(spec, path, keyed=False),
            **self.pattern_common(spec, path),
        )

    def options(self, spec: dict, path: str, *, keyed: bool) -> dict[str, Any]:
        """The request settings (d.PATTERN_OPTIONS) the pattern takes."""
        return {
            option.name: (
                self.boolean(spec, option.name, path, bool(option.default))
                if option.kind is bool
                else self.integer(
                    spec, option.name, path, option.default, minimum=option.minimum
                )
            )
            for option in d.PATTERN_OPTIONS
            if keyed or option.with_needs
        }

    def pattern_common(self, spec: dict, path: str) -> dict[str, Any]:
        """The fields every pattern takes, keyed or stated by needs."""
        traffic = self.mapping(
            spec.get("traffic"), f"{path}.traffic", allowed=("rps", "peak_rps")
        )
        rps = self.number(traffic, "rps", f"{path}.traffic", 0.0)
        name = self.text(spec, "name", path)
        return {
            "name": name,
            "seed_name": self.seed_name(spec, name, path),
            "description": self.text(spec, "description", path, ""),
            "projection": self.names(spec.get("projection"), f"{path}.projection"),
            "parameters": self.parameters(spec.get("parameters"), f"{path}.parameters"),
            "traffic": d.Traffic(
                rps, self.number(traffic, "peak_rps", f"{path}.traffic", rps)
            ),
        }

    def key_clauses(self, data: Any, path: str) -> tuple[d.KeyClause, ...]:
        clauses = []
        for attribute, condition in self.mapping(data, path).items():
            clause_path = f"{path}.{attribute}"
            operator, values = self.operator_values(
                condition, clause_path, d.SORT_OPERATORS
            )
            clauses.append(d.KeyClause(str(attribute), operator, values))
        return tuple(clauses)

    def operator_values(
        self, data: Any, path: str, operators: tuple[str, ...]
    ) -> tuple[str, tuple[str, ...]]:
        """`"X"` means `= X`; `{begins_with: X}`, `{between: [A, B]}`,
        `{in: [A, B]}`, `{exists: true}` name another operator."""
        if is_scalar(data):
            return "=", (scalar_text(data),)
        if isinstance(data, dict) and len(data) == 1:
            operator, value = next(iter(data.items()))
            if operator not in operators:
                self.error(
                    "operator-unknown",
                    path,
                    f"unknown operator '{operator}'; expected one of: "
                    + ", ".join(operators),
                )
                return "=", ()
            if operator in ("exists", "not_exists"):
                if not isinstance(value, bool):
                    self.error(
                        "expected-boolean",
                        f"{path}.{operator}",
                        f"expected true or false, found {value_kind(value)}",
                    )
                    return operator, ()
                # {exists: false} is {not_exists: true}, and the other way.
                if not value:
                    operator = "not_exists" if operator == "exists" else "exists"
                return operator, ()
            if operator in ("between", "in"):
                values = self.sequence(value, f"{path}.{operator}")
                if operator == "between" and len(values) != 2:
                    self.error(
                        "between-values",
                        f"{path}.between",
                        "expected two values: [low, high]",
                    )
                if not all(is_scalar(v) for v in values):
                    self.error(
                        "expected-list",
                        f"{path}.{operator}",
                        "expected a list of values",
                    )
                    return operator, ()
                return operator, tuple(scalar_text(v) for v in values)
            if not is_scalar(value):
                self.error(
                    "expected-value",
                    f"{path}.{operator}",
                    f"expected a value, found {value_kind(value)}",
                )
                return operator, ()
            return operator, (scalar_text(value),)
        self.error(
            "predicate-malformed",
            path,
            "expected a value or one 'operator: value' pair such as "
            '{begins_with: "ORDER#"}',
        )
        return "=", ()

    def parameters(self, data: Any, path: str) -> tuple[d.Parameter, ...]:
        result = []
        for name, spec in self.mapping(data, path).items():
            ppath = f"{path}.{name}"
            if isinstance(spec, str):
                spec = {"type": spec}
            spec = self.mapping(spec, ppath, allowed=("type", "example"))
            example = spec.get("example", "")
            result.append(
                d.Parameter(
                    str(name),
                    self.choice(spec, "type", ppath, d.KEY_TYPES, "S"),
                    scalar_text(example) if is_scalar(example) else "",
                )
            )
        return tuple(result)

    def expectation(self, data: Any, path: str) -> d.Expectation | None:
        if data is None:
            return None
        spec = self.mapping(data, path, allowed=("entity", "where", "order_by"))
        entity = spec.get("entity")
        entities = (
            (entity,)
            if isinstance(entity, str)
            else self.names(entity, f"{path}.entity")
        )
        if not entities:
            self.error(
                "expects-entity-required",
                f"{path}.entity",
                "is required: the entity (or list of entities) the pattern returns",
            )
        where = []
        for attribute, condition in self.mapping(
            spec.get("where"), f"{path}.where"
        ).items():
            operator, values = self.operator_values(
                condition, f"{path}.where.{attribute}", d.PREDICATE_OPERATORS
            )
            where.append(d.Predicate(str(attribute), operator, values))
        order_by = spec.get("order_by")
        if isinstance(order_by, str):
            order_by = [order_by]
        return d.Expectation(
            tuple(entities), tuple(where), self.names(order_by, f"{path}.order_by")
        )

    def action(self, data: Any, path: str, *, sugar: bool = False) -> d.Action:
        allowed = (
            "operation",
            "entity",
            "key",
            *d.UPDATE_WAYS,
            "remove",
            "condition",
            "count",
        )
        spec = data if sugar else self.mapping(data, path, allowed=allowed)
        operation = spec.get("operation")
        if operation not in d.ACTION_OPERATIONS:
            self.error(
                "action-operation-unknown",
                f"{path}.operation",
                f"{operation!r} is not one of: " + ", ".join(d.ACTION_OPERATIONS),
            )
            operation = "Put"
        updates: dict[str, tuple[tuple[str, str], ...]] = {}
        for how in d.UPDATE_WAYS:
            pairs = []
            for attribute, value in self.mapping(
                spec.get(how), f"{path}.{how}"
            ).items():
                if not is_scalar(value):
                    self.error(
                        "expected-value",
                        f"{path}.{how}.{attribute}",
                        f"expected a value or template, found {value_kind(value)}",
                    )
                    continue
                pairs.append((str(attribute), scalar_text(value)))
            updates[how] = tuple(pairs)
        count = spec.get("count", "")
        if not is_scalar(count):
            self.error(
                "action-count",
                f"{path}.count",
                "expected a number or a template such as '{itemCount}'",
            )
            count = ""
        return d.Action(
            operation=operation,
            entity=self.text(spec, "entity", path),
            key=self.key_clauses(spec.get("key"), f"{path}.key"),
            remove=self.names(spec.get("remove"), f"{path}.remove"),
            condition=self.text(spec, "condition", path, ""),
            count=scalar_text(count),
            **updates,
        )
