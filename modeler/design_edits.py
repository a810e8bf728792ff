"""Edits of a design, as functions from one immutable `Design` to the next.

The editor's services apply one of these to the project's current design
and save the result through the versioned save. Each edit changes one part
(the table, an index, an entity, an access pattern) and keeps the references
between parts consistent where a name changes: renaming an entity renames it
in the patterns, the sample settings and the generators that point at it.

Pure Python; nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TypeVar

from modeler import design as d

T = TypeVar("T")


class EditError(ValueError):
    """An edit that cannot apply to the design as it is now (a name already
    used, a part that is gone); `field` names the form field to blame."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def _moved(items: Sequence[T], position: int, offset: int) -> tuple[T, ...]:
    target = position + offset
    if not 0 <= position < len(items) or not 0 <= target < len(items):
        raise EditError("It cannot move further in that direction.")
    out = list(items)
    out[position], out[target] = out[target], out[position]
    return tuple(out)


def _identity_kept(new: T, old: T | None) -> T:
    """`new`, which replaces `old` (built from a form, it has no uid of its
    own), as the same element: with `old`'s uid."""
    if old is None or new.uid:  # type: ignore[attr-defined]
        return new
    return dataclasses.replace(new, uid=old.uid)  # type: ignore[attr-defined]


# --- Table and indexes ----------------------------------------------------------


def table_replace(design: d.Design, table: d.Table) -> d.Design:
    """The table's settings and keys from `table`; the indexes stay. A key
    attribute renamed here is renamed in the entities' templates and the
    patterns' key conditions."""
    old = design.table
    table = dataclasses.replace(table, indexes=old.indexes)
    renamed = _renamed_keys(
        [(old.partition_key, table.partition_key), (old.sort_key, table.sort_key)]
    )
    return _key_attributes_renamed(dataclasses.replace(design, table=table), renamed)


def _renamed_keys(
    pairs: Sequence[tuple[d.KeyAttribute | None, d.KeyAttribute | None]],
) -> dict[str, str]:
    return {
        before.name: after.name
        for before, after in pairs
        if before is not None and after is not None and before.name != after.name
    }


def _key_attributes_renamed(design: d.Design, renamed: dict[str, str]) -> d.Design:
    """Templates and key conditions follow renamed key attributes, unless
    the old name is still a key attribute somewhere."""
    still_used = {a.name for a in design.table.all_key_attributes()}
    renamed = {k: v for k, v in renamed.items() if k not in still_used}
    if not renamed:
        return design

    def keys(entity: d.Entity) -> d.Entity:
        new = {renamed.get(name, name): key for name, key in entity.keys.items()}
        return dataclasses.replace(entity, keys=d.freeze(new))

    def clauses(items: tuple[d.KeyClause, ...]) -> tuple[d.KeyClause, ...]:
        return tuple(
            dataclasses.replace(c, attribute=renamed.get(c.attribute, c.attribute))
            for c in items
        )

    return dataclasses.replace(
        design,
        entities=tuple(keys(e) for e in design.entities),
        access_patterns=tuple(
            dataclasses.replace(
                p,
                key=clauses(p.key),
                actions=tuple(
                    dataclasses.replace(a, key=clauses(a.key)) for a in p.actions
                ),
            )
            for p in design.access_patterns
        ),
    )


def _with_indexes(design: d.Design, indexes: tuple[d.Index, ...]) -> d.Design:
    return dataclasses.replace(
        design, table=dataclasses.replace(design.table, indexes=indexes)
    )


def index_position(design: d.Design, name: str) -> int:
    for position, index in enumerate(design.table.indexes):
        if index.name == name:
            return position
    raise EditError(f"The index '{name}' no longer exists; someone removed it.")


def _index_name_free(design: d.Design, name: str, *, except_position: int) -> None:
    if name == d.TABLE_INDEX:
        raise EditError("'table' names the base table; choose another name.", "name")
    for position, index in enumerate(design.table.indexes):
        if index.name == name and position != except_position:
            raise EditError(f"An index is already called '{name}'.", "name")


def index_add(design: d.Design, index: d.Index) -> d.Design:
    _index_name_free(design, index.name, except_position=-1)
    return _with_indexes(design, (*design.table.indexes, index))


def index_replace(design: d.Design, name: str, index: d.Index) -> d.Design:
    """The index called `name` becomes `index`; patterns that query it
    follow a rename."""
    position = index_position(design, name)
    _index_name_free(design, index.name, except_position=position)
    indexes = list(design.table.indexes)
    before = indexes[position]
    indexes[position] = index = _identity_kept(index, before)
    design = _with_indexes(design, tuple(indexes))
    pairs = list(zip(before.partition_key, index.partition_key, strict=False))
    pairs += list(zip(before.sort_key, index.sort_key, strict=False))
    design = _key_attributes_renamed(design, _renamed_keys(pairs))
    if index.name != name:
        design = dataclasses.replace(
            design,
            access_patterns=tuple(
                dataclasses.replace(p, index=index.name) if p.index == name else p
                for p in design.access_patterns
            ),
        )
    return design


def index_move(design: d.Design, name: str, offset: int) -> d.Design:
    position = index_position(design, name)
    return _with_indexes(design, _moved(design.table.indexes, position, offset))


def index_remove(design: d.Design, name: str) -> d.Design:
    """The design without the index. Entity key templates for its key
    attributes go with it, unless the table or another index uses them;
    patterns that query it stay, and the design check points at them."""
    position = index_position(design, name)
    removed = design.table.indexes[position]
    indexes = design.table.indexes[:position] + design.table.indexes[position + 1 :]
    design = _with_indexes(design, indexes)
    used = {a.name for a in design.table.all_key_attributes()}
    gone = {a.name for a in removed.key_attributes} - used
    return dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(
                e, keys=d.freeze({k: v for k, v in e.keys.items() if k not in gone})
            )
            for e in design.entities
        ),
    )


def index_dependants(design: d.Design, name: str) -> list[str]:
    """What refers to the index, in words, for the delete confirmation."""
    index = design.table.index(name)
    if index is None:
        return []
    out = [
        f"access pattern '{p.name}' queries it"
        for p in design.access_patterns
        if p.index == name
    ]
    others = {a.name for a in design.table.key_attributes} | {
        a.name for i in design.table.indexes if i.name != name for a in i.key_attributes
    }
    for entity in design.entities:
        keys = [
            a.name
            for a in index.key_attributes
            if a.name in entity.keys and a.name not in others
        ]
        if keys:
            out.append(
                f"entity {entity.name} has templates for {', '.join(keys)}, "
                "removed with it"
            )
    return out


# --- Entities -------------------------------------------------------------------


def entity_position(design: d.Design, name: str) -> int:
    for position, entity in enumerate(design.entities):
        if entity.name == name:
            return position
    raise EditError(f"The entity '{name}' no longer exists; someone removed it.")


def _entity_name_free(design: d.Design, name: str, *, except_position: int) -> None:
    for position, entity in enumerate(design.entities):
        if entity.name == name and position != except_position:
            raise EditError(f"An entity is already called '{name}'.", "name")


def entity_add(design: d.Design, entity: d.Entity) -> d.Design:
    _entity_name_free(design, entity.name, except_position=-1)
    return dataclasses.replace(design, entities=(*design.entities, entity))


def entity_replace(design: d.Design, name: str, entity: d.Entity) -> d.Design:
    """The entity called `name` becomes `entity`; a rename follows into the
    access patterns, other entities' sample settings and generators."""
    position = entity_position(design, name)
    _entity_name_free(design, entity.name, except_position=position)
    entities = list(design.entities)
    entity = _identity_kept(entity, entities[position])
    entity = dataclasses.replace(
        entity,
        attributes=tuple(
            _identity_kept(a, entities[position].attribute(a.name))
            for a in entity.attributes
        ),
    )
    entities[position] = entity
    design = dataclasses.replace(design, entities=tuple(entities))
    if entity.name != name:
        design = _entity_renamed(design, name, entity.name)
    return design


def _entity_renamed(design: d.Design, old: str, new: str) -> d.Design:
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


def entity_remove(design: d.Design, name: str) -> d.Design:
    """The design without the entity. What referred to it stays and the
    design check points at it (the confirmation listed it first)."""
    position = entity_position(design, name)
    return dataclasses.replace(
        design, entities=design.entities[:position] + design.entities[position + 1 :]
    )


def entity_dependants(design: d.Design, name: str) -> list[str]:
    """What refers to the entity, in words, for the delete confirmation."""
    out = []
    for pattern in design.access_patterns:
        if pattern.expects and name in pattern.expects.entities:
            out.append(f"access pattern '{pattern.name}' expects it")
        elif any(a.entity == name for a in pattern.actions):
            out.append(f"access pattern '{pattern.name}' writes it")
    prefix = f"{name}."
    for entity in design.entities:
        if entity.name == name:
            continue
        if entity.sample.per == name:
            out.append(f"entity {entity.name}'s sample data is made per {name}")
        for attr in entity.attributes:
            gen = attr.generator
            values = (gen.params.get("value"), gen.params.get("from")) if gen else ()
            if any(isinstance(v, str) and v.startswith(prefix) for v in values):
                out.append(
                    f"attribute {entity.name}.{attr.name} draws its values from {name}"
                )
    return out


# --- Access patterns ------------------------------------------------------------


def access_pattern_position(design: d.Design, uid: str) -> int:
    """Where the access pattern with this uid stands now."""
    for position, pattern in enumerate(design.access_patterns):
        if pattern.uid == uid:
            return position
    raise EditError("That access pattern no longer exists; someone removed it.")


def _pattern_at(design: d.Design, position: int) -> d.AccessPattern:
    if not 0 <= position < len(design.access_patterns):
        raise EditError("That access pattern no longer exists; someone removed it.")
    return design.access_patterns[position]


def _pattern_name_free(design: d.Design, name: str, *, except_position: int) -> None:
    for position, pattern in enumerate(design.access_patterns):
        if pattern.name == name and position != except_position:
            raise EditError(f"An access pattern is already called '{name}'.", "name")


def access_pattern_add(design: d.Design, pattern: d.AccessPattern) -> d.Design:
    _pattern_name_free(design, pattern.name, except_position=-1)
    return dataclasses.replace(
        design, access_patterns=(*design.access_patterns, pattern)
    )


def access_pattern_replace(
    design: d.Design, position: int, pattern: d.AccessPattern
) -> d.Design:
    _pattern_at(design, position)
    _pattern_name_free(design, pattern.name, except_position=position)
    patterns = list(design.access_patterns)
    patterns[position] = _identity_kept(pattern, patterns[position])
    return dataclasses.replace(design, access_patterns=tuple(patterns))


def access_pattern_move(design: d.Design, position: int, offset: int) -> d.Design:
    _pattern_at(design, position)
    return dataclasses.replace(
        design, access_patterns=_moved(design.access_patterns, position, offset)
    )


def access_pattern_remove(design: d.Design, position: int) -> d.Design:
    _pattern_at(design, position)
    patterns = design.access_patterns
    return dataclasses.replace(
        design, access_patterns=patterns[:position] + patterns[position + 1 :]
    )
