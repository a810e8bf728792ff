"""Value generators: each attribute's `Generator` compiled into a function
that draws one value for one item.

A compiled generator is called as `draw(rng, context)`: `rng` is the
entity's `random.Random`, and `context` gives what some generators look at
(the item built so far, its ancestors, its position among its siblings, the
items of other entities). Values are the engine's native values (str,
Decimal, bool, None, list, dict, sets), converted to the attribute's
declared type at the end.

The vocabulary is the one `modeler.design_check` accepts and
docs/design-format.md documents.
"""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import string
import uuid
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from random import Random
from typing import Any

from modeler.design import model as d
from modeler.keys import MissingValueError, TemplateSyntaxError, parse_template
from modeler.sampledata.conversions import CONVERTERS, NATIVE_TYPES, OMIT, to_day
from modeler.sampledata.conversions import to_moment as _moment
from modeler.sampledata.defaults import (
    declared_length,
    default_generator,
    sized_by_length,
)
from modeler.sampledata.errors import SampleDataError
from modeler.sampledata.faker_pools import FakerValueTooLarge, faker_pool

# Faker is slow (tens of microseconds a value): after this many fresh values
# of one provider, later items draw from the ones already made.
FAKER_POOL = 2000
ULID_FROM = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
ULID_TO = dt.datetime(2026, 12, 31, tzinfo=dt.UTC)
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# The two Crockford base32 digits of every 10 bits.
_CROCKFORD_PAIRS = [high + low for high in _CROCKFORD for low in _CROCKFORD]


def _as_made(value: Any, where: str) -> Any:
    """A Faker value as Faker made it (a pool's draw before its typing)."""
    return value


@dataclass
class Context:
    """What a generator may look at while one item is made."""

    item: dict[str, Any] = field(default_factory=dict)
    # The item each `pick` of this item drew from, by attribute: a pick
    # `with` another draws its attribute from the same item.
    picked: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    ancestors: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    position: int = 0  # among the siblings (children of one parent), from 0
    serial: int = 0  # among all items of the entity, from 0


Draw = Callable[[Random, Context], Any]


class Populations:
    """The items of the entities generated so far, for `pick`, and the keys
    made so far whose templates other entities write too (see `key_writer`:
    an order's "ORDER#{orderId}" is its line items' key, one string)."""

    def __init__(self) -> None:
        self.items: dict[str, list[dict[str, Any]]] = {}
        self.keys: dict[tuple[str, str], dict[str, str]] = {}
        # The numbers made so far by the generators that share theirs, by
        # exponent: an order's total of 25.50 and a line item's price of
        # 25.50, drawn apart, are one object.
        self.numbers: dict[int, dict[Decimal, Decimal]] = {}

    def shared_numbers(
        self, exponent: int, make: Callable[[int], Decimal]
    ) -> Callable[[int], Decimal]:
        """`make`, whose numbers all have this exponent, giving the number
        made before (by any generator) where there is one: equal numbers of
        one exponent are written alike."""
        made = self.numbers.setdefault(exponent, {})
        shared = made.setdefault

        def number(n: int) -> Decimal:
            value = make(n)
            return shared(value, value)

        return number

    def values(self, entity: str, attribute: str) -> list[Any]:
        return [i[attribute] for i in self.items.get(entity, ()) if attribute in i]


class Compiler:
    """Compiles the generators of one entity. Faker instances are seeded per
    attribute and provider, by the names the entity and the attribute are
    drawn under, so that adding an attribute elsewhere in the design or
    renaming one does not change this one's values."""

    def __init__(
        self, design: d.Design, entity: d.Entity, seed: int, populations: Populations
    ) -> None:
        self.design = design
        self.entity = entity
        self.seed = seed
        self.populations = populations
        # The attribute being compiled: its place in messages, and the
        # place its seeds are made from.
        self._place, self._seed_place, self._attribute = "", "", ""
        # The draws of pooled Faker providers made so far, each with how to
        # make it again giving its attribute's type (see `attribute`).
        self._pooled: dict[Draw, Callable[[type, Callable[[Any, str], Any]], Draw]] = {}
        self.primary_key_attributes = {
            name
            for key in design.table.key_attributes
            if key.name in entity.keys
            for name in parse_template(entity.keys[key.name].template).attributes
        }

    def attribute(self, attr: d.Attribute) -> Draw:
        """A draw giving the attribute's value in its declared type (or OMIT,
        for a set that drew no member)."""
        draw, native, convert, where = self.attribute_parts(attr)
        if native is not None and self._makes(attr) is native:
            return draw  # nothing to convert: one call less for every item
        generator = attr.generator
        if generator is not None and generator.kind == "ref":
            return self._ref(
                generator.params, generator.params.get("value"), where, native, convert
            )
        pooled = self._pooled.get(draw)
        if pooled is not None and native is not None:
            # The pool's draw made again with the check below in it: one
            # call a value rather than two (the product name of every line
            # item). The first draw is never called: the pool is read from
            # its start as it would have been.
            return pooled(native, convert)

        def typed(rng: Random, context: Context) -> Any:
            value = draw(rng, context)
            if type(value) is native or value is OMIT:  # OMIT: a pick `with`
                return value
            return convert(value, where)

        return typed

    def attribute_parts(
        self, attr: d.Attribute
    ) -> tuple[Draw, type | None, Callable[[Any, str], Any], str]:
        """The attribute's draw, the Python type of values that need no
        conversion, the conversion for the others and the attribute's place:
        what `attribute` combines, for callers that check the type inline."""
        where = f"{self.entity.name}.{attr.name}"
        self._place, self._attribute = where, attr.name
        self._seed_place = f"{self.entity.draw_name}.{attr.draw_name}"
        sized = self._declared_size(attr)
        if sized is not None:
            return sized, NATIVE_TYPES.get(attr.type), CONVERTERS[attr.type], where
        generator = attr.generator or default_generator(attr)
        if (
            generator.kind == "faker"
            and "unique" not in generator.params
            and attr.name in self.primary_key_attributes
        ):
            # Two items with one primary key would be one item.
            generator = d.Generator(
                "faker", d.freeze({**d.thaw(generator.params), "unique": True})
            )
        draw = self.compile(generator, where)
        return draw, NATIVE_TYPES.get(attr.type), CONVERTERS[attr.type], where

    def _makes(self, attr: d.Attribute) -> type | None:
        """The one Python type of every value the attribute's draw gives, when
        the generator alone says it; None when it may give several."""
        if sized_by_length(attr):
            return bytes if attr.type == "B" else str
        generator = attr.generator or default_generator(attr)
        kind, params = generator.kind, generator.params
        if kind in _MAKES:
            return _MAKES[kind]
        if kind == "sequence":
            return str if int(params.get("width", 0)) else Decimal
        value = params.get("value")
        if kind == "faker":
            provider = value if value is not None else params.get("provider")
            kwargs = {k: v for k, v in params.items() if k not in _NOT_ARGUMENTS}
            return str if _pattern_draw(str(provider), kwargs) is not None else None
        if kind == "constant":
            return type(d.thaw(value if value is not None else params))
        if kind == "choice":
            kinds = {type(c) for c in _choices(params)[0]}
            return kinds.pop() if len(kinds) == 1 else None
        return None

    def _declared_size(self, attr: d.Attribute) -> Draw | None:
        """A text or binary attribute with no generator and a `max_length`
        of a kilobyte or more (a document, an image) is made at that length:
        its size, not its content, is what costs, and an invented word would
        cost it as a few bytes. One value serves every item. Where several
        such attributes would pass 400 KB together, each is scaled down so
        the item still fits."""
        length = declared_length(self.entity, attr)
        if length is None:
            return None
        if attr.type == "B":
            value: Any = bytes(range(256)) * (length // 256) + bytes(length % 256)
        else:
            value = ("lorem ipsum " * (length // 12 + 1))[:length]
        return lambda rng, context: value

    def compile(self, generator: d.Generator, where: str) -> Draw:
        kind, params = generator.kind, generator.params
        value = params.get("value")
        builder = getattr(self, f"_{kind}", None)
        if builder is None:
            raise SampleDataError(f"{where}: unknown generator '{kind}'")
        return builder(params, value, where)

    # --- one method per generator kind ----------------------------------

    def _faker(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        provider = value if value is not None else params.get("provider")
        kwargs = {k: d.thaw(v) for k, v in params.items() if k not in _NOT_ARGUMENTS}
        pattern = _pattern_draw(str(provider), kwargs)
        if pattern is not None:
            draw = pattern
        else:
            draw = self._faker_pool(str(provider), kwargs, where)
        if not params.get("unique", str(provider) in UNIQUE_PROVIDERS):
            return draw
        return _unique(draw, where, rework=pattern is None)

    def _faker_pool(self, provider: str, kwargs: dict[str, Any], where: str) -> Draw:
        seeded = self._seed_place + where.removeprefix(self._place)
        pool = faker_pool(f"{self.seed}:{seeded}:{provider}", provider, kwargs)
        if pool is None:
            raise SampleDataError(f"{where}: '{provider}' is not a Faker provider")
        values = pool.values

        def pooled(native: type | None, convert: Callable[[Any, str], Any]) -> Draw:
            """A draw of the pool's values: the first `FAKER_POOL` in turn,
            then any of them; in the attribute's type, as `attribute`'s
            check gives them, unless `native` is None (as Faker made them)."""
            # How many values were drawn in turn so far, in a list that a
            # caller doing the later draws itself reads (see pooled_parts).
            made = [0]

            def draw(rng: Random, context: Context) -> Any:
                if made[0] < FAKER_POOL:
                    value = pool.value(made[0])
                    if isinstance(value, FakerValueTooLarge):
                        raise SampleDataError(
                            f"{where}: faker {provider} {value.problem}"
                        )
                    made[0] += 1
                else:
                    value = values[int(rng.random() * FAKER_POOL)]
                if native is None or type(value) is native or value is OMIT:
                    return value
                return convert(value, where)

            _pooled_draws[draw] = (made, values, native, convert, where)
            return draw

        draw = pooled(None, _as_made)
        self._pooled[draw] = pooled
        return draw

    def _choice(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        # In one order whatever the design's: reordering the options changes
        # no draw.
        options = sorted(zip(*_choices(params), strict=True), key=repr)
        choices = [choice for choice, _ in options]
        weights = [weight for _, weight in options]
        if not choices or not any(weights):
            raise SampleDataError(f"{where}: choice needs an option of weight above 0")
        cumulative = list(itertools.accumulate(weights))
        total = cumulative[-1]
        return lambda rng, context: choices[
            bisect.bisect_right(cumulative, rng.random() * total)
        ]

    def _int(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        low, high = int(params["min"]), int(params["max"])
        return self._numbers(0, lambda n: Decimal(low + n), high - low + 1)

    def _decimal(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        places = int(params.get("places", 2))
        scale = 10**places
        low = int(Decimal(str(params["min"])) * scale)
        high = int(Decimal(str(params["max"])) * scale)
        return self._numbers(
            -places, lambda n: Decimal(low + n).scaleb(-places), high - low + 1
        )

    def _numbers(
        self, exponent: int, make: Callable[[int], Decimal], size: int
    ) -> Draw:
        """`_evenly(make, size)`, the numbers (of this exponent) shared with
        the other generators' where the draws share theirs."""
        if size > SHARED_DRAWS:
            return _evenly(make, size)
        return _evenly(self.populations.shared_numbers(exponent, make), size)

    def _date(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        start, end = to_day(params.get("from"), where), to_day(params.get("to"), where)
        span = (end - start).days
        return _evenly(lambda n: (start + dt.timedelta(days=n)).isoformat(), span + 1)

    def _timestamp(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        start = _moment(params.get("from"), where)
        span = int((_moment(params.get("to"), where) - start).total_seconds())
        # The moment's day and time of day written apart, each made once:
        # strftime for every item was a tenth of the time an order took.
        # Whole seconds are added to the start, so its fraction never shows.
        since_midnight = start.hour * 3_600 + start.minute * 60 + start.second
        first_day = start.date()
        day = _shared(
            lambda n: (first_day + dt.timedelta(days=n)).strftime("%Y-%m-%dT"),
            (since_midnight + span) // 86_400 + 1,
        )
        times = _TIMES_OF_DAY
        # As `_between(rng, 0, span)`: years 1 to 9999 span fewer than 2**52
        # seconds.
        seconds = span + 1

        def draw(rng: Random, context: Context) -> str:
            days, second = divmod(since_midnight + int(rng.random() * seconds), 86_400)
            time = times[second]
            if time is None:
                time = times[second] = _time_of_day(second)
            return day(days) + time

        return draw

    def _uuid(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        return lambda rng, context: str(uuid.UUID(int=rng.getrandbits(128), version=4))

    def _ulid(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        low = int(ULID_FROM.timestamp() * 1000)
        millis = int(ULID_TO.timestamp() * 1000) - low + 1
        pairs = _CROCKFORD_PAIRS

        def draw(rng: Random, context: Context) -> str:
            # The time as `_between(rng, low, high)` draws it, then 80 bits.
            time = low + int(rng.random() * millis)
            number = (time << 80) | rng.getrandbits(80)
            # The 26 base32 digits of the number (130 bits; the ULID's 128
            # and two zeros above them), as Crockford writes them: two digits
            # a lookup, written out and joined as one tuple. A table of three
            # digits (2 MB) took fewer lookups but more time: its entries
            # are read at random, and most of them miss the cache; a list
            # comprehension over the shifts cost a frame and a list a ULID.
            return "".join(
                (
                    pairs[number >> 120],
                    pairs[number >> 110 & 1023],
                    pairs[number >> 100 & 1023],
                    pairs[number >> 90 & 1023],
                    pairs[number >> 80 & 1023],
                    pairs[number >> 70 & 1023],
                    pairs[number >> 60 & 1023],
                    pairs[number >> 50 & 1023],
                    pairs[number >> 40 & 1023],
                    pairs[number >> 30 & 1023],
                    pairs[number >> 20 & 1023],
                    pairs[number >> 10 & 1023],
                    pairs[number & 1023],
                )
            )

        return draw

    def _sequence(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        start = int(params.get("start", 1))
        width = int(params.get("width", 0))
        within_parent = bool(self.entity.sample.per)

        def make(n: int) -> Any:
            return f"{start + n:0{width}d}" if width else Decimal(start + n)

        # Siblings count from the start again: their numbers repeat.
        shared = _shared(make, SHARED_VALUES) if within_parent else make

        def draw(rng: Random, context: Context) -> Any:
            if within_parent:
                n = context.position
                return shared(n) if n < SHARED_VALUES else make(n)
            return make(context.serial)

        if within_parent:
            _position_draws[draw] = (_shared_tables[shared], make)
        return draw

    def _constant(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        constant = d.thaw(value if value is not None else params)
        return lambda rng, context: constant

    def _ref(
        self,
        params: Mapping[str, Any],
        value: Any,
        where: str,
        native: type | None = None,
        convert: Callable[[Any, str], Any] | None = None,
    ) -> Draw:
        """The parent's value; given `native` and `convert`, in the
        attribute's type (`attribute`'s check, made here: a ref is drawn for
        most children, and one call is quicker than two)."""
        parent, _, attribute = str(value).partition(".")

        def draw(rng: Random, context: Context) -> Any:
            source = context.ancestors.get(parent)
            if source is None:
                raise SampleDataError(
                    f"{where}: ref {value} needs {parent} to be a "
                    f"parent (sample.per) of {self.entity.name}"
                )
            found = source.get(attribute)
            if convert is None or type(found) is native:
                return found
            return convert(found, where)

        _ref_draws[draw] = (parent, attribute, native, convert, where)
        return draw

    def _pick(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        partner = (value if isinstance(value, Mapping) else params).get("with")
        source = value if value is not None else params.get("from")
        if isinstance(source, Mapping):
            skew = float(source.get("s", 0))
            source = source.get("from")
        else:
            skew = float(params.get("s", 0))
        entity, _, attribute = str(source).partition(".")
        if partner:
            return _picked_with(str(partner), attribute)
        name = self._attribute
        chosen: list[Mapping[str, Any]] = []  # the items holding the attribute
        cumulative: list[float] = []
        # Siblings (the children of one parent) pick distinct items, as a
        # user follows another once and an order lists a product once.
        taken: set[int] = set()
        family: list[Any] = [None]
        among_siblings = bool(self.entity.sample.per)

        def choose(rng: Random) -> int:
            if not skew:
                return int(rng.random() * len(chosen))
            return bisect.bisect_right(cumulative, rng.random() * cumulative[-1])

        def draw(rng: Random, context: Context) -> Any:
            if not chosen:
                chosen.extend(
                    i for i in self.populations.items.get(entity, ()) if attribute in i
                )
                if not chosen:
                    raise SampleDataError(
                        f"{where}: pick {source} finds no {entity} "
                        "items; give it a count above 0"
                    )
                cumulative.extend(
                    itertools.accumulate(
                        1 / (rank**skew) for rank in range(1, len(chosen) + 1)
                    )
                )
            if not among_siblings:
                found = chosen[choose(rng)]
                context.picked[name] = found
                return found[attribute]
            if context.ancestors is not family[0]:  # the first of its siblings
                family[0] = context.ancestors
                taken.clear()
            position = choose(rng)
            for _ in range(PICK_TRIES):
                if position not in taken:
                    break
                position = choose(rng)
            else:
                # A skewed pick whose few likely items are taken: the next
                # free one, in the order of likelihood.
                free = (p for p in range(len(chosen)) if p not in taken)
                position = next(free, position)
            taken.add(position)
            context.picked[name] = chosen[position]
            return chosen[position][attribute]

        return draw

    def _template(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        template = parse_template(str(value))
        return lambda rng, context: template.render(context.item)

    def _expires(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        """Epoch seconds `days` after the item's `from` time: a TTL that
        keeps each item for a stated time."""
        source = str(params.get("from"))
        seconds = int(Decimal(str(params.get("days"))) * 86_400)

        def draw(rng: Random, context: Context) -> Decimal:
            moment = context.item.get(source)
            if moment is None:
                raise MissingValueError(source)
            return Decimal(int(_moment(moment, where).timestamp()) + seconds)

        return draw

    def _list(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        inner = self.compile(_inner(params.get("of"), where), f"{where}[]")
        low, high = int(params.get("min", 0)), int(params.get("max", 5))
        if "sample" not in params:
            return lambda rng, context: [
                inner(rng, context) for _ in range(_between(rng, low, high))
            ]
        # A list that grows long: its length drawn as any list's, then only
        # `sample` elements made (the review sizes it at `max`).
        made = int(params["sample"])
        return lambda rng, context: [
            inner(rng, context) for _ in range(min(_between(rng, low, high), made))
        ]

    def _map(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        specs = params.get("fields") or {}
        names = list(specs)
        # Drawn in the order of their names, given in the design's: moving
        # a field changes no value.
        fields = [
            (name, self.compile(_inner(specs[name], where), f"{where}.{name}"))
            for name in sorted(names)
        ]

        def draw(rng: Random, context: Context) -> dict[str, Any]:
            drawn = {name: field(rng, context) for name, field in fields}
            return {name: drawn[name] for name in names}

        return draw

    def _bool(self, params: Mapping[str, Any], value: Any, where: str) -> Draw:
        share = float(value if value is not None else params.get("true", 0.5))
        return lambda rng, context: rng.random() < share


def _choices(params: Mapping[str, Any]) -> tuple[list[Any], list[float]]:
    """A choice's options and their weights."""
    value = params.get("value")
    options = value if value is not None and len(params) == 1 else params
    if isinstance(options, Mapping):
        return list(options.keys()), [float(w) for w in options.values()]
    return list(options), [1.0] * len(options)


# A faker generator's parameters that are not the provider's arguments.
_NOT_ARGUMENTS = ("provider", "value", "unique")
# The type of every value of these generators.
_MAKES: dict[str, type] = {
    "ulid": str,
    "uuid": str,
    "date": str,
    "timestamp": str,
    "template": str,
    "int": Decimal,
    "decimal": Decimal,
    "expires": Decimal,
    "bool": bool,
    "list": list,
    "map": dict,
}


def _evenly(make: Callable[[int], Any], size: int) -> Draw:
    """A draw giving make(n) for n drawn evenly from 0 to size - 1, as
    `_between` draws it, each value shared as `_shared` shares it; the
    table is read here rather than through two more calls, as the numbers,
    days and prices of every item are drawn so."""
    if size - 1 > 1 << 52:
        return lambda rng, context: make(rng.randint(0, size - 1))
    if size > SHARED_DRAWS:
        return lambda rng, context: make(int(rng.random() * size))
    table: list[Any] = [None] * size

    def draw(rng: Random, context: Context) -> Any:
        n = int(rng.random() * size)
        value = table[n]
        if value is None:
            value = table[n] = make(n)
        return value

    _even_draws[draw] = (table, size, make)
    return draw


# The table, size and `make` of each draw `_evenly` made with a table, for
# an item maker that does a draw's work in its own code (see
# `even_parts`); gone with the draw.
_even_draws: weakref.WeakKeyDictionary[
    Draw, tuple[list[Any], int, Callable[[int], Any]]
] = weakref.WeakKeyDictionary()


# The parent, attribute, type and conversion of each draw `_ref` made, for
# an item maker that does a draw's work in its own code (see `ref_parts`).
_ref_draws: weakref.WeakKeyDictionary[
    Draw, tuple[str, str, type | None, Callable[[Any, str], Any] | None, str]
] = weakref.WeakKeyDictionary()


def ref_parts(
    draw: Draw,
) -> tuple[str, str, type | None, Callable[[Any, str], Any] | None, str] | None:
    """The parent entity, its attribute, the Python type needing no
    conversion, the conversion (None: none) and the attribute's place of a
    draw of `ref`, which a caller may do itself as the draw does it when
    the parent is there (and call the draw, which says what is wrong, when
    it is not), or None for any other draw."""
    return _ref_draws.get(draw)


# The count of values drawn in turn, the values, the type needing no
# conversion (None: none converted), the conversion and the attribute's
# place of each draw of a Faker pool.
_pooled_draws: weakref.WeakKeyDictionary[
    Draw,
    tuple[list[int], list[Any], type | None, Callable[[Any, str], Any], str],
] = weakref.WeakKeyDictionary()


def pooled_parts(
    draw: Draw,
) -> tuple[list[int], list[Any], type | None, Callable[[Any, str], Any], str] | None:
    """The parts of a draw of a Faker pool (see `_pooled_draws`): once its
    count reaches FAKER_POOL, a draw is `values[int(rng.random() *
    FAKER_POOL)]`, converted as the draw converts it, which a caller may
    do itself (calling the draw until then); None for any other draw."""
    return _pooled_draws.get(draw)


def even_parts(draw: Draw) -> tuple[list[Any], int, Callable[[int], Any]] | None:
    """The table, size and `make` of a draw of `_evenly` with a table, which
    a caller may do itself as the draw does it (the same random number
    drawn, the same value made or shared), or None for any other draw."""
    return _even_draws.get(draw)


def _shared(make: Callable[[int], Any], size: int) -> Callable[[int], Any]:
    """make(n) for n from 0 to size - 1, each value made once and then shared:
    a million items hold one object per distinct quantity or day rather than
    one each. Past SHARED_VALUES distinct values, each draw makes its own."""
    if size > SHARED_VALUES:
        return make
    table: list[Any] = [None] * size

    def shared(n: int) -> Any:
        value = table[n]
        if value is None:
            value = table[n] = make(n)
        return value

    _shared_tables[shared] = table
    return shared


# The table of each function `_shared` made (for `_sequence`).
_shared_tables: weakref.WeakKeyDictionary[Callable[[int], Any], list[Any]] = (
    weakref.WeakKeyDictionary()
)
# The table (SHARED_VALUES long) and `make` of each draw of a sequence
# counted among siblings (see `position_parts`).
_position_draws: weakref.WeakKeyDictionary[
    Draw, tuple[list[Any], Callable[[int], Any]]
] = weakref.WeakKeyDictionary()


def position_parts(draw: Draw) -> tuple[list[Any], Callable[[int], Any]] | None:
    """The table and `make` of a draw of `sequence` counted among siblings,
    which gives make(position) (shared through the table below
    SHARED_VALUES), for a caller doing that itself; None for any other."""
    return _position_draws.get(draw)


# "HH:MM:SSZ" for each second of a day, made when first drawn.
_TIMES_OF_DAY: list[str | None] = [None] * 86_400


def forget_times_of_day() -> None:
    """Drop the times of day made so far, for a process that generates no
    more (70,000 strings, 4 MB, after a million items of order-management;
    none of them is an item's value: a timestamp is a string of its own)."""
    _TIMES_OF_DAY[:] = [None] * 86_400


def _time_of_day(second: int) -> str:
    minutes, second = divmod(second, 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}:{second:02d}Z"


def _between(rng: Random, low: int, high: int) -> int:
    """A whole number from low to high inclusive: faster than randint, and
    as even while the range fits a float's 53 bits."""
    if high - low > 1 << 52:
        return rng.randint(low, high)
    return low + int(rng.random() * (high - low + 1))


# Faker's placeholder providers, made here from the entity's own random
# generator: as fast as a choice, and never repeating a pool. Each placeholder
# character maps to what it stands for ("" makes it optional, as in Faker).
_DIGITS = "0123456789"
_PLACEHOLDERS: dict[str, dict[str, tuple[str, ...]]] = {
    "numerify": {
        "#": tuple(_DIGITS),
        "%": tuple(_DIGITS[1:]),
        "$": tuple(_DIGITS[2:]),
        "!": ("",) * 10 + tuple(_DIGITS),
        "@": ("",) * 9 + tuple(_DIGITS[1:]),
    },
    "lexify": {"?": tuple(string.ascii_letters)},
    "hexify": {"^": tuple("0123456789abcdef")},
}
_PLACEHOLDERS["bothify"] = {**_PLACEHOLDERS["numerify"], **_PLACEHOLDERS["lexify"]}
_PATTERN_ARGUMENTS = {
    "numerify": {"text"},
    "lexify": {"text", "letters"},
    "bothify": {"text", "letters"},
    "hexify": {"text", "upper"},
}
_PATTERN_DEFAULTS = {
    "numerify": "###",
    "lexify": "????",
    "bothify": "## ??",
    "hexify": "^^^^",
}
# Providers whose values identify someone: unique unless the design says
# `unique: false`.
UNIQUE_PROVIDERS = frozenset(
    {"email", "safe_email", "free_email", "company_email", "ascii_email", "user_name"}
)
# How many fresh draws a unique generator tries before giving up.
UNIQUE_TRIES = 100
# How many draws a pick tries for an item its siblings have not picked.
PICK_TRIES = 20
# Generators of at most this many distinct values share each value's object.
SHARED_VALUES = 65_536
# Even draws (`_evenly`) of at most this many values share each value's
# object: a table of at most 2 MB while the items are made, for the
# 199,500 totals of order-management's orders (242,576 orders in a million
# items hold 140,000 Decimals rather than one each) or the 100,000 ids of
# "PRD-#####".
SHARED_DRAWS = 262_144


def _pattern_draw(provider: str, kwargs: Mapping[str, Any]) -> Draw | None:
    """A draw for bothify, numerify, lexify and hexify, or None for other
    providers (and for arguments these do not take)."""
    placeholders = _PLACEHOLDERS.get(provider)
    if placeholders is None or set(kwargs) - _PATTERN_ARGUMENTS[provider]:
        return None
    text = str(kwargs.get("text", _PATTERN_DEFAULTS[provider]))
    options = dict(placeholders)
    if "?" in options:
        options["?"] = tuple(str(kwargs.get("letters", string.ascii_letters)))
    if "^" in options and kwargs.get("upper"):
        options["^"] = tuple("".join(options["^"]).upper())
    # Runs of '#' become one zero-padded number; other placeholders one
    # choice each; literal text stays as it is.
    parts: list[str | tuple[str, ...] | int] = []
    for char, run in itertools.groupby(text):
        width = len(list(run))
        if char == "#" and char in options:
            parts.append(width)
        elif char in options:
            parts.extend([options[char]] * width)
        else:
            parts.append(char * width)

    runs = [part for part in parts if type(part) is int]
    if len(runs) == len(parts) - sum(type(p) is str for p in parts) == 1:
        # Text around one run of digits ("PRD-#####"), the usual pattern:
        # the number drawn as `_between` draws it, written as `draw` writes it.
        size = 10 ** runs[0]
        form = "".join(
            f"%0{p}d" if type(p) is int else str(p).replace("%", "%%") for p in parts
        )
        if size - 1 <= 1 << 52:
            # Each text made once: "PRD-#####" has 100,000 of them, and a
            # million items drew 729,020 product ids.
            return _evenly(lambda n: form % n, size)

    def draw(rng: Random, context: Context) -> str:
        out = []
        for part in parts:
            if type(part) is str:
                out.append(part)
            elif type(part) is int:
                out.append(f"{_between(rng, 0, 10**part - 1):0{part}d}")
            else:
                # `type(part) is` (exact, and quicker than isinstance) leaves
                # the tuple, which the checker does not infer.
                out.append(part[int(rng.random() * len(part))])  # type: ignore[index,arg-type]  # a tuple here
        return "".join(out)

    return draw


def _unique(draw: Draw, where: str, *, rework: bool) -> Draw:
    """Each value once. A placeholder pattern draws again on a repeat; a
    pooled Faker provider (`rework`), whose values run out, makes a repeat
    distinct by numbering it (`ann.lee+2@example.org`, `Ann Lee 2`)."""
    seen: set[Any] = set()
    numbers: dict[Any, int] = {}  # the next number to try, per repeated value
    # Past its pool a pooled provider only repeats: no use drawing long.
    tries = 3 if rework else UNIQUE_TRIES

    def unique(rng: Random, context: Context) -> Any:
        value = draw(rng, context)
        for _ in range(tries - 1):
            if value not in seen:
                break
            value = draw(rng, context)
        if value in seen and rework and isinstance(value, str):
            number = numbers.get(value, 2)
            while _numbered(value, number) in seen:
                number += 1
            numbers[value] = number + 1
            value = _numbered(value, number)
        if value in seen:
            raise SampleDataError(
                f"{where}: made {len(seen):,} distinct values and cannot make "
                "more; widen the pattern, or set unique: false"
            )
        seen.add(value)
        return value

    return unique


def _numbered(value: str, number: int) -> str:
    if "@" in value:
        local, _, domain = value.rpartition("@")
        return f"{local}+{number}@{domain}"
    return f"{value} {number}" if " " in value else f"{value}{number}"


def _inner(spec: Any, where: str) -> d.Generator:
    if isinstance(spec, str):
        return d.Generator(spec)
    if isinstance(spec, Mapping) and len(spec) == 1:
        kind, params = next(iter(spec.items()))
        if not isinstance(params, Mapping):
            params = d.freeze({"value": params})
        return d.Generator(str(kind), params)
    raise SampleDataError(f"{where}: expected a generator")


def reads(generator: d.Generator | None) -> list[str]:
    """The item's other attributes a generator makes its value from: a
    template's placeholders, an expiry's time."""
    if generator is None:
        return []
    if generator.kind == "template":
        try:
            return list(parse_template(str(generator.params.get("value"))).attributes)
        except TemplateSyntaxError:
            return []  # a template being typed: the check says what is wrong
    if generator.kind == "expires":
        return [str(generator.params.get("from", ""))]
    return []


def _picked_with(partner: str, attribute: str) -> Draw:
    """A pick `with` another attribute: the attribute of the item that
    attribute's pick drew, so a foreign key of several columns names one
    row of its table; none where this item has no partner value."""

    def draw(rng: Random, context: Context) -> Any:
        found = context.picked.get(partner)
        if found is None or partner not in context.item:
            return OMIT
        return found.get(attribute, OMIT)

    return draw
