"""One finding type for the design check, the design file's reader, the
review and the key solver: how a finding reads, how severities order and
count, and the stable codes the design check and the review share, by
which `check_design` prints a rule that both apply once (as
tests/test_check_design_review.py holds)."""

from __future__ import annotations

import dataclasses

import pytest

from modeler.design.findings import (
    Finding,
    Location,
    Severity,
    error,
    finding,
    sort_findings,
)
from modeler.design_check import check_design
from modeler.designfile import read_design
from modeler.review import review_design
from tests.review.helpers import design_from

TWO_ERRORS = """\
format: single-table-workbench/v1
name: Broken
table: {name: broken-table, partition_key: PK, sort_key: SK}
entities:
  Order:
    attributes: {orderId: {type: S, generator: ulid}}
    keys: {PK: "ORDER#{orderId}", SK: "ORDER#{missing}"}
access_patterns:
  - name: Order by id
    operation: GetItem
    entity: Order
    key: {PK: "ORDER#{orderId}", SK: "ORDER#{orderId}"}
    consistent_read: maybe
"""


def test_a_problem_of_a_design_file_reads_with_its_line_and_has_a_code():
    result = read_design(TWO_ERRORS)
    assert result.design is None
    by_code = {p.code: p for p in result.problems}
    assert str(by_code["expected-boolean"]) == (
        "line 13: error: access_patterns[0].consistent_read: expected true or "
        "false, found 'maybe'"
    )
    assert by_code["expected-boolean"].severity is Severity.ERROR


def test_a_review_finding_reads_with_its_why_evidence_and_fix():
    found = finding(
        "hot-partition",
        "error",
        "Hot partition: writes",
        Location("table", kind="table", name="t"),
        why="One partition takes 1,000 WCU/s.",
        evidence=["1,500 WCU/s at peak", "one key"],
        fix="Shard the key.",
    )
    assert str(found) == (
        "error: table: Hot partition: writes: One partition takes 1,000 WCU/s. "
        "Evidence: 1,500 WCU/s at peak; one key. Fix: Shard the key."
    )
    assert str(found.location) == "table t"


def test_severities_sort_worst_first_and_count_as_a_reader_says_them():
    advice = error("a", "x", "m")
    findings = [
        dataclasses.replace(advice, severity=Severity.ADVICE),
        dataclasses.replace(advice, severity=Severity.WARNING),
        advice,
    ]
    assert [f.severity for f in sort_findings(findings)] == [
        "error",
        "warning",
        "advice",
    ]
    assert [s.counted(1) for s in Severity] == ["1 error", "1 warning", "1 advice"]
    assert [s.counted(2) for s in Severity] == ["2 errors", "2 warnings", "2 advice"]
    assert [s.heading for s in Severity] == ["Errors", "Warnings", "Advice"]


@pytest.mark.parametrize(
    ("code", "severity", "kind"),
    [
        ("Key Too Long", "error", ""),  # a code is kebab case
        ("key-too-long", "fatal", ""),
        ("key-too-long", "error", "column"),
    ],
)
def test_a_malformed_finding_is_refused(code, severity, kind):
    with pytest.raises(ValueError):
        Finding(code, severity, Location("x", kind=kind), "m")


GSI_READ = """
  indexes:
    - {name: GSI1, partition_key: GSI1PK, projection: KEYS_ONLY}
entities:
  Customer:
    attributes:
      customerId: {type: S, generator: ulid}
      name: {type: S, generator: {faker: name}, max_length: 100}
      n: {type: N, generator: sequence}
    keys:
      PK: "CUST#{customerId}"
      SK: "PROFILE#{n}"
      GSI1PK: "N#{name}"
    sample: {count: 20}
access_patterns:
  - name: By name
    operation: Query
    index: GSI1
    key: {GSI1PK: "N#{name}"}
    consistent_read: true
"""


def test_a_rule_the_design_check_and_the_review_both_apply_has_one_code():
    design = design_from(GSI_READ.replace("    consistent_read: true\n", ""))
    strong = dataclasses.replace(
        design,
        access_patterns=(
            dataclasses.replace(design.access_patterns[0], consistent_read=True),
        ),
    )
    checked = {p.code for p in check_design(strong)}
    reviewed = {f.code for f in review_design(strong).findings}
    assert {"strong-gsi-read", "unpadded-number"} <= checked & reviewed
