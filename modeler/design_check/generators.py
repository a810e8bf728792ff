"""Sample data generators: each kind's parameters, references to other
entities and how many values one attribute can hold."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.design.parameters import placeholders
from modeler.design_check.common import ancestors, is_number, parse_iso

# Sample values: the elements one value of an attribute holds (lists and maps
# nested in it multiplied), and the digits of a sequence.
MAX_VALUES_PER_ATTRIBUTE = 1_000
MAX_SEQUENCE_WIDTH = 100
_REFERENCE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\.(.+)$")

GENERATOR_KINDS = (
    "faker",
    "choice",
    "int",
    "decimal",
    "date",
    "timestamp",
    "uuid",
    "ulid",
    "sequence",
    "constant",
    "ref",
    "pick",
    "template",
    "list",
    "map",
    "bool",
    "expires",
)
# The longest time to live an `expires` generator takes (days).
MAX_EXPIRES_DAYS = 36_500


def _faker_arguments_problem(provider: str, arguments: dict) -> str:
    # Imported here: the sample data package loads Faker, which a design
    # without Faker generators (or an export) does not need.
    from modeler.sampledata.faker_arguments import faker_arguments_problem

    return faker_arguments_problem(provider, arguments)


@cache
def _faker_providers() -> frozenset[str]:
    from faker import Faker
    from faker.generator import Generator

    fake = Faker("en_US")
    # Faker's own machinery (seed, unique, add_provider...) is not a provider.
    machinery = set(dir(type(fake))) | set(dir(Generator))
    return frozenset(
        n for n in dir(fake) if not n.startswith("_") and n not in machinery
    )


def generator_problems(
    design: d.Design, entity: d.Entity, attr: d.Attribute
) -> list[Finding]:
    """What is wrong with `attr`'s generator in `entity` (the generator
    picker checks a generator before offering it)."""
    if attr.generator is None:
        return []
    return list(check_generator(design, entity, attr, attr.generator, "generator"))


@dataclass(frozen=True)
class _Generated:
    """A generator where it is checked: `repeat` is how many of its values
    one value of the attribute holds (lists and maps multiply it)."""

    design: d.Design
    entity: d.Entity
    attr: d.Attribute
    generator: d.Generator
    path: str
    repeat: int

    @property
    def params(self) -> Mapping[str, Any]:
        return self.generator.params

    @property
    def value(self) -> Any:
        """The generator's one argument (`{bool: 0.3}`), if written so."""
        return self.params.get("value")


def check_generator(
    design: d.Design,
    entity: d.Entity,
    attr: d.Attribute,
    generator: d.Generator,
    path: str,
    repeat: int = 1,
) -> Iterator[Finding]:
    """`repeat`: how many values of this generator one value of the
    attribute holds (lists and maps multiply it)."""
    kind = generator.kind
    if kind not in GENERATOR_KINDS:
        yield error(
            "generator-unknown",
            path,
            f"unknown generator '{kind}'; expected one of: "
            + ", ".join(GENERATOR_KINDS),
        )
        return
    checker = _CHECKERS.get(kind)
    if checker is not None:
        yield from checker(_Generated(design, entity, attr, generator, path, repeat))


def _faker(at: _Generated) -> Iterator[Finding]:
    params = at.params
    provider = at.value if at.value is not None else params.get("provider")
    if not isinstance(provider, str) or provider not in _faker_providers():
        yield error(
            "faker-provider-unknown",
            at.path,
            f"'{provider}' is not a Faker provider (such as "
            "name, email, company, address, phone_number, sentence)",
        )
    elif problem := _faker_arguments_problem(
        provider,
        {
            k: d.thaw(v)
            for k, v in params.items()
            if k not in ("provider", "value", "unique")
        },
    ):
        yield error("faker-arguments", at.path, problem)
    if not isinstance(params.get("unique", False), bool):
        yield error("unique-not-boolean", at.path, "unique is true or false")


def _choice(at: _Generated) -> Iterator[Finding]:
    params = at.params
    options = at.value if at.value is not None and len(params) == 1 else dict(params)
    if isinstance(options, tuple):
        weights = [1] * len(options)
    elif isinstance(options, Mapping):
        weights = list(options.values())
    else:
        yield error(
            "choice-malformed",
            at.path,
            "choice takes a list of options, [A, B], or options "
            "with weights, {A: 1, B: 4}",
        )
        return
    if not options:
        yield error("choice-empty", at.path, "choice needs at least one option")
    elif any(
        isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0 for w in weights
    ) or not any(weights):
        yield error(
            "choice-weights",
            at.path,
            "choice weights are numbers of 0 or more, at least "
            "one above 0: {OPEN: 1, SHIPPED: 4}",
        )


def _number(at: _Generated) -> Iterator[Finding]:
    """`int` and `decimal`."""
    kind, params = at.generator.kind, at.params
    low, high = params.get("min"), params.get("max")
    if not is_number(low) or not is_number(high) or low > high:
        yield error(
            "number-bounds", at.path, f"{kind} needs numbers min and max, min <= max"
        )
    places = params.get("places", 2)
    if kind == "decimal" and (not isinstance(places, int) or not 0 <= places <= 38):
        yield error("decimal-places", at.path, "places is a whole number from 0 to 38")


def _time(at: _Generated) -> Iterator[Finding]:
    """`date` and `timestamp`."""
    bounds = [at.params.get("from"), at.params.get("to")]
    start, end = (parse_iso(b) for b in bounds)
    if start is None or end is None:
        yield error(
            "date-bounds",
            at.path,
            f"{at.generator.kind} needs ISO-8601 'from' and 'to', such as "
            "{from: 2025-01-01, to: 2026-06-30}",
        )
    elif start > end:
        yield error(
            "date-from-after-to",
            at.path,
            f"'from' ({bounds[0]}) is after 'to' ({bounds[1]})",
        )


def _sequence(at: _Generated) -> Iterator[Finding]:
    params = at.params
    for name in ("start", "width"):
        if name in params and not (isinstance(params[name], int) and params[name] >= 0):
            yield error(
                "sequence-parameter",
                at.path,
                f"sequence {name} is a whole number of 0 or more",
            )
    width = params.get("width", 0)
    if isinstance(width, int) and width > MAX_SEQUENCE_WIDTH:
        yield error(
            "sequence-width", at.path, f"sequence width is at most {MAX_SEQUENCE_WIDTH}"
        )


def _ref(at: _Generated) -> Iterator[Finding]:
    return _check_reference(at.design, at.entity, at.value, at.path)


def _pick(at: _Generated) -> Iterator[Finding]:
    spec = at.value if at.value is not None else at.params
    yield from _check_pick(at.design, spec, at.path)
    partner = spec.get("with") if hasattr(spec, "get") else None
    if partner is not None:
        yield from _check_pick_partner(at, spec, partner)


def _check_pick_partner(
    at: _Generated, spec: Mapping, partner: object
) -> Iterator[Finding]:
    """`{pick: {from: Store.region, with: storeNo}}`: drawn from the item
    the pick of `storeNo` (another attribute of the entity, picking from
    the same entity without `with`) drew, so the columns of a foreign key
    name one row."""
    other = at.entity.attribute(partner) if isinstance(partner, str) else None
    generator = other.generator if other is not None else None
    value = generator.params.get("value") if generator is not None else None
    source = value if isinstance(value, str) else None
    if isinstance(value, Mapping) and "with" not in value:
        source = value.get("from")
    elif generator is not None and value is None and "with" not in generator.params:
        source = generator.params.get("from")
    own = str(spec.get("from", "")).partition(".")[0]
    if (
        other is None
        or partner == at.attr.name
        or generator is None
        or generator.kind != "pick"
        or not isinstance(source, str)
        or source.partition(".")[0] != own
    ):
        yield error(
            "pick-with",
            at.path,
            f"with names another attribute of {at.entity.name} picked from "
            f"{own or 'the same entity'} without `with` (such as {{pick: "
            f"{own or 'Store'}.storeId}}); found {partner!r}",
        )


def _template(at: _Generated) -> Iterator[Finding]:
    if not isinstance(at.value, str):
        yield error(
            "template-generator-empty",
            at.path,
            "template needs text such as '{firstName}.{lastName}@example.com'",
        )
        return
    for name in placeholders(at.value):
        if name == at.attr.name or at.entity.attribute(name) is None:
            yield error(
                "template-generator-unknown-attribute",
                at.path,
                f"the template uses '{name}', which is not "
                f"another attribute of {at.entity.name}",
            )


def _expires(at: _Generated) -> Iterator[Finding]:
    return _check_expires(at.entity, at.attr, at.params, at.path)


def _list(at: _Generated) -> Iterator[Finding]:
    params, path = at.params, at.path
    inner = _inner_generator(params.get("of"))
    low, high = params.get("min", 0), params.get("max", 5)
    # A list that grows past what is worth generating (a trail of 2,400
    # GPS points) states how many elements the sample makes of it
    # (`sample`); the review sizes it at `max` and `per_day`.
    sample, per_day = params.get("sample"), params.get("per_day")
    made = high if sample is None else sample
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high):
        yield error(
            "list-bounds", path, "list min and max are whole numbers, min <= max"
        )
    elif sample is not None and not (
        isinstance(sample, int) and not isinstance(sample, bool) and 1 <= sample <= high
    ):
        yield error(
            "list-sample",
            f"{path}.sample",
            f"list sample is how many of its up to {high:,} elements the sample "
            "data makes: a whole number from 1 to max",
        )
    elif per_day is not None and not (
        isinstance(per_day, (int, float))
        and not isinstance(per_day, bool)
        and per_day > 0
    ):
        yield error(
            "list-per-day",
            f"{path}.per_day",
            "list per_day is how many elements one item gains a day: a number above 0",
        )
    elif at.repeat * made > MAX_VALUES_PER_ATTRIBUTE:
        yield error(
            "too-many-values",
            path,
            f"a value of {at.attr.name} could hold {at.repeat * made:,} elements; "
            f"at most {MAX_VALUES_PER_ATTRIBUTE:,}"
            + (
                "; a list that grows longer states how many the sample makes "
                "(sample: 50) and the review sizes it at max"
                if sample is None and at.repeat == 1
                else ""
            ),
        )
    elif inner is None:
        yield error(
            "list-without-of", path, "list needs 'of': the generator of its elements"
        )
    else:
        yield from check_generator(
            at.design, at.entity, at.attr, inner, f"{path}.of", at.repeat * max(made, 1)
        )


def _map(at: _Generated) -> Iterator[Finding]:
    path = at.path
    fields = at.params.get("fields")
    if not isinstance(fields, Mapping) or not fields:
        yield error(
            "map-without-fields", path, "map needs 'fields': a generator for each field"
        )
        return
    if at.repeat * len(fields) > MAX_VALUES_PER_ATTRIBUTE:
        yield error(
            "too-many-values",
            path,
            f"a value of {at.attr.name} could hold {at.repeat * len(fields):,} "
            f"elements; at most {MAX_VALUES_PER_ATTRIBUTE:,}",
        )
        return
    for name, spec in fields.items():
        inner = _inner_generator(spec)
        if inner is None:
            yield error(
                "map-field-not-generator",
                f"{path}.fields.{name}",
                "expected a generator",
            )
        else:
            yield from check_generator(
                at.design, at.entity, at.attr, inner, f"{path}.fields.{name}", at.repeat
            )


def _bool(at: _Generated) -> Iterator[Finding]:
    share = at.value if at.value is not None else at.params.get("true", 0.5)
    if not is_number(share) or not 0 <= share <= 1:
        yield error(
            "bool-share", at.path, "bool takes the share of true values, from 0 to 1"
        )


# The checks of each kind of generator; uuid, ulid and constant take any
# value.
_CHECKERS: dict[str, Callable[[_Generated], Iterator[Finding]]] = {
    "faker": _faker,
    "choice": _choice,
    "int": _number,
    "decimal": _number,
    "date": _time,
    "timestamp": _time,
    "sequence": _sequence,
    "ref": _ref,
    "pick": _pick,
    "template": _template,
    "expires": _expires,
    "list": _list,
    "map": _map,
    "bool": _bool,
}


def _inner_generator(spec: object) -> d.Generator | None:
    if isinstance(spec, str):
        return d.Generator(spec)
    if isinstance(spec, Mapping) and len(spec) == 1:
        kind, params = next(iter(spec.items()))
        if not isinstance(params, Mapping):
            params = d.freeze({"value": params})
        return d.Generator(kind, params)
    return None


def _check_reference(
    design: d.Design, entity: d.Entity, target: object, path: str
) -> Iterator[Finding]:
    match = _REFERENCE.match(target) if isinstance(target, str) else None
    if not match:
        yield error(
            "ref-malformed",
            path,
            "ref names a parent attribute as Entity.attribute, such "
            "as Customer.customerId",
        )
        return
    parent_name, attr_name = match.groups()
    parent = design.entity(parent_name)
    if parent is None:
        yield error("ref-unknown-entity", path, f"unknown entity '{parent_name}'")
    elif parent.attribute(attr_name) is None:
        yield error(
            "ref-unknown-attribute",
            path,
            f"{parent_name} has no attribute '{attr_name}'",
        )
    elif parent_name not in ancestors(design, entity):
        yield error(
            "ref-not-parent",
            path,
            f"{parent_name} is not a parent of {entity.name}: set "
            f"sample.per to {parent_name} (or to one of its children)",
        )


def _check_pick(design: d.Design, spec: object, path: str) -> Iterator[Finding]:
    """`{pick: Entity.attribute}` or `{pick: {from: Entity.attribute, s: 1.1}}`:
    the value of a random item of another entity, Zipf-skewed when `s` is set
    (a few celebrities followed by many)."""
    source = spec.get("from") if hasattr(spec, "get") else spec
    match = _REFERENCE.match(source) if isinstance(source, str) else None
    if not match:
        yield error(
            "pick-malformed",
            path,
            "pick names an attribute as Entity.attribute, such as User.userId",
        )
        return
    target = design.entity(match.group(1))
    if target is None:
        yield error("pick-unknown-entity", path, f"unknown entity '{match.group(1)}'")
    elif target.attribute(match.group(2)) is None:
        yield error(
            "pick-unknown-attribute",
            path,
            f"{target.name} has no attribute '{match.group(2)}'",
        )
    skew = spec.get("s", 0) if hasattr(spec, "get") else 0
    if not is_number(skew) or skew < 0:
        yield error(
            "zipf-exponent",
            path,
            "s is the Zipf exponent: a number of 0 (no skew) or more",
        )


def _check_expires(
    entity: d.Entity, attr: d.Attribute, params: Mapping, path: str
) -> Iterator[Finding]:
    """`{expires: {from: readingAt, days: 30}}`: epoch seconds a number of
    days after another attribute's ISO-8601 time."""
    source, days = params.get("from"), params.get("days")
    other = entity.attribute(source) if isinstance(source, str) else None
    if other is None or source == attr.name:
        yield error(
            "expires-without-from",
            path,
            "expires needs 'from': another attribute of "
            f"{entity.name} holding an ISO-8601 date or time, such as "
            "{from: createdAt, days: 30}",
        )
    elif other.type != "S":
        yield error(
            "expires-from-type",
            path,
            f"expires counts from an ISO-8601 text; '{source}' is {other.type}",
        )
    if not is_number(days) or not 0 < days <= MAX_EXPIRES_DAYS:
        yield error(
            "expires-days",
            path,
            f"expires needs 'days' after it: a number above 0, at most "
            f"{MAX_EXPIRES_DAYS:,}",
        )
    if attr.type != "N":
        yield error(
            "expires-not-number",
            path,
            f"expires makes epoch seconds, a number: {attr.name} is {attr.type}, "
            "and DynamoDB's TTL reads only numbers",
        )
