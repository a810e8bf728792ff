"""The generated TypeScript tests: compiled with tsc and run with node
(node --test) against the DynamoDB endpoint started without a design, for
each shipped example and solver problem; a design edit that breaks a read
or a write pattern fails exactly its test."""

from __future__ import annotations

import dataclasses
import re

import pytest

from modeler.design import model as d
from modeler.exporters.access.python_tests import generated_tests
from tests.exporters.access_helpers import DESIGNS
from tests.exporters.helpers import EXAMPLES, example
from tests.exporters.node_helpers import compile_ts, run_ts_tests, write_ts_tests

ORDERS = next(p for p in EXAMPLES if p.stem == "order-management")


def _count(output: str, what: str) -> int:
    found = re.search(rf"^# {what} (\d+)$", output, re.MULTILINE)
    assert found, output
    return int(found.group(1))


def _tap(output: str) -> dict[str, bool]:
    """Each test's name and whether it passed, from node's TAP report."""
    return {
        name: not failed
        for failed, name in re.findall(r"^(not )?ok \d+ - (\S+)", output, re.MULTILINE)
    }


def _with_pattern(design: d.Design, name: str, **changes) -> d.Design:
    assert any(p.name == name for p in design.access_patterns)
    return dataclasses.replace(
        design,
        access_patterns=tuple(
            dataclasses.replace(p, **changes) if p.name == name else p
            for p in design.access_patterns
        ),
    )


def _broken(table: str, name: str, **changes) -> d.Design:
    """order-management with the pattern `name` changed, under its own
    table (and file) name."""
    design = example(ORDERS)
    design = dataclasses.replace(
        design, table=dataclasses.replace(design.table, name=table)
    )
    return _with_pattern(design, name, **changes)


def _shipping(table: str, **changes) -> d.Design:
    pattern = next(
        p for p in example(ORDERS).access_patterns if p.name == "Ship an order"
    )
    (action,) = pattern.actions
    return _broken(
        table, "Ship an order", actions=(dataclasses.replace(action, **changes),)
    )


BROKEN = {
    # Reading the index forward gives the oldest orders first.
    "newest-first-forward": (
        lambda: _broken(
            "orders-forward", "Orders of a customer, newest first", scan_forward=True
        ),
        "ordersOfACustomerNewestFirst",
    ),
    # Shipping leaves the order under OPEN in the index of orders by status.
    "stale-index-key": (
        lambda: _shipping(
            "orders-stale", set=(("status", "SHIPPED"), ("shippedAt", "{shippedAt}"))
        ),
        "shipAnOrder",
    ),
    # Shipping leaves the order in the sparse index of open orders.
    "sparse-key-kept": (
        lambda: _shipping("orders-kept", remove=()),
        "shipAnOrder",
    ),
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """Every example's and solver problem's module and tests, and the broken
    designs' beside them, compiled by one tsc run (the slow part)."""
    directory = tmp_path_factory.mktemp("typescript")
    made = {path.stem: write_ts_tests(example(path), directory) for path in DESIGNS}
    broken = {}
    for case, (make, _) in BROKEN.items():
        broken[case] = make()
        made[case] = write_ts_tests(broken[case], directory)
    compile_ts(directory)
    return directory, made, broken


@pytest.mark.parametrize("path", DESIGNS, ids=[p.stem for p in DESIGNS])
def test_the_generated_tests_pass_against_the_endpoint(path, compiled):
    """Reads and writes: for the order-management example, shipping an
    order and placing one are among them."""
    directory, made_by, _ = compiled
    made = made_by[path.stem]
    assert made.tested
    done = run_ts_tests(directory, example(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _count(done.stdout, "pass") == len(made.tested)
    assert _count(done.stdout, "skipped") == 0
    assert set(_tap(done.stdout)) == set(made.tested)


def test_every_pattern_the_python_tests_cover_has_a_typescript_test(compiled):
    """The writes too: the two languages' tests check the same cases."""
    _, made_by, _ = compiled
    assert {"shipAnOrder", "placeAnOrderWithItsLineItems"} <= set(
        made_by[ORDERS.stem].tested
    )
    for path in DESIGNS:
        python = generated_tests(example(path))
        assert len(made_by[path.stem].tested) == len(python.tested), path.stem
        assert made_by[path.stem].notes == python.notes, path.stem


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_design_edit_that_breaks_a_pattern_fails_exactly_its_test(case, compiled):
    directory, made_by, broken = compiled
    _, failing = BROKEN[case]
    done = run_ts_tests(directory, broken[case])
    assert done.returncode == 1, done.stdout
    results = _tap(done.stdout)
    assert set(results) == set(made_by[case].tested)
    assert [name for name, passed in results.items() if not passed] == [failing]
