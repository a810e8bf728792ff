"""The diagrams as Graphviz draws them: partitions hold their items in
order, sparse items are absent, projections are honoured, and hostile text
stays text in the DOT and in the SVG."""

from __future__ import annotations

import dataclasses
import re
from xml.etree import ElementTree

import pytest

from modeler.design import model as d
from modeler.diagrams import (
    Collections,
    collections_dot,
    overview_dot,
    render,
    sanitise_svg,
)
from tests.diagrams.helpers import (
    SVG,
    all_text,
    example,
    hostile,
    node_texts,
    simulation,
)

pytestmark = pytest.mark.filterwarnings("error")


def _diagram(name: str, index: str, **options) -> tuple[str, str, Collections]:
    collections = Collections(simulation(name))
    views, more = collections.partitions(index=index, **options)
    source = collections_dot(
        design_name=collections.design.name,
        info=collections.info(index),
        partitions=views,
        more_partitions=more,
    )
    return source, sanitise_svg(render(source, "svg")), collections


def test_each_partition_box_holds_its_items_in_sort_order():
    _, svg, collections = _diagram(
        "order-management", "table", max_partitions=6, max_items=50
    )
    nodes = node_texts(svg)
    views, _ = collections.partitions(index="table", max_partitions=6, max_items=50)
    # A long partition wraps into boxes p<n>, p<n>_2, p<n>_3... side by side.
    boxes = {k.partition("_")[0] for k in nodes if k.startswith("p")}
    assert sorted(boxes) == [f"p{n}" for n in range(6)]
    for n, view in enumerate(views):
        texts = nodes[f"p{n}"]
        assert texts[0] == view.key
        for wrap in range(2, len(nodes)):
            texts += nodes.get(f"p{n}_{wrap}", [])
        items = [i for i in simulation("order-management").items if i["PK"] == view.key]
        expected = sorted((i["SK"] for i in items), key=str.encode)
        shown = [t for t in texts if t in expected]
        assert shown == expected
    assert "more partitions" in nodes["more"][0]


def test_cut_partitions_say_how_many_items_are_left_out():
    _, svg, collections = _diagram("order-management", "table", max_items=2)
    views, more = collections.partitions(index="table", max_items=2)
    big = next(n for n, v in enumerate(views) if v.total > 2)
    texts = node_texts(svg)[f"p{big}"]
    assert texts[-1] == f"+{views[big].total - 2} more items"
    assert f"+{more:,} more partitions" == node_texts(svg)["more"][0]


def test_a_sparse_index_diagram_has_only_the_items_with_its_keys():
    _, svg, collections = _diagram("hostile", "ByNote", max_items=100)
    text = all_text(svg)
    items = simulation("hostile").items
    for item in items:
        if item["kind"] == "OPEN":
            assert item["id"] in text
        else:
            assert item["id"] not in text
    assert sum(i["kind"] == "OPEN" for i in items) < len(items)


def test_an_index_diagram_shows_projected_attributes_only():
    _, index_svg, _ = _diagram("hostile", "ByNote")
    _, table_svg, _ = _diagram("hostile", "table")
    assert "note=" in all_text(index_svg)
    assert "kind=" not in all_text(index_svg)
    assert "kind=" in all_text(table_svg)
    _, keys_only, _ = _diagram("order-management", "GSI2", max_items=3)
    assert "status=" not in all_text(keys_only)
    assert "PK=CUST#" in all_text(keys_only)


def test_hostile_text_stays_text_in_dot_and_svg():
    source, svg, _ = _diagram("hostile", "table")
    # In the DOT every user string is inside an HTML-like label, escaped.
    assert "<img" not in source and "<x>" not in source
    assert "&lt;img src=x onerror=alert(1)&gt;" in source
    root = ElementTree.fromstring(svg)  # noqa: S314 (our own output)
    tags = {e.tag.removeprefix(SVG) for e in root.iter()}
    assert not tags & {"script", "img", "x", "b", "foreignObject", "a"}
    for element in root.iter():
        assert not any(name.lower().startswith("on") for name in element.attrib)
    text = all_text(svg)
    assert 'H#"><img src=x onerror=alert(1)>' in text
    assert '\\"}]; <x>#' in text
    # Markup in values stays text; Graphviz's escapes (\\N) are not read.
    assert 'note=\\"}<b>&amp;</b>' in text
    assert '"><script>alert(1)</script> \\"} design' in text


def test_hostile_entity_and_pattern_names_in_the_overview():
    design = hostile()
    evil = '"><script>alert(1)</script>\\"}'
    entity = dataclasses.replace(design.entities[0], name=evil)
    pattern = dataclasses.replace(design.access_patterns[1], name=evil + " \\N\\G")
    design = dataclasses.replace(
        design,
        entities=(entity,),
        access_patterns=(design.access_patterns[0], pattern),
    )
    source = overview_dot(design)
    assert "<script>" not in source
    svg = sanitise_svg(render(source, "svg"))
    text = all_text(svg)
    assert evil in text
    assert evil + " \\N\\G" in text
    assert "<script" not in svg


def test_the_overview_links_entities_indexes_and_patterns():
    design = example("order-management")
    source = overview_dot(design)
    edges = set(re.findall(r"^\s*(\S+) -> (\S+)", source, re.MULTILINE))
    # Entities to the table and indexes they are in (i0 table, i1 GSI1...).
    assert {("e0:i0", "i0"), ("e0:i1", "i1")} <= edges
    assert ("e0:i2", "i2") not in edges  # customers are not open orders
    assert {("e1:i2", "i2"), ("e2:i3", "i3")} <= edges
    # Reads from the index they query; writes (dashed) to the table.
    assert {("i0", "a0"), ("i1", "a1"), ("i3", "a4"), ("i2", "a5")} <= edges
    assert ("i0", "a6") in edges
    svg = sanitise_svg(render(source, "svg"))
    nodes = node_texts(svg)
    assert nodes["e1"][0] == "Order"
    assert "when status = OPEN" in " ".join(nodes["e1"])
    assert nodes["a0"] == ["Get customer profile", "GetItem"]


def test_a_scan_pattern_is_marked_in_the_overview():
    svg = sanitise_svg(render(overview_dot(hostile()), "svg"))
    assert node_texts(svg)["a1"] == ["Everything", "Scan: reads every item"]


def test_a_png_renders_too():
    png = render(overview_dot(example("social-graph")), "png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_an_empty_design_still_draws():
    design = d.Design("Empty", d.Table("empty", d.KeyAttribute("PK")))
    svg = sanitise_svg(render(overview_dot(design), "svg"))
    assert "empty" in all_text(svg)


def test_a_long_partition_wraps_into_boxes_side_by_side():
    """So that one partition fits a projector: at most ROWS_PER_BOX items a
    box, the next boxes continuing it in sort order, the count of items
    left out on the last one only."""
    from modeler.diagrams.dot import ROWS_PER_BOX

    for name in ("order-management", "social-graph", "device-telemetry"):
        collections = Collections(simulation(name))
        views, _ = collections.partitions(
            index="table", max_partitions=50, max_items=40
        )
        long = [n for n, v in enumerate(views) if len(v.items) > ROWS_PER_BOX]
        if long:
            break
    assert long, "no example has a partition long enough to wrap"
    source = collections_dot(
        design_name=collections.design.name,
        info=collections.info("table"),
        partitions=views,
    )
    nodes = node_texts(sanitise_svg(render(source, "svg")))
    n = long[0]
    view = views[n]
    boxes = [f"p{n}"] + [f"p{n}_{k}" for k in range(2, 10) if f"p{n}_{k}" in nodes]
    assert len(boxes) == -(-len(view.items) // ROWS_PER_BOX)
    assert nodes[boxes[1]][0] == view.key
    assert nodes[boxes[1]][1].strip().startswith(f"continued, items {ROWS_PER_BOX + 1}")
    shown = [
        t for box in boxes for t in nodes[box] if t in {i.sort_key for i in view.items}
    ]
    assert shown == [i.sort_key for i in view.items]
    left_out = [t for box in boxes[:-1] for t in nodes[box] if "more item" in t]
    assert left_out == []
