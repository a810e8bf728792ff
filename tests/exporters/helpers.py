from __future__ import annotations

from pathlib import Path

from modeler import design as d
from modeler.designfile import read_design

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
