"""What a simulation job stores of a pattern's run, and the plain-Python
parts of the jobs package."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from modeler.jobs.results import entity_counts, pattern_result
from modeler.simulation import Simulation
from tests.views.conftest import example_design

ROOT = Path(__file__).resolve().parents[2]


def test_results_and_budget_import_nothing_from_django():
    code = (
        "import sys, modeler.jobs.results, modeler.jobs.budget; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_stored_result_is_json_with_what_the_template_shows():
    design = example_design("order-management")
    simulation = Simulation(design)
    pattern = design.access_patterns[2]

    result = pattern_result(
        design, simulation, simulation.draw(simulation.run(pattern))
    )

    assert json.loads(json.dumps(result)) == result
    assert result["verdict"] == "pass"
    run = result["run"]
    assert run["passed"] and run["draws"] == 20 and run["failed_draw"] is None
    assert run["pattern"] == {"expects": True, "is_read": True}
    assert run["count"] == len(result["table"]["rows"]) == 20
    assert [r["operation"] for r in result["requests"]] == ["Query"]
    assert result["table"]["columns"][:2] == ["PK", "SK"]
    assert [name for name, _ in result["parameters"]] == ["customerId"]
    counts = entity_counts(design, simulation)
    assert sum(c["generated"] for c in counts) == len(simulation.items)
    assert {c["name"] for c in counts} == {"Customer", "Order", "LineItem"}
