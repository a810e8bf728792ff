"""The design file reader's problems and typed accessors, and the helpers that
name and convert the plain values YAML gives.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any, overload

from modeler.design.findings import Finding, error, warning
from modeler.designfile.yaml_loading import join_path

MISSING = object()


class ReaderBase:
    """Where a reader keeps its problems, and the typed accessors each section's
    reader uses: each reports a problem and returns a default on a bad value."""

    def __init__(self, lines: Mapping[str, int]) -> None:
        self.lines = lines
        self.problems: list[Finding] = []

    def locate(self, problem: Finding) -> Finding:
        if problem.line is not None:
            return problem
        path = problem.path
        while path:
            if path in self.lines:
                return problem.at_line(self.lines[path])
            path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path)
            if path == problem.path:
                break
        return problem

    def error(self, code: str, path: str, message: str) -> None:
        self.problems.append(self.locate(error(code, path or "file", message)))

    def warning(self, code: str, path: str, message: str) -> None:
        self.problems.append(self.locate(warning(code, path, message)))

    # Typed accessors: each reports a problem and returns a default on a bad
    # value, so reading goes on and finds the next problem too.

    def mapping(self, data: Any, path: str, *, allowed: tuple[str, ...] = ()) -> dict:
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.error(
                "expected-mapping",
                path,
                f"expected a mapping, found {value_kind(data)}",
            )
            return {}
        if allowed:
            for key in data:
                if key not in allowed:
                    self.error(
                        "unknown-field",
                        join_path(path, str(key)),
                        f"unknown field '{key}'; expected one of: "
                        + ", ".join(allowed),
                    )
        return data

    def sequence(self, data: Any, path: str) -> list:
        if data is None:
            return []
        if not isinstance(data, list):
            self.error(
                "expected-list", path, f"expected a list, found {value_kind(data)}"
            )
            return []
        return data

    def text(self, data: dict, key: str, path: str, default: Any = MISSING) -> str:
        value = data.get(key, MISSING)
        if value is MISSING or value is None:
            if default is MISSING:
                self.error("field-required", join_path(path, key), "is required")
                return ""
            return default
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.error(
                "expected-text",
                join_path(path, key),
                f"expected text, found {value_kind(value)}",
            )
            return "" if default is MISSING else default
        return str(value)

    def choice(
        self, data: dict, key: str, path: str, options: tuple[str, ...], default: str
    ) -> str:
        value = self.text(data, key, path, default)
        if value not in options:
            # An empty option is the key left out ("no stream"), not a word.
            listed = ", ".join(o for o in options if o)
            leave_out = f"; or leave {key} out" if "" in options else ""
            self.error(
                "not-a-choice",
                join_path(path, key),
                f"'{value}' is not one of: {listed}{leave_out}",
            )
            return default
        return value

    def boolean(self, data: dict, key: str, path: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.error(
                "expected-boolean",
                join_path(path, key),
                f"expected true or false, found {value!r}",
            )
            return default
        return value

    def seed_name(self, spec: dict, name: str, path: str) -> str:
        """The name a renamed element's sample draws keep (empty when it
        is the element's own); entities and access patterns both take one."""
        seed = self.text(spec, "seed_name", path, "")
        return "" if seed == name else seed

    # A required field, or one with a whole-number default, reads as an int
    # (a missing or bad value is reported and read as `minimum`); only an
    # optional field with the default None may read as None.
    @overload
    def integer(
        self, data: dict, key: str, path: str, default: int = ..., minimum: int = 0
    ) -> int: ...

    @overload
    def integer(
        self, data: dict, key: str, path: str, default: None, minimum: int = 0
    ) -> int | None: ...

    def integer(
        self,
        data: dict,
        key: str,
        path: str,
        default: Any = MISSING,
        minimum: int = 0,
    ) -> int | None:
        value = data.get(key, MISSING)
        if value is MISSING or value is None:
            if default is MISSING:
                self.error("field-required", join_path(path, key), "is required")
                return minimum
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(
                "expected-whole-number",
                join_path(path, key),
                f"expected a whole number, found {value!r}",
            )
            return minimum
        if value < minimum:
            self.error(
                "below-minimum",
                join_path(path, key),
                f"must be at least {minimum}, found {value}",
            )
            return minimum
        return value

    def number(self, data: dict, key: str, path: str, default: float) -> float:
        value = data.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            self.error(
                "expected-number",
                join_path(path, key),
                f"expected a number, found {value!r}",
            )
            return default
        if value < 0:
            self.error(
                "negative-number",
                join_path(path, key),
                f"must not be negative, found {value}",
            )
            return default
        return float(value)

    def names(self, data: Any, path: str) -> tuple[str, ...]:
        items = self.sequence(data, path)
        result = []
        for i, item in enumerate(items):
            if not isinstance(item, str) or not item:
                self.error(
                    "expected-name",
                    f"{path}[{i}]",
                    f"expected a name, found {value_kind(item)}",
                )
            else:
                result.append(item)
        return tuple(result)


def is_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, Decimal, date)) and not isinstance(
        value, bool
    )


def scalar_text(value: Any) -> str:
    return plain_yaml_value(value) if isinstance(value, date) else str(value)


def plain_yaml_value(value: Any) -> Any:
    """YAML reads `2025-01-01` as a date; a design keeps such values as the
    ISO-8601 text the user wrote, so they store as JSON and dump unchanged.
    Likewise a bare `true` key (`{bool: {true: 0.05}}`) stays the word."""
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {_key_text(k): plain_yaml_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_yaml_value(v) for v in value]
    return value


def _key_text(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(plain_yaml_value(key))


def value_kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return f"'{value}'"


_DYNAMODB_TYPES = ("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS")


def dynamodb_item_problem(item: Any) -> str:
    """Why `item` is not an item in DynamoDB JSON, or '' when it is."""
    if not isinstance(item, dict) or not item:
        return "expected an item in DynamoDB JSON: {attribute: {S: value}, ...}"
    for name, value in item.items():
        if not (
            isinstance(value, dict)
            and len(value) == 1
            and next(iter(value)) in _DYNAMODB_TYPES
        ):
            return (
                f"attribute '{name}' is not in DynamoDB JSON: expected one of "
                f"{', '.join(_DYNAMODB_TYPES)} as its only key, "
                'such as {S: "text"}'
            )
    return ""
