"""Entities whose keys can render the same value.

On the table that is data loss: a put of one entity overwrites an item of the
other. On an index it is not an error (index keys need not be unique), but a
query meant for one entity also returns the other.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from dataclasses import dataclass

from modeler.design import Design, Entity, KeyAttribute
from modeler.keys.condition import Condition, ConditionSyntaxError, parse_condition
from modeler.keys.overlap import Token, common_value, template_tokens
from modeler.keys.template import Placeholder, TemplateSyntaxError, parse_template
from modeler.problems import Problem


@dataclass(frozen=True)
class _Member:
    """An entity that writes every key attribute of one index (or the table)."""

    entity: str
    templates: dict[str, str]
    tokens: dict[str, tuple[Token, ...]]
    condition: Condition


def check_key_collisions(design: Design) -> list[Problem]:
    table = design.table
    places: list[tuple[str, tuple[KeyAttribute, ...], bool]] = [
        ("", table.key_attributes, table.sort_key is not None)
    ]
    places += [
        (index.name, index.key_attributes, bool(index.sort_key))
        for index in table.indexes
    ]
    problems = []
    for index_name, attributes, has_sort_key in places:
        members = [
            member
            for entity in design.entities
            if (member := _member(entity, attributes)) is not None
        ]
        for a, b in itertools.combinations(members, 2):
            # The table's keys are unconditional (a condition there is
            # reported by check_entity_keys).
            if index_name and a.condition.excludes(b.condition):
                continue
            examples = {}
            for attribute in attributes:
                example = common_value(
                    a.tokens[attribute.name], b.tokens[attribute.name]
                )
                if example is None:
                    break
                examples[attribute.name] = example
            else:
                problems.append(_collision(index_name, has_sort_key, a, b, examples))
    return problems


def _member(entity: Entity, attributes: tuple[KeyAttribute, ...]) -> _Member | None:
    templates: dict[str, str] = {}
    tokens: dict[str, tuple[Token, ...]] = {}
    clauses = []
    for attribute in attributes:
        key = entity.keys.get(attribute.name)
        if key is None:
            return None
        try:
            template = parse_template(key.template)
        except TemplateSyntaxError:
            return None  # reported by check_entity_keys
        if not template.parts:
            return None  # an empty key is reported by check_entity_keys
        templates[attribute.name] = key.template
        tokens[attribute.name] = template_tokens(
            template, functools.partial(_is_numeric, entity, attribute.type)
        )
        if key.when:
            # A condition that does not parse is reported by check_entity_keys;
            # meanwhile the entity counts as always writing the key.
            with contextlib.suppress(ConditionSyntaxError):
                clauses += parse_condition(key.when).clauses
    return _Member(entity.name, templates, tokens, Condition(tuple(clauses)))


def _is_numeric(entity: Entity, key_type: str, placeholder: Placeholder) -> bool:
    """Whether a placeholder renders only number characters."""
    attribute = entity.attribute(placeholder.attribute)
    return (
        placeholder.width is not None
        or key_type == "N"
        or (attribute is not None and attribute.type == "N")
    )


def _collision(
    index_name: str,
    has_sort_key: bool,
    a: _Member,
    b: _Member,
    examples: dict[str, str],
) -> Problem:
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
    return Problem(
        severity,
        f"entities.{a.entity}.keys",
        f"entities {a.entity} and {b.entity} can write {what} ({templates}; both "
        f"can be {example}): {consequence}; give each entity a distinct literal "
        f"prefix in the {where}",
    )
