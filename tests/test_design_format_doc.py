"""docs/design-format.md against the code: every complete design in it reads
without an error, and its tables name the generators and operations the code
knows, so the documentation cannot drift from the reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.design_check import GENERATOR_KINDS
from modeler.designfile import FORMAT, read_design

DOC = Path(__file__).resolve().parent.parent / "docs" / "design-format.md"
TEXT = DOC.read_text(encoding="utf-8")
_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _complete_designs() -> list[tuple[int, str]]:
    """(line in the doc, text) of each ```yaml block that is a whole design."""
    return [
        (TEXT.count("\n", 0, match.start()) + 2, match.group(1))
        for match in _YAML_BLOCK.finditer(TEXT)
        if match.group(1).startswith(f"format: {FORMAT}\n")
    ]


DESIGNS = _complete_designs()


def _section(heading: str) -> str:
    start = TEXT.index(f"\n{heading}\n")
    end = TEXT.find("\n#", start + len(heading) + 2)
    return TEXT[start:] if end == -1 else TEXT[start:end]


def _first_column(section: str) -> set[str]:
    return set(re.findall(r"^\| `([A-Za-z]+)` \|", section, re.MULTILINE))


def test_the_doc_has_complete_designs():
    assert len(DESIGNS) >= 2


@pytest.mark.parametrize(
    "text", [text for _, text in DESIGNS], ids=[f"line-{n}" for n, _ in DESIGNS]
)
def test_each_complete_design_reads_without_an_error(text):
    result = read_design(text)

    errors = [str(p) for p in result.problems if p.is_error]
    assert errors == []
    assert result.design is not None


def test_the_generator_table_lists_every_generator_kind():
    assert _first_column(_section("### Generators")) == set(GENERATOR_KINDS)


def test_the_operation_table_lists_every_operation():
    assert _first_column(_section("## `access_patterns`")) >= set(d.OPERATIONS)
