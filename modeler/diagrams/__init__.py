"""Key maps, item collections and Graphviz diagrams of a design and its
sample data. Pure Python; nothing here imports Django."""

from __future__ import annotations

from modeler.diagrams.cache import cached, design_digest
from modeler.diagrams.collections import (
    CollectionPage,
    Collections,
    IndexInfo,
    ItemView,
    PartitionView,
    UnknownIndexError,
    collections_for,
    index_infos,
    key_text,
)
from modeler.diagrams.dot import collections_dot, overview_dot
from modeler.diagrams.keymap import KeyMap, key_map
from modeler.diagrams.patterns import PatternRow, pattern_map, run_verdicts
from modeler.diagrams.rendering import (
    RenderError,
    SanitisedSvg,
    dot_program,
    render,
    sanitise_svg,
)

__all__ = [
    "key_text",
    "CollectionPage",
    "Collections",
    "IndexInfo",
    "ItemView",
    "KeyMap",
    "PartitionView",
    "PatternRow",
    "RenderError",
    "SanitisedSvg",
    "UnknownIndexError",
    "cached",
    "collections_dot",
    "collections_for",
    "design_digest",
    "dot_program",
    "index_infos",
    "key_map",
    "overview_dot",
    "pattern_map",
    "run_verdicts",
    "render",
    "sanitise_svg",
]
