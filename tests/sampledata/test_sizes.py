"""The sample data's bytes, estimated from the design before any item is
made (`modeler.sampledata.sizes`): exact where the design sizes the values
(documents and blobs made at their max_length), near DynamoDB's measure of
the generated items elsewhere."""

from __future__ import annotations

import pytest

from modeler.engine.size import item_size
from modeler.sampledata import generate
from modeler.sampledata.sizes import planned_bytes
from tests.sampledata.helpers import design_from, example

BLOBS = """
    format: single-table-workbench/v1
    name: Blobs
    table: {name: blobs, partition_key: {name: PK, type: S}}
    entities:
      Doc:
        attributes:
          docId: {type: S, generator: ulid}
          body: {type: B, max_length: 390000}
          title: {type: S, generator: {constant: "A title of thirty characters.."}}
        keys: {PK: "DOC#{docId}"}
        sample: {count: COUNT}
"""


def blobs(count: int):
    return design_from(BLOBS.replace("COUNT", str(count)))


def _generated_bytes(design, **options) -> int:
    return sum(item_size(item) for item in generate(design, **options).items)


def test_values_made_at_their_max_length_count_at_it():
    design = blobs(12)

    planned = planned_bytes(design)

    # Only the ULIDs (26 characters where 8 are counted) are estimated.
    assert planned.total == pytest.approx(_generated_bytes(design), rel=0.001)
    assert (planned.entity, planned.count) == ("Doc", 12)
    assert planned.item_bytes == planned.total // 12


def test_several_large_values_are_counted_as_scaled_to_fit_an_item():
    design = design_from(
        BLOBS.replace("COUNT", "3").replace(
            "title:", "more: {type: S, max_length: 390000}\n          title:"
        )
    )

    # Together they would pass 400 KB: each is made shorter, and so counted.
    assert planned_bytes(design).item_bytes < 400 * 1024
    assert planned_bytes(design).total == pytest.approx(
        _generated_bytes(design), rel=0.001
    )


def test_a_number_of_items_asked_for_is_counted_as_made():
    design = blobs(10)

    planned = planned_bytes(design, items=25)

    assert planned.count == 25
    assert planned.total == pytest.approx(_generated_bytes(design, items=25), rel=0.001)


@pytest.mark.parametrize(
    "name", ["order-management", "social-graph", "device-telemetry"]
)
def test_other_values_are_counted_near_their_size(name):
    design = example(name)

    ratio = planned_bytes(design).total / _generated_bytes(design)

    assert 0.5 < ratio < 1.5
