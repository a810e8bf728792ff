"""A proposal as the command prints it and as the page lays it out: each
alternative's key map, how each pattern is served, its figures and why."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from modeler.design import model as d
from modeler.solver.propose import Alternative, Proposal


@dataclass(frozen=True)
class KeyMap:
    """The key attributes as columns (table keys, then each index's) and a
    row per entity of its templates (`""` where it has none)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]


def key_map(design: d.Design) -> KeyMap:
    columns = tuple(a.name for a in design.table.all_key_attributes())
    rows = []
    for entity in design.entities:
        cells = []
        for name in columns:
            template = entity.keys.get(name)
            if template is None:
                cells.append("")
            elif template.when:
                cells.append(f"{template.template} (while {template.when})")
            else:
                cells.append(template.template)
        rows.append((entity.name, tuple(cells)))
    return KeyMap(columns, tuple(rows))


def money(amount: Decimal | None) -> str:
    return "not costed" if amount is None else f"${amount:,.2f}"


def headline(alternative: Alternative) -> str:
    count = alternative.index_count
    return (
        f"{count} {'index' if count == 1 else 'indexes'}, "
        f"{money(alternative.monthly_cost)} a month at the stated traffic"
    )


def verdict(alternative: Alternative) -> str:
    review = alternative.review
    if alternative.proven and review is not None:  # proven implies reviewed
        runs = [r for r in review.runs if r is not None]
        return (
            f"proven: all {len(runs)} access patterns pass every draw in the "
            "simulation, and the review finds no error or warning"
        )
    parts = []
    if alternative.problem:
        parts.append(f"not simulated: {alternative.problem}")
    if alternative.failed:
        parts.append("fails in the simulation: " + ", ".join(alternative.failed))
    for found in alternative.findings:
        parts.append(f"{found.severity}: {found.message} ({found.location})")
    if alternative.plan.unserved:
        parts.append(f"{len(alternative.plan.unserved)} patterns not served")
    if alternative.sharding:
        parts.append(
            f"{len(alternative.sharding)} "
            + (
                "partition takes"
                if len(alternative.sharding) == 1
                else "partitions take"
            )
            + " more writes than a partition carries (see the write sharding needed)"
        )
    return "not proven: " + "; ".join(parts)


def proposal_lines(original: d.Design, proposal: Proposal) -> Iterator[str]:
    count = len(proposal.alternatives)
    yield (
        f"{original.name}: {count} proposal{'s' * (count != 1)} "
        f"({proposal.checked} design{'s' * (proposal.checked != 1)} simulated "
        "and reviewed in "
        f"{proposal.elapsed:.1f} s of CPU"
        + ("; out of time, the best found so far" if proposal.out_of_time else "")
        + ")."
    )
    if proposal.nothing:
        yield proposal.nothing
    if proposal.yours is not None:
        yield f"Yours: {headline(proposal.yours)}; {verdict(proposal.yours)}."
    for number, alternative in enumerate(proposal.alternatives, 1):
        yield ""
        yield f"Proposal {number}: {headline(alternative)}."
        yield f"  {verdict(alternative)}."
        table = key_map(alternative.design)
        width = max([len(name) for name, _ in table.rows] + [6])
        yield "  Key map:"
        for name, cells in table.rows:
            shown = "  ".join(
                f"{column}={cell}"
                for column, cell in zip(table.columns, cells, strict=True)
                if cell
            )
            yield f"    {name.ljust(width)}  {shown}"
        yield "  Served:"
        for pattern, how in alternative.served_by():
            yield f"    {pattern}: {how}"
        yield "  Why:"
        for reason in alternative.reasons:
            yield f"    - {reason}"
        if alternative.sharding:
            yield "  Write sharding needed:"
            for line in alternative.sharding:
                yield f"    - {line}."
    if proposal.unserved:
        yield ""
        yield "Not served by any proposal:"
        for found in proposal.unserved:
            yield f"  {found.location.name}: {found.message}."
