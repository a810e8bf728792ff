"""Generated TypeScript written to a directory, type-checked with tsc and
run with node, using the packages pinned in tests/node."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.engine.types import to_json_wire
from modeler.exporters.access.entity_libraries import electrodb_module, toolbox_module
from modeler.exporters.access.ts_tests import (
    GeneratedTsTests,
    generated_ts_tests,
    ts_tests_filename,
)
from modeler.exporters.access.typescript import access_filename, typescript_module
from modeler.simulation import Simulation
from tests.exporters.helpers import ROOT

NODE_MODULES = ROOT / "tests" / "node" / "node_modules"
TSC = NODE_MODULES / "typescript" / "bin" / "tsc"
# What the generated code is compiled for: Node 20 (ES2022), CommonJS so
# node runs the output as it is.
COMPILER = {
    "strict": True,
    "target": "es2022",
    "module": "commonjs",
    "moduleResolution": "node",
    "skipLibCheck": True,
    "types": ["node"],
}


def node() -> str:
    found = shutil.which("node")
    if found is None or not TSC.exists():
        pytest.fail(
            f"node and the packages in {NODE_MODULES} are needed: make test "
            "installs them (npm ci --prefix tests/node)."
        )
    return found


def prepare(directory: Path) -> None:
    """Let tsc and node find the pinned packages from `directory`."""
    link = directory / "node_modules"
    if not link.exists():
        link.symlink_to(NODE_MODULES, target_is_directory=True)


def tsc(directory: Path, *, emit: bool = False) -> subprocess.CompletedProcess[str]:
    """tsc --strict on every .ts file in `directory` (compiled into
    `directory`/out when `emit`)."""
    prepare(directory)
    options = {**COMPILER, "noEmit": not emit, "outDir": "out"}
    config = {"compilerOptions": options, "include": ["*.ts"]}
    (directory / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [node(), str(TSC), "--project", str(directory / "tsconfig.json")],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def run_node(
    script: Path, *arguments: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """node on `script`, with `env` added to the environment."""
    prepare(cwd)
    return subprocess.run(
        [node(), str(script), *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **(env or {})},
    )


def write_ts_tests(design: d.Design, directory: Path) -> GeneratedTsTests:
    module = typescript_module(design)
    (directory / access_filename(design)).write_text(module.text, "utf-8")
    made = generated_ts_tests(design, module)
    (directory / ts_tests_filename(design)).write_text(made.text, "utf-8")
    return made


def compile_ts(directory: Path) -> None:
    compiled = tsc(directory, emit=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def run_ts_tests(directory: Path, design: d.Design) -> subprocess.CompletedProcess[str]:
    """node --test on the design's compiled tests, against a fresh endpoint
    holding no table."""
    compiled = directory / "out" / ts_tests_filename(design).replace(".ts", ".js")
    server = start(Service(), ("127.0.0.1", 0))
    try:
        return subprocess.run(
            [node(), "--test", "--test-reporter=tap", str(compiled)],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={
                **os.environ,
                "AWS_ENDPOINT_URL_DYNAMODB": server.url,
                "AWS_ACCESS_KEY_ID": "test",
                "AWS_SECRET_ACCESS_KEY": "test",
                "AWS_REGION": "us-east-1",
            },
        )
    finally:
        server.shutdown()
        server.server_close()


KEYS_SCRIPT = ROOT / "tests" / "exporters" / "library_keys.mjs"
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
