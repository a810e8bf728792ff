"""A command that has built a simulation ends its process without Python's
teardown of the heap (manage.py, `modeler.management.process_end`): the
same output and exit status, and nothing ended early in-process."""

from __future__ import annotations

import os
import pstats
import subprocess
import sys
import threading

import pytest

from modeler.examples import EXAMPLES_DIR
from modeler.management import process_end

ORDER_FILE = EXAMPLES_DIR / "order-management.yaml"


class Ended(Exception):
    pass


@pytest.fixture
def exits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The statuses `os._exit` was called with (raising Ended instead)."""
    codes: list[int] = []

    def _exit(code: int) -> None:
        codes.append(code)
        raise Ended

    monkeypatch.setattr(process_end.os, "_exit", _exit)
    return codes


def test_a_process_is_ended_only_when_a_command_asked(exits, monkeypatch):
    monkeypatch.setattr(process_end, "_quickly", False)
    process_end.end_process(1)
    assert exits == []

    monkeypatch.setattr(process_end, "_quickly", True)
    with pytest.raises(Ended):
        process_end.end_process(1)
    with pytest.raises(Ended):
        process_end.end_process(None)
    assert exits == [1, 0]


def test_a_status_sys_exit_prints_or_another_thread_keeps_the_teardown(
    exits, monkeypatch
):
    monkeypatch.setattr(process_end, "_quickly", True)
    process_end.end_process("a message")
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        process_end.end_process(0)
    finally:
        release.set()
        other.join()
    assert exits == []


@pytest.mark.parametrize("command", ["check_design", "simulate"])
def test_a_command_that_simulated_ends_with_its_whole_output(command):
    """Through a real process: the simulation is built, the process ends
    without its teardown, and every line is written and the status kept
    (its output buffered, as it is without PYTHONUNBUFFERED: written when
    the process ends)."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.run(
        [sys.executable, "manage.py", command, str(ORDER_FILE)],
        capture_output=True,
        cwd=EXAMPLES_DIR.parent,
        env=environment,
        timeout=120,
        check=False,
    )

    lines = process.stdout.decode().splitlines()
    assert process.stderr.decode() == ""
    assert process.returncode == 0
    if command == "check_design":
        assert lines[-1].startswith(f"{ORDER_FILE}: Order management: no errors")
    else:  # the heading, then a line per pattern, the last one's last
        assert len(lines) == 9
        assert lines[0] == "Order management: 7,972 sample items (seed 42)"
        assert lines[-1].startswith("PASS  Ship an order [UpdateItem]")


def test_a_profiled_command_writes_its_profile(tmp_path):
    """`python -m cProfile -o FILE manage.py check_design` writes FILE in the
    teardown, which the process then keeps."""
    profile = tmp_path / "check.prof"
    process = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), "manage.py"]
        + ["check_design", str(ORDER_FILE)],
        capture_output=True,
        cwd=EXAMPLES_DIR.parent,
        timeout=120,
        check=False,
    )
    assert process.returncode == 0, process.stderr.decode()
    stats = pstats.Stats(str(profile))
    assert any(name == "check_design" for _, _, name in stats.stats)  # type: ignore[attr-defined]
