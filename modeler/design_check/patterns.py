"""Access patterns: the index and operation, what each operation takes
(key, filter, limit, order), traffic, the expectation and the parameters;
a write's actions are checked by `actions`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.parameters import used_parameter_names
from modeler.design.problems import Problem
from modeler.design_check.actions import check_actions
from modeler.design_check.common import (
    entity_attribute_names,
    error,
    expression_problem,
    warning,
)
from modeler.design_check.pattern_keys import (
    check_full_key,
    check_query_key,
    index_keys,
)


def check_patterns(design: d.Design) -> Iterator[Problem]:
    pattern_counts = Counter(p.name for p in design.access_patterns)
    for i, pattern in enumerate(design.access_patterns):
        path = f"access_patterns[{i}]"
        if pattern_counts[pattern.name] > 1:
            yield error(
                f"{path}.name",
                f"the name '{pattern.name}' is used by another access pattern",
            )
        yield from _check_pattern(design, pattern, path)


def _check_pattern(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    if not pattern.keyed:
        yield from _check_unkeyed_pattern(design, pattern, path)
        return
    op = pattern.operation
    keys = index_keys(design, pattern.index)
    if keys is None:
        known = ", ".join([d.TABLE_INDEX] + [i.name for i in design.table.indexes])
        yield error(
            f"{path}.index",
            f"unknown index '{pattern.index}'; expected one of: {known}",
        )
        return
    index = design.table.index(pattern.index)
    if op in ("GetItem", "BatchGetItem", "TransactGetItems") and index:
        yield error(
            f"{path}.index",
            f"{op} reads the table by primary key; use Query to read an index",
        )
    if index is not None and index.is_global and pattern.consistent_read:
        yield error(
            f"{path}.consistent_read",
            "global secondary indexes support eventually consistent reads only",
        )
    if op == "GetItem":
        yield from check_full_key(pattern.key, keys, f"{path}.key")
    elif op == "Query":
        yield from check_query_key(design, pattern.key, keys, f"{path}.key")
    elif pattern.key:
        yield error(
            f"{path}.key",
            f"{op} takes no key condition"
            + ("; its actions name the items" if pattern.actions else ""),
        )
    if op == "Scan" and not pattern.scan_forward:
        yield error(f"{path}.scan_forward", "a Scan has no order to reverse")
    if op not in ("Query",) and (pattern.limit is not None) and op != "Scan":
        yield error(f"{path}.limit", "only Query and Scan take a limit")
    if pattern.filter:
        yield from _check_filter(pattern, keys, path)
    yield from _check_traffic(pattern, path)
    yield from _check_expectation(design, pattern, path)
    yield from check_actions(design, pattern, path)
    yield from _check_parameters(design, pattern, path)


def _check_filter(
    pattern: d.AccessPattern, keys: tuple, path: str
) -> Iterator[Problem]:
    op = pattern.operation
    if op not in ("Query", "Scan"):
        yield error(
            f"{path}.filter",
            "only Query and Scan take a filter; use condition for writes",
        )
    if op == "Query":
        key_attrs = {a.name for part in keys for a in part}
        for word in re.findall(
            r"[A-Za-z_][A-Za-z0-9_]*", _without_placeholders(pattern.filter)
        ):
            if word in key_attrs:
                yield error(
                    f"{path}.filter",
                    f"'{word}' is a key attribute of "
                    "the index; a Query filter can only use non-key "
                    "attributes: put it in the key condition",
                )
    problem = expression_problem(pattern.filter, "FilterExpression")
    if problem:
        yield error(f"{path}.filter", problem)


def _check_unkeyed_pattern(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    """A read stated by what it needs: its expectation is all there is to
    check until keys are proposed for it."""
    if pattern.expects is None or not pattern.expects.entities:
        yield error(
            f"{path}.needs.entity",
            "is required: the entity (or list of entities) the pattern returns",
        )
    yield from _check_traffic(pattern, path)
    yield from _check_expectation(design, pattern, path)
    yield from _check_parameters(design, pattern, path)


def _check_traffic(pattern: d.AccessPattern, path: str) -> Iterator[Problem]:
    if pattern.traffic.peak_rps < pattern.traffic.rps:
        yield warning(
            f"{path}.traffic.peak_rps",
            f"the peak ({pattern.traffic.peak_rps:g}"
            f"/s) is below the average ({pattern.traffic.rps:g}/s)",
        )


def _without_placeholders(text: str) -> str:
    text = re.sub(r"\{[^{}]*\}", " ", text)
    return re.sub(r'"[^"]*"', " ", text)


def _check_expectation(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    expects = pattern.expects
    if expects is None:
        if pattern.keyed and pattern.is_read:
            yield Problem(
                "advice",
                f"{path}.expects",
                "say what the pattern must "
                "return (entity, predicates, order) so the simulator "
                "can verify it",
            )
        return
    # A pattern stated by what it needs holds its expectation under `needs`.
    path = f"{path}.{'expects' if pattern.keyed else 'needs'}"
    entities = []
    for name in expects.entities:
        entity = design.entity(name)
        if entity is None:
            yield error(f"{path}.entity", f"unknown entity '{name}'")
        else:
            entities.append(entity)
    if not entities:
        return
    known = entity_attribute_names(design, entities)
    for predicate in expects.where:
        if predicate.attribute not in known:
            yield error(
                f"{path}.where.{predicate.attribute}",
                f"no attribute '{predicate.attribute}' on "
                + " or ".join(e.name for e in entities),
            )
        if predicate.operator == "between" and len(predicate.values) != 2:
            yield error(
                f"{path}.where.{predicate.attribute}",
                "between takes two values",
            )
    for item in expects.order_by:
        name = item.lstrip("-+")
        if name not in known:
            yield error(
                f"{path}.order_by",
                f"no attribute '{name}' on " + " or ".join(e.name for e in entities),
            )


def _check_parameters(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    used = set(used_parameter_names(design, pattern))
    names = [p.name for p in pattern.parameters]
    for param in pattern.parameters:
        if names.count(param.name) > 1:
            yield error(f"{path}.parameters.{param.name}", "is declared twice")
        if param.name not in used:
            yield warning(
                f"{path}.parameters.{param.name}",
                "is declared but no key, filter, expectation or action uses it",
            )
        if param.example and param.type == "N":
            try:
                float(param.example)
            except ValueError:
                yield error(
                    f"{path}.parameters.{param.name}.example",
                    f"'{param.example}' is not a number",
                )
