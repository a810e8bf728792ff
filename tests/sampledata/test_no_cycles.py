"""What the generation makes and drops is freed as it is dropped, without
the cyclic garbage collector: a command builds its simulation with the
collector off and then leaves what is there out of its collections, so a
cycle would keep the lists of every entity's items and their parents'
positions for the whole command (35 MB at a million items)."""

from __future__ import annotations

import gc

import pytest

from modeler.sampledata import generate
from tests.sampledata.helpers import example


@pytest.mark.parametrize("keep", [True, False])
def test_no_list_of_generated_items_is_left_in_a_cycle(keep):
    design = example("order-management")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        items = generate(design, keep=keep).items
        gc.collect()
        lists = [o for o in gc.garbage if type(o) is list and o]
        held = {id(item) for item in items}
        assert not [found for found in lists if id(found[0]) in held]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
