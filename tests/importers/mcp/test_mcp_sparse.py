"""A query of a sparse index, read back from an MCP data model, expects the
items the index's `when` holds for, whatever clauses the condition has:
each becomes the expectation's predicate of its attribute, so the query is
simulated and passes the review."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from modeler.designfile import dump_design, read_design
from modeler.importers.mcp_patterns import mcp_patterns
from modeler.review import review_design
from modeler.simulation.simulate import Simulation

DESIGN = """\
format: single-table-workbench/v1
name: Tickets
table:
  name: tickets
  partition_key: {name: PK, type: S}
  sort_key: {name: SK, type: S}
  indexes:
    - name: GSI1
      kind: global
      partition_key: {name: GSI1PK, type: S}
      sort_key: {name: GSI1SK, type: S}
entities:
  Ticket:
    attributes:
      ticketId: {type: S, generator: ulid}
      status: {type: S, generator: {choice: {OPEN: 3, PENDING: 2, CLOSED: 5}}}
      priority: {type: N, generator: {int: {min: 1, max: 5}}}
      assignee: {type: S, required: false, presence: 0.4, generator: {faker: name}}
    keys:
      PK: "TICKET#{ticketId}"
      SK: "TICKET"
      GSI1PK: {template: "QUEUE", when: WHEN}
      GSI1SK: {template: "{ticketId}", when: WHEN}
    sample: {count: 200}
"""
QUERY = (
    "aws dynamodb query --table-name tickets --index-name GSI1 "
    "--key-condition-expression '#pk = :pk' "
    '--expression-attribute-names \'{"#pk":"GSI1PK"}\' '
    '--expression-attribute-values \'{":pk":{"S":"QUEUE"}}\''
)


def _queue(when: str) -> tuple[Any, dict[str, Any], list[str]]:
    """The design with the sparse index's condition `when` (YAML text), the
    MCP query pattern imported against it, and the import's notes."""
    design = read_design(DESIGN.replace("WHEN", when)).design
    assert design is not None
    notes: list[str] = []
    (pattern,) = mcp_patterns(
        [{"pattern": "1", "description": "The queue", "implementation": QUERY}],
        design,
        "tickets",
        notes,
    )
    return design, pattern, notes


@pytest.mark.parametrize(
    ("when", "where"),
    [
        ("status = OPEN", {"status": "OPEN"}),
        ("status in (OPEN, PENDING)", {"status": {"in": ["OPEN", "PENDING"]}}),
        (
            "status != CLOSED and priority >= 3",
            {"status": {"!=": "CLOSED"}, "priority": {">=": "3"}},
        ),
        ("attribute_exists(assignee)", {"assignee": {"exists": True}}),
        (
            "attribute_not_exists(assignee) and status = OPEN",
            {"assignee": {"not_exists": True}, "status": "OPEN"},
        ),
    ],
)
def test_a_sparse_index_query_expects_what_its_condition_holds_for(when, where):
    design, pattern, notes = _queue(json.dumps(when))

    assert notes == []
    assert pattern["expects"] == {"entity": "Ticket", "where": where}
    doc = yaml.safe_load(dump_design(design))
    doc["access_patterns"] = [pattern]
    read = read_design(yaml.safe_dump(doc, sort_keys=False))
    assert not [p for p in read.problems if p.is_error], read.problems
    imported = read.design
    review = review_design(imported, simulation=Simulation(imported))
    (run,) = [r for r in review.runs if r is not None]
    assert run.passed, run


def test_two_clauses_of_one_attribute_expect_no_predicate_of_it():
    """`priority >= 2 and priority <= 4` is no one predicate: the
    expectation states the key's equalities only, and says so."""
    design, pattern, notes = _queue('"priority >= 2 and priority <= 4"')

    assert pattern["expects"] == {"entity": "Ticket", "where": {}}
    assert notes == [
        "access_patterns[0] (AP1 The queue): carried without the index's "
        "condition `priority >= 2 and priority <= 4` in its expectation, which "
        "states one predicate of priority, not two"
    ]
