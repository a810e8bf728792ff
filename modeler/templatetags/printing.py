"""`{{ svg|print_strips }}`: a diagram that prints readably. A diagram wider
than a page is scaled down to a thumbnail by a printer; this gives it, for
print only, the same drawing cut into strips a page wide at a readable
scale, one under the other (each an SVG `<use>` of the drawing: nothing
is drawn twice). On screen, the diagram as it is."""

from __future__ import annotations

import itertools
import re

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

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
_ROOT_GROUP = re.compile(r'(<g\b[^>]*?\bid=")([^"]+)(")')
_count = itertools.count()


@register.filter
def print_strips(svg: str) -> SafeString:
    """`svg` (sanitised: safe to inline), and after it, when it is wider
    than a strip, the strips that print it."""
    found = _VIEW_BOX.match(svg.lstrip())
    root = _ROOT_GROUP.search(svg)
    if found is None or root is None:
        return mark_safe(svg)  # noqa: S308 (sanitised by modeler.diagrams)
    x, y, width, height = (float(v) for v in found.groups())
    if width <= STRIP_UNITS:
        return mark_safe(svg)  # noqa: S308 (sanitised by modeler.diagrams)
    # The page may hold several diagrams, each with Graphviz's "graph0".
    name = f"printed-{next(_count)}-{root.group(2)}"
    svg = svg[: root.start()] + root.group(1) + name + root.group(3) + svg[root.end() :]
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
                name,
            )
            for n in starts
            if n * step < width
        ),
    )
    return format_html(
        '{}<div class="print-strips" data-print-strips>{}</div>',
        mark_safe(svg),
        strips,  # noqa: S308
    )
