"""A read's request settings (Limit, ScanIndexForward, ConsistentRead) are
declared once in d.PATTERN_OPTIONS: the design file reads and writes each
from that declaration and the history names its change, so a new setting
needs no edit of the reader, the writer or the history."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.designfile import dump_design, read_design
from modeler.history.elements import summary
from tests.unkeyed import orders_of_a_customer_needs

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "order-management.yaml"


def _design() -> d.Design:
    result = read_design(EXAMPLE.read_text())
    assert result.design is not None
    return result.design


def _table_query(design: d.Design) -> d.AccessPattern:
    """A Query of the table: every setting applies to it (a GSI takes no
    strongly consistent read)."""
    return next(
        p
        for p in design.access_patterns
        if p.operation == "Query" and p.index == d.TABLE_INDEX
    )


def _changed(option: d.PatternOption) -> object:
    """A value other than the setting's default."""
    if option.kind is bool:
        return not option.default
    return option.minimum + 4


def _at_defaults(design: d.Design, name: str) -> d.Design:
    return _with(design, name, **{o.name: o.default for o in d.PATTERN_OPTIONS})


def _with(design: d.Design, name: str, **changes: object) -> d.Design:
    patterns = tuple(
        dataclasses.replace(p, **changes) if p.name == name else p
        for p in design.access_patterns
    )
    return dataclasses.replace(design, access_patterns=patterns)


@pytest.mark.parametrize("option", d.PATTERN_OPTIONS, ids=lambda o: o.name)
def test_each_setting_round_trips_and_is_named_in_the_history(option):
    query = _table_query(_design())
    design = _at_defaults(_design(), query.name)
    value = _changed(option)
    changed = _with(design, query.name, **{option.name: value})

    text = dump_design(changed)
    assert f"{option.name}: {str(value).lower()}" in text
    again = read_design(text)
    assert again.design is not None, again.problems
    assert (
        getattr(
            next(p for p in again.design.access_patterns if p.name == query.name),
            option.name,
        )
        == value
    )
    assert summary(design, changed) == (
        f"changed access pattern {query.name} "
        f"({option.label or option.name.replace('_', ' ')})"
    )


@pytest.mark.parametrize("option", d.PATTERN_OPTIONS, ids=lambda o: o.name)
def test_a_wrong_value_names_the_field_and_what_was_expected(option):
    design = _design()
    query = _table_query(design)
    text = dump_design(_at_defaults(design, query.name)).replace(
        f"- name: {query.name}\n", f"- name: {query.name}\n  {option.name}: [1]\n", 1
    )

    result = read_design(text)

    assert result.design is None
    (problem,) = result.problems
    assert problem.path.endswith(f".{option.name}")
    expected = "true or false" if option.kind is bool else "a whole number"
    assert expected in problem.message


def test_a_read_stated_by_needs_takes_only_the_settings_declared_for_it():
    design = _design()
    needs = dataclasses.replace(orders_of_a_customer_needs(), consistent_read=True)
    text = dump_design(dataclasses.replace(design, access_patterns=(needs,)))

    again = read_design(text)
    assert again.design is not None, again.problems
    assert again.design.access_patterns[0].consistent_read

    refused = next(o for o in d.PATTERN_OPTIONS if not o.with_needs)
    result = read_design(
        text.replace("  needs:\n", f"  {refused.name}: false\n  needs:\n", 1)
    )
    assert result.design is None
    (problem,) = result.problems
    assert problem.path.endswith(f".{refused.name}")
    assert f"a pattern stated by needs has no {refused.name}" in problem.message
