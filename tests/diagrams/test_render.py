"""Running Graphviz: the program found, the time limit, clear failures, and
SVG made safe to inline whatever it holds."""

from __future__ import annotations

import stat

import pytest

from modeler.diagrams import rendering
from modeler.diagrams.rendering import RenderError, dot_program, render, sanitise_svg


def test_a_graphviz_program_is_found():
    program = dot_program()
    assert program is not None
    assert render("digraph { a -> b }", "svg").lstrip().startswith(b"<?xml")


def test_bad_dot_fails_with_graphviz_reason():
    with pytest.raises(RenderError, match="Graphviz failed"):
        render("digraph { a -> }", "svg")


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="cannot render to 'pdf'"):
        render("digraph { a }", "pdf")


@pytest.fixture
def slow_program(tmp_path, monkeypatch):
    program = tmp_path / "dot"
    program.write_text("#!/bin/sh\nsleep 5\n")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(rendering, "dot_program", lambda: str(program))
    return program


def test_rendering_has_a_time_limit(slow_program):
    with pytest.raises(RenderError, match="did not finish within 0.2 s"):
        render("digraph { a }", "svg", timeout=0.2)


def test_a_missing_graphviz_is_explained(monkeypatch):
    monkeypatch.setattr(rendering, "dot_program", lambda: None)
    with pytest.raises(RenderError, match="Graphviz is not installed"):
        render("digraph { a }", "svg")


def test_without_dot_on_path_graphviz_pure_is_used(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    dot_program.cache_clear()
    try:
        program = dot_program()
        assert program is not None and program.endswith("graphviz-pure")
        png = render("digraph { a -> b }", "png")
        assert png.startswith(b"\x89PNG")
    finally:
        dot_program.cache_clear()


HOSTILE_SVG = """<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY x "boom">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="10pt" height="10pt" onload="alert(1)">
  <script>alert(2)</script>
  <style>@import url(http://evil.example/x.css);</style>
  <g id="graph0" class="graph" onclick="alert(3)">
    <a xlink:href="javascript:alert(4)" target="_blank">
      <g id="node1" class="node"><text x="1" y="2">kept</text></g>
    </a>
    <image xlink:href="http://evil.example/x.png"/>
    <use xlink:href="http://evil.example/sprite.svg#a"/>
    <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
    <polygon fill="url(http://evil.example/p)" stroke="black" points="0,0 1,1"/>
    <text style="background:url(x)" font-size="14">&lt;script&gt; as text</text>
  </g>
</svg>"""


def test_sanitising_keeps_drawing_and_drops_everything_active():
    clean = sanitise_svg(HOSTILE_SVG)
    for banned in (
        "<script",
        "alert(",
        "<style",
        "evil.example",
        "<image",
        "<use",
        "foreignObject",
        "javascript:",
        "onload",
        "onclick",
        "<a ",
        "DOCTYPE",
        "ENTITY",
        "style=",
    ):
        assert banned not in clean, banned
    assert "kept" in clean
    assert "&lt;script&gt; as text" in clean
    assert 'stroke="black"' in clean
    assert clean.startswith("<svg")


def test_unreadable_svg_is_a_render_error():
    with pytest.raises(RenderError, match="cannot be read"):
        sanitise_svg("<svg><g></svg>")
    with pytest.raises(RenderError, match="not write an SVG"):
        sanitise_svg('<html xmlns="http://www.w3.org/1999/xhtml"/>')
