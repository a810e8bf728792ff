"""The access-pattern map: one row per pattern with the request DynamoDB
receives, its parameters left as `{placeholders}`: the key condition with
its `#name` and `:value` aliases, the filter, the projection, and what the
pattern promises to return."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.presenters import expectation_text
from modeler.simulation import PatternRun, Verdict
from modeler.simulation.requests import ExpressionBuilder, RequestError


class _Symbolic(dict):
    """Parameter values that stand for themselves: `{customerId}`."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


@dataclass(frozen=True)
class PatternRow:
    position: int
    name: str
    description: str
    kind: str  # read or write
    operation: str
    index: str
    key: str  # KeyConditionExpression, or the Key of a GetItem, or the items written
    filter: str
    projection: str
    values: tuple[tuple[str, str], ...]  # :value -> the template it stands for
    names: tuple[tuple[str, str], ...]  # #name -> attribute
    options: tuple[str, ...]  # ScanIndexForward=false, Limit=20...
    returns: str
    scan: bool  # reads a whole table or index
    problem: str = ""
    keyed: bool = True  # False for a pattern stated by what it needs


def pattern_map(design: d.Design) -> list[PatternRow]:
    return [_row(design, i, p) for i, p in enumerate(design.access_patterns)]


def _row(design: d.Design, position: int, pattern: d.AccessPattern) -> PatternRow:
    builder = ExpressionBuilder.new(_Symbolic())
    key = filter_text = projection = problem = ""
    try:
        if pattern.operation == "Query":
            key = _key_condition(pattern.key, builder)
        elif pattern.operation == "GetItem":
            key = _key_object(pattern.key, builder)
        elif pattern.keyed and pattern.operation != "Scan":
            key = _actions_text(design, pattern)
        if pattern.filter:
            filter_text = builder.text(pattern.filter)
        if pattern.projection:
            projection = ", ".join(builder.name(a) for a in pattern.projection)
    except RequestError as exc:
        problem = str(exc)
    options = []
    if pattern.operation == "Query" and not pattern.scan_forward:
        options.append("ScanIndexForward=false")
    if pattern.limit is not None:
        options.append(f"Limit={pattern.limit}")
    if pattern.consistent_read:
        options.append("ConsistentRead=true")
    return PatternRow(
        position=position,
        name=pattern.name,
        description=pattern.description,
        kind=pattern.kind,
        operation=pattern.operation_label,
        index=pattern.index if pattern.keyed else "",
        key=key,
        filter=filter_text,
        projection=projection,
        values=tuple((k, str(v)) for k, v in builder.values.items()),
        names=tuple(builder.names.items()),
        options=tuple(options),
        returns=expectation_text(pattern.expects),
        scan=pattern.operation == "Scan",
        problem=problem,
        keyed=pattern.keyed,
    )


def _key_condition(clauses: tuple[d.KeyClause, ...], builder: ExpressionBuilder) -> str:
    parts = []
    for clause in clauses:
        name = builder.name(clause.attribute)
        values = [builder.value(v, clause.attribute) for v in clause.values]
        if clause.operator == "between":
            parts.append(f"{name} BETWEEN {values[0]} AND {values[1]}")
        elif clause.operator == "begins_with":
            parts.append(f"begins_with({name}, {values[0]})")
        else:
            parts.append(f"{name} {clause.operator} {values[0]}")
    return " AND ".join(parts)


def _key_object(clauses: tuple[d.KeyClause, ...], builder: ExpressionBuilder) -> str:
    del builder  # a GetItem names its key attributes as they are
    return json.dumps(
        {c.attribute: c.values[0] if c.values else "" for c in clauses},
        ensure_ascii=False,
    )


def _actions_text(design: d.Design, pattern: d.AccessPattern) -> str:
    """The items a write (or a batch or transaction) touches, by entity
    and key template."""
    parts = []
    for action in pattern.actions:
        if action.key:
            key = ", ".join(f"{c.attribute} = {c.values[0]}" for c in action.key)
        else:
            entity = design.entity(action.entity)
            key = ", ".join(
                f"{a.name} = {entity.keys[a.name].template}"
                for a in design.table.key_attributes
                if entity is not None and a.name in entity.keys
            )
        text = f"{action.operation} {action.entity} ({key})"
        if action.count:
            text += f" × {action.count}"
        if action.condition:
            text += f" if {action.condition}"
        parts.append(text)
    return "; ".join(parts)


def run_verdicts(runs: Iterable[PatternRun | None]) -> list[Verdict]:
    """Each run's verdict (a run the simulator failed on fails, saying so)."""
    return [
        Verdict(False, ("not run",))
        if run is None
        else (run.verdict if not run.error else Verdict(False, (run.error,)))
        for run in runs
    ]
