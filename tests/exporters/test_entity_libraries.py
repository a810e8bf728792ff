"""ElectroDB and DynamoDB-Toolbox entity definitions: run with node on the
first 300 sample items of every example and solver problem, each entity's
definition builds the same keys as the design."""

from __future__ import annotations

import json
import shutil

import pytest

from modeler.exporters.access.entity_libraries import library_filename
from tests.exporters.access_helpers import DESIGNS
from tests.exporters.helpers import example
from tests.exporters.node_helpers import (
    KEYS_SCRIPT,
    MAKERS,
    key_cases,
    prepare,
    run_node,
)


@pytest.mark.parametrize("library", sorted(MAKERS))
def test_the_definitions_build_the_designs_keys_on_the_sample_data(library, tmp_path):
    prepare(tmp_path)
    # ES modules resolve packages from where they are: beside the links.
    script = tmp_path / KEYS_SCRIPT.name
    shutil.copyfile(KEYS_SCRIPT, script)
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
