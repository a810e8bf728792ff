"""Rendering DOT with Graphviz, under a time limit, and making its SVG safe
to put inside a page.

The `dot` on PATH is used when there is one; otherwise the `graphviz-pure`
program that requirements.txt installs beside this Python (a static build
of Graphviz that needs no system libraries)."""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree

from modeler.infra import processes

FORMATS = ("svg", "png")
# Seconds Graphviz may take: a PNG of a large diagram rasterises for a few
# seconds (it is a download); the SVG a page shows must come quickly.
TIMEOUTS = {"svg": 10.0, "png": 30.0}

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
ElementTree.register_namespace("", SVG_NS)
ElementTree.register_namespace("xlink", XLINK_NS)

# What Graphviz writes; anything else (script, foreignObject, image, use,
# animate, style...) is dropped with its content.
_ELEMENTS = {
    "svg",
    "g",
    "title",
    "desc",
    "polygon",
    "polyline",
    "path",
    "ellipse",
    "circle",
    "rect",
    "line",
    "text",
    "tspan",
    "defs",
    "linearGradient",
    "radialGradient",
    "stop",
}
# An <a> (Graphviz writes one for a URL or tooltip) is replaced by its
# children: no link leaves the page.
_UNWRAPPED = {"a"}
_ATTRIBUTES = {
    "width",
    "height",
    "viewBox",
    "transform",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "fill-opacity",
    "points",
    "d",
    "cx",
    "cy",
    "rx",
    "ry",
    "r",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "text-anchor",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-decoration",
    "baseline-shift",
    "id",
    "class",
    "offset",
    "stop-color",
    "stop-opacity",
    "gradientUnits",
    "gradientTransform",
    "preserveAspectRatio",
    "{http://www.w3.org/XML/1998/namespace}space",
}
_URL = re.compile(r"url\s*\(\s*(?!#)", re.IGNORECASE)
_PROLOGUE = re.compile(
    r"<\?xml[^>]*\?>|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>|<!--.*?-->", re.DOTALL
)


class RenderError(RuntimeError):
    """Graphviz could not render the diagram (missing, too slow, failed)."""


@lru_cache(maxsize=1)
def dot_program() -> str | None:
    """The Graphviz program to run: `dot` on PATH, else `graphviz-pure`
    from this Python's scripts directory (or on PATH)."""
    found = shutil.which("dot")
    if found:
        return found
    candidates = [
        Path(sysconfig.get_path("scripts")) / "graphviz-pure",
        Path(sys.executable).parent / "graphviz-pure",
    ]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("graphviz-pure")


def render(
    source: str, fmt: str, *, timeout: float | None = None, scale: int = 1
) -> bytes:
    """DOT source rendered to SVG or PNG bytes (a PNG `scale` times the
    size, for projectors and slides); RenderError with the reason when
    Graphviz is missing, takes longer than `timeout` or fails."""
    if fmt not in FORMATS:
        raise ValueError(f"cannot render to {fmt!r}; the formats are {FORMATS}")
    timeout = TIMEOUTS[fmt] if timeout is None else timeout
    program = dot_program()
    if program is None:
        raise RenderError(
            "Graphviz is not installed: there is no 'dot' on PATH and no "
            "'graphviz-pure' (pip install -r requirements.txt installs it)."
        )
    try:
        with processes.slot("Graphviz"):
            completed = subprocess.run(  # noqa: S603 (a fixed program, DOT on stdin)
                [program, f"-T{fmt}", *([f"-Gdpi={96 * scale}"] if scale > 1 else [])],
                input=source.encode(),
                capture_output=True,
                timeout=timeout,
                check=False,
            )
    except processes.SlotsBusy as exc:
        raise RenderError(str(exc)) from None
    except subprocess.TimeoutExpired:
        raise RenderError(
            f"Graphviz did not finish within {timeout:g} s; choose fewer "
            f"partitions or fewer items."
        ) from None
    except OSError as exc:
        raise RenderError(f"Graphviz could not be started: {exc}") from None
    if completed.returncode != 0 or not completed.stdout:
        message = completed.stderr.decode(errors="replace").strip().splitlines()
        reason = message[-1] if message else f"exit status {completed.returncode}"
        raise RenderError(f"Graphviz failed: {reason}")
    return completed.stdout


class SanitisedSvg(str):
    """The text `sanitise_svg` wrote: markup already, every attribute value
    and text in it escaped by `_serialise`. Its `__html__` (the protocol
    that Django's and markupsafe's escaping honour) says so, so a template
    inlines it without a `|safe` that would trust any string. Only
    `sanitise_svg` makes one; slicing or adding to it gives a plain str,
    which a template escapes."""

    __slots__ = ()

    def __html__(self) -> str:
        return str(self)


def sanitise_svg(svg: bytes | str) -> SanitisedSvg:
    """SVG safe to inline in a page: only Graphviz's drawing elements and
    attributes, no script, no event handlers, no links or references
    outside the drawing itself. Its root group's id (Graphviz's "graph0"
    in every drawing) is made of the drawing's content, so that a page of
    several drawings can refer to each (templatetags/printing.py)."""
    text = svg.decode() if isinstance(svg, bytes) else svg
    text = _PROLOGUE.sub("", text)
    try:
        # Our own Graphviz output, its DOCTYPE removed above: no entities.
        root = ElementTree.fromstring(text)  # noqa: S314
    except ElementTree.ParseError as exc:
        raise RenderError(f"Graphviz wrote an SVG that cannot be read: {exc}") from None
    if _local(root.tag) != "svg":
        raise RenderError("Graphviz did not write an SVG drawing")
    _clean(root)
    group = next((child for child in root if _local(child.tag) == "g"), None)
    if group is not None:
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        group.set("id", f"drawing-{digest}")
    out: list[str] = []
    _serialise(root, out, root=True)
    return SanitisedSvg("".join(out))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if tag.startswith("{" + SVG_NS + "}") else f"?{tag}"


def _clean(element: ElementTree.Element) -> None:
    for name in list(element.attrib):
        value = element.attrib[name]
        if (
            name not in _ATTRIBUTES
            or _URL.search(value)
            or "javascript:" in value.lower()
        ):
            del element.attrib[name]
    kept = []
    for child in list(element):
        tag = _local(child.tag) if isinstance(child.tag, str) else "?"
        if tag in _ELEMENTS:
            _clean(child)
            kept.append(child)
        elif tag in _UNWRAPPED:
            _clean(child)
            kept.extend(child)
    for child in list(element):
        element.remove(child)
    element.extend(kept)


_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def _serialise(
    element: ElementTree.Element, out: list[str], *, root: bool = False
) -> None:
    """The cleaned tree as SVG text: every attribute and text escaped, no
    namespace prefixes but the standard ones (faster than ElementTree's
    general writer on Graphviz's thousands of elements)."""
    tag = _local(element.tag)
    out.append("<" + tag)
    if root:
        out.append(f' xmlns="{SVG_NS}"')
    for name, value in element.attrib.items():
        if name == _XML_SPACE:
            name = "xml:space"
        out.append(f' {name}="{html.escape(value, quote=True)}"')
    children = len(element)
    if not children and not element.text:
        out.append("/>")
    else:
        out.append(">")
        if element.text:
            out.append(html.escape(element.text, quote=False))
        for child in element:
            _serialise(child, out)
        out.append(f"</{tag}>")
    if element.tail and not root:
        out.append(html.escape(element.tail, quote=False))
