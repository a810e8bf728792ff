"""The budget of one import: the site hands its settings to the domain,
each limit stops the import with a message naming its setting, a reader
called inside another's import shares its budget, and nesting is measured
without recursing."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from modeler.importers import budget as import_budget
from modeler.importers.budget import (
    MAX_NESTING,
    ImportLimitError,
    ImportLimits,
    check_nesting,
)


def test_the_site_hands_its_settings_to_the_domain():
    current = import_budget.current()
    assert current.steps == settings.IMPORT_MAX_STEPS
    assert current.value_bytes == settings.IMPORT_MAX_VALUE_BYTES
    assert current.cpu_seconds == settings.IMPORT_CPU_SECONDS


def test_steps_past_the_limit_name_the_setting():
    with import_budget.import_budget(ImportLimits(steps=10)) as budget:
        budget.charge(10)
        with pytest.raises(ImportLimitError, match=r"\(setting IMPORT_MAX_STEPS\)"):
            budget.charge()


def test_a_value_past_the_limit_names_it_and_the_setting():
    with import_budget.import_budget(ImportLimits(value_bytes=100)) as budget:
        budget.check_size(100, "local.x")
        with pytest.raises(ImportLimitError) as refused:
            budget.check_size(101, "local.x")
    assert str(refused.value) == (
        "local.x evaluates to more than 100 bytes; this workbench allows at most "
        "that for one value (setting IMPORT_MAX_VALUE_BYTES)"
    )


def test_cpu_seconds_are_counted_from_the_start_of_the_import():
    with import_budget.import_budget(ImportLimits(cpu_seconds=0.02)) as budget:
        budget.check_cpu()  # nothing spent yet
        with pytest.raises(ImportLimitError, match=r"\(setting IMPORT_CPU_SECONDS\)"):
            while True:  # spend the budget: the check says so once it is
                budget.check_cpu()


def test_steps_look_at_the_cpu_as_they_go():
    with (
        import_budget.import_budget(ImportLimits(cpu_seconds=0.02)) as budget,
        pytest.raises(ImportLimitError, match="IMPORT_CPU_SECONDS"),
    ):
        while True:
            budget.charge()
    assert budget.steps < ImportLimits().steps


def test_a_reader_inside_an_import_shares_its_budget():
    with (
        import_budget.import_budget(ImportLimits(steps=5)) as outer,
        import_budget.import_budget(ImportLimits(steps=1_000)) as inner,
    ):
        assert inner is outer
    with import_budget.import_budget() as fresh:
        assert fresh is not outer
        assert fresh.limits == import_budget.current()


def test_outside_an_import_the_cpu_is_not_looked_at():
    import_budget.check_cpu()  # no budget open: nothing to stop


@pytest.mark.parametrize("levels", [MAX_NESTING + 1, 900, 50_000])
def test_nesting_past_the_limit_is_refused_without_recursing(levels):
    deep: object = "x"
    for _ in range(levels):
        deep = {"a": [deep]} if levels % 2 else [deep]
    with pytest.raises(ImportLimitError) as refused:
        check_nesting(deep)
    assert str(refused.value) == (
        f"the file is nested more than {MAX_NESTING} levels deep, which this "
        "workbench does not read (a DynamoDB item nests at most 32 levels)"
    )


def test_a_document_as_deep_as_an_item_may_be_is_read():
    # A DynamoDB item nests 32 levels: {"M": {...}} twice a level, in a
    # model file some eight levels down.
    value: object = {"S": "x"}
    for _ in range(32):
        value = {"M": {"a": value}}
    model = {"DataModel": [{"TableFacets": [{"TableData": [{"PK": value}]}]}]}
    check_nesting(json.loads(json.dumps(model)))
