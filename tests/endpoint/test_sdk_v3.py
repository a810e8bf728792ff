"""The endpoint driven by the AWS SDK for JavaScript v3: one node process
runs `sdk_v3_checks.mjs` against a server with the engine's real clocks
(an index build takes about a second of it); each check is its own test
here, so a failure names it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from modeler.endpoint.server import start
from modeler.endpoint.service import Service

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "tests" / "node" / "node_modules"
SCRIPT = Path(__file__).with_name("sdk_v3_checks.mjs")
# The checks the script runs, in its order.
CHECKS = [
    "create and describe a table",
    "put, get, update and delete with conditions and ReturnValues",
    "batch write and batch get",
    "query pages with Limit and LastEvaluatedKey, both directions",
    "scan segments cover the table once",
    "a cancelled transaction names its reasons and writes nothing",
    "binaries and numbers round-trip exactly",
    "errors arrive as the SDK's exception classes",
    "every response's CRC32 header matches its body",
    "an index is CREATING, then ACTIVE and queried",
    "time to live and tags",
    "PartiQL statements, batches and transactions",
    "stream records through the Streams client",
]


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, object]]:
    node = shutil.which("node")
    if node is None or not (NODE_MODULES / "@aws-sdk" / "client-dynamodb").exists():
        pytest.fail(
            f"node and the AWS SDK for JavaScript v3 in {NODE_MODULES} are "
            "needed: make test installs them (npm ci --prefix tests/node)."
        )
    server = start(Service(), ("127.0.0.1", 0))
    try:
        run = subprocess.run(
            [node, str(SCRIPT), server.url],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "NODE_PATH": str(NODE_MODULES)},
        )
    finally:
        server.shutdown()
        server.server_close()
    lines = [json.loads(line) for line in run.stdout.splitlines() if line]
    assert run.returncode == 0, run.stderr
    return {line["check"]: line for line in lines}


def test_the_script_runs_exactly_these_checks(results):
    assert list(results) == CHECKS


@pytest.mark.parametrize("check", CHECKS)
def test_the_sdk_sees(results, check):
    found = results.get(check)
    assert found is not None, f"the script did not report {check!r}"
    assert found["ok"], found["detail"]
