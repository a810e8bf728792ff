"""What a rename of an entity changes beyond the entity: the references to
it by name (generators' `ref` and `pick`, child entities' `per`, patterns'
expected entities and actions); and what a rename of an attribute changes in
its entity (the generators naming it). Used by the entity edit and by a
merge that takes a teammate's rename, so it sits below both."""

from __future__ import annotations

import dataclasses
import re

from modeler.design import model as d


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


def attributes_renamed(entity: d.Entity, renamed: dict[str, str]) -> d.Entity:
    """The entity whose generators name its own attributes by their new
    names: a template's placeholders, a pick's partner (`with`) and an
    expiry's start (`expires: {from: ...}`). An old name the entity still
    has (another attribute took it) is left as it is."""
    kept = {a.name for a in entity.attributes}
    renamed = {old: new for old, new in renamed.items() if old not in kept}
    if not renamed:
        return entity

    def placeholder(found: re.Match[str]) -> str:
        if found.group(1) is None:  # a literal brace
            return found.group(0)
        name = renamed.get(found.group(1), found.group(1))
        return f"{{{name}{found.group(2)}}}"

    def generator(gen: d.Generator | None) -> d.Generator | None:
        if gen is None or gen.kind not in ("template", "pick", "expires"):
            return gen
        params = d.thaw(gen.params)
        value = params.get("value")
        if gen.kind == "template" and isinstance(value, str):
            params["value"] = _PLACEHOLDER.sub(placeholder, value)
        elif gen.kind == "pick":  # {pick: {from: ..., with: ...}}, as params or value
            for holder in (params, value):
                if isinstance(holder, dict) and isinstance(holder.get("with"), str):
                    holder["with"] = renamed.get(holder["with"], holder["with"])
        elif gen.kind == "expires" and isinstance(params.get("from"), str):
            params["from"] = renamed.get(params["from"], params["from"])
        return d.Generator(gen.kind, d.freeze(params))

    return dataclasses.replace(
        entity,
        attributes=tuple(
            dataclasses.replace(a, generator=generator(a.generator))
            for a in entity.attributes
        ),
    )
