"""What a pattern should return, computed from the sample data alone (not
through keys and indexes), and the verdict on what it did return."""

from __future__ import annotations

import contextlib
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from modeler.design import model as d
from modeler.keys import parse_template

# A read that examines more than this many items per item it returns is a
# modeling bug (DOMAIN.md: a filter that discards most of what it reads).
MAX_READ_RATIO = 10
# How many missing or extra items a verdict names.
NAMED_ITEMS = 5


@dataclass(frozen=True)
class Verdict:
    """Whether a run kept the pattern's promise, and why not. `broken` are
    the reasons about the items themselves (another entity's, missing, in
    the wrong order), as opposed to how they were read (pages, a filter
    that reads many times what it returns); `missing` and `extra` name the
    first items concerned by their keys."""

    passed: bool
    reasons: tuple[str, ...] = ()
    broken: tuple[str, ...] = ()
    missing: tuple[Any, ...] = ()
    extra: tuple[Any, ...] = ()

    @property
    def summary(self) -> str:
        return "passes" if self.passed else "; ".join(self.reasons)


def _typed(value: str, like: Any) -> Any:
    """A rendered predicate value converted to the type of the item's value."""
    if isinstance(like, Decimal) and not isinstance(value, Decimal):
        try:
            return Decimal(str(value))
        except InvalidOperation:
            return value
    if isinstance(like, bool) and isinstance(value, str):
        return value.lower() == "true"
    return value


def _render(template: str, params: Mapping[str, Any]) -> Any:
    parsed = parse_template(template)
    if parsed.is_single_placeholder and parsed.placeholders[0].format_spec == "":
        return params[parsed.placeholders[0].attribute]
    return parsed.render(params)


def _compare(left: Any, right: Any) -> int | None:
    if isinstance(left, Decimal) != isinstance(right, Decimal):
        return None
    try:
        return (left > right) - (left < right)
    except TypeError:
        return None


def predicate_holds(
    predicate: d.Predicate, item: Mapping[str, Any], params: Mapping[str, Any]
) -> bool:
    return _holds(predicate, [_render(v, params) for v in predicate.values], item)


def _holds(
    predicate: d.Predicate, rendered: list[Any], item: Mapping[str, Any]
) -> bool:
    """Whether the predicate, its values rendered with the parameters,
    holds for the item."""
    present = predicate.attribute in item
    if predicate.operator == "exists":
        return present
    if predicate.operator == "not_exists":
        return not present
    if not present:
        return predicate.operator == "!="
    actual = item[predicate.attribute]
    values = [_typed(v, actual) for v in rendered]
    op = predicate.operator
    if op == "in":
        return actual in values
    if op == "begins_with":
        return isinstance(actual, str) and actual.startswith(str(values[0]))
    if op == "between":
        low, high = (_compare(actual, values[0]), _compare(actual, values[1]))
        return low is not None and high is not None and low >= 0 and high <= 0
    if op == "=":
        return actual == values[0]
    if op == "!=":
        return actual != values[0]
    order = _compare(actual, values[0])
    if order is None:
        return False
    return {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0}[op]


class Lookups:
    """Positions of a data set's items by entity and by an attribute's
    value, each built once (the value indexes on first use) and kept for
    the data set's life: what expectations and parameter searches look up
    instead of passing over every item for every candidate."""

    def __init__(self, items: Sequence[Mapping[str, Any]], entities: Sequence[str]):
        self.items = items
        self.entities = entities
        # Arrays: 4 bytes a position, where a list of int objects took 36.
        self.by_entity: dict[str, array[int]] = {}
        by_entity = self.by_entity
        for position, entity in enumerate(entities):
            positions = by_entity.get(entity)
            if positions is None:
                positions = by_entity[entity] = array("I")
            positions.append(position)
        # By (attribute, one entity or none for all): value -> positions;
        # several entities' are merged from each one's.
        self._by_value: dict[
            tuple[str, tuple[str, ...]], dict[Any, int | array[int]]
        ] = {}

    def of_entities(self, names: Iterable[str]) -> Sequence[int]:
        """Positions of the items of these entities, in data set order, not
        to be changed."""
        lists = [self.by_entity.get(name, ()) for name in dict.fromkeys(names)]
        if len(lists) == 1:
            return lists[0]
        return sorted(p for positions in lists for p in positions)

    def with_value(
        self, attribute: str, value: Any, entities: Iterable[str] = ()
    ) -> Sequence[int]:
        """Positions of the items (of these entities; of any without) whose
        attribute equals `value`, in data set order, not to be changed. A
        value that cannot be hashed, a list or a map, is never indexed: the
        caller checks those items itself."""
        scope = tuple(sorted(set(entities)))
        if len(scope) > 1:
            # Each entity's lookup, merged: an order's line items and the
            # order itself are found without indexing them all again.
            found = [self.with_value(attribute, value, (name,)) for name in scope]
            return sorted(position for positions in found for position in positions)
        index = self._by_value.get((attribute, scope))
        if index is None:
            index = self._index(attribute, scope)
            self._by_value[(attribute, scope)] = index
        try:
            positions = index.get(value)
        except TypeError:
            return []
        if positions is None:
            return []
        return [positions] if isinstance(positions, int) else positions

    def _index(
        self, attribute: str, scope: tuple[str, ...]
    ) -> dict[Any, int | array[int]]:
        """Value -> the position of the one item (of the entity in `scope`, of
        any when empty) holding it, or an array of the positions of several.

        Neither an int nor an array is a container that the cyclic garbage
        collector tracks: an index of hundreds of thousands of values (each
        order's id) gives it nothing to count or walk, where a list per value
        set it off to walk the whole data set again (the larger part
        of a first search after a load)."""
        index: dict[Any, int | array[int]] = {}
        items = self.items
        positions = self.of_entities(scope) if scope else range(len(items))
        for position in positions:
            found = items[position].get(attribute)
            if found is None:
                continue
            try:
                first = index.setdefault(found, position)
            except TypeError:
                continue
            if first == position:
                continue  # the first item with this value
            if isinstance(first, int):
                index[found] = array("q", (first, position))
            else:
                first.append(position)
        return index

    def candidates(
        self, expects: d.Expectation, rendered: list[list[Any]]
    ) -> list[int] | None:
        """The positions an expectation can select, in data set order: the
        items holding the value of its most selective `=` predicate, else
        None (every item of its entities is a candidate)."""
        best: list[int] | None = None
        for predicate, values in zip(expects.where, rendered, strict=True):
            if predicate.operator != "=" or not _indexable(values[0]):
                continue
            lists = [
                self.with_value(predicate.attribute, variant, expects.entities)
                for variant in _variants(values[0])
            ]
            # Each list is part of the predicate's selection: one as long as
            # the best so far says the predicate is not more selective,
            # without gathering its (perhaps tens of thousands of) items.
            if best is not None and max(map(len, lists)) >= len(best):
                continue
            found = set().union(*lists)
            if best is None or len(found) < len(best):
                best = sorted(found)
        return best


def _indexable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _variants(value: Any) -> list[Any]:
    """The stored values a rendered `=` value can equal (`_typed` turns it
    into the item's type): itself, the number it reads as, the boolean."""
    variants = [value]
    if not isinstance(value, Decimal):
        with contextlib.suppress(InvalidOperation, ValueError):
            variants.append(Decimal(str(value)))
    if isinstance(value, str):
        variants.append(value.lower() == "true")
    return variants


def expected_items(
    expects: d.Expectation,
    params: Mapping[str, Any],
    items: Sequence[Mapping[str, Any]],
    entities: Sequence[str],
    lookups: Lookups | None = None,
) -> list[int]:
    """Positions of the dataset items the expectation describes, in the
    expected order. With `lookups` (built once for the data set) only the
    items that can match are examined; the result is the same."""
    try:
        rendered = [[_render(v, params) for v in p.values] for p in expects.where]
    except KeyError:
        rendered = None  # a parameter is missing: each item says so below
    wanted = set(expects.entities)
    if rendered is None:
        matches = [
            i
            for i, (item, entity) in enumerate(zip(items, entities, strict=True))
            if entity in wanted
            and all(predicate_holds(p, item, params) for p in expects.where)
        ]
    else:
        positions: Sequence[int] | None
        if lookups is not None:
            positions = lookups.candidates(expects, rendered)
            if positions is None:
                positions = lookups.of_entities(expects.entities)
        else:
            positions = range(len(items))
        checks = list(zip(expects.where, rendered, strict=True))
        matches = [
            i
            for i in positions
            if entities[i] in wanted
            and all(_holds(p, values, items[i]) for p, values in checks)
        ]
    for name in reversed(expects.order_by):
        descending = name.startswith("-")
        attribute = name.lstrip("-+")

        def by_attribute(i: int, a: str = attribute) -> Any:
            return _sort_key(items[i].get(a))

        matches.sort(key=by_attribute, reverse=descending)
    return matches


def order_places(
    expects: d.Expectation, items: Sequence[Mapping[str, Any]], positions: list[int]
) -> list[int]:
    """Each expected position's place in the order (`expected_items`'
    result), the same for items whose ordering attributes are equal."""
    names = [name.lstrip("-+") for name in expects.order_by]
    places: list[int] = []
    previous: tuple | None = None
    for i in positions:
        values = tuple(_sort_key(items[i].get(name)) for name in names)
        if places and values == previous:
            places.append(places[-1])
        else:
            places.append(len(places))
        previous = values
    return places


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, "")
    if isinstance(value, Decimal):
        return (1, value)
    if isinstance(value, bytes):
        return (2, value)
    return (3, str(value))


def judge_read(
    *,
    expects: d.Expectation | None,
    limit: int | None,
    expected: Sequence[Any],
    returned: Sequence[Any],
    entity_of: Mapping[Any, str | None],
    pages: int,
    scanned: int,
    ties: Mapping[Any, int] | None = None,
) -> Verdict:
    """Compare the keys a read returned with the keys it should return.
    `ties` numbers each expected key's place in the order, equal for keys
    whose ordering attributes are equal: their order among themselves is
    any (a Query returns them by the rest of the sort key)."""
    reasons: list[str] = []
    if pages > 1:
        reasons.append(f"needs {pages} pages (requests) to return everything")
    if expects is None:
        return Verdict(not reasons, tuple(reasons))
    wanted = list(expected)
    if limit is not None and expects.order_by:
        kept = wanted[:limit]
        if ties is not None and kept and len(wanted) > limit:
            # The last place may be shared past the limit: any of those
            # items may be the one returned.
            last = ties[kept[-1]]
            returned_set = set(returned)
            level = [k for k in wanted[limit:] if ties[k] == last]
            swapped = [k for k in level if k in returned_set]
            dropped = [k for k in reversed(kept) if ties[k] == last]
            dropped = [k for k in dropped if k not in returned_set][: len(swapped)]
            kept = [k for k in kept if k not in dropped] + swapped
        wanted = kept
    wanted_set, returned_set = set(wanted), set(returned)
    broken: list[str] = []
    extra = [k for k in returned if k not in wanted_set]
    missing: list[Any] = []
    if extra:
        others = _describe_entities(entity_of.get(k) for k in extra)
        broken.append(
            f"returns {len(extra)} item{'s' * (len(extra) != 1)} the "
            f"pattern does not promise ({others})"
        )
    if limit is not None and not expects.order_by:
        short = min(limit, len(wanted)) - len(returned_set & wanted_set)
        if short > 0:
            broken.append(f"{short} expected item{'s' * (short != 1)} missing")
    else:
        missing = [k for k in wanted if k not in returned_set]
        if missing:
            broken.append(
                f"{len(missing)} of {len(wanted)} expected item"
                f"{'s' * (len(wanted) != 1)} missing"
            )
    if expects.order_by and not extra:
        in_order = [k for k in returned if k in wanted_set]
        if ties is not None:
            places = [ties[k] for k in in_order]
            wrong = places != sorted(places)
        else:
            wrong = in_order != [k for k in wanted if k in returned_set]
        if wrong:
            order = ", ".join(
                f"{n[1:]} descending" if n.startswith("-") else n
                for n in expects.order_by
            )
            broken.append(f"wrong order: expected by {order}")
    reasons += broken
    if returned and scanned > MAX_READ_RATIO * len(returned):
        reasons.append(
            f"reads {scanned / len(returned):.0f} times what it returns "
            f"({scanned} items read for {len(returned)})"
        )
    elif not returned and scanned > MAX_READ_RATIO:
        reasons.append(f"reads {scanned} items and returns none")
    return Verdict(
        not reasons,
        tuple(reasons),
        tuple(broken),
        tuple(missing[:NAMED_ITEMS]),
        tuple(extra[:NAMED_ITEMS]),
    )


def _describe_entities(entities: Iterable[str | None]) -> str:
    counts: dict[str, int] = {}
    for entity in entities:
        name = entity or "unrecognised"
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items())
