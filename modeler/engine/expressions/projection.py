"""Projection expressions: which attributes (or parts of them) a read
returns.

    projection ::= path (, path)*

A projected item keeps the requested paths and the maps and lists leading to
them, nothing else: `a.b` gives `{"a": {"b": ...}}`; list elements keep their
order and close up, so `l[3], l[1]` of a five-element list gives
`{"l": [l1, l3]}`. A path that is not in the item contributes nothing, and a
map or list left with nothing projected is left out.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modeler.engine.expressions.operands import RawPath
from modeler.engine.expressions.parser import Parser, Usage
from modeler.engine.expressions.paths import (
    MISSING,
    Path,
    overlapping_paths,
    path_tree,
)
from modeler.engine.expressions.tokens import Kind


@dataclass(frozen=True, eq=False)
class Projection:
    """A parsed ProjectionExpression."""

    text: str
    paths: list[Path]
    usage: Usage
    _tree: dict[str | int, Any] = field(repr=False)

    def apply(self, item: dict[str, Any]) -> dict[str, Any]:
        """A new dict with only the projected parts of `item`."""
        projected = _project(item, self._tree)
        return {} if projected is MISSING else projected


def _project(value: Any, tree: dict[str | int, Any]) -> Any:
    if isinstance(value, dict):
        result = {}
        for key, node in tree.items():
            if isinstance(key, str) and key in value:
                child = _take(value[key], node)
                if child is not MISSING:
                    result[key] = child
        return result or MISSING
    if isinstance(value, list):
        elements = [
            _take(value[index], tree[index])
            for index in sorted(k for k in tree if isinstance(k, int))
            if index < len(value)
        ]
        return [e for e in elements if e is not MISSING] or MISSING
    return MISSING


def _take(value: Any, node: Any) -> Any:
    if isinstance(node, dict):
        return _project(value, node)
    return copy.deepcopy(value) if isinstance(value, (list, dict)) else value


class ProjectionParser(Parser):
    error_order = ("reserved", "name", "overlap", "limit")

    def read(self) -> tuple[RawPath, ...]:
        raw_paths = [self.parse_path()]
        while self.peek().kind is Kind.COMMA:
            self.advance()
            raw_paths.append(self.parse_path())
        self.expect_end()
        return tuple(raw_paths)

    def finish(self, raw_paths: tuple[RawPath, ...]) -> Projection:
        paths = [self.bind_path(raw) for raw in raw_paths]
        overlap = overlapping_paths(paths)
        if overlap:
            self.defer_message("overlap", overlap)
        self.raise_problems()
        return Projection(
            self.text, paths, self.usage, path_tree((p, None) for p in paths)
        )


def parse_projection(
    text: str,
    names: Mapping[str, str] | None,
    *,
    kind: str = "ProjectionExpression",
) -> Projection:
    return ProjectionParser.parse(text, names, None, kind)
