"""Document paths: `a`, `a.b`, `a[2].c`, `#n.#m[0]` once the placeholders
are substituted.

A path's elements are attribute or map-key names (str) and list indexes
(int). Reading a path that is not in an item gives MISSING, never an error:
a missing attribute, a key absent from a map, an index past the end of a
list, or a step into a value of the wrong type (a name into a list, an index
into a map, anything into a scalar).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

MAX_PATH_DEPTH = 32


class _Missing:
    """The value of a path that is not in the item."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()


@dataclass(frozen=True, slots=True)
class Path:
    elements: tuple[str | int, ...]

    @property
    def attribute(self) -> str:
        """The top-level attribute the path starts from."""
        # A path starts with a name, never an index (parse_path).
        return self.elements[0]  # type: ignore[return-value]  # see above

    def resolve(self, item: dict[str, Any]) -> Any:
        value: Any = item
        for element in self.elements:
            if isinstance(element, str):
                if not isinstance(value, dict):
                    return MISSING
                value = value.get(element, MISSING)
            else:
                if not isinstance(value, list) or element >= len(value):
                    return MISSING
                value = value[element]
            if value is MISSING:
                return MISSING
        return value

    # A path is also an operand of conditions and update values.
    evaluate = resolve

    def __str__(self) -> str:
        """DynamoDB's rendering in messages: `[a, [2], c]`."""
        parts = (f"[{e}]" if isinstance(e, int) else e for e in self.elements)
        return "[" + ", ".join(parts) + "]"

    @property
    def text(self) -> str:
        """The path as written in an expression: `a[2].c`."""
        text = ""
        for element in self.elements:
            if isinstance(element, int):
                text += f"[{element}]"
            else:
                text += f".{element}" if text else element
        return text


def overlapping_paths(paths: Sequence[Path]) -> str | None:
    """Why DynamoDB refuses these paths together, or None: two paths overlap
    when one is a prefix of the other (or they are equal), and conflict when
    at the same depth one indexes a list where the other names a map key.
    "Path one" is the earlier of the two in the expression."""
    for position, later in enumerate(paths):
        for earlier in paths[:position]:
            problem = _relation(earlier, later)
            if problem:
                return (
                    f"Two document paths {problem} with each other; must remove or "
                    f"rewrite one of these paths; path one: {earlier}, path two: "
                    f"{later}"
                )
    return None


def _relation(one: Path, two: Path) -> str | None:
    for a, b in zip(one.elements, two.elements, strict=False):
        if isinstance(a, int) != isinstance(b, int):
            return "conflict"
        if a != b:
            return None
    return "overlap"


def path_tree(entries: Iterable[tuple[Path, Any]]) -> dict[str | int, Any]:
    """Disjoint paths (see overlapping_paths) as nested dicts, each path
    ending at its leaf value."""
    root: dict[str | int, Any] = {}
    for path, leaf in entries:
        node = root
        for element in path.elements[:-1]:
            node = node.setdefault(element, {})
        node[path.elements[-1]] = leaf
    return root
