"""A transaction's traffic goes to each action's own entity: votes written
as a Put of a per-voter item plus an Update of one poll's counter make the
poll's partition hot, as the same traffic as a plain UpdateItem does."""

from __future__ import annotations

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

POLLS = """\
format: single-table-workbench/v1
name: Polls
table: {name: polls, partition_key: PK, sort_key: SK}
entities:
  Poll:
    attributes:
      pollId: {type: S, generator: uuid}
      votes: {type: N, generator: {int: {min: 0, max: 1000}}}
    keys: {PK: "POLL#{pollId}", SK: "META"}
    sample: {count: 3}
  Vote:
    attributes:
      pollId: {type: S, generator: {ref: Poll.pollId}}
      voterId: {type: S, generator: uuid}
    keys: {PK: "POLL#{pollId}#VOTER#{voterId}", SK: "VOTE"}
    sample: {per: Poll, count: 100}
access_patterns:
  - name: Vote once
    operation: TransactWriteItems
    actions:
      - {operation: Put, entity: Vote, condition: "attribute_not_exists(PK)"}
      - {operation: Update, entity: Poll, set: {votes: "{votes}"}}
    traffic: {rps: RPS, peak_rps: RPS}
"""


def _hot_writes(rps: int) -> list:
    result = read_design(POLLS.replace("RPS", str(rps)))
    assert result.design is not None, result.problems
    review = review_design(result.design, simulation=Simulation(result.design))
    return [
        f
        for f in review.findings
        if f.code == "hot-partition" and f.message == "Hot partition: writes"
    ]


def test_a_poll_counter_updated_in_a_transaction_is_a_hot_partition() -> None:
    (hot,) = _hot_writes(6000)
    assert hot.severity == "error"
    assert any("POLL#" in line and "VOTER" not in line for line in hot.evidence)


def test_the_same_transaction_at_a_modest_rate_is_fine() -> None:
    assert _hot_writes(60) == []
