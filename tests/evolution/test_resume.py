"""Each of the issue's six migrations, its script stopped halfway through
a phase and run again from its checkpoint: the same table as a run that
was never stopped, after the rewrite and after the cleanup."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from modeler.design import model as d
from modeler.evolution.plan import plan_migration
from modeler.evolution.proof import loaded_client, table_items
from modeler.evolution.runtime import Migration
from tests.evolution import revisions
from tests.evolution.revisions import smaller
from tests.evolution.test_examples import SIX

WRITES = ("put_item", "update_item", "delete_item")


class Stopped(Exception):
    """The process killed: no write after it is made."""


class Stopping:
    """A client that stops after `left` writes: the crash of a run."""

    def __init__(self, client: Any, left: int) -> None:
        self.client, self.left = client, left

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.client, name)
        if name not in WRITES:
            return method

        def write(**request: Any) -> Any:
            if self.left <= 0:
                raise Stopped
            self.left -= 1
            return method(**request)

        return write


def _tables(client: Any, spec: dict) -> list[list[dict]]:
    names = dict.fromkeys((spec["source_table"], spec["target_table"]))
    return [
        sorted(table_items(client, name), key=lambda i: repr(sorted(i.items())))
        for name in names
    ]


@pytest.mark.parametrize("revision", SIX, ids=lambda r: r.__name__)
def test_a_run_stopped_halfway_and_resumed_ends_as_one_never_stopped(
    revision: Callable[[], d.Design], tmp_path
):
    before, after = smaller(revisions.original()), smaller(revision())
    spec = plan_migration(before, after, proof=False).spec
    phases = [False] if spec["copy"] else [False, True]

    whole, _ = loaded_client(before, after, spec)
    writes, ends = {}, {}
    for cleanup in phases:
        tally = Migration(spec, whole, workers=1, cleanup=cleanup).run()
        writes[cleanup] = tally.counts["written"] + tally.counts["deleted"]
        ends[cleanup] = _tables(whole, spec)
    assert any(count > 1 for count in writes.values())

    stopped, _ = loaded_client(before, after, spec)
    for cleanup in phases:
        checkpoint = str(tmp_path / f"checkpoint-{cleanup}.json")
        if writes[cleanup] > 1:
            crashing = Stopping(stopped, writes[cleanup] // 2)
            with pytest.raises(Stopped):
                Migration(
                    spec, crashing, workers=1, cleanup=cleanup, checkpoint=checkpoint
                ).run()
        tally = Migration(
            spec, stopped, workers=1, cleanup=cleanup, checkpoint=checkpoint
        ).run()
        assert tally.errors == []
        assert _tables(stopped, spec) == ends[cleanup]
