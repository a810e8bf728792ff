"""What a rename of an entity changes beyond the entity: the references to
it by name (generators' `ref` and `pick`, child entities' `per`, patterns'
expected entities and actions); and what a rename of an attribute changes:
in its entity (its key templates and sparse conditions, the generators
naming it), in the other entities (`ref` and `pick` of `Entity.attribute`),
in the table (index projections, the TTL attribute) and in the patterns
that read or write the entity; and what a rename of a key attribute of the
table or an index changes (the entities' key templates, the patterns' key
conditions and whatever their actions write or test). Used by the edits and
by a merge that takes a teammate's rename, so it sits below both."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from modeler.design import model as d
from modeler.keys.condition import ConditionSyntaxError, parse_condition


def entity_renamed(design: d.Design, old: str, new: str) -> d.Design:
    def rename(value: str) -> str:
        return new if value == old else value

    reference = re.compile(rf"^{re.escape(old)}\.")

    def generator(gen: d.Generator | None) -> d.Generator | None:
        if gen is None or gen.kind not in ("ref", "pick"):
            return gen
        params = d.thaw(gen.params)
        for key in ("value", "from"):
            if isinstance(params.get(key), str):
                params[key] = reference.sub(f"{new}.", params[key])
        return d.Generator(gen.kind, d.freeze(params))

    entities = tuple(
        dataclasses.replace(
            e,
            sample=dataclasses.replace(e.sample, per=rename(e.sample.per)),
            attributes=tuple(
                dataclasses.replace(a, generator=generator(a.generator))
                for a in e.attributes
            ),
        )
        for e in design.entities
    )
    patterns = tuple(
        dataclasses.replace(
            p,
            expects=(
                dataclasses.replace(
                    p.expects, entities=tuple(rename(n) for n in p.expects.entities)
                )
                if p.expects
                else None
            ),
            actions=tuple(
                dataclasses.replace(a, entity=rename(a.entity)) for a in p.actions
            ),
        )
        for p in design.access_patterns
    )
    return dataclasses.replace(design, entities=entities, access_patterns=patterns)


# A `{name}` or `{name:format}` placeholder of a template generator, or a
# literal brace (`{{`, `}}`), matched first so `{{{name}}}` is read right.
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)((?::[^{}]*)?)\}")

Renamed = Mapping[str, str]


def _template_renamed(text: str, renamed: Renamed) -> str:
    def placeholder(found: re.Match[str]) -> str:
        if found.group(1) is None:  # a literal brace
            return found.group(0)
        name = renamed.get(found.group(1), found.group(1))
        return f"{{{name}{found.group(2)}}}"

    return _PLACEHOLDER.sub(placeholder, text)


def _condition_renamed(text: str, renamed: Renamed) -> str:
    """A sparse condition (`status = OPEN`) naming the new names; as it was
    when it names none of the old ones, or cannot be read (the check says
    what is wrong with it)."""
    try:
        condition = parse_condition(text)
    except ConditionSyntaxError:
        return text
    if not any(c.attribute in renamed for c in condition.clauses):
        return text
    clauses = [
        dataclasses.replace(c, attribute=renamed.get(c.attribute, c.attribute))
        for c in condition.clauses
    ]
    return str(dataclasses.replace(condition, clauses=tuple(clauses)))


# The parts of a filter or condition expression (`status = "OPEN" AND
# attribute_exists(shippedAt)`): quoted text, a {parameter}, a :value or
# #name placeholder, or a name with what precedes and follows it.
_EXPRESSION_PART = re.compile(
    r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\{[^{}]*\}|[:#][A-Za-z0-9_]+)"""
    r"|(?<![.A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_-]*)(?!\s*\()"
)


def _expression_renamed(text: str, renamed: Renamed) -> str:
    """An expression whose attribute paths start with the new names: a name
    that is not quoted, a placeholder, a function or a path's later part."""
    if not text:
        return text

    def part(found: re.Match[str]) -> str:
        name = found.group(2)
        return renamed.get(name, name) if name else found.group(0)

    return _EXPRESSION_PART.sub(part, text)


def _spec_renamed(
    kind: str, params: dict[str, Any], own: Renamed, foreign: Renamed
) -> dict[str, Any]:
    """A generator's parameters (as `thaw` gives them) with `own` renames
    of the entity's attributes (a template's placeholders, a pick's partner
    `with`, an expiry's start) and `foreign` ones of `Entity.attribute` (a
    `ref`, a pick's `from`), into the generators of a list's elements and a
    map's fields."""
    value = params.get("value")
    if kind == "template" and isinstance(value, str):
        params["value"] = _template_renamed(_template_renamed(value, own), foreign)
    elif kind in ("ref", "pick"):  # {pick: {from: ..., with: ...}}, as params or value
        if isinstance(value, str):
            params["value"] = foreign.get(value, value)
        for holder in (params, value):
            if not isinstance(holder, dict):
                continue
            if isinstance(holder.get("from"), str):
                holder["from"] = foreign.get(holder["from"], holder["from"])
            if kind == "pick" and isinstance(holder.get("with"), str):
                holder["with"] = own.get(holder["with"], holder["with"])
    elif kind == "expires" and isinstance(params.get("from"), str):
        params["from"] = own.get(params["from"], params["from"])
    elif kind == "list" and "of" in params:
        params["of"] = _inner_renamed(params["of"], own, foreign)
    elif kind == "map" and isinstance(params.get("fields"), dict):
        params["fields"] = {
            name: _inner_renamed(spec, own, foreign)
            for name, spec in params["fields"].items()
        }
    return params


def _inner_renamed(spec: Any, own: Renamed, foreign: Renamed) -> Any:
    """A nested generator as the design file writes it: `{kind: params}`."""
    if not (isinstance(spec, dict) and len(spec) == 1):
        return spec
    kind, params = next(iter(spec.items()))
    if isinstance(params, dict):
        return {kind: _spec_renamed(str(kind), params, own, foreign)}
    wrapped = _spec_renamed(str(kind), {"value": params}, own, foreign)
    return {kind: wrapped["value"]}


def _generator_renamed(
    gen: d.Generator | None, own: Renamed, foreign: Renamed
) -> d.Generator | None:
    if gen is None:
        return None
    params = _spec_renamed(gen.kind, d.thaw(gen.params), own, foreign)
    changed = d.freeze(params)
    return gen if changed == gen.params else d.Generator(gen.kind, changed)


def _attributes_mapped(
    entity: d.Entity, change: Callable[[d.Generator | None], d.Generator | None]
) -> d.Entity:
    return dataclasses.replace(
        entity,
        attributes=tuple(
            dataclasses.replace(a, generator=change(a.generator))
            for a in entity.attributes
        ),
    )


def attributes_renamed(entity: d.Entity, renamed: dict[str, str]) -> d.Entity:
    """The entity naming its own attributes by their new names: its key
    templates and their sparse conditions (`when`), and its generators (a
    template's placeholders, a pick's partner `with` and an expiry's start,
    also inside a list's or a map's generators). An old name the entity
    still has (another attribute took it) is left as it is."""
    renamed = _still_renamed(entity, renamed)
    if not renamed:
        return entity
    keys = {
        name: dataclasses.replace(
            key,
            template=_template_renamed(key.template, renamed),
            when=_condition_renamed(key.when, renamed) if key.when else key.when,
        )
        for name, key in entity.keys.items()
    }
    entity = dataclasses.replace(entity, keys=d.freeze(keys))
    return _attributes_mapped(entity, lambda gen: _generator_renamed(gen, renamed, {}))


def _still_renamed(entity: d.Entity, renamed: Mapping[str, str]) -> dict[str, str]:
    kept = {a.name for a in entity.attributes}
    return {old: new for old, new in renamed.items() if old not in kept}


def entity_attributes_renamed(
    design: d.Design, entity_name: str, renamed: dict[str, str]
) -> d.Design:
    """The design naming the entity's renamed attributes by their new names
    outside the entity: other entities' `ref` and `pick` of
    `Entity.attribute`; index projections and the TTL attribute, where no
    other entity has an attribute of the old name; and the patterns that
    expect the entity (their conditions, order, projection and filter, where
    no other expected entity has the old name) or write it (the attributes
    its actions set, add, remove, and their conditions). The entity itself
    is `attributes_renamed`."""
    entity = next((e for e in design.entities if e.name == entity_name), None)
    if entity is None:
        return design
    renamed = _still_renamed(entity, renamed)
    if not renamed:
        return design
    foreign = {
        f"{entity_name}.{old}": f"{entity_name}.{new}" for old, new in renamed.items()
    }
    entities = tuple(
        e
        if e.name == entity_name
        else _attributes_mapped(e, lambda gen: _generator_renamed(gen, {}, foreign))
        for e in design.entities
    )
    design = dataclasses.replace(design, entities=entities)

    def others_have(names: tuple[str, ...] | None) -> set[str]:
        return {
            a.name
            for e in design.entities
            if e.name != entity_name and (names is None or e.name in names)
            for a in e.attributes
        }

    anywhere = {o: n for o, n in renamed.items() if o not in others_have(None)}
    table = design.table
    if anywhere:
        table = dataclasses.replace(
            table,
            ttl_attribute=anywhere.get(table.ttl_attribute, table.ttl_attribute),
            indexes=tuple(
                dataclasses.replace(
                    index,
                    projection=dataclasses.replace(
                        index.projection,
                        attributes=tuple(
                            anywhere.get(a, a) for a in index.projection.attributes
                        ),
                    ),
                )
                for index in table.indexes
            ),
        )
    patterns = tuple(
        _pattern_renamed(p, entity_name, renamed, others_have)
        for p in design.access_patterns
    )
    return dataclasses.replace(design, table=table, access_patterns=patterns)


def key_attributes_renamed(design: d.Design, renamed: Mapping[str, str]) -> d.Design:
    """The design naming renamed key attributes (of the table or an index)
    by their new names: in the entities' key templates, the patterns' key
    conditions, projections and filters, and what their actions key on,
    write, remove and test in their conditions (`attribute_not_exists(PK)`,
    an update that sets an index key). An old name that is still a key
    attribute somewhere stays, and so does one that an action's entity has
    as an attribute of its own."""
    still_used = {a.name for a in design.table.all_key_attributes()}
    renamed = {k: v for k, v in renamed.items() if k not in still_used}
    if not renamed:
        return design
    entities = {e.name: e for e in design.entities}

    def keys(entity: d.Entity) -> d.Entity:
        new = {renamed.get(name, name): key for name, key in entity.keys.items()}
        return dataclasses.replace(entity, keys=d.freeze(new))

    def clauses(items: tuple[d.KeyClause, ...]) -> tuple[d.KeyClause, ...]:
        return tuple(
            dataclasses.replace(c, attribute=renamed.get(c.attribute, c.attribute))
            for c in items
        )

    def action_renamed(action: d.Action) -> d.Action:
        entity = entities.get(action.entity)
        own = _still_renamed(entity, renamed) if entity is not None else renamed
        return _action_renamed(
            dataclasses.replace(action, key=clauses(action.key)), own
        )

    return dataclasses.replace(
        design,
        entities=tuple(keys(e) for e in design.entities),
        access_patterns=tuple(
            dataclasses.replace(
                p,
                key=clauses(p.key),
                projection=tuple(renamed.get(a, a) for a in p.projection),
                filter=_expression_renamed(p.filter, renamed),
                actions=tuple(action_renamed(a) for a in p.actions),
            )
            for p in design.access_patterns
        ),
    )


def _action_renamed(action: d.Action, renamed: Renamed) -> d.Action:
    """The action writing, removing and testing the new names."""
    if not renamed:
        return action

    def pairs(written: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        return tuple((renamed.get(a, a), value) for a, value in written)

    return dataclasses.replace(
        action,
        set=pairs(action.set),
        add=pairs(action.add),
        append=pairs(action.append),
        delete=pairs(action.delete),
        set_if_absent=pairs(action.set_if_absent),
        remove=tuple(renamed.get(a, a) for a in action.remove),
        condition=_expression_renamed(action.condition, renamed),
    )


def _pattern_renamed(
    pattern: d.AccessPattern,
    entity_name: str,
    renamed: dict[str, str],
    others_have: Callable[[tuple[str, ...]], set[str]],
) -> d.AccessPattern:
    expects = pattern.expects
    if expects is not None and entity_name in expects.entities:
        shared = others_have(expects.entities)
        mine = {o: n for o, n in renamed.items() if o not in shared}

        def ordered(name: str) -> str:
            sign = "-" if name.startswith("-") else ""
            return sign + mine.get(name.lstrip("-"), name.lstrip("-"))

        expects = dataclasses.replace(
            expects,
            where=tuple(
                dataclasses.replace(w, attribute=mine.get(w.attribute, w.attribute))
                for w in expects.where
            ),
            order_by=tuple(ordered(name) for name in expects.order_by),
        )
        pattern = dataclasses.replace(
            pattern,
            expects=expects,
            projection=tuple(mine.get(a, a) for a in pattern.projection),
            filter=_expression_renamed(pattern.filter, mine),
        )

    actions = tuple(
        _action_renamed(action, renamed) if action.entity == entity_name else action
        for action in pattern.actions
    )
    return dataclasses.replace(pattern, actions=actions)
