"""The cyclic garbage collector around a command's simulation
(`modeler.management.collector`): off while it is built, its objects then
left out of the collections until the command's `heap_frozen` ends."""

from __future__ import annotations

import gc

import pytest

from modeler.management.collector import collector_off_while_built, heap_frozen


@pytest.fixture(autouse=True)
def _collector_as_it_was():
    enabled = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    if not enabled:
        gc.disable()


def test_the_objects_built_are_left_out_until_the_heap_is_unfrozen():
    with collector_off_while_built():
        assert not gc.isenabled()
        built = [{"n": n} for n in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(built)
    with heap_frozen():
        assert gc.get_freeze_count() >= len(built)
    assert gc.get_freeze_count() == 0


def test_a_build_that_fails_freezes_nothing():
    with pytest.raises(ValueError), collector_off_while_built():
        raise ValueError("the sample data cannot be made")
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
