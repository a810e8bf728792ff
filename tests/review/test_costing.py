"""Patterns are costed as they would run at the stated size: a GSI query
that needs a second read is booked with it (and is a warning when that read
would be the design's largest read cost), and a Scan grows with the items
stored."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

FEED = """\
format: single-table-workbench/v1
name: Feed
table:
  name: feed
  partition_key: PK
  sort_key: SK
  indexes:
    - {name: ByAuthor, partition_key: GSI1PK, sort_key: GSI1SK, projection: PROJECTION}
entities:
  Post:
    attributes:
      postId: {type: S, generator: ulid}
      authorId: {type: S, generator: {choice: [a1, a2, a3, a4]}}
      title: {type: S, generator: {faker: sentence}, max_length: 200}
      postedAt:
        type: S
        generator: {timestamp: {from: "2026-01-01", to: "2026-06-30"}}
    keys:
      PK: "POST#{postId}"
      SK: "POST"
      GSI1PK: "AUTHOR#{authorId}"
      GSI1SK: "{postedAt}#{postId}"
    sample: {count: 200}
access_patterns:
  - name: Latest posts of an author
    operation: Query
    index: ByAuthor
    key: {GSI1PK: "AUTHOR#{authorId}"}
    scan_forward: false
    limit: 30
    expects:
      entity: Post
      where: {authorId: "{authorId}"}
      order_by: [-postedAt, -postId]
    traffic: {rps: 300, peak_rps: 1000}
  - name: Every post, for a report
    operation: Scan
    expects: {entity: Post}
    traffic: {rps: 0.001, peak_rps: 0.001}
"""


def _review(projection: str, **kwargs):
    design = read_design(FEED.replace("PROJECTION", projection)).design
    return review_design(design, simulation=Simulation(design), **kwargs)


def test_a_second_read_on_the_busiest_read_is_booked_and_a_warning() -> None:
    review = _review("KEYS_ONLY")
    (fetch,) = [f for f in review.findings if f.code == "fetch-back"]
    assert fetch.severity == "warning"
    # 30 keys of 0.5 RCU to fetch against the query's own 0.5 RCU.
    assert fetch.figures["rcu"] == 15
    assert fetch.figures["ratio"] == 30
    latest = review.cost.patterns[0]
    assert latest.units == pytest.approx(15.5)
    assert dict(latest.by_index) == {"ByAuthor": 0.5, "table": 15}


def test_an_index_that_holds_what_is_read_needs_no_second_read() -> None:
    review = _review("ALL")
    assert [f for f in review.findings if f.code == "fetch-back"] == []
    assert "table" not in dict(review.cost.patterns[0].by_index)


def test_a_scan_is_costed_at_the_items_stored() -> None:
    sample = _review("ALL").cost.patterns[1].units
    stored = _review("ALL", stored_items=2_000_000).cost.patterns[1].units
    assert stored == pytest.approx(sample * 2_000_000 / 200)


def test_a_read_is_costed_at_a_typical_request_not_at_the_largest_example():
    """The simulated request reads the largest result its parameter search
    found: in the social graph, the most-followed user of those tried (5
    RCU). Followers are skewed (Zipf), so most requests read far less; the
    cost takes the mean of the typical draws, each drawn from a follow item,
    so each user as often as they are followed."""
    text = Path(__file__).resolve().parents[2] / "examples" / "social-graph.yaml"
    design = read_design(text.read_bytes()).design
    review = review_design(design, simulation=Simulation(design))
    names = [p.name for p in design.access_patterns]
    position = names.index("Followers of a user")
    run, costed = review.runs[position], review.cost.patterns[position]

    assert len(run.draw_units) >= 10
    assert costed.units == pytest.approx(statistics.fmean(run.draw_units))
    assert costed.units < run.capacity.read / 2
    # A pattern every request of which reads the same is costed as it ran.
    profile = names.index("Get user profile")
    assert review.cost.patterns[profile].units == review.runs[profile].capacity.read
