"""Key templates: `CUST#{customerId}`, `ORDER#{orderDate}#{orderId}`, `{qty:06d}`.

A template is literal text with `{attribute}` placeholders. A placeholder may
carry a format, `0Nd` (integer zero-padded to width N) or `0N.Mf` (decimal
with M places, zero-padded to width N), because numbers placed in a string
key sort as text and only padding makes "9" sort before "10". `{{` and `}}`
are literal braces.

A template renders a key from an item's attribute values and matches a key
back into the values it was made from.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from modeler.keys.matching import Element, Matcher

ATTRIBUTE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_INTEGER_FORMAT = re.compile(r"0([1-9][0-9]*)d")
_DECIMAL_FORMAT = re.compile(r"0([1-9][0-9]*)\.([1-9][0-9]*)f")
SUPPORTED_FORMATS = "use 0Nd (zero-padded integer) or 0N.Mf (zero-padded decimal)"
# How many keys of zero-padded numbers one renderer keeps for reuse.
PADDED_KEPT = 4096
# How many keys of two text values one renderer keeps for one first value.
TWO_KEPT = 64


class TemplateSyntaxError(ValueError):
    """A template that cannot be parsed; `column` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


class MissingValueError(KeyError):
    """The values given to `Template.render` lack an attribute it places."""

    def __init__(self, attribute: str) -> None:
        super().__init__(attribute)
        self.attribute = attribute

    def __str__(self) -> str:
        # KeyError's own __str__ shows the repr of its argument, not a sentence.
        return f"no value for attribute '{self.attribute}'"


@dataclass(frozen=True)
class Literal:
    text: str
    column: int


@dataclass(frozen=True)
class Placeholder:
    """`{attribute}` or `{attribute:spec}`; `width` and `places` come from the
    spec (`places` only for `0N.Mf`)."""

    attribute: str
    format_spec: str = ""
    column: int = 1
    width: int | None = None
    places: int | None = None

    @property
    def source(self) -> str:
        spec = f":{self.format_spec}" if self.format_spec else ""
        return f"{{{self.attribute}{spec}}}"

    @property
    def is_integer_format(self) -> bool:
        return self.width is not None and self.places is None

    @property
    def is_decimal_format(self) -> bool:
        return self.places is not None


Part = Literal | Placeholder


@dataclass(frozen=True)
class Template:
    source: str
    parts: tuple[Part, ...]

    def __str__(self) -> str:
        return self.source

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(p for p in self.parts if isinstance(p, Placeholder))

    @property
    def attributes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.attribute for p in self.placeholders))

    @property
    def is_constant(self) -> bool:
        return not self.placeholders

    @property
    def is_single_placeholder(self) -> bool:
        return len(self.parts) == 1 and isinstance(self.parts[0], Placeholder)

    @property
    def literal_prefix(self) -> str:
        """The text every rendered key starts with, for `begins_with`."""
        prefix = []
        for part in self.parts:
            if isinstance(part, Placeholder):
                break
            prefix.append(part.text)
        return "".join(prefix)

    def render(self, values: Mapping[str, Any], key_type: str = "S") -> Any:
        """The key for an item: a str for S, a Decimal for N, bytes for B."""
        if key_type == "S":
            pieces = []
            for part in self._pieces:
                if isinstance(part, str):
                    pieces.append(part)
                else:
                    pieces.append(_render_text(part, _value(values, part.attribute)))
            key = "".join(pieces)
            if not key:
                raise ValueError(f"template '{self.source}' renders an empty key")
            return key
        if key_type not in ("N", "B"):
            raise ValueError(f"key type must be S, N or B, not {key_type!r}")
        placeholder = self._single_placeholder(key_type)
        value = _value(values, placeholder.attribute)
        if key_type == "N":
            return _to_decimal(value, placeholder)
        return _to_bytes(value, placeholder)

    def renderer(
        self, key_type: str = "S", known: dict[str, str] | None = None
    ) -> Callable[[Mapping[str, Any]], Any]:
        """`render` for one key type, made quick for what sample data places
        most: text put in as it is, whole numbers zero-padded. Other values,
        and values that would make an empty key, go through `render`, which
        formats or refuses them.

        `known`: the keys of this template (and type) made so far by other
        renderers, by the text value placed, where the template places one
        text: each key made is added, and a key already made for the value
        is given again, the same string (the line items of an order place
        its "ORDER#{orderId}" as the order did: one string for the order's
        and its line items' keys, not two)."""
        slow = functools.partial(self.render, key_type=key_type)
        if key_type != "S" or any(p.is_decimal_format for p in self.placeholders):
            return slow
        # Literal text around and between the placeholders, as
        # text[0] + value[0] + text[1] + value[1] + ... + text[n].
        texts: list[str] = [""]
        placed: list[tuple[str, int | None]] = []
        for piece in self._pieces:
            if isinstance(piece, str):
                texts[-1] += piece
            else:
                # The width of a zero-padded whole number ("0Nd"), or None.
                placed.append((piece.attribute, piece.width))
                texts.append("")
        if not placed:
            constant = texts[0]
            return (lambda values: constant) if constant else slow
        if len(placed) == 1 and placed[0][1] is None:
            before, after = texts
            name = placed[0][0]
            # The last value and its key: siblings place their parent's
            # value (a line item its order's id), the same object, and share
            # one key string (a million items hold one per order, not one
            # each). One tuple, replaced whole, for threads sharing it.
            last: tuple[Any, str] = (None, "")

            def render_one(values: Mapping[str, Any]) -> Any:
                nonlocal last
                value = values.get(name)
                if type(value) is str and (value or before or after):
                    last_value, key = last
                    if value is not last_value:
                        key = before + value + after
                        last = (value, key)
                    return key
                return slow(values)

            if known is None:
                return render_one

            def render_known(values: Mapping[str, Any]) -> Any:
                nonlocal last
                value = values.get(name)
                if type(value) is str and (value or before or after):
                    last_value, key = last
                    if value is not last_value:
                        made = known.get(value)
                        if made is None:
                            made = known[value] = before + value + after
                        key = made
                        last = (value, key)
                    return key
                return slow(values)

            return render_known
        if len(placed) == 2 and placed[0][1] is None and placed[1][1] is None:
            first, between, closing = texts
            (one, _), (other, _) = placed
            # The last first value, second value and key, and once the first
            # value comes again (the same object), the keys made with it by
            # their second value: an order's "CUST#{customerId}#{status}" is
            # one string for the customer's orders in a status, made one
            # after the other (a million items of order-management hold
            # 62,000 of them, not one per order). One tuple, replaced whole.
            state: tuple[Any, Any, str, dict[str, str] | None] = (None, None, "", None)

            def render_two(values: Mapping[str, Any]) -> Any:
                nonlocal state
                value, next_value = values.get(one), values.get(other)
                if type(value) is str and type(next_value) is str:
                    last_value, last_next, key, made = state
                    if value is last_value:
                        if next_value == last_next:
                            return key
                        if made is None:
                            made = {last_next: key}
                        kept = made.get(next_value)
                        if kept is None:
                            key = first + value + between + next_value + closing
                            if not key:
                                return slow(values)
                            if len(made) < TWO_KEPT:
                                made[next_value] = key
                        else:
                            key = kept
                        state = (value, next_value, key, made)
                        return key
                    key = first + value + between + next_value + closing
                    if key:
                        state = (value, next_value, key, None)
                        return key
                return slow(values)

            return render_two
        name, width = placed[0]
        if len(placed) == 1 and width is not None:  # a zero-padded whole number
            before, after = texts
            # The keys of the numbers met so far, up to PADDED_KEPT of them:
            # siblings' sequence numbers repeat (ITEM#001, ITEM#002 under
            # every order) and share one string each.
            padded: dict[int, str] = {}
            # And by the number as the item holds it (a Decimal: its hash is
            # kept in it), where its key is found without the number made
            # whole and compared (a third of the time). Equal numbers have
            # the same whole value, hence the same key.
            by_number: dict[Decimal | int, str] = {}

            def render_padded(values: Mapping[str, Any]) -> Any:
                value = values.get(name)
                if type(value) is Decimal or type(value) is int:
                    try:
                        key = by_number.get(value)
                    except TypeError:  # a signaling NaN has no hash
                        key = None
                    if key is not None:
                        return key
                    try:
                        whole = int(value)
                    except (ValueError, OverflowError):  # NaN, Infinity
                        return slow(values)
                    if whole == value:
                        key = padded.get(whole)
                        if key is None:
                            # As format(whole, "0Nd") pads (after a minus
                            # sign), in half the time.
                            key = before + str(whole).zfill(width) + after
                            if len(padded) < PADDED_KEPT:
                                padded[whole] = key
                        if len(by_number) < PADDED_KEPT:
                            by_number[value] = key
                        return key
                return slow(values)

            return render_padded

        steps = tuple(
            (name, width, text)
            for (name, width), text in zip(placed, texts[1:], strict=True)
        )

        def render_many(values: Mapping[str, Any]) -> Any:
            pieces = [texts[0]]
            for name, width, text in steps:
                value = values.get(name)
                if width is None and type(value) is str:
                    pieces.append(value)
                elif width is not None and (
                    type(value) is Decimal or type(value) is int
                ):
                    try:
                        whole = int(value)
                    except (ValueError, OverflowError):  # NaN, Infinity
                        return slow(values)
                    if whole != value:
                        return slow(values)
                    pieces.append(str(whole).zfill(width))
                else:
                    return slow(values)
                pieces.append(text)
            key = "".join(pieces)
            return key if key else slow(values)

        return render_many

    def match(self, key: str | bytes | int | Decimal) -> dict[str, Any] | None:
        """The attribute values a key was rendered from, or None if this
        template cannot have rendered it.

        String keys give strings as they appear in the key, with the padding
        of formatted numbers removed ("000042" gives "42"). A number key gives
        its canonical text and a binary key its bytes, both only for a
        template that is a single placeholder.
        """
        if isinstance(key, str):
            return self._match_text(key)
        if not self.is_single_placeholder:
            return None
        attribute = self.placeholders[0].attribute
        if isinstance(key, (bytes, bytearray, memoryview)):
            return {attribute: bytes(key)}
        if isinstance(key, (int, Decimal)) and not isinstance(key, bool):
            return {attribute: number_text(Decimal(key))}
        return None

    def _single_placeholder(self, key_type: str) -> Placeholder:
        if not self.is_single_placeholder:
            kind = "number (N)" if key_type == "N" else "binary (B)"
            raise ValueError(
                f"a {kind} key needs a template that is a single placeholder, "
                f"like {{value}}, not '{self.source}'"
            )
        return self.placeholders[0]

    def _match_text(self, key: str) -> dict[str, str] | None:
        texts = self._matcher.match(key)
        if texts is None:
            return None
        values: dict[str, str] = {}
        for text, placeholder in zip(texts, self._groups, strict=True):
            value = _unpad(text, placeholder)
            if values.setdefault(placeholder.attribute, value) != value:
                return None
        return values

    @functools.cached_property
    def _pieces(self) -> tuple[str | Placeholder, ...]:
        # Literal text as plain str: render runs for every sample item, and a
        # type check on str is quicker than reaching into a Literal.
        return tuple(p.text if isinstance(p, Literal) else p for p in self.parts)

    @functools.cached_property
    def _groups(self) -> tuple[Placeholder, ...]:
        """The placeholder of each captured value: one per attribute and
        format. A repeat with the same format must take the same text (the
        matcher sees to it); a repeat with another format captures its own
        text, compared once the padding is removed."""
        groups: dict[tuple[str, str], Placeholder] = {}
        for placeholder in self.placeholders:
            groups.setdefault(
                (placeholder.attribute, placeholder.format_spec), placeholder
            )
        return tuple(groups.values())

    @functools.cached_property
    def _matcher(self) -> Matcher:
        group_of = {(p.attribute, p.format_spec): n for n, p in enumerate(self._groups)}
        last = max(
            (i for i, part in enumerate(self.parts) if isinstance(part, Placeholder)),
            default=-1,
        )
        elements, seen = [], set()
        for index, part in enumerate(self.parts):
            if isinstance(part, Literal):
                elements.append(Element("text", text=part.text))
                continue
            group = group_of[(part.attribute, part.format_spec)]
            if group in seen:
                elements.append(Element("same", group=group))
                continue
            seen.add(group)
            elements.append(_value_element(part, group, lazy=index != last))
        return Matcher(elements, len(group_of))


def _value_element(placeholder: Placeholder, group: int, *, lazy: bool) -> Element:
    """The first value of each text ends at the first separator, except the
    last, which takes the rest (it may contain the separator). Padded
    numbers take their digits; Python pads after the sign, so format(-42,
    "06d") is "-00042", one digit fewer than a positive value."""
    width, places = placeholder.width, placeholder.places
    if width is None:
        return Element("any", lazy=lazy, group=group)
    if places is None:
        return Element("int", low=width, negative_low=max(1, width - 1), group=group)
    digits = max(1, width - places - 1)
    return Element(
        "dec",
        low=digits,
        negative_low=max(1, digits - 1),
        places=places,
        group=group,
    )


def _unpad(text: str, placeholder: Placeholder) -> str:
    if placeholder.is_integer_format:
        return str(int(text))
    if placeholder.is_decimal_format:
        return str(Decimal(text))
    return text


@functools.lru_cache(maxsize=16_384)
def parse_template(source: str) -> Template:
    """Parse a template; raises TemplateSyntaxError with the column.

    Cached: sample data generation renders the same few templates for every
    item it makes, and a check reads each template several times (room for
    the templates of 3,000 entities with five keys each).
    """
    parts: list[Part] = []
    literal: list[str] = []
    literal_column = 1

    def flush_literal() -> None:
        if literal:
            parts.append(Literal("".join(literal), literal_column))
            literal.clear()

    index = 0
    while index < len(source):
        char = source[index]
        column = index + 1
        if char in "{}" and source.startswith(char * 2, index):
            if not literal:
                literal_column = column
            literal.append(char)
            index += 2
        elif char == "}":
            raise TemplateSyntaxError(
                f"single '}}' at column {column}: write '}}}}' for a literal brace",
                column,
            )
        elif char == "{":
            end = _placeholder_end(source, index)
            flush_literal()
            parts.append(_parse_placeholder(source[index + 1 : end], column))
            index = end + 1
        else:
            if not literal:
                literal_column = column
            literal.append(char)
            index += 1
    flush_literal()
    return Template(source, tuple(parts))


def _placeholder_end(source: str, start: int) -> int:
    """The index of the '}' closing the placeholder opened at `start`."""
    for index in range(start + 1, len(source)):
        if source[index] == "}":
            return index
        if source[index] == "{":
            break
    raise TemplateSyntaxError(f"unclosed '{{' at column {start + 1}", start + 1)


def _parse_placeholder(body: str, column: int) -> Placeholder:
    if not body:
        raise TemplateSyntaxError(f"empty placeholder at column {column}", column)
    attribute, colon, spec = body.partition(":")
    if not attribute:
        raise TemplateSyntaxError(
            f"placeholder at column {column} has no attribute name", column
        )
    if not ATTRIBUTE_NAME.fullmatch(attribute):
        raise TemplateSyntaxError(
            f"invalid attribute name '{attribute}' at column {column + 1}: a name "
            "starts with a letter or '_' and has only letters, digits, '_', '.' "
            "and '-'",
            column + 1,
        )
    if not colon:
        return Placeholder(attribute, column=column)
    spec_column = column + 1 + len(attribute) + 1
    if integer := _INTEGER_FORMAT.fullmatch(spec):
        return Placeholder(attribute, spec, column, width=int(integer[1]))
    if decimal := _DECIMAL_FORMAT.fullmatch(spec):
        return Placeholder(
            attribute, spec, column, width=int(decimal[1]), places=int(decimal[2])
        )
    raise TemplateSyntaxError(
        f"unsupported format '{spec}' at column {spec_column}: {SUPPORTED_FORMATS}",
        spec_column,
    )


def _value(values: Mapping[str, Any], attribute: str) -> Any:
    # A None value is an attribute the item does not have: DynamoDB keys
    # cannot be NULL.
    value = values.get(attribute)
    if value is None:
        raise MissingValueError(attribute)
    return value


def _render_text(placeholder: Placeholder, value: Any) -> str:
    if placeholder.width is not None:
        return _render_formatted(placeholder, value)
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, Decimal)):
        return number_text(_to_decimal(value, placeholder))
    if isinstance(value, dt.datetime):
        return iso_timestamp(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(
        f"cannot place a {type(value).__name__} value of '{placeholder.attribute}' "
        "in a string key"
    )


def _render_formatted(placeholder: Placeholder, value: Any) -> str:
    if type(value) is int and placeholder.is_integer_format:
        return format(value, placeholder.format_spec)  # the common case, made quick
    number = _to_decimal(value, placeholder)
    if placeholder.is_decimal_format:
        return format(number, placeholder.format_spec)
    if number != number.to_integral_value():
        raise ValueError(
            f"value {value!r} of '{placeholder.attribute}' is not an integer, "
            f"which {placeholder.source} needs"
        )
    return format(int(number), placeholder.format_spec)


def _to_decimal(value: Any, placeholder: Placeholder) -> Decimal:
    if isinstance(value, bool):
        raise TypeError(f"value of '{placeholder.attribute}' is a bool, not a number")
    try:
        # repr of a float is its shortest round-tripping text: 0.1, not
        # 0.1000000000000000055511151231257827.
        number = Decimal(repr(value) if isinstance(value, float) else value)
    except (InvalidOperation, TypeError, ValueError):
        raise ValueError(
            f"value {value!r} of '{placeholder.attribute}' is not a number"
        ) from None
    if not number.is_finite():
        raise ValueError(f"value {value!r} of '{placeholder.attribute}' is not finite")
    return number


def _to_bytes(value: Any, placeholder: Placeholder) -> bytes:
    if isinstance(value, str):
        value = value.encode()
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"value of '{placeholder.attribute}' is a {type(value).__name__}, not bytes"
        )
    if not value:
        raise ValueError(f"value of '{placeholder.attribute}' is empty")
    return bytes(value)


def number_text(number: Decimal) -> str:
    """A number as a key shows it: no exponent and no trailing zeros, so
    Decimal("1E+1") is "10" and Decimal("1.50") is "1.5"."""
    text = format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def iso_timestamp(value: dt.datetime) -> str:
    """ISO-8601 in UTC with a Z, the form that sorts in time order as text.

    A naive datetime is taken to be UTC already.
    """
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    # isoformat adds ".ffffff" only when there are microseconds.
    return value.isoformat() + "Z"
