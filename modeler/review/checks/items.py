"""Items and their keys: attributes that grow an item toward 400 KB, keys
that sort wrongly (unpadded numbers, dates that are not ISO-8601), keys
longer than DynamoDB allows, and keys of two entities that can collide."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal

from modeler.design import model as d
from modeler.design.findings import Finding, finding
from modeler.engine.capacity import STRONG, read_units, write_units
from modeler.engine.size import MAX_ITEM_SIZE, attribute_size, value_size
from modeler.keys import TemplateSyntaxError, check_key_collisions, parse_template
from modeler.keys.checks import KeyRole, key_roles, numbers_of_one_length
from modeler.keys.lengths import max_key_bytes, placeholder_max_bytes
from modeler.keys.template import Literal, Template, number_text
from modeler.review.checks.causes import (
    date_shape,
    unsorted_date_fix,
    unsorted_date_sentence,
)
from modeler.review.checks.common import (
    action_count,
    attribute_location,
    entity_location,
    plural,
)
from modeler.review.evidence import Evidence

_COLLECTIONS = ("L", "M", "SS", "NS", "BS")
# A value this large (bytes, at most) is a blob or a document in the item.
LARGE_VALUE = 64 * 1024
_SETS = ("SS", "NS", "BS")
# Text values read to learn how many bytes a generator's characters take.
SAMPLED_TEXTS = 2_000
# Text that sorts in time order: ISO-8601 dates and times, clock times,
# and plain digits (epoch values).
_SORTS_AS_TIME = re.compile(
    r"^(?:\d{4}-\d{2}(?:-\d{2})?(?:[T ].*)?|\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?|\d+)$"
)
# camelCase or snake_case names of dates and times: createdAt, ship_date.
_DATE_NAME = re.compile(
    r"(?:At|_at|On|_on|Date|_date|Day|_day|Time|_time)$|^(?:date|day|time)$"
)


def check_items(evidence: Evidence) -> Iterator[Finding]:
    design = evidence.design
    grown = list(_grown_lists(evidence))
    # A list sized past 400 KB is that one finding, not also "can grow"
    # and "large value" findings about the same attribute.
    sized = {f.location.name for f in grown}
    yield from (
        f for f in _growing_collections(evidence) if f.location.name not in sized
    )
    yield from _declared_size(evidence)
    yield from grown
    yield from (f for f in _large_values(evidence) if f.location.name not in sized)
    roles = key_roles(design.table)
    for entity in design.entities:
        for key_name, key in entity.keys.items():
            role = roles.get(key_name)
            if role is None:
                continue
            try:
                template = parse_template(key.template)
            except TemplateSyntaxError:
                continue
            if role.type == "S" and role.is_sort:
                yield from _unpadded_numbers(evidence, entity, key_name, template)
                yield from _non_iso_dates(evidence, entity, key_name, template)
            if role.type != "N":
                yield from _key_length(entity, key_name, template, role)
    yield from _collisions(design)


def _bounded(attribute: d.Attribute) -> bool:
    """Whether a collection attribute has a fixed most number of members:
    a map of named fields, or a set of choices."""
    generator = attribute.generator
    if generator is None:
        return False
    if attribute.type == "M":
        return generator.kind == "map"
    if attribute.type in _SETS and generator.kind == "list":
        inner = generator.params.get("of")
        return isinstance(inner, Mapping) and "choice" in inner
    return False


def _growing_collections(evidence: Evidence) -> Iterator[Finding]:
    design = evidence.design
    updated: dict[tuple[str, str], list[str]] = {}
    grown: dict[tuple[str, str], list[str]] = {}
    for pattern in design.access_patterns:
        for action in pattern.actions:
            for how, name, _ in action.updates():
                if how in ("set", "set_if_absent"):
                    writers = updated
                elif how in ("append", "add"):
                    writers = grown
                else:
                    continue
                writers.setdefault((action.entity, name), []).append(pattern.name)
    for entity in design.entities:
        positions = evidence.positions((entity.name,))
        for attribute in entity.attributes:
            if attribute.type not in _COLLECTIONS or _bounded(attribute):
                continue
            setters = updated.get((entity.name, attribute.name), [])
            growers = grown.get((entity.name, attribute.name), [])
            if attribute.generator is None and not setters and not growers:
                # Without a stated generator its members are the tool's own
                # invention (an imported map of fixed shape, say): nothing
                # says it grows.
                continue
            members = []
            rest = []
            for position in positions:
                item = evidence.items[position]
                value = item.get(attribute.name)
                if value is None:
                    continue
                members.append((attribute_size(attribute.name, value), len(value)))
                rest.append(
                    evidence.sizes[position] - attribute_size(attribute.name, value)
                )
            facts = []
            figures: dict[str, float] = {}
            count = sum(n for _, n in members)
            if count:
                per_member = sum(s for s, _ in members) / count
                room = MAX_ITEM_SIZE - max(rest)
                fits = int(room / per_member)
                facts.append(
                    f"sample members average {per_member:,.0f} bytes, so about "
                    f"{fits:,} fit in the 400 KB item"
                )
                figures = {"member_bytes": per_member, "members_that_fit": fits}
            if growers:
                facts.append(
                    f"added to by {', '.join(repr(w) for w in growers)}, "
                    f"{_rate(design, growers)} in all"
                )
            if setters:
                facts.append(f"rewritten by {', '.join(repr(w) for w in setters)}")
            facts.append(f"type {attribute.type} with no bound on its members")
            yield finding(
                "item-growth",
                "warning" if setters or growers else "advice",
                "Item can grow toward 400 KB",
                attribute_location(entity.name, attribute.name),
                why="A list, map or set that keeps growing inside one item makes "
                "every read and write of the item cost more, and writes fail "
                "once the item reaches 400 KB.",
                evidence=facts,
                fix=f"Store each member of {attribute.name} as its own item in "
                f"the {entity.name}'s item collection (same partition key, a "
                "sort key prefix per member), or cap the collection and keep "
                "only the latest members.",
                figures=figures,
            )


def _rate(design: d.Design, names: list[str]) -> str:
    """The average rate of the named patterns together."""
    rps = sum(p.traffic.rps for p in design.access_patterns if p.name in set(names))
    return f"{rps:,.4g} writes/s"


def _declared_size(evidence: Evidence) -> Iterator[Finding]:
    """An entity whose declared maximum lengths add up past 400 KB. A B
    attribute's max_length is bytes; an S attribute's is characters, each
    counted at the bytes its generator's text takes in UTF-8 (the most per
    character in the sample; a byte without one): 4 bytes for every
    character of ASCII names would refuse designs DynamoDB stores."""
    for entity in evidence.design.entities:
        total = 0
        wide: list[str] = []
        for attribute in entity.attributes:
            if attribute.max_length is None or attribute.type not in ("S", "B"):
                continue
            per_character = 1.0
            if attribute.type == "S":
                per_character = _bytes_per_character(evidence, entity, attribute)
                if per_character > 1:
                    wide.append(
                        f"{attribute.name} takes up to {per_character:.2g} bytes "
                        "a character in the sample"
                    )
            total += len(attribute.name.encode()) + math.ceil(
                attribute.max_length * per_character
            )
        if total > MAX_ITEM_SIZE:
            yield finding(
                "item-size",
                "error",
                "Item can pass 400 KB",
                entity_location(entity.name),
                why="DynamoDB refuses to write an item over 400 KB.",
                evidence=[
                    f"the max_length of its S and B attributes allows "
                    f"{total:,} bytes (B in bytes, S in characters at the bytes "
                    "its text takes in UTF-8)",
                    *wide,
                ],
                fix="Keep large values in S3 and store their object keys, or "
                "split the item into several items of one collection.",
                figures={"bytes": total},
            )


def _grown_lists(evidence: Evidence) -> Iterator[Finding]:
    """A list whose generator makes only a `sample` of its up to `max`
    elements (a trail of GPS points): sized at `max` elements of the size
    its sampled elements take, it can pass 400 KB; `per_day` tells the day
    an item gets there."""
    for entity in evidence.design.entities:
        for attribute in entity.attributes:
            generator = attribute.generator
            if (
                attribute.type != "L"
                or generator is None
                or generator.kind != "list"
                or "sample" not in generator.params
            ):
                continue
            most = int(generator.params.get("max", 5))
            per_day = generator.params.get("per_day")
            members = 0
            member_bytes = 0
            rest = 0
            for position in evidence.positions((entity.name,)):
                value = evidence.items[position].get(attribute.name)
                if not value:
                    continue
                size = attribute_size(attribute.name, value)
                # A list takes its name, 3 bytes, and each element 1 more
                # than its value.
                members += len(value)
                member_bytes += size - len(attribute.name.encode()) - 3
                rest = max(rest, evidence.sizes[position] - size)
            if not members:
                continue
            per_member = member_bytes / members
            overhead = rest + len(attribute.name.encode()) + 3
            full = overhead + most * per_member
            if full <= MAX_ITEM_SIZE:
                continue
            fits = int((MAX_ITEM_SIZE - overhead) / per_member)
            facts = [
                f"{attribute.name} holds up to {most:,} elements (max) of about "
                f"{per_member:,.0f} bytes each in the sample: an item of "
                f"{full / 1024:,.0f} KB",
                f"400 KB is reached at about {fits:,} elements",
            ]
            figures: dict[str, float] = {"bytes": full, "elements_that_fit": fits}
            reached = ""
            appended = ""
            if not (isinstance(per_day, (int, float)) and per_day > 0):
                per_day, appended = _appended_per_day(
                    evidence, entity.name, attribute.name
                )
            if per_day:
                day = math.ceil(fits / per_day)
                figures["day"] = day
                figures["per_day"] = per_day
                reached = f", on day {day:,} at {per_day:,.0f} elements a day"
                facts.append(
                    f"at {per_day:,.0f} elements a day{appended} it gets there "
                    f"on day {day:,}"
                )
            yield finding(
                "item-size",
                "error",
                "Item can pass 400 KB",
                attribute_location(entity.name, attribute.name),
                why=f"{attribute.name} keeps growing inside one item and reaches "
                f"400 KB at about {fits:,} elements{reached}; DynamoDB refuses "
                "every write of the item from then on, and each read and write "
                "before that costs by the item's size.",
                evidence=facts,
                fix=f"Store each element of {attribute.name} as its own item in "
                f"the {entity.name}'s item collection (same partition key, a sort "
                "key that orders them, such as the element's time), or cap the "
                "list and move older elements out (to S3, or to items of their "
                "own).",
                figures=figures,
            )


def _appended_per_day(
    evidence: Evidence, entity: str, attribute: str
) -> tuple[float, str]:
    """The elements a day one item's list gains from the patterns that
    append to it (each append taken as one element), at their average
    traffic spread over the entity's items in the sample, and the words
    that say so; 0 without such a pattern."""
    items = len(evidence.positions((entity,)))
    rate = 0.0
    names = []
    for pattern in evidence.design.access_patterns:
        for action in pattern.actions:
            if action.entity == entity and any(
                name == attribute for name, _ in action.append
            ):
                rate += pattern.traffic.rps * action_count(pattern, action)
                names.append(f"'{pattern.name}'")
    if not rate or not items:
        return 0.0, ""
    per_day = rate * 86_400 / items
    return per_day, (
        f" ({' and '.join(names)}: {rate:,g} appends a second over the "
        f"{items:,} {entity} items of the sample, one element each)"
    )


def _bytes_per_character(
    evidence: Evidence, entity: d.Entity, attribute: d.Attribute
) -> float:
    """The most UTF-8 bytes a character of the attribute's sample text
    takes (in its first SAMPLED_TEXTS values: a generator writes alike
    throughout); 1 without samples (the text made at a max_length is
    ASCII)."""
    values = _sample_values(evidence, entity.name, attribute.name)
    return max(
        (
            len(value.encode()) / len(value)
            for value in values[:SAMPLED_TEXTS]
            if isinstance(value, str) and value
        ),
        default=1.0,
    )


def _largest_values(
    evidence: Evidence, entity: d.Entity
) -> list[tuple[d.Attribute, int, str]]:
    """(attribute, the most bytes a value can take, how that is known) for
    the entity's attributes whose size is bounded by the design: a declared
    max_length, or a list generator's most elements times the largest
    element the sample holds. Text is counted at a byte a character, as
    most text is (UTF-8 can take up to 4): a finding should not rest on the
    worst case."""
    out = []
    for attribute in entity.attributes:
        generator = attribute.generator
        if attribute.max_length is not None and attribute.type in ("S", "B"):
            unit = "bytes" if attribute.type == "B" else "characters"
            out.append(
                (
                    attribute,
                    attribute.max_length,
                    f"of up to {attribute.max_length:,} {unit}",
                )
            )
        elif (
            generator is not None
            and generator.kind == "list"
            and attribute.type in ("L", "SS", "NS", "BS")
        ):
            most = generator.params.get("max", 5)
            element = max(
                (
                    value_size(member)
                    for value in _sample_values(evidence, entity.name, attribute.name)
                    if isinstance(value, (list, set, frozenset))
                    for member in value
                ),
                default=0,
            )
            if isinstance(most, int) and element:
                out.append(
                    (
                        attribute,
                        most * (element + 1),
                        f"of up to {most:,} elements of up to {element:,} bytes "
                        "in the sample",
                    )
                )
    return out


def _large_values(evidence: Evidence) -> Iterator[Finding]:
    """A blob or document kept in the item: the largest value the design
    allows (its max_length, or its list generator's bounds), not a sampled
    one, makes every read and write of the item cost by its size."""
    design = evidence.design
    for entity in design.entities:
        largest = _largest_values(evidence, entity)
        for attribute, value_bytes, bound in largest:
            if value_bytes < LARGE_VALUE:
                continue
            others = sum(b for a, b, _ in largest if a is not attribute)
            item_bytes = min(MAX_ITEM_SIZE, value_bytes + others + 100)
            rcu = int(read_units(item_bytes, STRONG))
            wcu = write_units(item_bytes)
            touching = [
                p
                for p in design.access_patterns
                if entity.name in _pattern_entities(p)
                and max(p.traffic.rps, p.traffic.peak_rps) > 0
            ]
            sampled = [evidence.sizes[p] for p in evidence.positions((entity.name,))]
            facts = [
                f"{attribute.name} is {attribute.type} {bound}: an item can "
                f"be about {item_bytes / 1024:,.0f} KB"
                + (" (more for non-ASCII text)" if attribute.type == "S" else ""),
                f"reading one such item costs {rcu} RCU strongly consistent "
                f"({rcu / 2:g} eventually), writing it {wcu} WCU",
            ]
            average = sum(sampled) / len(sampled) if sampled else 0
            if sampled and average < item_bytes / 2:
                facts.append(
                    f"the sample items average {average:,.0f} bytes, so the "
                    "sampled costs understate it"
                )
            if touching:
                facts.append(
                    "read or written by "
                    + ", ".join(repr(p.name) for p in touching[:3])
                    + (f" and {len(touching) - 3} more" if len(touching) > 3 else "")
                )
            yield finding(
                "large-value",
                "warning" if touching else "advice",
                "Large value kept in the item",
                attribute_location(entity.name, attribute.name),
                why="Capacity is charged on the whole item: a blob or document "
                "stored in it makes every GetItem, Query page and write of the "
                "item cost by its size, and leaves little room under 400 KB.",
                evidence=facts,
                fix=f"Store {attribute.name} in S3 and keep its object key (and "
                "size, type) in the item; or, if it must stay in DynamoDB, split "
                "it into its own item of the collection so that reads of the "
                "rest do not pay for it.",
                figures={"item_bytes": item_bytes, "rcu": rcu, "wcu": wcu},
            )


def _pattern_entities(pattern: d.AccessPattern) -> set[str]:
    entities = set(pattern.expects.entities) if pattern.expects else set()
    return entities | {a.entity for a in pattern.actions}


def _sample_values(evidence: Evidence, entity: str, attribute: str) -> list:
    return evidence.kept(
        ("sample_values", entity, attribute),
        lambda: [
            item[attribute]
            for item in map(evidence.items.__getitem__, evidence.positions((entity,)))
            if attribute in item
        ],
    )


def _not_iso(values: list) -> tuple[list[str], list[str]]:
    """The text values, and those of them that do not sort as times."""
    texts = [v for v in values if isinstance(v, str)]
    # Each distinct text matched once: a day is the text of thousands of
    # items (a million items' orders have a few hundred order dates).
    wrong = {v for v in set(texts) if not _SORTS_AS_TIME.match(v)}
    return texts, [v for v in texts if v in wrong] if wrong else []


def _unpadded_numbers(
    evidence: Evidence, entity: d.Entity, key_name: str, template: Template
) -> Iterator[Finding]:
    for part in template.parts:
        if isinstance(part, Literal) or part.width is not None:
            continue
        attribute = entity.attribute(part.attribute)
        if attribute is None or attribute.type != "N":
            continue
        if attribute.generator and attribute.generator.kind in ("date", "timestamp"):
            continue
        if numbers_of_one_length(attribute):
            continue  # its bounds keep it one length: text order is numeric
        values = sorted(
            {
                v
                for v in _sample_values(evidence, entity.name, part.attribute)
                if isinstance(v, Decimal)
            }
        )
        facts = []
        # Sorted by number, the values are in text order exactly when every
        # neighbouring pair is: the first pair that is not shows the fault.
        misordered = next(
            (
                (a, b)
                for a, b in itertools.pairwise(values)
                if number_text(a) > number_text(b)
            ),
            None,
        )
        if misordered:
            a, b = (number_text(v) for v in misordered)
            facts.append(
                f"in the sample data {part.attribute} {a} sorts after {b} "
                f"('{a}' > '{b}' as text)"
            )
        digits = max((len(str(abs(int(v)))) for v in values), default=0)
        facts.append(f"'{entity.keys[key_name].template}' at column {part.column}")
        yield finding(
            "unpadded-number",
            "warning",
            "Number unpadded in a string sort key",
            entity_location(entity.name, key_name),
            why="Numbers in a string key sort as text, so '10' comes before '9' "
            "and ranges and orders on the sort key come out wrong.",
            evidence=facts,
            fix=f"Zero-pad it: {{{part.attribute}:0{max(digits, 2) + 1}d}} "
            "(a width above the largest value).",
        )


def _looks_like_date(attribute: d.Attribute) -> bool:
    kind = attribute.generator.kind if attribute.generator else ""
    return kind in ("date", "timestamp") or bool(_DATE_NAME.search(attribute.name))


def _non_iso_dates(
    evidence: Evidence, entity: d.Entity, key_name: str, template: Template
) -> Iterator[Finding]:
    for part in template.parts:
        if isinstance(part, Literal):
            continue
        attribute = entity.attribute(part.attribute)
        if (
            attribute is None
            or attribute.type != "S"
            or attribute.generator is None  # its values are the tool's own
            or not _looks_like_date(attribute)
        ):
            continue
        values, wrong = evidence.kept(
            ("non_iso", entity.name, part.attribute),
            lambda name=entity.name, attr=part.attribute: _not_iso(
                _sample_values(evidence, name, attr)
            ),
        )
        if not values or len(wrong) * 2 < len(values):
            continue
        ordered = sorted(wrong[:200])
        shape = date_shape(values)
        readers = _ordered_readers(evidence.design, entity, key_name, part.attribute)
        facts = [
            f"{plural(len(wrong), 'sample value')} of {part.attribute} are "
            f"not ISO-8601, such as '{wrong[0]}'"
        ]
        if shape is None:
            facts.append(f"as text '{ordered[0]}' sorts before '{ordered[-1]}'")
        if readers:
            facts.append(
                "read in sort key order by "
                + ", ".join(repr(name) for name in readers[:3])
            )
        yield finding(
            "date-not-iso",
            "error" if readers and shape else "warning",
            f"{shape.name} dates in a sort key do not sort in time order"
            if shape
            else "Date in a sort key is not ISO-8601",
            entity_location(entity.name, key_name),
            why=unsorted_date_sentence(part.attribute, shape)
            + " Ranges and orders on the sort key come out wrong."
            if shape
            else "Sort keys order as text, and only ISO-8601 (year first, "
            "zero-padded) text sorts in time order.",
            evidence=facts,
            fix=unsorted_date_fix(part.attribute),
        )


def _ordered_readers(
    design: d.Design, entity: d.Entity, key_name: str, attribute: str
) -> list[str]:
    """The Query patterns that rely on the order of the entity's `key_name`
    sort key: they order by the attribute, range over it, or read the key
    backward (newest first)."""
    readers = []
    for pattern in design.access_patterns:
        expects = pattern.expects
        if pattern.operation != "Query" or expects is None:
            continue
        if entity.name not in expects.entities:
            continue
        index = design.table.index(pattern.index)
        sort_keys = (
            (design.table.sort_key.name,)
            if index is None and design.table.sort_key
            else tuple(a.name for a in index.sort_key)
            if index is not None
            else ()
        )
        if key_name not in sort_keys:
            continue
        ordered = any(n.lstrip("+-") == attribute for n in expects.order_by)
        ranged = any(
            p.attribute == attribute and p.operator not in ("=", "in")
            for p in expects.where
        )
        if ordered or ranged or not pattern.scan_forward:
            readers.append(pattern.name)
    return readers


def _key_length(
    entity: d.Entity, key_name: str, template: Template, role: KeyRole
) -> Iterator[Finding]:
    longest = max_key_bytes(template, entity)
    if longest is None or longest <= role.max_bytes:
        return
    parts = [
        f"{p.attribute} up to {placeholder_max_bytes(p, entity.attribute(p.attribute))}"
        " bytes"
        for p in template.placeholders
    ]
    yield finding(
        "key-too-long",
        "error",
        f"Key can pass {role.max_bytes:,} bytes",
        entity_location(entity.name, key_name),
        why=f"DynamoDB refuses a write whose {role.kind} value is over "
        f"{role.max_bytes:,} bytes.",
        evidence=[
            f"'{entity.keys[key_name].template}' can render {longest:,} bytes",
            ", ".join(parts),
        ],
        fix="Lower the attributes' max_length, or key on a short id (or a hash) "
        "instead of the long text.",
        figures={"bytes": longest},
    )


def _collisions(design: d.Design) -> Iterator[Finding]:
    for problem in check_key_collisions(design):
        entity = problem.path.split(".")[1]
        on_table = problem.severity == "error"
        yield finding(
            "key-collision",
            problem.severity,
            "Keys of two entities can collide",
            entity_location(entity),
            why="One put overwrites the other entity's item."
            if on_table
            else "A query meant for one entity returns items of the other.",
            evidence=[problem.message.split(": ", 1)[0]],
            fix="Give each entity a distinct literal prefix in the key "
            "(ORDER#..., ITEM#...).",
        )
