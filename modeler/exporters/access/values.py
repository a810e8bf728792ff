"""The one walk over a pattern's request (`symbolic` markers, dicts, lists,
sets and scalars) that both generated languages share: a request shape is
taught here once, and each language says only how its leaves are written
(a string, a number, a parameter reference, a set, a template rendering)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from decimal import Decimal
from typing import Any

from modeler.exporters.access import symbolic
from modeler.keys import parse_template


class NotGenerated(ValueError):
    """A pattern the module cannot give a function; the message says why."""


class ValueWriter(ABC):
    """Source text of request values in one language; subclasses give the
    leaves. `step` is the language's indentation."""

    step = 4

    def __init__(self, types: dict[str, str]) -> None:
        self.types = types
        self.used: dict[str, None] = {}

    @abstractmethod
    def param(self, name: str, owner: str = "") -> str:
        """A reference to a pattern parameter, or to an attribute of the entity
        object `owner` (marking the parameter used)."""

    @abstractmethod
    def rendered(self, template: str, key_type: str) -> str:
        """A key template rendered from the parameters."""

    @abstractmethod
    def typed(self, kind: str, text: str) -> str:
        """A rendered template's text as a value of the attribute type."""

    @abstractmethod
    def key(self, name: str) -> str:
        """A map key: a string literal, or a property name where one is valid."""

    @abstractmethod
    def string(self, text: str) -> str:
        """A string literal."""

    @abstractmethod
    def decimal(self, value: Decimal) -> str:
        """A number attribute's value."""

    @abstractmethod
    def scalar(self, value: bool | int | bytes | None) -> str:
        """A boolean, null, integer or binary literal."""

    @abstractmethod
    def members(self, members: list[str]) -> str:
        """A set of the given members' expressions, already sorted."""

    @abstractmethod
    def wired(self, values: dict[Any, Any], indent: int) -> str:
        """A map of plain values, converted to the SDK's wire shape."""

    @abstractmethod
    def whole_item(self, variable: str) -> str:
        """The whole item of the entity object `variable`, on the wire."""

    @abstractmethod
    def table_name(self, value: Any) -> bool:
        """Whether a TableName value is the module's table constant."""

    def type_of(self, name: str) -> str:
        return self.types.get(name, "S")

    def expr(self, value: Any, indent: int) -> str:
        pad, inner = " " * indent, " " * (indent + self.step)
        if isinstance(value, symbolic.Param):
            return self.param(value.name, value.owner)
        if isinstance(value, symbolic.Rendered):
            return self.rendered(value.template, value.key_type)
        if isinstance(value, symbolic.Listed):
            (updated,) = value
            return self.param(
                parse_template(updated.template).placeholders[0].attribute
            )
        if isinstance(value, symbolic.Updated):
            return self._updated(value)
        if isinstance(value, symbolic.Wired):
            return self.wired(dict(value.values), indent)
        if isinstance(value, symbolic.WholeItem):
            return self.whole_item(value.variable)
        if isinstance(value, dict):
            if not value:
                return "{}"
            entries = "".join(
                f"{inner}{self.key(str(k))}: {self._entry(k, v, indent + self.step)},\n"
                for k, v in value.items()
            )
            return "{\n" + entries + pad + "}"
        if isinstance(value, (set, frozenset)):
            return self.members(sorted(self.expr(m, indent) for m in value))
        if isinstance(value, (list, tuple)):
            if not value:
                return "[]"
            entries = "".join(
                f"{inner}{self.expr(v, indent + self.step)},\n" for v in value
            )
            return "[\n" + entries + pad + "]"
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, Decimal):
            return self.decimal(value)
        if isinstance(value, (bool, int, bytes)) or value is None:
            return self.scalar(value)
        raise NotGenerated(f"cannot write the value {value!r}")

    def _entry(self, key: Any, value: Any, indent: int) -> str:
        if key == "TableName" and self.table_name(value):
            return "TABLE_NAME"
        return self.expr(value, indent)

    def _updated(self, value: symbolic.Updated) -> str:
        """An update's value: a parameter of the attribute's type as it is
        (a set parameter holds the members), text made the attribute's
        number, boolean or binary as the simulator makes it
        (`typed_value`)."""
        parsed = parse_template(value.template)
        kind = value.type_name
        if parsed.is_single_placeholder and kind != "S":
            name = parsed.placeholders[0].attribute
            if self.type_of(name) == kind or kind not in ("N", "BOOL", "B"):
                return self.param(name)
        return self.typed(kind, self.rendered(value.template, "S"))
