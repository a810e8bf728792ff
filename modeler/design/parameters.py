"""The parameters of an access pattern: the ones it declares, and the
`{placeholders}` its key condition, filter, expectation and actions use."""

from __future__ import annotations

import re
from collections.abc import Iterator

from modeler.design import model as d

_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_.-]*)(?::[^{}]*)?\}")


def placeholders(text: str) -> list[str]:
    """The names of the `{name}` / `{name:fmt}` placeholders in `text`, in
    order; `{{` is a literal brace."""
    return _PLACEHOLDER.findall(text.replace("{{", "").replace("}}", ""))


def _pattern_texts(pattern: d.AccessPattern) -> Iterator[str]:
    for clause in pattern.key:
        yield from clause.values
    yield pattern.filter
    if pattern.expects:
        for predicate in pattern.expects.where:
            yield from predicate.values
    for action in pattern.actions:
        for clause in action.key:
            yield from clause.values
        for _, _, value in action.updates():
            yield value
        yield action.condition
        yield action.count


def _implicit_key_attributes(design: d.Design, action: d.Action) -> Iterator[str]:
    """An action on an existing item without an explicit key finds it with
    the entity's table key templates, whose attributes become parameters."""
    if action.operation == "Put" or action.key:
        return
    entity = design.entity(action.entity)
    if entity is None:
        return
    for key in design.table.key_attributes:
        template = entity.keys.get(key.name)
        if template is not None:
            yield from placeholders(template.template)


def used_parameter_names(design: d.Design, pattern: d.AccessPattern) -> list[str]:
    names: dict[str, None] = {}
    for text in _pattern_texts(pattern):
        for name in placeholders(text):
            names.setdefault(name, None)
    for action in pattern.actions:
        for name in _implicit_key_attributes(design, action):
            names.setdefault(name, None)
    return list(names)


def pattern_parameters(
    design: d.Design, pattern: d.AccessPattern
) -> tuple[d.Parameter, ...]:
    """Every parameter of the pattern: the declared ones first, then each
    placeholder it uses, typed like the entity attribute of the same name."""
    declared = {p.name: p for p in pattern.parameters}
    result = list(pattern.parameters)
    entities = [design.entity(a.entity) for a in pattern.actions]
    if pattern.expects:
        entities += [design.entity(name) for name in pattern.expects.entities]
    for name in used_parameter_names(design, pattern):
        if name in declared:
            continue
        attr_type = "S"
        for entity in entities:
            attr = entity.attribute(name) if entity else None
            if attr and attr.type in d.KEY_TYPES:
                attr_type = attr.type
                break
        result.append(d.Parameter(name, attr_type))
    return tuple(result)
