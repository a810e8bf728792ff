"""A clean corpus: six realistic designs written the way a designer would
(5-8 entities, 8-15 access patterns, overloaded and sparse GSIs, an inverted
index for many-to-many, write sharding where a key would pass a partition's
limits, one provisioned for its peak). An expert would sign each: the review
raises no warning or error on them, and every pattern passes all its
draws. The three shipped examples are held to the same (test_examples)."""

from __future__ import annotations

from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.yaml"))


def test_the_corpus_has_six_designs_of_realistic_size() -> None:
    assert len(CORPUS) >= 6
    for path in CORPUS:
        design = read_design(path.read_text()).design
        assert 5 <= len(design.entities) <= 8, path.name
        assert 8 <= len(design.access_patterns) <= 15, path.name
        assert any(i.is_global for i in design.table.indexes), path.name


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_a_design_written_right_has_no_warning_or_error(path: Path) -> None:
    result = read_design(path.read_text())
    assert result.design is not None, result.problems
    assert not [p for p in result.problems if p.severity != "advice"], result.problems
    simulation = Simulation(result.design)
    review = review_design(result.design, simulation=simulation)
    noisy = [
        (f.code, f.severity, f.location.name, f.message)
        for f in review.findings
        if f.severity in ("error", "warning")
    ]
    assert noisy == []
    assert review.passed == len(result.design.access_patterns)
    # Every read pattern with parameters was tried with its draws.
    assert all(
        run.draws > 0
        for run in review.runs
        if run is not None
        and run.pattern.operation in ("GetItem", "Query")
        and run.parameters
    )
