"""Concurrent edits and undo, element by element.

An edit is a function from a design to a design (the `apply` of a command of
`modeler.design.edits`). One made on a page that showed an older revision
(`base`) is replayed on the current design when the elements it changes are
not the ones changed since:
two people editing two entities both save. When they are the same element,
and the two values differ, the edit is a `Conflict` that the person decides:
keep theirs, keep mine, or merge by hand.

Undoing a revision puts back, in the current design, the elements that the
revision changed, as they were before it, if nobody changed them since.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.history.elements import Element, changed, elements, replaced

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


def rebase(edit: Edit, *, base: d.Design, current: d.Design) -> d.Design:
    """`edit`, made on `base`, applied to `current`. Raises Conflict when
    that would change an element that changed, otherwise, since `base`:
    the element the edit changes, or one the replay changes (clearing a list
    that someone filled since, renaming in a pattern someone wrote since)."""
    if current is base:
        return edit(current)
    theirs = set(changed(base, current))
    before, now = elements(base), elements(current)

    def clashes(edited: d.Design, keys: list[str]) -> tuple[Clash, ...]:
        after = elements(edited)
        return tuple(
            Clash(key, before.get(key), now.get(key), after.get(key))
            for key in keys
            if key in theirs and not _same(now.get(key), after.get(key))
        )

    # First what the edit meant on the page, so that an edit of an element
    # renamed or removed since is told as that, not as "it no longer exists".
    mine = edit(base)
    found = clashes(mine, changed(base, mine))
    if not found:
        replayed = edit(current)
        found = clashes(replayed, changed(current, replayed))
    if found:
        raise Conflict(found)
    return replayed


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
        if not _same(now.get(key), new.get(key))
    )
    if clashes:
        raise Conflict(clashes)
    reverted = replaced(current, {key: old.get(key) for key in ids}, order=before)
    return _reordered(reverted, before=before, after=after)


def _same(a: Element | None, b: Element | None) -> bool:
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
