"""Concurrent edits and undo, element by element.

An edit is a function from a design to a design (the `apply` of a command of
`modeler.design.edits`). One made on a page that showed an older revision
(`base`) is replayed on the current design when the elements it changes are
not the ones changed since:
two people editing two entities both save. When they are the same element,
it is merged field by field (`modeler.history.fields`): each side's changes
the other did not touch are kept; the fields both changed, to different
values, are a `Conflict` that the person decides field by field. An edit of
an element that was renamed since follows it (by its uid); one of an element
that was removed since is a `Conflict` whose `theirs` is None.

Undoing a revision puts back, in the current design, the elements that the
revision changed, as they were before it, if nobody changed them since.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.design.renames import entity_attributes_renamed, entity_renamed
from modeler.history.elements import Element, changed, elements, replaced
from modeler.history.fields import FieldClash, merge_fields

Edit = Callable[[d.Design], d.Design]


@dataclass(frozen=True)
class Clash:
    """One element changed on both sides: as the page showed it (`base`),
    as saved since (`theirs`) and as this edit makes it (`mine`); None where
    it does not exist."""

    id: str
    base: Element | None
    theirs: Element | None
    mine: Element | None
    # When the element was merged field by field: the fields both sides
    # changed, and the merged element (mine in those fields).
    fields: tuple[FieldClash, ...] = ()
    merged: Element | None = None

    @property
    def label(self) -> str:
        shown = self.mine or self.theirs or self.base
        return shown.label if shown else self.id


class Conflict(Exception):
    def __init__(self, clashes: tuple[Clash, ...]) -> None:
        super().__init__(
            "changed since: " + ", ".join(clash.label for clash in clashes)
        )
        self.clashes = clashes


def rebase(
    edit: Edit, *, base: d.Design, current: d.Design, keep_mine: bool = False
) -> d.Design:
    """`edit`, made on `base`, applied to `current`. Raises Conflict when
    that would change an element that changed, otherwise, since `base`:
    the element the edit changes, or one the replay changes (clearing a list
    that someone filled since, renaming in a pattern someone wrote since)
    and the elements cannot be merged field by field. With `keep_mine`, the
    fields both changed take mine (the person chose so)."""
    if current is base:
        return edit(current)
    theirs = set(changed(base, current))
    before, now = elements(base), elements(current)

    def clashes(edited: d.Design, keys: list[str]) -> tuple[Clash, ...]:
        after = elements(edited)
        return tuple(
            Clash(key, before.get(key), now.get(key), after.get(key))
            for key in keys
            if key in theirs and not same_element(now.get(key), after.get(key))
        )

    # First what the edit meant on the page, so that an edit of an element
    # renamed or removed since is told as that, not as "it no longer exists".
    mine = edit(base)
    found = clashes(mine, changed(base, mine))
    if found:
        return _merged(
            found, base=base, mine=mine, current=current, keep_mine=keep_mine
        )
    replayed = edit(current)
    # What they added since (a pattern naming an entity or attribute I
    # renamed) is followed, not a clash: I never saw it to change it.
    found = clashes(replayed, [k for k in changed(current, replayed) if k in before])
    if found:
        raise Conflict(found)
    return replayed


def _merged(
    found: tuple[Clash, ...],
    *,
    base: d.Design,
    mine: d.Design,
    current: d.Design,
    keep_mine: bool,
) -> d.Design:
    """`current` with the elements `mine` changed since `base`: those that
    others changed too merged field by field. Conflict, with each clash's
    fields and merged element, when a field was changed by both or an
    element removed by one and changed by the other."""
    merged: dict[str, Element | None] = {}
    unresolved = []
    for clash in found:
        if clash.base is None or clash.theirs is None or clash.mine is None:
            unresolved.append(clash)
            continue
        value, fields = merge_fields(
            clash.base.value, clash.theirs.value, clash.mine.value
        )
        # Named elements take the merged name (one side may have renamed it);
        # the seed and the sample items are values with no name of their own.
        name = getattr(value, "name", clash.mine.name)
        element = dataclasses.replace(clash.mine, name=name, value=value)
        merged[clash.id] = element
        if fields and not keep_mine:
            unresolved.append(
                dataclasses.replace(clash, fields=tuple(fields), merged=element)
            )
    if unresolved:
        raise Conflict(tuple(unresolved))
    now, after = elements(current), elements(mine)
    for key in changed(base, mine):
        if key not in merged:
            merged[key] = after.get(key)
    result = replaced(current, merged, order=mine)
    return _references_followed(result, before=now)


def _references_followed(design: d.Design, *, before: dict[str, Element]) -> d.Design:
    """An entity the merge renamed, or one of its attributes, named by its
    new name where the patterns, the indexes and the other entities refer
    to it."""
    for entity in design.entities:
        old = before.get(entity.uid)
        if old is None or old.kind != "entity":
            continue
        if old.name != entity.name:
            design = entity_renamed(design, old.name, entity.name)
        names = {a.uid: a.name for a in old.value.attributes if a.uid}
        renamed = {
            names[a.uid]: a.name
            for a in entity.attributes
            if a.uid in names and names[a.uid] != a.name
        }
        if renamed:
            design = entity_attributes_renamed(design, entity.name, renamed)
    return design


def revert(*, before: d.Design, after: d.Design, current: d.Design) -> d.Design:
    """`current` with the change from `before` to `after` taken back: the
    elements it changed as they were in `before`, and any collection it
    reordered in `before`'s order. Raises Conflict when one of those elements
    has changed since `after`."""
    ids = changed(before, after)
    old, new, now = elements(before), elements(after), elements(current)
    clashes = tuple(
        Clash(key, new.get(key), now.get(key), old.get(key))
        for key in ids
        if not same_element(now.get(key), new.get(key))
    )
    if clashes:
        raise Conflict(clashes)
    reverted = replaced(current, {key: old.get(key) for key in ids}, order=before)
    return _reordered(reverted, before=before, after=after)


def same_element(a: Element | None, b: Element | None) -> bool:
    """The two versions of an element hold the same (an undo can take it
    back only while it holds what the undone change made)."""
    if a is None or b is None:
        return a is b
    return a.value == b.value and _attribute_ids(a) == _attribute_ids(b)


def _attribute_ids(element: Element) -> list[str]:
    if element.kind != "entity":
        return []
    return [a.uid for a in element.value.attributes]


def _reordered(design: d.Design, *, before: d.Design, after: d.Design) -> d.Design:
    """Collections that `after` reordered (and that still hold the same
    members in the same order) back in `before`'s order."""

    def order(items: tuple) -> list[str]:
        return [item.uid or item.name for item in items]

    def restore(current: tuple, old: tuple, new: tuple) -> tuple:
        if order(old) == order(new) or order(current) != order(new):
            return current
        if sorted(order(old)) != sorted(order(current)):
            return current
        by_id = {item.uid or item.name: item for item in current}
        return tuple(by_id[key] for key in order(old))

    return dataclasses.replace(
        design,
        table=dataclasses.replace(
            design.table,
            indexes=restore(
                design.table.indexes, before.table.indexes, after.table.indexes
            ),
        ),
        entities=restore(design.entities, before.entities, after.entities),
        access_patterns=restore(
            design.access_patterns, before.access_patterns, after.access_patterns
        ),
    )
