"""What changed between two versions of a design, element by element (the
table's settings, each index, entity and access pattern, the project's name
and description, the sample seed and own items), with each element's two
versions as the design file writes them; the key templates that changed
(the key map's cells); and the consequences the review measures: patterns
whose verdict changed, findings that appeared or went away, the monthly
cost before and after."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from modeler.design import model as d
from modeler.designfile import dump_design, dump_element
from modeler.history.elements import (
    changed,
    changed_fields,
    element_identities,
    elements,
    summary,
)

if TYPE_CHECKING:  # (the review brings the simulator: not needed to diff)
    from modeler.review.review import Review


@dataclass(frozen=True)
class ElementChange:
    label: str  # entity Order (as it is after, or before if removed)
    change: str  # added, removed or changed
    fields: tuple[str, ...]  # what changed, for a changed element
    before: str  # as the design file writes it; '' if added
    after: str  # '' if removed


@dataclass(frozen=True)
class DesignDiff:
    summary: str  # one line: "renamed entity Order to Purchase and 2 more changes"
    changes: tuple[ElementChange, ...]
    # (entity, key attribute) whose template changed, was added or removed.
    key_cells: frozenset[tuple[str, str]]

    @property
    def is_empty(self) -> bool:
        return not self.changes


def design_diff(before: d.Design, after: d.Design) -> DesignDiff:
    old, new = elements(before), elements(after)
    changes = []
    for element_id in changed(before, after):
        was, now = old.get(element_id), new.get(element_id)
        fields: tuple[str, ...]
        if was is None:
            change, fields = "added", ()
        elif now is None:
            change, fields = "removed", ()
        else:
            change, fields = "changed", tuple(changed_fields(was, now))
        shown = now or was
        changes.append(
            ElementChange(
                label=shown.label,  # type: ignore[union-attr]  # was or now is there
                change=change,
                fields=fields,
                before=dump_element(was.kind, was.value) if was else "",
                after=dump_element(now.kind, now.value) if now else "",
            )
        )
    return DesignDiff(
        summary=summary(before, after) if changes else "no change",
        changes=tuple(changes),
        key_cells=_key_cells(before, after),
    )


def _key_cells(before: d.Design, after: d.Design) -> frozenset[tuple[str, str]]:
    """The cells whose template changed, named as `after` names them (as
    `before` for a removed entity). Entities are matched by identity: a
    renamed entity's unchanged templates are not changes."""

    def templates(design: d.Design) -> dict[tuple[str, str], d.KeyTemplate]:
        return {
            (entity.uid or entity.name, attr): template
            for entity in design.entities
            for attr, template in entity.keys.items()
        }

    names = {e.uid or e.name: e.name for e in (*before.entities, *after.entities)}
    names |= {e.uid or e.name: e.name for e in after.entities}
    old, new = templates(before), templates(after)
    return frozenset(
        (names[entity], attr)
        for entity, attr in old.keys() | new.keys()
        if old.get((entity, attr)) != new.get((entity, attr))
    )


def diff_text(
    before: d.Design,
    after: d.Design,
    *,
    title: str,
    outcome: Consequences | None = None,
) -> str:
    """The diff to download: a header line per changed element, what the
    change does to verdicts, findings and cost as the page shows it (or
    that the reviews are still being made, without `outcome`), then the
    design files' unified diff."""
    diff = design_diff(before, after)
    lines = [title, "", f"Changes: {diff.summary}"]
    for change in diff.changes:
        detail = f" ({', '.join(change.fields)})" if change.fields else ""
        lines.append(f"- {change.change} {change.label}{detail}")
    lines.append("")
    if outcome is None:
        lines.append(
            "Consequences: the two revisions are still being simulated and "
            "reviewed; download again in a moment to include them."
        )
    else:
        lines += outcome.lines()
    lines.append("")
    lines += difflib.unified_diff(
        dump_design(before).splitlines(),
        dump_design(after).splitlines(),
        fromfile="before.yaml",
        tofile="after.yaml",
        lineterm="",
    )
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Consequences:
    """What the change does to the review's measures."""

    verdicts: tuple[tuple[str, str, str], ...]  # pattern, before, after
    fixed: tuple[str, ...]  # titles of findings that went away
    new: tuple[str, ...]  # titles of findings that appeared
    cost_before: Decimal
    cost_after: Decimal

    @property
    def cost_change(self) -> Decimal:
        return self.cost_after - self.cost_before

    def sentence(self) -> str:
        """'This change fixes 2 findings, adds 1 and costs $41.20 more a
        month on demand.'"""
        parts = []
        if self.fixed:
            parts.append(f"fixes {_count(len(self.fixed), 'finding')}")
        if self.new:
            parts.append(f"adds {_count(len(self.new), 'finding')}")
        change = self.cost_change.quantize(Decimal("0.01"))
        if change > 0:
            parts.append(f"costs ${change:,} more a month on demand")
        elif change < 0:
            parts.append(f"costs ${-change:,} less a month on demand")
        else:
            parts.append("costs the same on demand")
        if len(parts) > 1:
            parts[-1] = "and " + parts[-1]
        return "This change " + ", ".join(parts) + "."

    def lines(self) -> list[str]:
        """The consequences as the downloaded diff writes them."""
        lines = [f"Consequences: {self.sentence()}"]
        lines.append(
            f"Monthly cost on demand: ${self.cost_before:,.2f} before, "
            f"${self.cost_after:,.2f} after."
        )
        for pattern, was, now in self.verdicts:
            lines.append(f"- verdict of {pattern}: {was} -> {now}")
        lines += [f"- fixed: {title}" for title in self.fixed]
        lines += [f"- new: {title}" for title in self.new]
        return lines


def consequences(before: Review, after: Review) -> Consequences:
    """Patterns and findings are matched by the identity of their element,
    so a rename changes no verdict and moves no finding."""
    pattern_names = {
        p.uid or p.name: p.name
        for p in (*before.design.access_patterns, *after.design.access_patterns)
    }
    pattern_names |= {p.uid or p.name: p.name for p in after.design.access_patterns}

    def verdicts(review: Review) -> dict[str, str]:
        out = {}
        runs = zip(review.design.access_patterns, review.runs, strict=True)
        for pattern, run in runs:
            key = pattern.uid or pattern.name
            if run is None:
                out[key] = "not run"
            elif run.error:
                out[key] = "error"
            else:
                out[key] = "passes" if run.passed else "fails"
        return out

    old, new = verdicts(before), verdicts(after)
    changed_verdicts = tuple(
        (pattern_names[key], old.get(key, "absent"), new.get(key, "absent"))
        for key in [*new, *(k for k in old if k not in new)]
        if old.get(key) != new.get(key)
    )

    def titles(review: Review) -> dict[tuple[str, str, str], str]:
        identity = element_identities(review.design)
        return {
            (
                f.code,
                f.location.kind,
                identity.get((f.location.kind, f.location.name), f.location.name),
            ): f"{f.severity}: {f.message}"
            for f in review.findings
        }

    was, now = titles(before), titles(after)
    return Consequences(
        verdicts=changed_verdicts,
        fixed=tuple(title for key, title in was.items() if key not in now),
        new=tuple(title for key, title in now.items() if key not in was),
        cost_before=before.cost.total_on_demand,
        cost_after=after.cost.total_on_demand,
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
