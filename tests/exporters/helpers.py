from __future__ import annotations

from pathlib import Path

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.exporters.snippets import PatternSnippet, pattern_snippets
from modeler.simulation.cache import cached_simulation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = ROOT / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))
# Real NoSQL Workbench models; tests/fixtures/nosql-workbench/SOURCES.md says
# where each comes from.
FIXTURES = ROOT / "tests" / "fixtures" / "nosql-workbench"
WORKBENCH_FIXTURES = sorted(FIXTURES.glob("*.json"))


def example(path: Path) -> d.Design:
    result = read_design(path.read_text(encoding="utf-8"))
    assert result.design is not None, result.problems
    return result.design


def snippets_of(design: d.Design) -> list[PatternSnippet]:
    """The code snippets of a design's patterns, from runs in its
    simulation (as the design's simulation job makes them)."""
    simulation, lock = cached_simulation(design)
    with lock:
        runs = [simulation.draw(simulation.run(p)) for p in design.access_patterns]
    return pattern_snippets(design, runs)
