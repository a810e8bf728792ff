"""The TypeScript data-access module: tsc --strict passes on it for every
shipped example and solver problem, and it sends the simulator's requests
with the AWS SDK for JavaScript v3."""

from __future__ import annotations

import dataclasses

from modeler.design import model as d
from modeler.exporters.access.typescript import access_filename, typescript_module
from modeler.exporters.formats import EXPORT_FORMATS
from tests.exporters.access_helpers import DESIGNS
from tests.exporters.helpers import EXAMPLES, example
from tests.exporters.node_helpers import tsc


def _batch_design() -> d.Design:
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


def test_every_module_passes_tsc_strict(tmp_path):
    designs = [example(path) for path in DESIGNS] + [_batch_design()]
    for design in designs:
        made = typescript_module(design)
        assert made.notes == ()
        (tmp_path / access_filename(design)).write_text(made.text, encoding="utf-8")
    assert len(list(tmp_path.glob("*.ts"))) == len(designs)
    batch = (tmp_path / "order-management-batch-access.ts").read_text()
    assert "new BatchWriteItemCommand({ RequestItems: requestItems })" in batch
    done = tsc(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_export_format_names_the_file_and_notes_what_has_no_function():
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    export = EXPORT_FORMATS["typescript"]
    assert export.filename(design) == "order-management-access.ts"
    made = export.make(design)
    assert "export async function* ordersOfACustomerNewestFirst(" in made.text
    assert "export async function ordersOfACustomerNewestFirstPage(" in made.text
    assert "export async function shipAnOrder(" in made.text


def test_the_tests_format_downloads_beside_the_module():
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    export = EXPORT_FORMATS["typescript-tests"]
    assert export.filename(design) == "order-management-access.test.ts"
    made = export.make(design)
    assert 'import * as access from "./order-management-access";' in made.text
    assert 'test("ordersOfACustomerNewestFirst", { skip }' in made.text
