"""Entities whose keys can render the same value.

On the table that is data loss: a put of one entity overwrites an item of the
other. On an index it is not an error (index keys need not be unique), but a
query meant for one entity also returns the other.

Only pairs of entities whose templates could agree are compared: every key a
template renders starts with its literal prefix (the text before its first
placeholder) and ends with its literal suffix, so two templates whose
prefixes (or suffixes) are not one the start (the end) of the other never
render the same key. Entities are grouped by their prefixes, key attribute
by key attribute, so a design whose entities have distinct prefixes
(`CUST#`, `ORDER#`) is checked in time linear in its size. Designs whose
many entities share every prefix are checked up to a budget of comparisons,
past which a warning says the check stopped.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from modeler.design.findings import Finding, finding, warning
from modeler.design.model import Design, Entity, KeyAttribute
from modeler.keys.condition import (
    Clause,
    Condition,
    ConditionSyntaxError,
    parse_condition,
)
from modeler.keys.overlap import CharClass, Token, common_value, template_tokens
from modeler.keys.template import (
    Literal,
    Placeholder,
    Template,
    TemplateSyntaxError,
    parse_template,
)

# Pairs of entities compared per index: plenty for every pair of a design
# whose entities share prefixes in groups of dozens.
COMPARISONS_PER_ENTITY = 50
MIN_COMPARISONS = 20_000


@dataclass(frozen=True)
class _Member:
    """An entity that writes every key attribute of one index (or the table)."""

    entity: str
    templates: dict[str, str]
    tokens: dict[str, tuple[Token, ...]]
    condition: Condition
    prefixes: dict[str, str]  # the literal text each key starts with
    suffixes: dict[str, str]  # and ends with


def check_key_collisions(design: Design) -> list[Finding]:
    table = design.table
    places: list[tuple[str, tuple[KeyAttribute, ...], bool]] = [
        ("", table.key_attributes, table.sort_key is not None)
    ]
    places += [
        (index.name, index.key_attributes, bool(index.sort_key))
        for index in table.indexes
    ]
    problems = []
    # Entities keyed alike (a model's facets inferred from the same kind of
    # key) give the same pair of templates again and again: each pair is
    # searched once (a model of 300 such facets had 20,000 pairs to check).
    common: dict[tuple[tuple[Token, ...], tuple[Token, ...]], str | None] = {}
    for index_name, attributes, has_sort_key in places:
        members = [
            member
            for entity in design.entities
            if (member := _member(entity, attributes)) is not None
        ]
        names = [a.name for a in attributes]
        budget = max(MIN_COMPARISONS, COMPARISONS_PER_ENTITY * len(members))
        for a, b in _candidate_pairs(members, names):
            budget -= 1
            if budget < 0:
                problems.append(_stopped(index_name, members))
                break
            # The table's keys are unconditional (a condition there is
            # reported by check_entity_keys).
            if index_name and a.condition.excludes(b.condition):
                continue
            if not _ends_agree(a, b, names):
                continue
            examples = {}
            for attribute in attributes:
                pair = (a.tokens[attribute.name], b.tokens[attribute.name])
                if pair not in common:
                    common[pair] = common_value(*pair)
                example = common[pair]
                if example is None:
                    break
                examples[attribute.name] = example
            else:
                problems.append(_collision(index_name, has_sort_key, a, b, examples))
    return problems


def _candidate_pairs(
    members: Sequence[_Member], names: Sequence[str]
) -> Iterator[tuple[_Member, _Member]]:
    """The pairs whose literal prefixes agree on every key attribute (one
    starts the other), in design order within each pair.

    Members are grouped by their prefix of the first attribute: a group is
    paired within itself on the remaining attributes, and with the groups
    whose prefix is a shorter start of its own."""
    if not names:
        yield from itertools.combinations(members, 2)
        return
    first, rest = names[0], names[1:]
    groups: dict[str, list[_Member]] = defaultdict(list)
    for member in members:
        groups[member.prefixes[first]].append(member)
    order = {id(m): n for n, m in enumerate(members)}
    for prefix, group in groups.items():
        yield from _candidate_pairs(group, rest)
        for length in range(len(prefix)):
            for shorter in groups.get(prefix[:length], ()):
                for member in group:
                    if _prefixes_agree(shorter, member, rest):
                        pair = sorted((shorter, member), key=lambda m: order[id(m)])
                        yield pair[0], pair[1]


def _prefixes_agree(a: _Member, b: _Member, names: Sequence[str]) -> bool:
    return all(_starts_agree(a.prefixes[n], b.prefixes[n]) for n in names)


def _ends_agree(a: _Member, b: _Member, names: Sequence[str]) -> bool:
    return all(
        a.suffixes[n].endswith(b.suffixes[n]) or b.suffixes[n].endswith(a.suffixes[n])
        for n in names
    )


def _starts_agree(a: str, b: str) -> bool:
    return a.startswith(b) or b.startswith(a)


def _stopped(index_name: str, members: Sequence[_Member]) -> Finding:
    where = f"on index {index_name}" if index_name else "on the table"
    return warning(
        "collision-check-stopped",
        "entities",
        f"the check for entities that write the same key {where} stopped after "
        f"{max(MIN_COMPARISONS, COMPARISONS_PER_ENTITY * len(members)):,} "
        "comparisons: too many entities share their keys' literal prefixes; "
        "give each entity a distinct literal prefix",
    )


def _member(entity: Entity, attributes: tuple[KeyAttribute, ...]) -> _Member | None:
    templates: dict[str, str] = {}
    tokens: dict[str, tuple[Token, ...]] = {}
    prefixes: dict[str, str] = {}
    suffixes: dict[str, str] = {}
    clauses: list[Clause] = []
    for attribute in attributes:
        key = entity.keys.get(attribute.name)
        if key is None:
            return None
        try:
            template = _constants_placed(entity, parse_template(key.template))
        except TemplateSyntaxError:
            return None  # reported by check_entity_keys
        if not template.parts:
            return None  # an empty key is reported by check_entity_keys
        templates[attribute.name] = key.template
        prefixes[attribute.name] = _literal_text(template.parts[0])
        suffixes[attribute.name] = _literal_text(template.parts[-1])
        tokens[attribute.name] = template_tokens(
            template,
            functools.partial(_is_numeric, entity, attribute.type),
            functools.partial(_shape, entity),
        )
        if key.when:
            # A condition that does not parse is reported by check_entity_keys;
            # meanwhile the entity counts as always writing the key.
            with contextlib.suppress(ConditionSyntaxError):
                clauses += parse_condition(key.when).clauses
    return _Member(
        entity.name,
        templates,
        tokens,
        Condition(tuple(clauses)),
        prefixes,
        suffixes,
    )


def _constants_placed(entity: Entity, template: Template) -> Template:
    """The template with the placeholders of attributes that are one
    constant text (an entity's `type: {constant: Order}`) written as that
    text, so `{type}#{id}` of Order and of Customer are told apart."""
    changed = False
    parts = []
    for part in template.parts:
        if isinstance(part, Literal):
            parts.append(part.text.replace("{", "{{").replace("}", "}}"))
            continue
        attribute = entity.attribute(part.attribute)
        generator = attribute.generator if attribute is not None else None
        value = generator.params.get("value") if generator is not None else None
        if (
            attribute is not None
            and generator is not None
            and generator.kind == "constant"
            and attribute.type == "S"
            and isinstance(value, str)
            and not part.format_spec
        ):
            parts.append(value.replace("{", "{{").replace("}", "}}"))
            changed = True
        else:
            parts.append(part.source)
    return parse_template("".join(parts)) if changed else template


def _literal_text(part: Literal | Placeholder) -> str:
    """The text of a template's first (or last) part when it is literal:
    literal text between placeholders is one part."""
    return part.text if isinstance(part, Literal) else ""


def _is_numeric(entity: Entity, key_type: str, placeholder: Placeholder) -> bool:
    """Whether a placeholder renders only number characters."""
    attribute = entity.attribute(placeholder.attribute)
    return (
        placeholder.width is not None
        or key_type == "N"
        or (attribute is not None and attribute.type == "N")
    )


# The characters a generator's values are made of, in order.
_SHAPES = {
    "date": (CharClass.NUMBER, CharClass.TIME),
    "timestamp": (CharClass.NUMBER, CharClass.TIME),
    "uuid": (CharClass.UUID,),
    "ulid": (CharClass.ULID,),
}


def _shape(entity: Entity, placeholder: Placeholder) -> tuple[CharClass, ...] | None:
    """The shape of a placeholder's values when the generator of its text
    attribute fixes it (a date, a timestamp, a UUID, a ULID), as the
    sample data makes them; None when it can be any text (a value written
    by hand can be)."""
    attribute = entity.attribute(placeholder.attribute)
    if (
        attribute is None
        or attribute.type != "S"
        or placeholder.format_spec
        or attribute.generator is None
    ):
        return None
    return _SHAPES.get(attribute.generator.kind)


def _collision(
    index_name: str,
    has_sort_key: bool,
    a: _Member,
    b: _Member,
    examples: dict[str, str],
) -> Finding:
    templates = " / ".join(
        f"{name} '{a.templates[name]}'"
        if a.templates[name] == b.templates[name]
        else f"{name} '{a.templates[name]}' vs '{b.templates[name]}'"
        for name in examples
    )
    example = " / ".join(f"{name} '{value}'" for name, value in examples.items())
    where = "sort key" if has_sort_key else "partition key"
    if index_name:
        what = f"the same key on index {index_name}"
        consequence = "a query for one would also return the other"
        severity = "warning"
    else:
        what = "the same primary key"
        consequence = "one would overwrite the other"
        severity = "error"
    return finding(
        "key-collision",
        severity,
        f"entities {a.entity} and {b.entity} can write {what} ({templates}; both "
        f"can be {example}): {consequence}; give each entity a distinct literal "
        f"prefix in the {where}",
        f"entities.{a.entity}.keys",
    )
