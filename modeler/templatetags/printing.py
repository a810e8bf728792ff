"""Diagrams in a page that prints readably. `{{ svg|drawing }}` inlines a
drawing; `{{ svg|print_strips }}`, after the element that holds it, adds
for print only the same drawing cut into strips a page wide at a readable
scale, one under the other (each an SVG `<use>` of the drawing: nothing is
drawn twice), where a printer would shrink a wide drawing to a thumbnail.
The stylesheets hide the drawing itself on paper when strips follow it.

Nothing here marks text safe: a drawing is inlined only as
`modeler.diagrams.sanitise_svg` wrote it (a `SanitisedSvg`, whose
`__html__` format_html honours); any other text is sanitised first, and
the strips are built by format_html from numbers and the drawing's id."""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from modeler import diagrams

register = template.Library()

# How much of a drawing (in its own units, Graphviz's points) one strip
# shows: on an A4 or Letter page (about 510 pt wide inside its margins)
# that prints it at about 80%, Graphviz's 11 pt text at about 9 pt.
STRIP_UNITS = 640
# Strips overlap, so that text cut at one strip's edge is whole in the next.
OVERLAP_UNITS = 40

_VIEW_BOX = re.compile(
    r'^<svg\b[^>]*?\bviewBox="\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"'
)
# The root group, whose id sanitise_svg made of the drawing's content.
_ROOT_GROUP = re.compile(r'<g\b[^>]*?\bid="(drawing-[0-9a-f]+)"')


def _sanitised(svg: str) -> diagrams.SanitisedSvg | None:
    """`svg` as the sanitiser writes it, or None for no drawing or text
    that is not one."""
    if not svg:
        return None
    if isinstance(svg, diagrams.SanitisedSvg):
        return svg
    try:
        return diagrams.sanitise_svg(svg)
    except diagrams.RenderError:
        return None


@register.filter
def drawing(svg: str) -> SafeString | str:
    """`svg` inlined; "" for no drawing or one that cannot be read."""
    found = _sanitised(svg)
    return "" if found is None else format_html("{}", found)


@register.filter
def print_strips(svg: str) -> SafeString | str:
    """The strips that print `svg` (put after the element holding its
    `drawing`), or "" when it fits a page as it is."""
    found = _sanitised(svg)
    if found is None:
        return ""
    view_box = _VIEW_BOX.match(found)
    root = _ROOT_GROUP.search(found)
    if view_box is None or root is None:
        return ""
    x, y, width, height = (float(v) for v in view_box.groups())
    if width <= STRIP_UNITS:
        return ""
    step = STRIP_UNITS - OVERLAP_UNITS
    starts = range(0, max(1, int((width - OVERLAP_UNITS) // step) + 1))
    strips = format_html_join(
        "",
        '<svg class="print-strip" viewBox="{} {} {} {}" width="{}" height="{}" '
        'preserveAspectRatio="xMinYMin meet" aria-hidden="true">'
        '<use href="#{}"></use></svg>',
        (
            (
                f"{x + n * step:g}",
                f"{y:g}",
                STRIP_UNITS,
                f"{height:g}",
                f"{STRIP_UNITS}pt",
                f"{height:g}pt",
                root.group(1),
            )
            for n in starts
            if n * step < width
        ),
    )
    return format_html('<div class="print-strips" data-print-strips>{}</div>', strips)
