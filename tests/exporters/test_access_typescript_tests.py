"""The generated TypeScript tests: compiled with tsc and run with node
(node --test) against the DynamoDB endpoint started without a design, for
each shipped example; a design edit that breaks a pattern fails its test."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil

import pytest

from modeler.design import model as d
from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.simulation.requests import create_table_request
from tests.exporters.helpers import EXAMPLES, ROOT, example
from tests.exporters.node_helpers import (
    compile_ts,
    run_node,
    run_ts_tests,
    write_ts_tests,
)

WRITES_SCRIPT = ROOT / "tests" / "exporters" / "ts_writes.js"


def _count(output: str, what: str) -> int:
    found = re.search(rf"^# {what} (\d+)$", output, re.MULTILINE)
    assert found, output
    return int(found.group(1))


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """The three examples' modules and tests, compiled by one tsc run (the
    slow part); the broken design's beside them under its own table name."""
    directory = tmp_path_factory.mktemp("typescript")
    made = {path.stem: write_ts_tests(example(path), directory) for path in EXAMPLES}
    broken = _broken_design()
    made["broken"] = write_ts_tests(broken, directory)
    compile_ts(directory)
    return directory, made, broken


def _broken_design() -> d.Design:
    """order-management with "Orders of a customer, newest first" reading
    its index forward: it gives the oldest orders, breaking its promise."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    newest = "Orders of a customer, newest first"
    assert not next(p for p in design.access_patterns if p.name == newest).scan_forward
    return dataclasses.replace(
        design,
        table=dataclasses.replace(design.table, name="order-management-broken"),
        access_patterns=tuple(
            dataclasses.replace(p, scan_forward=True) if p.name == newest else p
            for p in design.access_patterns
        ),
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_generated_tests_pass_against_the_endpoint(path, compiled):
    directory, made_by, _ = compiled
    made = made_by[path.stem]
    assert made.tested
    done = run_ts_tests(directory, example(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _count(done.stdout, "pass") == len(made.tested)
    assert _count(done.stdout, "skipped") == 0


def test_a_design_edit_that_breaks_a_pattern_fails_its_generated_test(compiled):
    directory, made_by, broken = compiled
    done = run_ts_tests(directory, broken)
    assert done.returncode == 1
    assert _count(done.stdout, "fail") == 1
    assert _count(done.stdout, "pass") == len(made_by["broken"].tested) - 1
    assert "not ok 3 - ordersOfACustomerNewestFirst" in done.stdout


def test_the_modules_writes_set_and_remove_index_keys_and_name_their_errors(
    compiled,
):
    """The order-management module's transaction, update, page and
    iterator, run with node against the endpoint: the second placing is a
    TransactionCanceled for its condition, shipping removes the sparse
    open-orders keys and rewrites GSI1PK, shipping again is ConditionFailed."""
    directory, _, _ = compiled
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    table = directory / "table.json"
    table.write_text(json.dumps(create_table_request(design)), encoding="utf-8")
    script = directory / "out" / "ts_writes.js"
    shutil.copyfile(WRITES_SCRIPT, script)
    server = start(Service(), ("127.0.0.1", 0))
    try:
        done = run_node(script, server.url, str(table), cwd=directory)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen == {
        "secondPlace": ["TransactionCanceled", True],
        "openBefore": ["O1"],
        "lines": ["O1", 7],
        "storedKeys": ["GSI1PK", "GSI1SK", "GSI3PK", "GSI3SK", "PK", "SK"],
        "gsi1pk": "CUST#C1#SHIPPED",
        "openAfter": 0,
        "secondShip": "ConditionFailed",
    }
