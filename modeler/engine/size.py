"""Item sizes in bytes, as DynamoDB counts them for the 400 KB limit, for
capacity units and for the 1 MB page limit.

The documented rules (Developer Guide, "Item sizes and formats"):

- String: UTF-8 length of the attribute name + UTF-8 length of the value.
- Number: name + 1 byte per two significant digits + 1 byte; leading and
  trailing zeros do not count; at most 21 bytes for the value.
- Binary: name + raw length (not the base64 length).
- Null, Boolean: name + 1 byte.
- List, Map: name + 3 bytes + the size of every element + 1 byte per
  element; the elements of a map count their own names.
- Sets: name + the sum of the sizes of the members.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import partial
from operator import itemgetter
from typing import Any

from modeler.engine.errors import ValidationException
from modeler.engine.types import BinarySet, NumberSet, StringSet

MAX_ITEM_SIZE = 409_600
MAX_NUMBER_SIZE = 21
CONTAINER_OVERHEAD = 3
ELEMENT_OVERHEAD = 1
MAX_NESTING_DEPTH = 32


def item_size(item: dict[str, Any]) -> int:
    """The size of an item: the sum of its attributes' names and values."""
    # The names are measured in one piece: one length (or one encoding,
    # when something is not ASCII) instead of one per attribute. A string
    # value's UTF-8 length is its length when it is ASCII, which a string
    # knows without reading it (quicker than adding it to the names' text,
    # a copy a value). A number's size comes from the cache of them without
    # a call (most of the other values are numbers, and most numbers are
    # known), in the same pass: no list of the other values.
    names = "".join(item)
    total = len(names) if names.isascii() else len(names.encode("utf-8"))
    for value in item.values():
        kind = type(value)
        if kind is str:
            total += len(value) if value.isascii() else len(value.encode("utf-8"))
        elif kind is Decimal:
            size = known_number_size(value)
            total += number_size(value) if size is None else size
        else:
            total += value_size(value)
    return total


def attribute_size(name: str, value: Any) -> int:
    """The size one attribute adds to an item."""
    return len(name.encode("utf-8")) + value_size(value)


def projected_size(
    name_sizes: tuple[tuple[str, int], ...], item: dict[str, Any]
) -> int:
    """The size of the entry of `item` that holds only the attributes named
    (with their names' UTF-8 sizes), as `item_size` would measure that
    entry, without building it: an index's entry of an INCLUDE or
    KEYS_ONLY projection."""
    total = 0
    get = item.get
    for name, name_size in name_sizes:
        value = get(name, _ABSENT)
        if value is _ABSENT:
            continue
        kind = type(value)
        if kind is str and value.isascii():
            total += name_size + len(value)
        elif kind is Decimal:
            # As item_size: from the cache of numbers' sizes without a call.
            size = known_number_size(value)
            total += name_size + (number_size(value) if size is None else size)
        else:
            total += name_size + value_size(value)
    return total


_ABSENT = object()


def projection_size(
    name_sizes: tuple[tuple[str, int], ...], string_keys: tuple[str, ...]
) -> Callable[[dict[str, Any]], int]:
    """`projected_size` of `name_sizes` as a function of the item, for an
    index whose entries all hold the attributes `string_keys` (among the
    names) as strings: its key attributes and the table's, of type S. Their
    values are measured in one piece, a join, as `item_size` measures the
    names (GSI1's 270,000 entries of a million items took 0.36 s where they
    took 0.42 s, each key measured alone); the other names as
    `projected_size` measures them. An item where the join finds a key
    missing or not a string is measured by `projected_size` itself."""
    if len(string_keys) < 2:  # nothing to join
        return partial(projected_size, name_sizes)
    keys_of = itemgetter(*string_keys)  # a tuple of two or more
    keys_name_size = sum(size for name, size in name_sizes if name in string_keys)
    others = tuple(pair for pair in name_sizes if pair[0] not in string_keys)

    def size(item: dict[str, Any]) -> int:
        try:
            keys = "".join(keys_of(item))
        except (KeyError, TypeError):
            return projected_size(name_sizes, item)
        total = keys_name_size + (
            len(keys) if keys.isascii() else len(keys.encode("utf-8"))
        )
        return total + projected_size(others, item) if others else total

    return size


def value_size(value: Any, depth: int = 1) -> int:
    """The size of a value without its attribute name. Documents may nest
    32 levels deep (a list or map attribute is level 1); deeper ones are
    refused as DynamoDB refuses them."""
    kind = type(value)
    if kind is str:
        return len(value) if value.isascii() else len(value.encode("utf-8"))
    if kind is Decimal:
        return number_size(value)
    if kind is bytes or kind is bytearray:
        return len(value)
    if kind is bool or value is None:
        return 1
    if kind is dict or kind is list:
        if depth > MAX_NESTING_DEPTH:
            raise ValidationException("Nesting Levels have exceeded supported limits")
        if kind is list:
            return CONTAINER_OVERHEAD + sum(
                ELEMENT_OVERHEAD + value_size(v, depth + 1) for v in value
            )
        return CONTAINER_OVERHEAD + sum(
            ELEMENT_OVERHEAD + len(k.encode("utf-8")) + value_size(v, depth + 1)
            for k, v in value.items()
        )
    if kind is StringSet or kind is BinarySet:
        return sum(value_size(member) for member in value)
    if kind is NumberSet:
        return sum(number_size(member) for member in value)
    if kind is int or kind is float:
        return number_size(Decimal(str(value)))
    raise TypeError(f"not a DynamoDB value: {value!r}")


def number_size(value: Decimal) -> int:
    """ceil(significant digits / 2) + 1, leading and trailing zeros not
    counted ("500" has one significant digit), at most 21 bytes."""
    size = _number_sizes.get(value)
    if size is None:
        # Equal numbers have the same significant digits, hence the same size.
        if len(_number_sizes) >= _NUMBER_SIZE_CACHE:
            _number_sizes.clear()
        size = _number_sizes[value] = _number_size(value)
    return size


# Room for the distinct numbers of a million sample items (about 150,000
# for order-management: prices and totals): a cache emptied whenever it
# filled measured most of them again and again (434,668 times at a million
# items rather than 152,328).
_NUMBER_SIZE_CACHE = 262_144
_number_sizes: dict[Decimal, int] = {}
# The size of a number measured before, or None (the cache is emptied in
# place, never replaced).
known_number_size = _number_sizes.get


def _number_size(value: Decimal) -> int:
    text = str(value)
    if "E" in text:
        digits = "".join(map(str, value.as_tuple().digits))
    else:
        digits = text.replace(".", "").lstrip("-")
    significant = len(digits.strip("0"))
    return min((significant + 1) // 2 + 1, MAX_NUMBER_SIZE)
