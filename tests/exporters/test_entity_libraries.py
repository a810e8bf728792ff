"""ElectroDB and DynamoDB-Toolbox entity definitions: run with node on the
first 300 sample items of every example and solver problem, each entity's
definition builds the same keys as the design."""

from __future__ import annotations

import json
import shutil

import pytest

from modeler.engine.types import to_json_wire
from modeler.exporters.access.entity_libraries import (
    electrodb_module,
    library_filename,
    toolbox_module,
)
from modeler.simulation import Simulation
from tests.exporters.access_helpers import DESIGNS
from tests.exporters.helpers import ROOT, example
from tests.exporters.node_helpers import prepare, run_node

SCRIPT = ROOT / "tests" / "exporters" / "library_keys.mjs"
MAKERS = {"electrodb": electrodb_module, "dynamodb-toolbox": toolbox_module}


def key_cases(design):
    """Each sample item's attributes (by its entity) and its keys."""
    simulation = Simulation(design, limit=300)
    key_names = {a.name for a in design.table.all_key_attributes()}
    cases = []
    for item, entity in zip(simulation.items, simulation.entities, strict=True):
        cases.append(
            {
                "entity": entity,
                "attributes": {
                    k: to_json_wire(v) for k, v in item.items() if k not in key_names
                },
                "keys": {k: to_json_wire(v) for k, v in item.items() if k in key_names},
            }
        )
    return {"keys": sorted(key_names), "cases": cases}


@pytest.mark.parametrize("library", sorted(MAKERS))
def test_the_definitions_build_the_designs_keys_on_the_sample_data(library, tmp_path):
    prepare(tmp_path)
    # ES modules resolve packages from where they are: beside the links.
    script = tmp_path / SCRIPT.name
    shutil.copyfile(SCRIPT, script)
    checked = 0
    for path in DESIGNS:
        design = example(path)
        made = MAKERS[library](design)
        module = tmp_path / library_filename(design, library)
        module.write_text(made.text, encoding="utf-8")
        cases = tmp_path / f"{path.stem}.json"
        cases.write_text(json.dumps(key_cases(design)), encoding="utf-8")
        done = run_node(script, str(module), library, str(cases), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.splitlines()[-1])
        assert result["differences"] == [], (path.stem, made.notes)
        checked += result["checked"]
    assert checked >= 300 * len(DESIGNS) * 0.9
