"""The key attributes of an item, rendered from its other attributes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from modeler.design.model import Design
from modeler.keys.condition import Comparison, Condition, parse_condition
from modeler.keys.template import MissingValueError, parse_template

KeyRenderer = Callable[[Mapping[str, Any]], dict[str, Any]]


def key_renderer(design: Design, entity_name: str) -> KeyRenderer:
    """A function giving every key attribute (table and indexes) an item of
    the entity has, with the templates parsed once: sample data calls it for
    every item it makes.

    A key whose condition does not hold is left out, and so is an index key
    whose template places an attribute the item does not have: either way the
    item is absent from that index, as a sparse index works. A missing value
    for a table key raises MissingValueError, since no item can lack one.
    """
    keys = _parsed_keys(design, entity_name)

    def render(values: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, render_key, is_table_key, holds, first, _ in keys:
            if holds is not None and not holds(values):
                continue
            if first is not name and first in out:
                out[name] = out[first]
                continue
            try:
                out[name] = render_key(values)
            except MissingValueError:
                if is_table_key:
                    raise
        return out

    return render


def key_writer(
    design: Design,
    entity_name: str,
    made: dict[tuple[str, str], dict[str, str]] | None = None,
) -> Callable[[dict[str, Any]], None]:
    """`item.update(key_renderer(design, entity_name)(item))`, the same keys
    in the same order, written into the item as they are rendered by code
    made for the entity's keys: no dict of keys, no loop over the keys'
    parts (a tenth of the time sample data took to make its items: 0.2 s
    of 2.1 s for 300,000 items of order-management). Where a template
    or a condition reads an attribute named as one of the keys, which a key
    written first would change, the keys are rendered apart first.

    `made`: the keys rendered so far by the writers of other entities given
    the same dict, by template and type, for the templates that two
    entities or more of the design share: equal keys are one string (an
    order's "ORDER#{orderId}" and its line items' key, made after it; a
    million items of order-management hold 270,000 strings fewer)."""
    lines = key_lines(design, entity_name, made)
    if lines is None:
        render = key_renderer(design, entity_name)
        return lambda item: item.update(render(item))
    source = f"def write(item):\n{_indented(lines.body, 4)}\n"
    namespace = dict(lines.names)
    exec(compile(source, f"<keys of {entity_name}>", "exec"), namespace)  # noqa: S102 - our own source
    return cast(Callable[[dict[str, Any]], None], namespace["write"])


@dataclass(frozen=True)
class KeyLines:
    """The body of `key_writer`'s code, for a caller that writes the keys in
    code of its own (the item maker of sample data: a call less an item):
    lines over a dict named `item`, which leave each key's value in a
    variable too (`values`: by key name, for the keys always written, the
    table's), and the objects they call by name (`names`)."""

    body: str
    names: dict[str, object]
    values: dict[str, str]


def key_lines(
    design: Design,
    entity_name: str,
    made: dict[tuple[str, str], dict[str, str]] | None = None,
) -> KeyLines | None:
    """The lines `key_writer` runs for the entity's keys (`made` as there),
    or None where a template or a condition reads an attribute named as
    one of the keys (`key_writer` then renders the keys apart first)."""
    keys = _parsed_keys(design, entity_name, made)
    names = {name for name, *_ in keys}
    if any(names.intersection(reads) for *_, reads in keys):
        return None
    steps: list[str] = []
    shared: dict[str, object] = {
        "MissingValueError": MissingValueError,
        "ABSENT": _ABSENT,
    }
    # The keys whose value another copies: unset (ABSENT) when not written.
    copied = {first for name, _, _, _, first, _ in keys if first is not name}
    for n, (name, _, is_table_key, holds, first, _) in enumerate(keys):
        step = f"v{n} = item[{name!r}] = render{n}(item)"
        if not is_table_key:
            step = f"try:\n    {step}\nexcept MissingValueError:\n    pass"
        if first is not name:
            k = next(k for k, key in enumerate(keys) if key[0] == first)
            copy = f"v{n} = item[{name!r}] = v{k}"
            step = (
                copy
                if keys[k][2]
                else f"if v{k} is not ABSENT:\n    {copy}\nelse:\n{_indented(step, 4)}"
            )
        if holds is not None:
            step = f"if holds{n}(item):\n{_indented(step, 4)}"
        unset = not is_table_key and name in copied
        steps.append(f"v{n} = ABSENT\n{step}" if unset else step)
        shared[f"render{n}"] = keys[n][1]
        if holds is not None:
            shared[f"holds{n}"] = holds
    # A table key has no condition and raises when it cannot be made: once
    # the lines have run, its variable holds its value.
    values = {
        name: f"v{n}"
        for n, (name, _, is_table_key, *_) in enumerate(keys)
        if is_table_key
    }
    return KeyLines("\n".join(steps) or "pass", shared, values)


_ABSENT = object()


def _indented(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in text.splitlines())


def _parsed_keys(
    design: Design,
    entity_name: str,
    made: dict[tuple[str, str], dict[str, str]] | None = None,
) -> list[
    tuple[
        str,
        Callable[[Mapping[str, Any]], Any],
        bool,
        Callable[[Mapping[str, Any]], bool] | None,
        str,
        tuple[str, ...],
    ]
]:
    """Each key attribute of the entity, in the entity's order: its name,
    renderer, whether it is a table key, the test of its condition, the
    first key of its template and type (PK and GSI3PK both "ORDER#{orderId}"
    share one rendered value: one string in memory instead of two) and the
    attributes its template and condition read."""
    entity = design.entity(entity_name)
    if entity is None:
        raise KeyError(f"no entity named '{entity_name}'")
    table_keys = {a.name for a in design.table.key_attributes}
    key_types = {a.name: a.type for a in design.table.all_key_attributes()}
    keys = []
    first_of: dict[tuple[str, str], str] = {}
    shared = _shared_templates(design, key_types) if made is not None else set()
    for name, key in entity.keys.items():
        if name not in key_types:
            continue  # reported by check_entity_keys
        same = (key.template, key_types[name])
        template = parse_template(key.template)
        known = None
        if made is not None and same in shared:
            known = made.setdefault(same, {})
        condition = (
            parse_condition(key.when) if key.when and name not in table_keys else None
        )
        keys.append(
            (
                name,
                template.renderer(key_types[name], known),
                name in table_keys,
                _test(condition) if condition is not None else None,
                first_of.setdefault(same, name),
                tuple(template.attributes)
                + (condition.attributes if condition is not None else ()),
            )
        )
    return keys


def _shared_templates(
    design: Design, key_types: Mapping[str, str]
) -> set[tuple[str, str]]:
    """The key templates (with their types) that two entities or more of
    the design write."""
    writers: dict[tuple[str, str], set[str]] = {}
    for entity in design.entities:
        for name, key in entity.keys.items():
            if name in key_types:
                writers.setdefault((key.template, key_types[name]), set()).add(
                    entity.name
                )
    return {same for same, names in writers.items() if len(names) > 1}


def _test(condition: Condition) -> Callable[[Mapping[str, Any]], bool]:
    """`condition.holds`, made quick for the sparse index's usual condition,
    one attribute equal to one word (`status = OPEN`), on a text value."""
    clauses = condition.clauses
    if len(clauses) != 1 or not isinstance(clauses[0], Comparison):
        return condition.holds
    clause = clauses[0]
    if clause.operator != "=" or type(clause.values[0]) is not str:
        return condition.holds
    attribute, expected, holds = clause.attribute, clause.values[0], condition.holds

    def test(values: Mapping[str, Any]) -> bool:
        actual = values.get(attribute)
        # Text compares as its UTF-8 bytes, equal when the text is.
        return actual == expected if type(actual) is str else holds(values)

    return test


def key_values(
    design: Design, entity_name: str, values: Mapping[str, Any]
) -> dict[str, Any]:
    """Every key attribute (table and indexes) an item of the entity has; see
    `key_renderer`."""
    return key_renderer(design, entity_name)(values)
