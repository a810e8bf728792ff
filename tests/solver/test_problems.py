"""The solver's problem corpus (tests/solver/problems): eight hand-made
designs, one per key-design problem, that the solver's proposals are
compared with. Each must be a design an expert would sign: it reads without
problems, every access pattern passes in the simulation, and the review
raises no error or warning. Each also keeps to the corpus's conventions, so
that the comparison is like for like."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

PROBLEMS_DIR = Path(__file__).resolve().parent / "problems"
PROBLEMS = sorted(PROBLEMS_DIR.glob("*.yaml"))
NAMES = {
    "one-to-many",
    "many-to-many",
    "time-series-hot-key",
    "status-working-set",
    "hierarchical-location",
    "leaderboard",
    "multi-tenant",
    "version-history",
}
WRITES = {"PutItem", "UpdateItem", "TransactWriteItems"}


def _design(path: Path):
    result = read_design(path.read_bytes())
    assert result.design is not None, [str(p) for p in result.problems]
    assert [str(p) for p in result.problems if p.severity != "advice"] == []
    return result.design


def test_the_corpus_has_the_eight_problems_and_the_readme_lists_them() -> None:
    assert {path.stem for path in PROBLEMS} == NAMES
    readme = (PROBLEMS_DIR / "README.md").read_text()
    for name in NAMES:
        assert f"({name}.yaml)" in readme, name


@pytest.mark.parametrize("path", PROBLEMS, ids=lambda p: p.stem)
def test_the_hand_made_design_keeps_the_corpus_conventions(path: Path) -> None:
    design = _design(path)
    table = design.table
    assert design.description
    assert (table.partition_key.name, table.partition_key.type) == ("PK", "S")
    assert (table.sort_key.name, table.sort_key.type) == ("SK", "S")
    assert table.billing_mode == "PAY_PER_REQUEST"
    for number, index in enumerate(table.indexes, start=1):
        assert index.is_global
        assert index.name == f"GSI{number}"
        assert [a.name for a in index.partition_key] == [f"GSI{number}PK"]
        assert [a.name for a in index.sort_key] == [f"GSI{number}SK"]
    for pattern in design.access_patterns:
        assert pattern.traffic.rps > 0, pattern.name
        assert pattern.traffic.peak_rps >= pattern.traffic.rps, pattern.name
        if pattern.is_read:
            assert pattern.expects is not None, pattern.name
    assert any(p.operation in WRITES for p in design.access_patterns)


@pytest.mark.parametrize("path", PROBLEMS, ids=lambda p: p.stem)
def test_the_hand_made_design_passes_and_the_review_is_clean(path: Path) -> None:
    design = _design(path)
    simulation = Simulation(design)
    assert 2_000 <= len(simulation.items) <= 8_000
    review = review_design(design, simulation=simulation)
    failing = [
        pattern.name
        for pattern, run in zip(design.access_patterns, review.runs, strict=True)
        if run is None or not run.passed
    ]
    assert failing == []
    noisy = [
        (f.code, f.severity, f.location.name, f.message)
        for f in review.findings
        if f.severity in ("error", "warning")
    ]
    assert noisy == []


def test_the_readme_states_each_hand_made_index_count() -> None:
    readme = (PROBLEMS_DIR / "README.md").read_text()
    for path in PROBLEMS:
        row = next(
            line for line in readme.splitlines() if f"({path.stem}.yaml)" in line
        )
        stated = re.search(r"\| (\d+)(?: \([^)]*\))? \|$", row)
        assert stated is not None, row
        assert int(stated.group(1)) == len(_design(path).table.indexes), path.stem
