"""What a rename of an entity changes beyond the entity: the references to
it by name (generators' `ref` and `pick`, child entities' `per`, patterns'
expected entities and actions). Used by the entity edit and by a merge that
takes a teammate's rename, so it sits below both."""

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
