"""`check_design` keeps the problems of the designs it checked last, by
their content and the limits: the same answer as a fresh check, never a
stale one."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.design_check import _check, check_design, limits
from modeler.designfile import read_design

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def design() -> d.Design:
    return read_design((EXAMPLES / "order-management.yaml").read_bytes()).design


def test_a_kept_answer_is_a_fresh_check(design: d.Design) -> None:
    first = check_design(design)
    assert first == _check(design)
    first.append("changed by its caller")
    assert check_design(design) == _check(design)  # a list of its own


def test_an_edit_is_checked_again(design: d.Design) -> None:
    check_design(design)
    order = design.entity("Order")
    keys = {**order.keys, "PK": d.KeyTemplate("CUST#{nowhere}")}
    edited = dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(e, keys=keys) if e is order else e
            for e in design.entities
        ),
    )
    problems = check_design(edited)
    assert problems == _check(edited)
    assert any(p.path == "entities.Order.keys.PK" for p in problems)
    assert not any(p.path == "entities.Order.keys.PK" for p in check_design(design))


def test_other_limits_are_checked_again(design: d.Design) -> None:
    within = check_design(design)
    with limits.configured(limits.DesignLimits(entities=1)):
        past = check_design(design)
        assert past == _check(design)
        assert past != within
    assert check_design(design) == within
