"""`{% item_cells row.cells table.key_count %}`: the cells of an item that
a pattern's simulation returned, its key columns marked."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def item_cells(cells: Sequence[str], key_count: int) -> SafeString:
    """The `<td>` of each cell, escaped as `{{ cell }}` would be, written at
    once: a template loop per cell was most of the Simulation page's time
    (a page of results has thousands of cells)."""
    keys = "".join(
        f'<td class="key-column">{conditional_escape(cell)}</td>'
        for cell in cells[:key_count]
    )
    others = "".join(
        f"<td>{conditional_escape(cell)}</td>" for cell in cells[key_count:]
    )
    return mark_safe(keys + others)  # noqa: S308 - every cell escaped
