"""Sample data generators inferred from the values an entity's items hold
(dates, timestamps, UUIDs, e-mail addresses, numbered names, choices,
number ranges), and the words that describe one.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
_UUID = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I
)
_ULID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
NUMBERED_TEXT = re.compile(r"^([A-Za-z][A-Za-z_-]*?)(\d+)$")
# An enumeration: at most this many values, each seen twice on average;
# a constant or an enumeration needs this many items to go by.
_CHOICES = 12
_EVIDENCE = 5
# Generators that repeat values: not for an attribute in a table key, whose
# items would then share a key.
REPEATING_GENERATORS = ("constant", "choice", "bool")


def inferred_generator(values: list[dict[str, Any]], kind: str) -> Any:
    """The generator whose values look like these (DynamoDB JSON values of
    one attribute), so that generated items read like the imported ones:
    ISO dates and times over their range, UUIDs, ULIDs, emails, numbered
    ids with their prefix and width, enumerations with their weights,
    number ranges and true/false shares. None when nothing fits (the
    attribute keeps the default its name and type imply)."""
    if not values:
        return None
    if kind == "BOOL":
        flags = [f for v in values if isinstance(f := v.get("BOOL"), bool)]
        if len(flags) == len(values):
            return {"bool": round(sum(flags) / len(flags), 2)}
        return None
    if kind == "N":
        return _number_generator([v.get("N") for v in values])
    if kind != "S":
        return None
    texts = [t for v in values if isinstance(t := v.get("S"), str) and t]
    if len(texts) != len(values):
        return None
    distinct = set(texts)
    if len(distinct) == 1 and len(texts) >= _EVIDENCE:
        return {"constant": texts[0]}
    if all(_DATE.match(t) for t in distinct):
        return {"date": {"from": min(distinct), "to": max(distinct)}}
    if all(_TIMESTAMP.match(t) for t in distinct):
        return {
            "timestamp": {
                "from": min(distinct)[:19] + "Z",
                "to": max(distinct)[:19] + "Z",
            }
        }
    if all(_UUID.match(t) for t in distinct):
        return "uuid"
    if all(_ULID.match(t) for t in distinct):
        return "ulid"
    if len(distinct) <= _CHOICES and len(texts) >= max(2 * len(distinct), _EVIDENCE):
        counts: dict[str, int] = {}
        for text in texts:
            counts[text] = counts.get(text, 0) + 1
        return {"choice": dict(sorted(counts.items()))}
    if all(_EMAIL.match(t) for t in distinct):
        return {"faker": "email"}
    numbered = [m for t in distinct if (m := NUMBERED_TEXT.match(t))]
    # One value shows no numbering.
    if len(distinct) > 1 and len(numbered) == len(distinct):
        shapes = {(m.group(1), len(m.group(2))) for m in numbered}
        if len(shapes) == 1:
            prefix, width = shapes.pop()
            return {
                "faker": {
                    "provider": "bothify",
                    "text": prefix + "#" * width,
                }
            }
    return None


def generator_words(generator: Any) -> str:
    """An inferred generator in a few words, for the import's notes."""
    if isinstance(generator, str):
        return {"uuid": "UUIDs", "ulid": "ULIDs"}.get(generator, generator)
    kind, spec = next(iter(generator.items()))
    if kind in ("date", "timestamp"):
        return f"{kind}s from {spec['from']} to {spec['to']}"
    if kind in ("int", "decimal"):
        return f"numbers from {spec['min']} to {spec['max']}"
    if kind == "choice":
        return f"one of {len(spec)} values, each as often as seen"
    if kind == "constant":
        return f"always {spec!r}"
    if kind == "bool":
        return f"true {spec:.0%} of the time"
    if kind == "faker" and spec == "email":
        return "email addresses"
    if kind == "faker" and isinstance(spec, dict) and "text" in spec:
        return f"ids like {spec['text']}"
    return kind


def _number_generator(texts: list[Any]) -> Any:
    try:
        numbers = [Decimal(str(t)) for t in texts]
    except InvalidOperation:
        return None
    if not numbers or any(not n.is_finite() for n in numbers):
        return None
    low, high = min(numbers), max(numbers)
    if all(n == n.to_integral_value() for n in numbers):
        if len(set(numbers)) == 1 and len(numbers) >= _EVIDENCE:
            return {"constant": int(low)}
        return {"int": {"min": int(low), "max": int(high)}}
    # A finite number's exponent is an int (the letters mark NaN and infinity).
    exponents = [n.normalize().as_tuple().exponent for n in numbers]
    places = max(-e for e in exponents if isinstance(e, int))
    return {
        "decimal": {
            "min": float(low),
            "max": float(high),
            "places": min(max(places, 0), 38),
        }
    }
