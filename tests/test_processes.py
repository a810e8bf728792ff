"""Graphviz and cfn-lint runs are limited in number across processes: each
holds one of a few lock-file slots, shared by every process of the machine,
and a run that finds none free in time is refused with a clear message."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from modeler.diagrams.rendering import RenderError, render
from modeler.exporters.cfnlint import lint_template
from modeler.infra import processes


def hold_every_slot(slots: processes.Slots) -> subprocess.Popen:
    """Another process holding all the slots until it is stopped."""
    code = textwrap.dedent(f"""
        import contextlib, sys, time
        from pathlib import Path
        from modeler.infra import processes
        slots = processes.Slots(Path({str(slots.directory)!r}), count={slots.count})
        with contextlib.ExitStack() as stack:
            for _ in range({slots.count}):
                stack.enter_context(processes.slot("a test", slots))
            print("held", flush=True)
            time.sleep(60)
    """)
    holder = subprocess.Popen(  # our interpreter, our code
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert holder.stdout.readline().strip() == "held"
    return holder


@pytest.fixture
def slots(tmp_path):
    configured = processes.Slots(tmp_path / "slots", count=2, wait_seconds=0.3)
    previous = processes.current()
    processes.configure(configured)
    yield configured
    processes.configure(previous)


def test_a_slot_is_shared_with_other_processes(slots):
    holder = hold_every_slot(slots)
    try:
        started = time.monotonic()
        busy = pytest.raises(processes.SlotsBusy, match="2 at a time")
        with busy, processes.slot("Graphviz"):
            pass
        assert time.monotonic() - started >= slots.wait_seconds
    finally:
        holder.kill()
        holder.wait()
    # The kernel drops a dead process's locks: the slots are free at once.
    with processes.slot("Graphviz") as number:
        assert number == 0


def test_threads_of_one_process_take_different_slots(slots):
    with processes.slot("a"), processes.slot("b") as second:
        assert second == 1
        with pytest.raises(processes.SlotsBusy), processes.slot("c"):
            pass


def test_rendering_and_linting_wait_for_a_slot_and_say_when_busy(slots):
    holder = hold_every_slot(slots)
    try:
        with pytest.raises(RenderError, match="busy running Graphviz"):
            render("digraph { a -> b }", "svg")
        result = lint_template("Resources: {}\n")
        assert result.problem.startswith("The server is busy running cfn-lint")
    finally:
        holder.kill()
        holder.wait()
    # A busy answer is not kept: the same template lints once a slot is free.
    assert not lint_template("Resources: {}\n").problem.startswith("The server")
    assert render("digraph { a -> b }", "svg").startswith(b"<?xml")
