"""The TypeScript data-access module: tsc --strict passes on it for every
shipped example and solver problem, and it sends the simulator's requests
with the AWS SDK for JavaScript v3."""

from __future__ import annotations

from modeler.exporters.access.typescript import access_filename, typescript_module
from modeler.exporters.formats import EXPORT_FORMATS
from tests.exporters.access_helpers import DESIGNS
from tests.exporters.helpers import EXAMPLES, example
from tests.exporters.node_helpers import tsc


def test_every_module_passes_tsc_strict(tmp_path):
    for path in DESIGNS:
        design = example(path)
        (tmp_path / access_filename(design)).write_text(
            typescript_module(design).text, encoding="utf-8"
        )
    assert len(list(tmp_path.glob("*.ts"))) == len(DESIGNS)
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
