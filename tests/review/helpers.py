"""Small designs for review tests, written as design files so each test
reads as a designer would write it."""

from __future__ import annotations

import textwrap

from modeler.design.model import Design
from modeler.designfile import read_design
from modeler.review import Review, review_design
from modeler.review.prices import DOCUMENTED_PRICES, Prices
from modeler.simulation import Simulation

HEADER = """\
format: single-table-workbench/v1
name: Test
table:
  name: test-table
  partition_key: PK
  sort_key: SK
"""


def design_from(text: str) -> Design:
    result = read_design(HEADER + textwrap.dedent(text))
    assert result.design is not None, [str(p) for p in result.problems]
    return result.design


def review_of(
    design: Design,
    *,
    prices: Prices = DOCUMENTED_PRICES,
    stored_items: int | None = None,
) -> Review:
    return review_design(
        design,
        simulation=Simulation(design),
        prices=prices,
        stored_items=stored_items,
    )


def review(text: str, **kwargs) -> Review:
    return review_of(design_from(text), **kwargs)


def codes(review: Review) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in review.findings]


def only(review: Review, code: str):
    found = [f for f in review.findings if f.code == code]
    assert len(found) == 1, [f.line() for f in review.findings]
    return found[0]
