"""Generated TypeScript written to a directory, type-checked with tsc and
run with node, using the packages pinned in tests/node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

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
    script: Path, *arguments: str, cwd: Path
) -> subprocess.CompletedProcess[str]:
    prepare(cwd)
    return subprocess.run(
        [node(), str(script), *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
