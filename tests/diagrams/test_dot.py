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
    sort_key_texts,
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
    sort_keys = sort_key_texts(svg)
    views, _ = collections.partitions(index="table", max_partitions=6, max_items=50)
    # A long partition wraps into boxes p<n>, p<n>_2, p<n>_3... side by side.
    boxes = {k.partition("_")[0] for k in nodes if k.startswith("p")}
    assert sorted(boxes) == [f"p{n}" for n in range(6)]
    for n, view in enumerate(views):
        assert nodes[f"p{n}"][0] == view.key
        # The boxes of one partition continue each other in sort order.
        drawn = list(sort_keys[f"p{n}"])
        for wrap in range(2, len(nodes)):
            drawn += sort_keys.get(f"p{n}_{wrap}", [])
        items = [i for i in simulation("order-management").items if i["PK"] == view.key]
        expected = sorted((i["SK"] for i in items), key=str.encode)
        assert drawn == expected
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
    # An attribute a column: its name is a line of its own.
    assert "note" in all_text(index_svg).splitlines()
    assert "kind" not in all_text(index_svg).splitlines()
    assert "kind" in all_text(table_svg).splitlines()
    _, keys_only, _ = _diagram("order-management", "GSI2", max_items=3)
    lines = all_text(keys_only).splitlines()
    assert "status" not in lines
    assert lines[lines.index("PK") + 1].startswith("CUST#")


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
    assert '\\"}<b>&amp;</b>]; \\l \\N' in text.splitlines()
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
    sort_keys = sort_key_texts(sanitise_svg(render(source, "svg")))
    shown = [t for box in boxes for t in sort_keys[box]]
    assert shown == [i.sort_key for i in view.items]
    left_out = [t for box in boxes[:-1] for t in nodes[box] if "more item" in t]
    assert left_out == []


def test_each_attribute_of_an_item_has_a_column_of_its_own_with_its_value_whole():
    """As an aggregate view: an item's row holds its sort key, its entity,
    then each attribute (the table's key first in an index) in a cell with
    its name above its value, a long value wrapped onto lines rather than
    cut."""
    from modeler.diagrams.dot import ATTRIBUTES_SHOWN, VALUE_WIDTH

    collections = Collections(simulation("order-management"))
    views, _ = collections.partitions(index="GSI1", max_partitions=1, max_items=3)
    source = collections_dot(
        design_name="x", info=collections.info("GSI1"), partitions=views
    )
    item = views[0].items[0]
    assert 2 <= len(item.attributes) <= ATTRIBUTES_SHOWN
    assert [n for n, _ in item.attributes][:2] == ["PK", "SK"]
    row = source.split(f"{item.sort_key}")[1].split("</TR>")[0]
    assert row.count("<TD") == 1 + len(item.attributes)  # the entity, each attribute
    lines = all_text(sanitise_svg(render(source, "svg"))).splitlines()
    for name, value in item.attributes:
        at = lines.index(name)
        shown = lines[at + 1 : at + 1 + -(-len(value) // VALUE_WIDTH) + 1]
        # Wrapped, not cut: the lines after the name make the value.
        assert value in "".join(shown) or value.replace(" ", "") in "".join(shown)
    long = [v for _, v in item.attributes if len(v) > VALUE_WIDTH]
    assert long, "no value long enough to wrap"
