"""Designs and simulations the diagram tests share, and a reader of the
SVG Graphviz writes."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from xml.etree import ElementTree

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.simulation import Simulation

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def read(path: Path) -> d.Design:
    result = read_design(path.read_bytes())
    assert result.design is not None, result.problems
    return result.design


@cache
def example(name: str) -> d.Design:
    return read(EXAMPLES / f"{name}.yaml")


@cache
def hostile() -> d.Design:
    """Templates, values, pattern and design names that try to break out of
    HTML, SVG and DOT labels (entity names are identifiers by the format)."""
    return read(HERE / "hostile.yaml")


@cache
def simulation(name: str) -> Simulation:
    design = hostile() if name == "hostile" else example(name)
    return Simulation(design)


def node_texts(svg: str) -> dict[str, list[str]]:
    """The text lines of each node of an SVG drawing, by node name."""
    root = ElementTree.fromstring(svg)  # noqa: S314 (our own output)
    nodes = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "node":
            continue
        title = group.find(f"{SVG}title")
        texts = ["".join(t.itertext()) for t in group.iter(f"{SVG}text")]
        nodes[title.text if title is not None else ""] = texts
    return nodes


def all_text(svg: str) -> str:
    root = ElementTree.fromstring(svg)  # noqa: S314 (our own output)
    return "\n".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def sort_key_texts(svg: str) -> dict[str, list[str]]:
    """The sort keys of each partition box, by node name: the lines in the
    items' sort key column (monospace, the graph's size, dark ink)."""
    root = ElementTree.fromstring(svg)  # noqa: S314 (our own output)
    nodes = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "node":
            continue
        title = group.find(f"{SVG}title")
        nodes[title.text if title is not None else ""] = [
            "".join(t.itertext())
            for t in group.iter(f"{SVG}text")
            if t.get("font-family", "").startswith("Courier")
            and t.get("font-size") == "11.00"
            and t.get("fill") == "#0f172a"
        ]
    return nodes
