"""Diagrams of a design with a pattern stated by what it needs and an
entity without keys: drawn, with the pattern labelled as having no key."""

from __future__ import annotations

import dataclasses

from modeler.design import model as d
from modeler.diagrams import key_map, pattern_map
from modeler.diagrams.dot import overview_dot
from tests.diagrams.helpers import example

NEEDS = d.AccessPattern(
    "Orders by date",
    d.UNKEYED,
    expects=d.Expectation(("Order",), (), ("-orderDate",)),
)


def _design() -> d.Design:
    design = example("order-management")
    return dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(e, keys={}) if e.name == "Order" else e
            for e in design.entities
        ),
        access_patterns=(*design.access_patterns, NEEDS),
    )


def test_the_pattern_map_shows_an_unkeyed_pattern_as_no_key_yet():
    row = pattern_map(_design())[-1]
    assert (row.name, row.operation, row.index, row.key, row.keyed) == (
        "Orders by date",
        "no key yet",
        "",
        "",
        False,
    )
    assert row.returns and not row.problem


def test_the_overview_and_key_map_draw_a_design_not_keyed_yet():
    design = _design()
    source = overview_dot(design)
    assert "no key yet" in source
    keymap = key_map(design)
    order = next(r for r in keymap.rows if r.entity == "Order")
    assert all(
        cell is None or not getattr(cell, "template", "") for cell in order.cells
    )
