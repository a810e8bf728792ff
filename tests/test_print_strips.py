"""`drawing` and `print_strips`: a diagram inlined only as the sanitiser
wrote it, and a wide one followed by strips that print it a page wide,
each drawing on a page referred to by an id of its own."""

from __future__ import annotations

import re

from django.template import Context, Template

from modeler.diagrams import render, sanitise_svg
from tests.diagrams.test_render import HOSTILE_SVG


def _page(*drawings: object) -> str:
    template = Template(
        "{% load printing %}{% for svg in drawings %}"
        '<div class="diagram">{{ svg|drawing }}</div>{{ svg|print_strips }}'
        "{% endfor %}"
    )
    return template.render(Context({"drawings": drawings}))


def _wide(label: str) -> str:
    nodes = " -> ".join(f'"{label} {n}"' for n in range(12))
    return render(f"digraph {{ rankdir=LR; {nodes} }}", "svg").decode()


def test_text_not_from_the_sanitiser_is_sanitised_before_it_is_inlined():
    page = _page(HOSTILE_SVG)
    assert "<script" not in page and "alert(" not in page and "onload" not in page
    assert "kept" in page
    assert "&lt;script&gt; as text" in page


def test_a_drawing_that_fits_a_page_is_inlined_as_it_is():
    clean = sanitise_svg(render("digraph { a -> b }", "svg"))
    assert _page(clean) == f'<div class="diagram">{clean}</div>'
    assert _page("") == _page("not a drawing") == '<div class="diagram"></div>'


def test_a_wide_drawing_prints_in_strips_that_use_its_own_drawing():
    one, two = sanitise_svg(_wide("first")), sanitise_svg(_wide("second"))
    page = _page(one, two)
    ids = re.findall(r'<g id="(drawing-[0-9a-f]+)" class="graph"', page)
    assert len(ids) == 2 and ids[0] != ids[1]
    # Each drawing's strips, after it, refer to it and cover its width.
    for drawn, part in zip(ids, page.split('<div class="diagram">')[1:], strict=True):
        strips = part.split("data-print-strips>")[1]
        assert set(re.findall(r'<use href="#([^"]+)">', strips)) == {drawn}
        width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+)', part)[1])
        boxes = re.findall(r'class="print-strip" viewBox="([\d.]+) [\d.]+ (\d+)', part)
        assert float(boxes[-1][0]) + float(boxes[-1][1]) >= width
