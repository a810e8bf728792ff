"""The proof says how far it is, for the Migration tab's progress bar: the
sample data made and loaded, the script's items scanned, the check, then
each access pattern of the new design; a report that raises stops it (a
worker's budget)."""

from __future__ import annotations

import pytest

from modeler.evolution.plan import plan_migration
from tests.evolution import revisions
from tests.evolution.revisions import smaller


def test_the_proof_reports_each_phase_in_order():
    heard: list[tuple[str, int, int]] = []
    plan = plan_migration(
        smaller(revisions.original(), 3),
        smaller(revisions.gsi_added(), 3),
        progress=lambda phase, done, total: heard.append((phase, done, total)),
    )
    assert plan.proven
    phases = list(dict.fromkeys(phase for phase, _, _ in heard))
    assert phases == [
        "generating",
        "loading",
        "rewriting",
        "dual-write",
        "cleanup",
        "checking",
        "patterns",
    ]
    rewriting = [(done, total) for phase, done, total in heard if phase == "rewriting"]
    items = sum(plan.proof.counts_before.values())
    assert rewriting[-1] == (items, items)
    patterns = [done for phase, done, _ in heard if phase == "patterns"]
    assert patterns == list(range(len(plan.after.access_patterns)))


class Stop(Exception):
    pass


def test_a_report_that_raises_stops_the_proof():
    def stop(phase: str, done: int, total: int) -> None:
        if phase == "rewriting":
            raise Stop

    with pytest.raises(Stop):
        plan_migration(
            smaller(revisions.original(), 3),
            smaller(revisions.gsi_added(), 3),
            progress=stop,
        )
