"""Edits of a design, as commands: small frozen values, each with
`apply(design) -> design`, the part of the design whose own errors refuse
it (`part`), and the line the history shows for it (`summary`).

The editor builds one from a form and `modeler.editor.services.design_edit`
applies it to the project's current design and saves the result through the
versioned save; one made on a page that showed an older revision is replayed
on the current design (`modeler.history.merge.rebase`). Each edit changes one
part (the table, an index, an entity, an access pattern, the sample data) and
keeps the references between parts consistent where a name changes: renaming
an entity renames it in the patterns, the sample settings and the generators
that point at it, renaming an attribute in its entity's generators that name
it (a template, a pick's `with`, an expiry's `from`). Access patterns are
named by their uid, which survives renames and moves, so an edit follows the
pattern wherever others moved it.

Pure Python; nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from modeler.design import model as d
from modeler.design.renames import (
    attributes_renamed,
    entity_attributes_renamed,
    entity_renamed,
    key_attributes_renamed,
)
from modeler.engine.types import item_from_wire
from modeler.history import elements
from modeler.history.merge import revert

T = TypeVar("T")
# The elements that carry a uid (see model.py).
Element = TypeVar("Element", d.Index, d.Entity, d.Attribute, d.AccessPattern)


class EditError(ValueError):
    """An edit that cannot apply to the design as it is now (a name already
    used, a part that is gone); `field` names the form field to blame."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class DesignEdit:
    """One edit of a design. Subclasses are frozen dataclasses that say what
    changes; `apply` makes the change on any design (the one the page showed
    or the current one), raising EditError when it cannot."""

    def apply(self, design: d.Design) -> d.Design:
        raise NotImplementedError

    def part(self, edited: d.Design) -> str | None:
        """The path of the part of `edited` this edit wrote (`entities.Order`,
        `table.indexes[1]`, `access_patterns[0]`), whose errors in its own
        fields refuse the save; None for an edit that writes no field (a
        move, a removal)."""
        return None

    def summary(self, before: d.Design, after: d.Design) -> str:
        """The history's line for the revision this edit made."""
        return elements.summary(before, after)

    def on_page(self, page: Callable[[], d.Design]) -> DesignEdit:
        """This edit with what it names by position on the page (`page()`
        gives the design the page showed) named by identity, so that it
        follows the element wherever others moved it since."""
        return self


def _moved(items: Sequence[T], position: int, offset: int) -> tuple[T, ...]:
    target = position + offset
    if not 0 <= position < len(items) or not 0 <= target < len(items):
        raise EditError("It cannot move further in that direction.")
    out = list(items)
    out[position], out[target] = out[target], out[position]
    return tuple(out)


def _identity_kept(new: Element, old: Element | None) -> Element:
    """`new`, which replaces `old` (built from a form, it has no uid of its
    own, or `old`'s), as the same element: with `old`'s uid, and drawing
    the sample data `old` drew whatever its name now."""
    if old is None or new.uid not in ("", old.uid):
        return new
    kept = dataclasses.replace(new, uid=old.uid)
    if isinstance(kept, d.Index) or isinstance(old, d.Index):
        return kept
    return d.renamed_from(kept, old)


# --- Table and indexes ----------------------------------------------------------


@dataclass(frozen=True)
class TableUpdate(DesignEdit):
    """The table's settings and keys from `table`; the indexes stay. A key
    attribute renamed here is renamed in the entities' templates and the
    patterns' key conditions."""

    table: d.Table

    def apply(self, design: d.Design) -> d.Design:
        old = design.table
        table = dataclasses.replace(self.table, indexes=old.indexes)
        renamed = _renamed_keys(
            [(old.partition_key, table.partition_key), (old.sort_key, table.sort_key)]
        )
        return key_attributes_renamed(dataclasses.replace(design, table=table), renamed)

    def part(self, edited: d.Design) -> str | None:
        return "table"


def _renamed_keys(
    pairs: Sequence[tuple[d.KeyAttribute | None, d.KeyAttribute | None]],
) -> dict[str, str]:
    return {
        before.name: after.name
        for before, after in pairs
        if before is not None and after is not None and before.name != after.name
    }


def _with_indexes(design: d.Design, indexes: tuple[d.Index, ...]) -> d.Design:
    return dataclasses.replace(
        design, table=dataclasses.replace(design.table, indexes=indexes)
    )


def index_position(design: d.Design, name: str) -> int:
    for position, index in enumerate(design.table.indexes):
        if index.name == name:
            return position
    raise EditError(f"The index '{name}' no longer exists; someone removed it.")


def _name_free(
    named: Sequence[d.Index | d.Entity | d.AccessPattern],
    name: str,
    *,
    except_position: int,
    kind: str,
) -> None:
    """Refuses `name` when one of `named` other than the one at
    `except_position` (-1 for one being added) is called that already."""
    for position, thing in enumerate(named):
        if thing.name == name and position != except_position:
            raise EditError(f"{kind} is already called '{name}'.", "name")


def _index_name_free(design: d.Design, name: str, *, except_position: int) -> None:
    if name == d.TABLE_INDEX:
        raise EditError("'table' names the base table; choose another name.", "name")
    _name_free(
        design.table.indexes, name, except_position=except_position, kind="An index"
    )


def _index_part(edited: d.Design, name: str) -> str:
    return f"table.indexes[{index_position(edited, name)}]"


@dataclass(frozen=True)
class IndexAdd(DesignEdit):
    index: d.Index

    def apply(self, design: d.Design) -> d.Design:
        _index_name_free(design, self.index.name, except_position=-1)
        return _with_indexes(design, (*design.table.indexes, self.index))

    def part(self, edited: d.Design) -> str | None:
        return _index_part(edited, self.index.name)


@dataclass(frozen=True)
class IndexUpdate(DesignEdit):
    """The index called `name` becomes `index`; patterns that query it
    follow a rename."""

    name: str
    index: d.Index

    def apply(self, design: d.Design) -> d.Design:
        position = index_position(design, self.name)
        _index_name_free(design, self.index.name, except_position=position)
        indexes = list(design.table.indexes)
        before = indexes[position]
        indexes[position] = index = _identity_kept(self.index, before)
        design = _with_indexes(design, tuple(indexes))
        pairs = list(zip(before.partition_key, index.partition_key, strict=False))
        pairs += list(zip(before.sort_key, index.sort_key, strict=False))
        design = key_attributes_renamed(design, _renamed_keys(pairs))
        if index.name != self.name:
            design = dataclasses.replace(
                design,
                access_patterns=tuple(
                    dataclasses.replace(p, index=index.name)
                    if p.index == self.name
                    else p
                    for p in design.access_patterns
                ),
            )
        return design

    def part(self, edited: d.Design) -> str | None:
        # By identity first: a merge keeps the name a teammate gave it since.
        for position, index in enumerate(edited.table.indexes):
            if self.index.uid and index.uid == self.index.uid:
                return f"table.indexes[{position}]"
        return _index_part(edited, self.index.name)


@dataclass(frozen=True)
class IndexMove(DesignEdit):
    """The index one place up (offset -1) or down (+1) in the table's list."""

    name: str
    offset: int

    def apply(self, design: d.Design) -> d.Design:
        position = index_position(design, self.name)
        return _with_indexes(
            design, _moved(design.table.indexes, position, self.offset)
        )


@dataclass(frozen=True)
class IndexRemove(DesignEdit):
    """The design without the index. Entity key templates for its key
    attributes go with it, unless the table or another index uses them;
    patterns that query it stay, and the design check points at them."""

    name: str

    def apply(self, design: d.Design) -> d.Design:
        position = index_position(design, self.name)
        indexes = design.table.indexes
        removed = indexes[position]
        design = _with_indexes(design, indexes[:position] + indexes[position + 1 :])
        used = {a.name for a in design.table.all_key_attributes()}
        gone = {a.name for a in removed.key_attributes} - used
        return dataclasses.replace(
            design,
            entities=tuple(
                dataclasses.replace(
                    e,
                    keys=d.freeze({k: v for k, v in e.keys.items() if k not in gone}),
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
    _name_free(design.entities, name, except_position=except_position, kind="An entity")


@dataclass(frozen=True)
class EntityAdd(DesignEdit):
    entity: d.Entity

    def apply(self, design: d.Design) -> d.Design:
        _entity_name_free(design, self.entity.name, except_position=-1)
        return dataclasses.replace(design, entities=(*design.entities, self.entity))

    def part(self, edited: d.Design) -> str | None:
        return f"entities.{self.entity.name}"


@dataclass(frozen=True)
class EntityUpdate(DesignEdit):
    """The entity called `name` becomes `entity`; a rename follows into the
    access patterns, other entities' sample settings and generators, and a
    renamed attribute (known by its uid) wherever the design names it: the
    entity's key templates and generators, other entities' references, the
    index projections and the patterns (modeler.design.renames)."""

    name: str
    entity: d.Entity

    def apply(self, design: d.Design) -> d.Design:
        position = entity_position(design, self.name)
        _entity_name_free(design, self.entity.name, except_position=position)
        entities = list(design.entities)
        before = entities[position]
        entity = _identity_kept(self.entity, before)
        pairs = [(a, _attribute_before(before, a)) for a in entity.attributes]
        entity = dataclasses.replace(
            entity, attributes=tuple(_identity_kept(a, old) for a, old in pairs)
        )
        renamed = {
            old.name: a.name
            for a, old in pairs
            if old is not None and old.name != a.name
        }
        entities[position] = attributes_renamed(entity, renamed)
        design = dataclasses.replace(design, entities=tuple(entities))
        if entity.name != self.name:
            design = entity_renamed(design, self.name, entity.name)
        return entity_attributes_renamed(design, entity.name, renamed)

    def part(self, edited: d.Design) -> str | None:
        return f"entities.{self.entity.name}"


def _attribute_before(before: d.Entity, attribute: d.Attribute) -> d.Attribute | None:
    """The attribute's version in `before`: the one with its uid (a form
    gives it to a renamed attribute), else the one of its name."""
    if attribute.uid:
        return next((a for a in before.attributes if a.uid == attribute.uid), None)
    return before.attribute(attribute.name)


@dataclass(frozen=True)
class EntityRemove(DesignEdit):
    """The design without the entity. What referred to it stays and the
    design check points at it (the confirmation listed it first)."""

    name: str

    def apply(self, design: d.Design) -> d.Design:
        position = entity_position(design, self.name)
        entities = design.entities
        return dataclasses.replace(
            design, entities=entities[:position] + entities[position + 1 :]
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

_PATTERN_GONE = "That access pattern no longer exists; someone removed it."


def access_pattern_position(design: d.Design, uid: str) -> int:
    """Where the access pattern with this uid stands now."""
    for position, pattern in enumerate(design.access_patterns):
        if pattern.uid == uid:
            return position
    raise EditError(_PATTERN_GONE)


def access_pattern_uid(design: d.Design, position: int) -> str:
    """The uid of the access pattern at `position` of `design` (the page's
    design: an edit then follows that pattern wherever it is now)."""
    if not 0 <= position < len(design.access_patterns):
        raise EditError("That access pattern no longer exists; reload the page.")
    return design.access_patterns[position].uid


def _pattern_name_free(design: d.Design, name: str, *, except_position: int) -> None:
    _name_free(
        design.access_patterns,
        name,
        except_position=except_position,
        kind="An access pattern",
    )


@dataclass(frozen=True)
class AccessPatternAdd(DesignEdit):
    pattern: d.AccessPattern

    def apply(self, design: d.Design) -> d.Design:
        _pattern_name_free(design, self.pattern.name, except_position=-1)
        return dataclasses.replace(
            design, access_patterns=(*design.access_patterns, self.pattern)
        )

    def part(self, edited: d.Design) -> str | None:
        return f"access_patterns[{len(edited.access_patterns) - 1}]"


@dataclass(frozen=True, kw_only=True)
class _PatternEdit(DesignEdit):
    """An edit of one access pattern, named by its uid, or by its `position`
    on the page (then made into the uid of the pattern the page showed
    there)."""

    uid: str = ""
    position: int = -1

    def on_page(self, page: Callable[[], d.Design]) -> DesignEdit:
        if self.uid:
            return self
        return dataclasses.replace(self, uid=access_pattern_uid(page(), self.position))

    def _position(self, design: d.Design) -> int:
        return access_pattern_position(design, self.uid)


@dataclass(frozen=True, kw_only=True)
class AccessPatternUpdate(_PatternEdit):
    """The access pattern becomes `pattern`, wherever it is now."""

    pattern: d.AccessPattern

    def apply(self, design: d.Design) -> d.Design:
        position = self._position(design)
        _pattern_name_free(design, self.pattern.name, except_position=position)
        patterns = list(design.access_patterns)
        patterns[position] = _identity_kept(self.pattern, patterns[position])
        return dataclasses.replace(design, access_patterns=tuple(patterns))

    def part(self, edited: d.Design) -> str | None:
        return f"access_patterns[{self._position(edited)}]"


@dataclass(frozen=True, kw_only=True)
class AccessPatternMove(_PatternEdit):
    offset: int

    def apply(self, design: d.Design) -> d.Design:
        return dataclasses.replace(
            design,
            access_patterns=_moved(
                design.access_patterns, self._position(design), self.offset
            ),
        )


@dataclass(frozen=True, kw_only=True)
class AccessPatternRemove(_PatternEdit):
    def apply(self, design: d.Design) -> d.Design:
        position = self._position(design)
        patterns = design.access_patterns
        return dataclasses.replace(
            design, access_patterns=patterns[:position] + patterns[position + 1 :]
        )


# --- Sample data ----------------------------------------------------------------


class TooManyItemsError(EditError):
    """An import that would leave the project with more items of the user's
    own than it may keep."""


def _with_sample(design: d.Design, **changes: Any) -> d.Design:
    return dataclasses.replace(
        design, sample_data=dataclasses.replace(design.sample_data, **changes)
    )


@dataclass(frozen=True)
class SampleSeedSet(DesignEdit):
    seed: int

    def apply(self, design: d.Design) -> d.Design:
        return _with_sample(design, seed=self.seed)


@dataclass(frozen=True)
class SampleItemsPut(DesignEdit):
    """The user's own sample items with `items` (DynamoDB JSON, each a dict
    of wire values) put among them as PutItems would: an item with the
    primary key of a stored one, or of an earlier one, replaces it. With
    `replace`, the stored ones go first. At most `limit` items stay."""

    items: tuple[Mapping[str, Any], ...]
    limit: int
    replace: bool = False

    def apply(self, design: d.Design) -> d.Design:
        key_names = [k.name for k in design.table.key_attributes]
        merged: dict[tuple, Mapping[str, Any]] = {}
        kept = () if self.replace else design.sample_data.items
        for wire in (*kept, *self.items):
            item = item_from_wire(d.thaw(wire))
            merged[tuple(item.get(name) for name in key_names)] = wire
        if len(merged) > self.limit:
            raise TooManyItemsError(
                f"That would make {len(merged):,} items of your own; a project "
                f"keeps at most {self.limit:,} (the generated data has no "
                "such limit)."
            )
        return _with_sample(design, items=d.freeze(list(merged.values())))


@dataclass(frozen=True)
class SampleItemsClear(DesignEdit):
    def apply(self, design: d.Design) -> d.Design:
        return _with_sample(design, items=())


# --- History --------------------------------------------------------------------


@dataclass(frozen=True)
class Revert(DesignEdit):
    """Put back, in the current design, the elements that the change from
    `before` to `after` changed, as they were before it (an undo; a redo
    is the revert of an undo). `line` is the history's line for it."""

    before: d.Design
    after: d.Design
    line: str

    def apply(self, design: d.Design) -> d.Design:
        return revert(before=self.before, after=self.after, current=design)

    def summary(self, before: d.Design, after: d.Design) -> str:
        return self.line
