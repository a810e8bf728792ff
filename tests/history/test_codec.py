"""A revision's document gives back the design it was made from, uids
included, for any value of the design model."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given

from modeler.design import model as d
from modeler.history import codec
from modeler.history.elements import with_uids
from tests.history.strategies import designs
from tests.views.conftest import example_design


def _uids(design: d.Design) -> list[str]:
    return (
        [i.uid for i in design.table.indexes]
        + [e.uid for e in design.entities]
        + [a.uid for e in design.entities for a in e.attributes]
        + [p.uid for p in design.access_patterns]
    )


@given(designs())
def test_any_design_reads_back_equal_with_its_uids(design):
    document = json.loads(json.dumps(codec.encode(design)))

    back = codec.decode(document)

    assert back == design
    assert _uids(back) == _uids(design)


@pytest.mark.parametrize(
    "name", ["order-management", "social-graph", "device-telemetry"]
)
def test_examples_read_back_equal(name):
    design = with_uids(example_design(name))

    back = codec.decode(json.loads(json.dumps(codec.encode(design))))

    assert back == design
    assert _uids(back) == _uids(design)
    assert all(_uids(back))


def test_fields_at_their_default_are_left_out():
    design = d.Design(
        name="x", table=d.Table(name="t", partition_key=d.KeyAttribute("PK"))
    )

    assert codec.encode(design) == {
        "name": "x",
        "table": {"name": "t", "partition_key": {"name": "PK"}},
    }


def test_a_document_from_before_a_field_existed_reads_with_the_default():
    document = {
        "name": "x",
        "table": {"name": "t", "partition_key": {"name": "PK", "type": "N"}},
        "entities": [{"name": "A", "attributes": [{"name": "a"}]}],
    }

    design = codec.decode(document)

    assert design.entities[0].attributes[0] == d.Attribute("a")
    assert design.table.partition_key == d.KeyAttribute("PK", "N")


def test_a_field_removed_since_is_passed_over():
    document = {
        "name": "x",
        "table": {"name": "t", "partition_key": {"name": "PK"}, "gone": 1},
    }

    assert codec.decode(document).table == d.Table("t", d.KeyAttribute("PK"))


def test_nested_values_come_back_read_only():
    design = d.Design(
        name="x",
        table=d.Table("t", d.KeyAttribute("PK")),
        entities=(
            d.Entity(
                "A",
                attributes=(
                    d.Attribute(
                        "a", generator=d.Generator("range", d.freeze({"from": [1]}))
                    ),
                ),
            ),
        ),
    )

    back = codec.decode(codec.encode(design))
    params = back.entities[0].attributes[0].generator.params

    with pytest.raises(TypeError):
        params["from"] = 2  # type: ignore[index]
    assert params["from"] == (1,)
    assert dataclasses.replace(back, name="y").name == "y"
