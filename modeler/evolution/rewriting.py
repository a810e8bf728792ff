"""How the migration script recognises an item of the old design and what
it makes of it in the new one: key templates and sparse conditions, handed
over as data by `modeler.evolution.spec`, interpreted here with the
standard library alone (the generated script carries this module, see
`modeler.evolution.script`).

An item is an entity's when the entity's table key templates, rendered from
the item's own attributes, give the item's keys: an item already in the new
shape is recognised as such, which is what makes a rerun write nothing."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any


class MigrationError(Exception):
    """An item the plan cannot rewrite (a table key it cannot render)."""


# --- Values ---------------------------------------------------------------------


def native(wire: dict[str, Any]) -> Any:
    """The value a key template places, from its DynamoDB JSON (None for a
    type no template places)."""
    (kind, value), *_ = wire.items()
    if kind == "S":
        return value
    if kind == "N":
        return Decimal(value)
    if kind == "BOOL":
        return bool(value)
    if kind == "B":
        return value if isinstance(value, bytes) else bytes(value)
    return None


def number_text(number: Decimal) -> str:
    """A number as a key shows it: no exponent, no trailing zeros."""
    text = format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _placed(value: Any, width: int | None, places: int | None) -> str:
    if width is not None:
        number = Decimal(value) if not isinstance(value, bool) else None
        if number is None:
            raise ValueError("a boolean placed with a number format")
        if places is not None:
            return format(number, f"0{width}.{places}f")
        if number != number.to_integral_value():
            raise ValueError(f"{value} is not an integer")
        return format(int(number), f"0{width}d")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return number_text(value)
    if isinstance(value, str):
        return value
    raise ValueError("a binary value placed in a string key")


def render_key(key: dict[str, Any], values: Any) -> dict[str, Any] | None:
    """The key's DynamoDB JSON rendered from native `values`, or None when a
    placed attribute is missing or cannot be placed."""
    parts = key["parts"]
    try:
        if key["type"] == "S":
            text = []
            for part in parts:
                if isinstance(part, str):
                    text.append(part)
                    continue
                value = values.get(part[0])
                if value is None:
                    return None
                text.append(_placed(value, part[1], part[2]))
            rendered = "".join(text)
            return {"S": rendered} if rendered else None
        (attribute, _, _) = next(p for p in parts if not isinstance(p, str))
        value = values.get(attribute)
        if value is None:
            return None
        if key["type"] == "N":
            if isinstance(value, bool):
                return None
            return {"N": number_text(Decimal(value))}
        if isinstance(value, str):
            value = value.encode()
        return {"B": bytes(value)} if isinstance(value, bytes) and value else None
    except (ValueError, InvalidOperation):
        return None


def _compare(actual: Any, expected: list[str]) -> int | None:
    kind, text = expected
    if kind == "N":
        if isinstance(actual, bool):
            return None
        try:
            number = Decimal(actual) if not isinstance(actual, bytes) else None
        except InvalidOperation:
            return None
        if number is None:
            return None
        wanted = Decimal(text)
        return (number > wanted) - (number < wanted)
    if isinstance(actual, bool):
        actual = "true" if actual else "false"
    elif isinstance(actual, Decimal):
        actual = number_text(actual)
    left, right = str(actual).encode(), text.encode()
    return (left > right) - (left < right)


_ORDER = {
    "=": lambda o: o == 0,
    "!=": lambda o: o != 0,
    "<": lambda o: o < 0,
    "<=": lambda o: o <= 0,
    ">": lambda o: o > 0,
    ">=": lambda o: o >= 0,
}


def holds(clauses: list[list[Any]], values: Any) -> bool:
    """Whether a sparse condition (its clauses, all of which must hold)
    holds for native `values`, as the workbench's conditions decide."""
    for clause in clauses:
        if clause[0] == "exists":
            if (values.get(clause[1]) is not None) != clause[2]:
                return False
            continue
        _, attribute, operator, expected = clause
        actual = values.get(attribute)
        if actual is None:
            if operator != "!=":
                return False
            continue
        if operator == "in":
            if not any(_compare(actual, e) == 0 for e in expected):
                return False
            continue
        order = _compare(actual, expected[0])
        if order is None:
            if operator != "!=":
                return False
            continue
        if not _ORDER[operator](order):
            return False
    return True


class _Natives:
    """An item's values as templates place them, each converted when first
    asked for (a key places a few of an item's attributes)."""

    __slots__ = ("item", "seen")

    def __init__(self, item: dict[str, Any]) -> None:
        self.item = item
        self.seen: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        if name not in self.seen:
            wire = self.item.get(name)
            self.seen[name] = None if wire is None else native(wire)
        return self.seen[name]


def _natives(item: dict[str, Any]) -> _Natives:
    return _Natives(item)


# --- Recognising and rewriting items --------------------------------------------


def keys_of(item: dict[str, Any], key_names: list[str]) -> dict[str, Any]:
    return {name: item[name] for name in key_names if name in item}


def renders_own_keys(
    item: dict[str, Any], keys: dict[str, dict[str, Any]], key_names: list[str]
) -> bool:
    """Whether the table key templates `keys`, rendered from the item's own
    attributes, give the item's table keys: the item is of that entity."""
    if not all(name in keys and name in item for name in key_names):
        return False
    values = _natives(item)
    return all(render_key(keys[name], values) == item[name] for name in key_names)


def recognise(spec: dict[str, Any], item: dict[str, Any]) -> tuple[str, Any]:
    """("old", entity spec) for an item of the old design, ("new", name) for
    one already in the new design's shape, ("unknown", None) otherwise."""
    for entity in spec["entities"]:
        if renders_own_keys(item, entity["table_keys"], spec["source_keys"]):
            return "old", entity
    for entity in spec["target_entities"]:
        if renders_own_keys(item, entity["table_keys"], spec["target_keys"]):
            return "new", entity["name"]
        # Written before the cleanup, it holds a retyped attribute with the
        # old type, its keys rendered from the new one.
        if entity.get("retypes"):
            try:
                seen = retyped_item(entity["retypes"], item)
            except MigrationError:
                continue
            if renders_own_keys(seen, entity["table_keys"], spec["target_keys"]):
                return "new", entity["name"]
    return "unknown", None


def _retyped(
    value: dict[str, Any], kind: str, width: int | None, places: int | None
) -> dict[str, Any]:
    (was, data), *_ = value.items()
    if was == kind:
        return value
    if was == "N" and kind == "S":
        number = Decimal(data)
        if width is not None:
            try:
                return {"S": _placed(number, width, places)}
            except ValueError:
                pass  # not an integer: written as the number reads
        return {"S": number_text(number)}
    if was == "S" and kind == "N":
        try:
            return {"N": number_text(Decimal(data.strip()))}
        except InvalidOperation:
            raise MigrationError(f"{data!r} is not a number") from None
    raise MigrationError(f"cannot turn a {was} value into {kind}")


def rewritten(entity: dict[str, Any], output: dict[str, Any], item: dict[str, Any]):
    """The new item `output` makes of the old item, or None when the item
    lacks what the output needs (a split-off part it does not have)."""
    new = dict(item)
    for old_name, new_name in output["renames"]:
        # After the rewrite phase the item has both: the old name goes.
        if old_name in new and old_name not in output["attributes"]:
            value = new.pop(old_name)
            new.setdefault(new_name, value)
    for name, kind, width, places, _ in output["retypes"]:
        if name in new:
            new[name] = _retyped(new[name], kind, width, places)
    for name in output["required"]:
        if name not in new:
            return None
    if output["carry"] is not None:
        new = {name: value for name, value in new.items() if name in output["carry"]}
    for name in output["drop"]:
        new.pop(name, None)
    for name in entity["old_keys"]:
        if name not in output["attributes"]:
            new.pop(name, None)
    values = _natives(new)
    for name, key in output["keys"].items():
        if key["when"] is not None and not holds(key["when"], values):
            continue
        rendered = render_key(key, values)
        if rendered is not None:
            new[name] = rendered
        elif key["table"]:
            raise MigrationError(
                f"an item of {entity['name']} cannot render key {name} of "
                f"{output['name']}"
            )
    return new


def old_typed(output: dict[str, Any], item: dict[str, Any], new: dict[str, Any]):
    """`new` with each retyped attribute as the old item holds it: until
    the cleanup the old application still reads (and writes) the old type,
    so the rewrite phase keeps it; the keys stay rendered from the new one."""
    kept = dict(new)
    for name, _, _, _, old_name in output["retypes"]:
        if name in kept and old_name in item:
            kept[name] = item[old_name]
    return kept


def retyped_item(retypes: list[list[Any]], item: dict[str, Any]) -> dict[str, Any]:
    """An item already in the new design's shape with its retyped
    attributes of the new type (the cleanup's part for items that the
    rewrite, or the application meanwhile, wrote with the old one)."""
    new = dict(item)
    for name, kind, width, places, _ in retypes:
        if name in new:
            new[name] = _retyped(new[name], kind, width, places)
    return new
