"""Update expressions: parsing, checking, and applying them to an item.

    update     ::= section+        (each of SET, REMOVE, ADD, DELETE at most once)
    SET        ::= SET path = value (, path = value)*
    REMOVE     ::= REMOVE path (, path)*
    ADD        ::= ADD path :value (, path :value)*
    DELETE     ::= DELETE path :value (, path :value)*
    value      ::= ( value ) | operand | operand + operand | operand - operand
    operand    ::= ( operand ) | :value | path
                 | if_not_exists ( path , operand ) | list_append ( operand , operand )

Applying follows DynamoDB (Developer Guide, "Update expressions"): every
value is computed from the item as it was before the update, so
`SET a = b, b = a` swaps; list indexes refer to the list as it was, so
`REMOVE l[1], l[2]` removes two of the original elements, and setting an
index past the end appends; a path whose parent is missing, or whose parent
is not a map (for a name) or a list (for an index), is refused.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Context, Decimal, Rounded
from typing import Any

from modeler.engine.errors import ValidationException
from modeler.engine.expressions.operands import Literal, RawPath, RawValue
from modeler.engine.expressions.parser import Parser, Usage
from modeler.engine.expressions.paths import (
    MISSING,
    Path,
    overlapping_paths,
    path_tree,
)
from modeler.engine.expressions.tokens import Kind
from modeler.engine.types import (
    MAX_NUMBER_EXPONENT,
    MIN_NUMBER_EXPONENT,
    SET_TYPES,
    number,
    type_of,
)

MISSING_OPERAND = (
    "The provided expression refers to an attribute that does not exist in the item"
)
WRONG_TYPE = "An operand in the update expression has an incorrect data type"
INVALID_PATH = (
    "The document path provided in the update expression is invalid for update"
)
SECTIONS = ("SET", "REMOVE", "ADD", "DELETE")
CONDITION_FUNCTIONS = frozenset(
    {
        "attribute_exists",
        "attribute_not_exists",
        "attribute_type",
        "begins_with",
        "contains",
        "size",
    }
)
_LONG_TYPE_NAMES = {
    "S": "STRING",
    "N": "NUMBER",
    "B": "BINARY",
    "BOOL": "BOOLEAN",
    "NULL": "NULL",
    "L": "LIST",
    "M": "MAP",
    "SS": "STRING_SET",
    "NS": "NUMBER_SET",
    "BS": "BINARY_SET",
}
# Wide enough that adding two DynamoDB numbers (exponents -130 to 125) is
# exact; the result is then checked against DynamoDB's 38 digits.
_EXACT = Context(prec=300)
# DynamoDB's 38 digits, refusing to round: a nonzero sum in DynamoDB's range
# that this context computes without signalling is the exact one (Rounded is
# signalled whenever a digit, even a zero, is dropped), and the number
# `number` gives for its text.
_DIGITS = Context(prec=38, traps=[Rounded])


def _copy(value: Any) -> Any:
    return copy.deepcopy(value) if isinstance(value, (list, dict)) else value


# Values of SET actions


@dataclass(frozen=True, slots=True)
class Attribute:
    """A path read as a SET value: the attribute must exist."""

    path: Path

    def evaluate(self, item: dict[str, Any]) -> Any:
        value = self.path.resolve(item)
        if value is MISSING:
            raise ValidationException(MISSING_OPERAND)
        return value


@dataclass(frozen=True, slots=True)
class IfNotExists:
    path: Path
    fallback: Value

    def evaluate(self, item: dict[str, Any]) -> Any:
        # DynamoDB evaluates both operands, so a missing fallback attribute is
        # an error even when the first one exists.
        fallback = self.fallback.evaluate(item)
        value = self.path.resolve(item)
        return fallback if value is MISSING else value


@dataclass(frozen=True, slots=True)
class ListAppend:
    first: Value
    second: Value

    def evaluate(self, item: dict[str, Any]) -> Any:
        first = self.first.evaluate(item)
        second = self.second.evaluate(item)
        if type_of(first) != "L" or type_of(second) != "L":
            raise ValidationException(WRONG_TYPE)
        return [*first, *second]


@dataclass(frozen=True, slots=True)
class Arithmetic:
    operator: str  # + or -
    left: Value
    right: Value

    def evaluate(self, item: dict[str, Any]) -> Any:
        left = self.left.evaluate(item)
        right = self.right.evaluate(item)
        if (type(left) is not Decimal and type_of(left) != "N") or (
            type(right) is not Decimal and type_of(right) != "N"
        ):
            raise ValidationException(WRONG_TYPE)
        if self.operator == "+":
            return _add(left, right)
        return _subtract(left, right)


def _add(left: Any, right: Any) -> Any:
    """Exact, then held to DynamoDB's 38 significant digits and range."""
    if type(left) is Decimal and type(right) is Decimal:
        try:
            result = _DIGITS.add(left, right)
        except ArithmeticError:
            pass  # more than 38 digits: refused below, in DynamoDB's words
        else:
            # A number out of range, not finite, or zero (whose exponent
            # the context's precision bounds) is left to the exact sum.
            if (
                result
                and result.is_finite()
                and MIN_NUMBER_EXPONENT <= result.adjusted() <= MAX_NUMBER_EXPONENT
            ):
                return result  # what `number` returns for its text
    return number(str(_EXACT.add(left, right)))


def _subtract(left: Any, right: Any) -> Any:
    """`_add` of a difference."""
    if type(left) is Decimal and type(right) is Decimal:
        try:
            result = _DIGITS.subtract(left, right)
        except ArithmeticError:
            pass
        else:
            if (
                result
                and result.is_finite()
                and MIN_NUMBER_EXPONENT <= result.adjusted() <= MAX_NUMBER_EXPONENT
            ):
                return result
    return number(str(_EXACT.subtract(left, right)))


Value = Literal | Attribute | IfNotExists | ListAppend | Arithmetic


# Actions


@dataclass(frozen=True, slots=True)
class SetAction:
    path: Path
    value: Value


@dataclass(frozen=True, slots=True)
class RemoveAction:
    path: Path


@dataclass(frozen=True, slots=True)
class AddAction:
    path: Path
    value: Literal

    def result(self, current: Any) -> Any:
        """A number adds to the current one (0 if missing); a set adds its
        members to the current set (empty if missing)."""
        value = self.value.value
        if current is MISSING:
            return _copy(value)
        if type_of(current) != type_of(value):
            raise ValidationException(WRONG_TYPE)
        if type_of(value) == "N":
            return _add(current, value)
        return type(value)(current | value)


@dataclass(frozen=True, slots=True)
class DeleteAction:
    path: Path
    value: Literal

    def result(self, current: Any) -> Any:
        """The current set without the given members; no set left, no
        attribute."""
        if current is MISSING:
            return MISSING
        value = self.value.value
        if type_of(current) != type_of(value):
            raise ValidationException(WRONG_TYPE)
        remaining = current - value
        return type(value)(remaining) if remaining else MISSING


Action = SetAction | RemoveAction | AddAction | DeleteAction


@dataclass(frozen=True, eq=False)
class Update:
    """A parsed UpdateExpression."""

    text: str
    actions: tuple[Action, ...]
    usage: Usage
    paths: list[Path]  # the paths it writes, in order
    top_level_attributes: set[str]
    _tree: dict[str | int, Any] = field(repr=False)
    # (attribute, the function of the item as it was that gives its new
    # value) of each action when every one SETs a top-level attribute, the
    # usual update, which needs no walk of the tree (see `_top_level_value`).
    _top_level_sets: tuple[tuple[str, Callable[[dict[str, Any]], Any]], ...] | None = (
        field(repr=False)
    )

    def apply(self, item: dict[str, Any]) -> dict[str, Any]:
        """The item after the update, as a new dict; `item` is left as it
        was (parts the update does not touch are shared with it)."""
        sets = self._top_level_sets
        if sets is not None:
            # Every value is read from the item as it was, then written.
            new = dict(item)
            if len(sets) == 1:  # one SET, as most updates
                ((name, value),) = sets
                new[name] = value(item)
            else:
                new.update([(name, value(item)) for name, value in sets])
            return new
        new_values = {
            id(action): _copy(action.value.evaluate(item))
            for action in self.actions
            if isinstance(action, SetAction)
        }
        return _rebuild(item, self._tree, new_values)


def _top_level_value(value: Value) -> Callable[[dict[str, Any]], Any]:
    """`_copy(value.evaluate(item))` as a function of the item: for the
    usual values (a literal, an attribute plus or minus a number) without
    the calls of the general evaluation, to the same result or error."""
    if isinstance(value, Literal) and not isinstance(value.value, (list, dict)):
        constant = value.value
        return lambda item: constant
    if (
        isinstance(value, Arithmetic)
        and isinstance(value.left, Attribute)
        and len(value.left.path.elements) == 1
        and isinstance(value.right, Literal)
        and type(value.right.value) is Decimal
    ):
        name = value.left.path.attribute
        operand = value.right.value
        combine = _add if value.operator == "+" else _subtract
        digits = _DIGITS.add if value.operator == "+" else _DIGITS.subtract

        def arithmetic(item: dict[str, Any]) -> Any:
            current = item.get(name, MISSING)
            if type(current) is not Decimal:  # missing, or not a Decimal
                return value.evaluate(item)
            # `combine`'s first try, written out: its 38 digits, when they
            # give a nonzero finite number in range (else `combine` finds
            # that out again, and gives the exact one or the error).
            try:
                result = digits(current, operand)
            except ArithmeticError:
                return combine(current, operand)
            if (
                result
                and result.is_finite()
                and MIN_NUMBER_EXPONENT <= result.adjusted() <= MAX_NUMBER_EXPONENT
            ):
                return result
            return combine(current, operand)

        return arithmetic
    return lambda item: _copy(value.evaluate(item))


def _rebuild(container: Any, tree: dict[str | int, Any], new_values: dict) -> Any:
    if isinstance(container, dict):
        result = dict(container)
        for key, node in tree.items():
            if not isinstance(key, str):
                raise ValidationException(INVALID_PATH)
            value = _updated(container.get(key, MISSING), node, new_values)
            if value is MISSING:
                result.pop(key, None)
            else:
                result[key] = value
        return result
    if isinstance(container, list):
        slots = dict(enumerate(container))
        for index, node in tree.items():
            if not isinstance(index, int):
                raise ValidationException(INVALID_PATH)
            current = container[index] if index < len(container) else MISSING
            value = _updated(current, node, new_values)
            if value is MISSING:
                slots.pop(index, None)
            else:
                slots[index] = value
        return [slots[index] for index in sorted(slots)]
    raise ValidationException(INVALID_PATH)


def _updated(current: Any, node: Any, new_values: dict) -> Any:
    if isinstance(node, dict):
        if current is MISSING:
            raise ValidationException(INVALID_PATH)
        return _rebuild(current, node, new_values)
    if isinstance(node, SetAction):
        return new_values[id(node)]
    if isinstance(node, RemoveAction):
        return MISSING
    return node.result(current)


# Parsing


class UpdateParser(Parser):
    keywords = frozenset(SECTIONS)
    error_order = (
        "reserved",
        "function",
        "section",
        "name",
        "value",
        "overlap",
        "operator",
        "limit",
    )

    def read(self) -> tuple[tuple[str, Any, Any], ...]:
        raw_actions: list[tuple[str, Any, Any]] = []
        seen: set[str] = set()
        while True:
            token = self.peek()
            section = token.text.upper() if token.kind is Kind.NAME else None
            if section not in SECTIONS:
                raise self.syntax_error(token)
            self.advance()
            if section in seen:
                self.defer(
                    "section",
                    f'The "{section}" section can only be used once in an update '
                    "expression",
                )
            seen.add(section)
            raw_actions.append(self._action(section))
            while self.peek().kind is Kind.COMMA:
                self.advance()
                raw_actions.append(self._action(section))
            if self.peek().kind is Kind.EOF:
                return tuple(raw_actions)

    def finish(self, raw_actions: tuple[tuple[str, Any, Any], ...]) -> Update:
        actions = tuple(self._bind_action(*raw) for raw in raw_actions)
        # Each action a SET of a top-level attribute: applied without a walk.
        sets = [
            action
            for action in actions
            if isinstance(action, SetAction) and len(action.path.elements) == 1
        ]
        paths = [action.path for action in actions]
        overlap = overlapping_paths(paths)
        if overlap:
            self.defer_message("overlap", overlap)
        self.raise_problems()
        return Update(
            text=self.text,
            actions=actions,
            usage=self.usage,
            paths=paths,
            top_level_attributes={path.attribute for path in paths},
            _tree=path_tree((action.path, action) for action in actions),
            _top_level_sets=(
                tuple(
                    (action.path.attribute, _top_level_value(action.value))
                    for action in sets
                )
                if len(sets) == len(actions)
                else None
            ),
        )

    def _action(self, section: str) -> tuple[str, Any, Any]:
        path = self.parse_path()
        if section == "SET":
            self.expect(Kind.EQ)
            return section, path, self._value()
        if section == "REMOVE":
            return section, path, None
        return section, path, self.parse_value()

    def _value(self) -> Any:
        if self.peek().kind is Kind.LPAREN:
            after = self.token_after_group()
            if after is None or after.kind not in (Kind.PLUS, Kind.MINUS):
                self.advance()
                value = self._value()
                self.expect(Kind.RPAREN)
                return value
        left = self._operand()
        token = self.peek()
        if token.kind in (Kind.PLUS, Kind.MINUS):
            self.advance()
            return Arithmetic(token.text, left, self._operand())
        return left

    def _operand(self) -> Any:
        token = self.peek()
        if token.kind is Kind.LPAREN:
            self.advance()
            operand = self._operand()
            self.expect(Kind.RPAREN)
            return operand
        if self.at_call():
            return self.parse_call(
                self._operand,
                allowed=("if_not_exists", "list_append"),
                elsewhere=CONDITION_FUNCTIONS,
                expression="an update expression",
            )
        if token.kind is Kind.VALUE_REF:
            return self.parse_value()
        return self.parse_path()

    # Binding and validation

    def _bind_action(self, section: str, raw_path: RawPath, raw_value: Any) -> Action:
        path = self.bind_path(raw_path)
        if section == "SET":
            return SetAction(path, self._bind_value(raw_value))
        if section == "REMOVE":
            return RemoveAction(path)
        value = self.bind_value(raw_value)
        kind = type_of(value.value) if value.value is not MISSING else None
        allowed = set(SET_TYPES.values()) | ({"N"} if section == "ADD" else set())
        if kind is not None and kind not in allowed:
            self.defer(
                "operator",
                "Incorrect operand type for operator or function",
                ("operator", section),
                ("operand type", _LONG_TYPE_NAMES[kind]),
                ("typeSet", f"ALLOWED_FOR_{section}_OPERAND"),
            )
        if section == "ADD":
            return AddAction(path, value)
        return DeleteAction(path, value)

    def _bind_value(self, raw: Any) -> Value:
        if isinstance(raw, RawPath):
            return Attribute(self.bind_path(raw))
        if isinstance(raw, RawValue):
            return self.bind_value(raw)
        self.count_operator()
        if isinstance(raw, Arithmetic):
            left, right = self._bind_value(raw.left), self._bind_value(raw.right)
            self._check_types(raw.operator, (left, right), "N")
            return Arithmetic(raw.operator, left, right)
        args = tuple(self._bind_value(arg) for arg in raw.args)
        if raw.name not in ("if_not_exists", "list_append"):
            return Literal(MISSING, raw.name)
        if len(args) != 2:
            self.defer(
                "operator",
                "Incorrect number of operands for operator or function",
                ("operator or function", raw.name),
                ("number of operands", len(args)),
            )
            return Literal(MISSING, raw.name)
        if raw.name == "list_append":
            self._check_types(raw.name, args, "L")
            return ListAppend(*args)
        first, fallback = args
        if not isinstance(first, Attribute):
            self.defer(
                "operator",
                "Operator or function requires a document path",
                ("operator or function", raw.name),
            )
            return Literal(MISSING, raw.name)
        if isinstance(fallback, Attribute) and fallback.path == first.path:
            self.defer(
                "operator",
                "The first operand must be distinct from the remaining operands for "
                "this operator or function",
                ("operator", raw.name),
                ("first operand", first.path),
            )
        return IfNotExists(first.path, fallback)

    def _check_types(self, name: str, operands: tuple[Value, ...], wanted: str) -> None:
        for operand in operands:
            kind = _static_type(operand)
            if kind is not None and kind != wanted:
                self.defer(
                    "operator",
                    "Incorrect operand type for operator or function",
                    ("operator or function", name),
                    ("operand type", kind),
                )
                return


def _static_type(value: Value) -> str | None:
    if isinstance(value, Literal):
        return None if value.value is MISSING else type_of(value.value)
    if isinstance(value, ListAppend):
        return "L"
    if isinstance(value, Arithmetic):
        return "N"
    return None


def parse_update(
    text: str,
    names: Mapping[str, str] | None,
    values: Mapping[str, Any] | None,
    *,
    kind: str = "UpdateExpression",
) -> Update:
    return UpdateParser.parse(text, names, values, kind)
