"""Generated data-access modules written to a directory, checked with the
tools a team runs on its code, and imported."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from modeler.design import model as d
from modeler.engine.client import Client
from modeler.exporters.access.module import access_module, module_name
from modeler.exporters.access.python_tests import GeneratedTests, generated_tests
from modeler.simulation.requests import create_table_request
from tests.exporters.helpers import EXAMPLES, ROOT, example

PROBLEMS = sorted((ROOT / "tests" / "solver" / "problems").glob("*.yaml"))
DESIGNS = EXAMPLES + PROBLEMS
# Every way an update writes a parameter (sets, lists, text as a number),
# which no shipped design has all of.
UPDATE_WAYS = ROOT / "tests" / "exporters" / "update-ways.yaml"
# The rules the generated code is held to, whatever the project it lands in
# configures: pycodestyle, pyflakes, isort, bugbear, pyupgrade, simplify.
# Long lines are left to the formatter, which does not split user strings.
RUFF_RULES = ("--select", "E,F,W,I,B,UP,SIM", "--ignore", "E501")


def batch_design() -> d.Design:
    """order-management placing an order and its lines with BatchWriteItem
    (no design shipped uses one)."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    placing = "Place an order with its line items"

    def batch(pattern: d.AccessPattern) -> d.AccessPattern:
        if pattern.name != placing:
            return pattern
        actions = tuple(dataclasses.replace(a, condition="") for a in pattern.actions)
        return dataclasses.replace(pattern, operation="BatchWriteItem", actions=actions)

    return dataclasses.replace(
        design,
        table=dataclasses.replace(design.table, name="order-management-batch"),
        access_patterns=tuple(batch(p) for p in design.access_patterns),
    )


def write_module(design: d.Design, directory: Path) -> Path:
    path = directory / f"{module_name(design)}.py"
    path.write_text(access_module(design).text, encoding="utf-8")
    return path


def write_tests(design: d.Design, directory: Path) -> GeneratedTests:
    """The module and its generated tests, written side by side."""
    module = access_module(design)
    (directory / f"{module_name(design)}.py").write_text(module.text, "utf-8")
    tests = generated_tests(design, module)
    path = directory / f"{module_name(design)}_test.py"
    path.write_text(tests.text, encoding="utf-8")
    return tests


# What a team's conftest.py gives the generated tests: here the engine's
# client, which takes boto3's requests.
ENGINE_CONFTEST = """\
import pytest

from modeler.engine.client import Client


@pytest.fixture
def dynamodb_client():
    return Client()
"""


def run_generated_tests(directory: Path) -> subprocess.CompletedProcess[str]:
    """pytest on the generated tests in `directory`, on the engine, outside
    the project's own configuration (as a team's project would run them)."""
    (directory / "conftest.py").write_text(ENGINE_CONFTEST, encoding="utf-8")
    try:
        return run(
            "pytest",
            "-q",
            "-rf",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:django",
            "-p",
            "no:xdist",
            "-c",
            os.devnull,
            "--rootdir",
            str(directory),
            ".",
            cwd=directory,
            env={"PYTHONPATH": str(ROOT)},
        )
    finally:
        (directory / "conftest.py").unlink()


def run(
    *command: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )


def check_with_tools(directory: Path, *, formatted: bool = True) -> list[str]:
    """The complaints of ruff (lint and, unless `formatted` is False, format)
    and mypy --strict about the Python files in `directory` (an empty list
    when they pass)."""
    commands = [
        ("ruff", "check", "--isolated", *RUFF_RULES, "."),
        ("ruff", "format", "--isolated", "--check", "."),
        ("mypy", "--strict", "--cache-dir", str(directory / ".mypy_cache"), "."),
    ]
    failures = []
    for command in commands if formatted else commands[::2]:
        done = run(*command, cwd=directory)
        if done.returncode != 0:
            failures.append(f"{' '.join(command)}:\n{done.stdout}{done.stderr}")
    return failures


def load(path: Path) -> ModuleType:
    """The module at `path`, imported under its own name."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up by name.
    sys.modules[path.stem] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[path.stem]
    return module


def empty_table(design: d.Design) -> Client:
    client = Client()
    client.create_table(**create_table_request(design))
    return client
