"""How each access pattern is served: Scans, several requests, filters that
discard most of what is read, strongly consistent reads on a GSI,
transactions past DynamoDB's limits, sort keys that cannot serve a range."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding, finding
from modeler.design.parameters import placeholders
from modeler.keys import TemplateSyntaxError, parse_template
from modeler.keys.template import Literal
from modeler.review.checks.causes import broken_cause
from modeler.review.checks.common import (
    action_count,
    pattern_location,
    plural,
    units,
)
from modeler.review.evidence import Evidence
from modeler.review.fetch_back import fetch_back
from modeler.simulation import PatternRun

FILTER_RATIO_WARNING = 10  # the simulator fails a read that reads 10x more
FILTER_RATIO_ADVICE = 3
INTERACTIVE_RPS = 1.0  # a Scan at this peak or more is a user-facing read
# A second read this many times the query's own units that would be the
# design's largest read cost at peak is a warning rather than advice.
COSTLY_FETCH_RATIO = 10
MAX_TRANSACTION_ITEMS = 100
MAX_TRANSACTION_BYTES = 4 * 1024 * 1024
_RANGE_OPERATORS = ("<", "<=", ">", ">=", "between", "begins_with")
# A run's error that DynamoDB gave ("ValidationException: ..."), as opposed
# to the simulator's own.
_DYNAMODB_ERROR = re.compile(r"\A[A-Za-z]+(?:Exception|Error): ")
# The simulator's error for a key condition that no promised item's key
# meets (`Simulation._nothing_fits`).
_KEY_MATCHES_NOTHING = "the key condition "


def check_patterns(evidence: Evidence) -> Iterator[Finding]:
    design = evidence.design
    for position, pattern in enumerate(design.access_patterns):
        if not pattern.keyed:
            yield _unkeyed(design, position)
            continue
        run = evidence.runs.get(position)
        if run is not None and (
            run.error or run.verdict.broken or run.failed_draw is not None
        ):
            yield _broken_promise(evidence, position)
        if pattern.operation == "Scan":
            yield _scan(evidence, position)
        elif pattern.operation == "Query" and run is not None and not run.error:
            yield from _pages(evidence, position)
            yield from _filter_ratio(evidence, position)
        if pattern.operation in ("Query", "Scan"):
            yield from _fetch_back(evidence, position)
        if pattern.consistent_read:
            yield from _strong_gsi_read(design, position)
        if pattern.operation in ("TransactWriteItems", "TransactGetItems"):
            yield from _transaction_limits(evidence, position)
        if pattern.operation == "Query":
            yield from _sort_range(design, position)


def _unkeyed(design: d.Design, position: int) -> Finding:
    """A pattern stated by what it needs: nothing serves it yet."""
    pattern = design.access_patterns[position]
    return finding(
        "pattern-fails",
        "error",
        f"{pattern.name} has no key yet",
        pattern_location(design, position),
        why="The pattern says what it needs but no operation, index or key "
        "serves it, so it was not run: nothing shows that the table can "
        "answer it, or what it would cost.",
        fix="Propose keys for the design, or write the pattern's operation and key.",
    )


def _broken_promise(evidence: Evidence, position: int) -> Finding:
    """The pattern did not return what it promises (or could not run)."""
    design = evidence.design
    pattern = design.access_patterns[position]
    run = evidence.runs[position]
    drawn = ", ".join(f"{k}={v}" for k, v in run.parameters.items())
    shown = f" with {drawn}" if drawn else ""
    if run.error:
        return _failed_run(design, position, run, shown)
    verdict = run.verdict
    if not verdict.broken and run.failed_draw is not None:
        # The first run kept the promise; a further draw did not.
        draw = run.failed_draw
        verdict = draw.verdict
        drawn = ", ".join(f"{k}={v}" for k, v in draw.parameters.items())
        shown = f" on a {draw.kind} draw with {drawn}"
    lines = [f"{reason}{shown}" for reason in verdict.broken]
    lines += [f"missing: {_named(key)}" for key in verdict.missing]
    lines += [f"not promised: {_named(key)}" for key in verdict.extra]
    consequence = (
        "Run against the sample data, the pattern's request returns other "
        "items than the ones its expectation describes, so the application "
        "would show wrong results."
    )
    cause = broken_cause(evidence, position, run)
    return finding(
        "pattern-fails",
        "error",
        f"{pattern.name} does not return what it promises",
        pattern_location(design, position),
        why=consequence if cause is None else f"{cause.cause} {consequence}",
        evidence=lines,
        fix="Make the key condition (or the key templates it reads) select "
        "exactly the promised items, or correct the expectation if it is the "
        "promise that is wrong."
        if cause is None
        else cause.fix,
    )


def _failed_run(
    design: d.Design, position: int, run: PatternRun, shown: str
) -> Finding:
    """A run that returned nothing to judge: DynamoDB refused the request
    (its error code says so), no item of the sample data is under the key
    condition (DynamoDB runs such a request: it returns other items, or
    none), or the simulator could not build the request."""
    pattern = design.access_patterns[position]
    location = pattern_location(design, position)
    if _DYNAMODB_ERROR.match(run.error):
        return finding(
            "pattern-fails",
            "error",
            f"{pattern.name} cannot run",
            location,
            why=f"DynamoDB refuses its request{shown}: {run.error}.",
            fix="Correct the pattern's keys, index or expressions so that the "
            "request is valid; the Simulation section shows the request.",
        )
    if run.error.startswith(_KEY_MATCHES_NOTHING):
        return finding(
            "pattern-fails",
            "error",
            f"{pattern.name} reads none of the items it promises",
            location,
            why=f"Its key condition selects none of the promised items: "
            f"{run.error}. DynamoDB runs such a request and returns other items "
            "(or none), so the application would show wrong results.",
            fix="Write the key condition as the promised items' keys are "
            "written (the same literal prefix and parts), or correct the "
            "entity's key template.",
        )
    return finding(
        "pattern-fails",
        "error",
        f"{pattern.name} was not simulated",
        location,
        why=f"The simulator could not make the pattern's request{shown}: {run.error}.",
        fix="Give the pattern's parameters example values, or sample data "
        "that its request can read; the Simulation section shows what is "
        "missing.",
    )


def _largest_read(evidence: Evidence) -> float:
    """The largest RCU per second at peak that one read pattern's own
    requests take."""
    design = evidence.design
    return max(
        (
            run.capacity.read
            * max(design.access_patterns[p].traffic.peak_rps, run.pattern.traffic.rps)
            for p, run in evidence.runs.items()
            if run is not None and not run.error and run.pattern.is_read
        ),
        default=0.0,
    )


def _named(key: Any) -> str:
    """An item's key (a tuple of its key values) as text."""
    values = key if isinstance(key, tuple) else (key,)
    return " / ".join(str(v) for v in values)


def _scan(evidence: Evidence, position: int) -> Finding:
    design = evidence.design
    pattern = design.access_patterns[position]
    run = evidence.runs.get(position)
    peak = max(pattern.traffic.peak_rps, pattern.traffic.rps)
    facts = []
    if run is not None and not run.error:
        facts.append(
            f"the simulated Scan read {plural(run.scanned_count, 'item')} to return "
            f"{run.count} in {plural(run.pages, 'page')} for "
            f"{units(run.capacity.read)} RCU"
        )
    if evidence.items:
        facts.append(f"{len(evidence.items):,} items in the sample table")
    facts.append(f"peak {peak:g} requests/s")
    serving = _serving_index(design, pattern)
    severity = "error" if peak >= INTERACTIVE_RPS else "warning"
    figures = {
        "scanned": run.scanned_count if run else 0,
        "returned": run.count if run else 0,
        "peak_rps": peak,
    }
    if serving is not None:
        index_name, template = serving
        return finding(
            "scan",
            severity,
            "Served by a Scan",
            pattern_location(design, position),
            why="A Scan reads and pays for every item in the table or index, so "
            "its cost and latency grow with the table, not with the answer.",
            evidence=facts,
            fix=f"Query {index_name} with the partition key {template} instead.",
            figures=figures,
        )
    return finding(
        "no-index",
        severity,
        "No index can serve this pattern",
        pattern_location(design, position),
        why="Without a key that selects its items, the pattern can only Scan, "
        "reading and paying for every item in the table.",
        evidence=facts,
        fix=_index_suggestion(pattern),
        figures=figures,
    )


def _equalities(pattern: d.AccessPattern) -> dict[str, str]:
    if pattern.expects is None:
        return {}
    return {
        p.attribute: p.values[0]
        for p in pattern.expects.where
        if p.operator == "=" and p.values
    }


def _serving_index(
    design: d.Design, pattern: d.AccessPattern
) -> tuple[str, str] | None:
    """An index (or the table) whose partition key, for every entity the
    pattern returns, is made only of attributes the pattern fixes."""
    if pattern.expects is None:
        return None
    fixed = set(_equalities(pattern))
    table = design.table
    places: list[tuple[str, tuple[str, ...]]] = [
        (d.TABLE_INDEX, (table.partition_key.name,))
    ]
    places += [
        (i.name, tuple(a.name for a in i.partition_key))
        for i in table.indexes
        if i.is_global
    ]
    for name, attributes in places:
        templates = []
        for entity_name in pattern.expects.entities:
            entity = design.entity(entity_name)
            keys = [entity.keys.get(a) for a in attributes] if entity else [None]
            if any(k is None or k.when for k in keys):
                break
            used = {p for k in keys if k for p in placeholders(k.template)}
            if not used or not used <= fixed:
                break
            templates.append(" + ".join(f"'{k.template}'" for k in keys if k))
        else:
            label = "the table" if name == d.TABLE_INDEX else f"index {name}"
            return label, templates[0]
    return None


def _index_suggestion(pattern: d.AccessPattern) -> str:
    fixed = _equalities(pattern)
    if not fixed:
        return (
            "Give the pattern an attribute that selects its items (expects.where "
            "with '='), then add a GSI keyed on it; a report over everything "
            "belongs in an export (S3 export, a stream), not in a Scan."
        )
    literals = {a: v for a, v in fixed.items() if not placeholders(v)}
    scoped = [a for a, v in fixed.items() if placeholders(v)]
    if literals:
        # A status's working set, within the scope the pattern fixes (a
        # customer's open orders): a sparse index keyed by both.
        key = "#".join(
            [f"{a.upper()}#{{{a}}}" for a in scoped] + list(literals.values())
        )
        while_ = " and ".join(f"{a} = {v}" for a, v in literals.items())
        return (
            f"Add a sparse GSI whose partition key is '{key}', written only "
            f"while {while_} (remove the key when it changes), so the index "
            "holds just those items, and Query it."
        )
    attribute = scoped[0]
    return (
        f"Add a GSI whose partition key is '{attribute.upper()}#{{{attribute}}}', "
        "and Query it."
    )


def _pages(evidence: Evidence, position: int) -> Iterator[Finding]:
    design = evidence.design
    pattern = design.access_patterns[position]
    run = evidence.runs[position]
    if run.pages <= 1 or pattern.limit is not None:
        return
    yield finding(
        "several-requests",
        "warning",
        "Needs more than one request",
        pattern_location(design, position),
        why="Each page is another round trip: a read that cannot be answered in "
        "one request is slow for users and can time out as the data grows.",
        evidence=[
            f"the simulated Query needed {run.pages} pages of up to 1 MB",
            f"it read {plural(run.scanned_count, 'item')} for "
            f"{units(run.capacity.read)} RCU",
        ],
        fix="Narrow the key condition (a sort key range), add a Limit and "
        "paginate on purpose, or project fewer attributes into a GSI.",
        figures={"pages": run.pages, "scanned": run.scanned_count},
    )


def _fetch_back(evidence: Evidence, position: int) -> Iterator[Finding]:
    """A GSI returns only what it projects: a pattern that returns whole
    entities from a KEYS_ONLY or INCLUDE index needs a second request to
    fetch the rest of each item. Costly enough (10 times the query's own
    units, and more at peak than any pattern's own reads), it is a
    warning."""
    design = evidence.design
    pattern = design.access_patterns[position]
    second = fetch_back(evidence, position)
    index = design.table.index(pattern.index)
    # A second request is found only for a GSI pattern that expects entities.
    if second is None or index is None or pattern.expects is None:
        return
    names = ", ".join(second.missing)
    one = len(second.missing) == 1
    facts = [
        f"{index.name} projects {index.projection.type}; {names} of "
        f"{', '.join(pattern.expects.entities)} {'is' if one else 'are'} not in it"
    ]
    figures: dict[str, float] = {"missing": len(second.missing)}
    severity = "advice"
    if second.requests:
        facts.append(
            f"the simulated query returned {plural(second.items, 'item')}: "
            f"{plural(second.requests, 'BatchGetItem request')} and about "
            f"{units(second.rcu)} RCU more to fetch them"
        )
        figures |= {"requests": second.requests, "rcu": second.rcu}
        run = evidence.runs[position]
        peak = max(pattern.traffic.peak_rps, pattern.traffic.rps)
        if run.capacity.read:
            ratio = second.rcu / run.capacity.read
            figures["ratio"] = ratio
            facts.append(
                f"{ratio:,.1f} times the query's own {units(run.capacity.read)} "
                f"RCU; {units(second.rcu * peak)} RCU/s more at peak"
            )
            if ratio >= COSTLY_FETCH_RATIO and second.rcu * peak >= _largest_read(
                evidence
            ):
                severity = "warning"
                facts.append(
                    "at peak the second read costs more than any pattern's own "
                    "reads: it would be the design's largest read cost"
                )
    yield finding(
        "fetch-back",
        severity,
        "Needs a second request for unprojected attributes",
        pattern_location(design, position),
        why="A GSI query returns only the attributes the index projects; "
        "the rest of each item takes another round trip to the table.",
        evidence=facts,
        fix=f"If the caller needs {names}, add {'it' if one else 'them'} to "
        f"{index.name}'s INCLUDE projection (or project ALL); if it does not, "
        "list what it reads in the pattern's projection.",
        figures=figures,
    )


def _filter_ratio(evidence: Evidence, position: int) -> Iterator[Finding]:
    design = evidence.design
    pattern = design.access_patterns[position]
    run = evidence.runs[position]
    if not pattern.filter or run.scanned_count == 0:
        return
    ratio = run.scanned_count / max(run.count, 1)
    if ratio < FILTER_RATIO_ADVICE:
        return
    severity = "warning" if ratio >= FILTER_RATIO_WARNING else "advice"
    yield finding(
        "filter-ratio",
        severity,
        "Reads many times what it returns",
        pattern_location(design, position),
        why="A filter runs after the read: every item read is paid for, so a "
        "filter that discards most of them wastes that capacity.",
        evidence=[
            f"ScannedCount {run.scanned_count:,} for Count {run.count:,} "
            f"({ratio:.1f} items read per item returned)",
            f"{units(run.capacity.read)} RCU per request",
            f"filter: {pattern.filter}",
        ],
        fix="Move what the filter tests into the key: put it in the sort key "
        "(coarse to fine) or key a GSI on it, so the key condition selects "
        "only the items the pattern returns.",
        figures={"ratio": ratio, "scanned": run.scanned_count, "count": run.count},
    )


def _strong_gsi_read(design: d.Design, position: int) -> Iterator[Finding]:
    pattern = design.access_patterns[position]
    index = design.table.index(pattern.index)
    if index is None or not index.is_global:
        return
    yield finding(
        "strong-gsi-read",
        "error",
        "Strongly consistent read on a GSI",
        pattern_location(design, position),
        why="GSIs are updated asynchronously and DynamoDB rejects "
        "ConsistentRead=true on them with a ValidationException.",
        evidence=[f"consistent_read: true on {index.kind} index {index.name}"],
        fix="GetItem the base item (strongly consistent) when the read must see "
        "the latest write, or accept the index's short delay and read it "
        "eventually consistently; an LSI also offers strong reads.",
    )


def _transaction_limits(evidence: Evidence, position: int) -> Iterator[Finding]:
    design = evidence.design
    pattern = design.access_patterns[position]
    count = 0
    largest = 0
    for action in pattern.actions:
        n = action_count(pattern, action)
        count += n
        stats = evidence.entity_sizes.get(action.entity)
        largest += n * (stats.largest if stats else 0)
    location = pattern_location(design, position)
    if count > MAX_TRANSACTION_ITEMS:
        yield finding(
            "transaction-items",
            "error",
            "Transaction over 100 items",
            location,
            why="DynamoDB refuses a transaction of more than 100 items, so this "
            "write fails every time.",
            evidence=[f"{count} items, counting each action's count"],
            fix="Keep in the transaction only the items that must change "
            "together, and write the rest after it. Splitting it into "
            "transactions of at most 100 items breaks its atomicity: do that "
            "only if each part may succeed while another fails.",
            figures={"items": count},
        )
    if largest > MAX_TRANSACTION_BYTES:
        yield finding(
            "transaction-size",
            "error",
            "Transaction over 4 MB",
            location,
            why="DynamoDB refuses a transaction whose items add up to more than 4 MB.",
            evidence=[
                f"{count} items of up to {largest / 1024 / 1024:.1f} MB in all "
                "(the largest sample item of each entity)"
            ],
            fix="Write the large items outside the transaction (or keep their "
            "large attributes in S3), and transact only the small items.",
            figures={"bytes": largest, "items": count},
        )


def _sort_range(design: d.Design, position: int) -> Iterator[Finding]:
    """The sort key must hold the attribute a pattern ranges over or orders
    by, after only the parts the pattern fixes: components run coarse to
    fine."""
    pattern = design.access_patterns[position]
    expects = pattern.expects
    if expects is None:
        return
    index = design.table.index(pattern.index)
    sort_names: tuple[str, ...]
    if index is None:
        sort_names = (design.table.sort_key.name,) if design.table.sort_key else ()
    else:
        sort_names = tuple(a.name for a in index.sort_key)
    if len(sort_names) != 1:
        return  # no sort key, or a multi-attribute one with its own checks
    fixed = set(_equalities(pattern))
    wanted = [
        (p.attribute, f"the range '{p.attribute} {p.operator}'")
        for p in expects.where
        if p.operator in _RANGE_OPERATORS
    ]
    if expects.order_by and len(expects.entities) == 1:
        first = expects.order_by[0].lstrip("+-")
        wanted.append((first, f"the order by {first}"))
    # A predicate on a key attribute itself is a key condition already.
    seen = {a.name for a in design.table.all_key_attributes()}
    for attribute, purpose in wanted:
        if attribute in seen or attribute in fixed:
            continue
        seen.add(attribute)
        for entity_name in expects.entities:
            entity = design.entity(entity_name)
            key = entity.keys.get(sort_names[0]) if entity else None
            if key is None:
                continue
            try:
                template = parse_template(key.template)
            except TemplateSyntaxError:
                continue
            names = [p.attribute for p in template.parts if not isinstance(p, Literal)]
            if attribute in names:
                before = [n for n in names[: names.index(attribute)] if n not in fixed]
                if not before:
                    continue
                problem = (
                    f"{sort_names[0]} '{key.template}' puts "
                    f"{', '.join(before)} before {attribute}, and the pattern "
                    f"does not fix {'them' if len(before) > 1 else 'it'}"
                )
            else:
                problem = (
                    f"{sort_names[0]} '{key.template}' of {entity_name} does not "
                    f"contain {attribute}"
                )
            yield finding(
                "sort-key-range",
                "warning",
                "Sort key cannot serve the pattern's range",
                pattern_location(design, position),
                why=f"A key condition reads one contiguous run of sort keys, so "
                f"{purpose} must come from the sort key rather than from a "
                "filter or from sorting in the application.",
                evidence=[problem],
                fix=f"Order the sort key coarse to fine: the parts the pattern "
                f"fixes first, then {attribute} (ISO-8601 for dates, zero-padded "
                "numbers), then what makes the key unique.",
            )
            break
