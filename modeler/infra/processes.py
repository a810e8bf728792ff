"""Child processes (Graphviz's dot, cfn-lint) limited in number across every
worker process of the machine.

Each of those programs can take seconds of CPU and hundreds of megabytes;
with several web workers, each with threads, a burst of diagram or lint
requests would start one per request. A run takes one of `count` slots,
each a lock file in `directory` held with flock for the run: every process
on the machine that uses the same directory shares the slots, and a slot
whose process dies is free again at once (the kernel drops its lock). A
run that finds no free slot within `wait_seconds` is refused with a message
saying the server is busy.

The limit reaches the processes of one machine that share the directory
(one per user in the temporary directory by default): gunicorn's workers
and their threads, the commands and the test workers run there. Several
machines each have their own.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


class SlotsBusy(Exception):
    """No slot came free in time; the message says so for a user."""


@dataclass(frozen=True)
class Slots:
    directory: Path
    count: int = 2
    wait_seconds: float = 10.0


def default_directory() -> Path:
    """The slots of this machine's user: every checkout and process of the
    user shares them."""
    return Path(tempfile.gettempdir()) / f"workbench-process-slots-{os.getuid()}"


_current = Slots(default_directory())


def configure(slots: Slots) -> None:
    global _current
    _current = slots


def current() -> Slots:
    return _current


@contextlib.contextmanager
def slot(what: str, slots: Slots | None = None) -> Iterator[int]:
    """Hold one slot for the block; yields its number. Raises SlotsBusy,
    naming `what`, when none comes free within the wait."""
    slots = slots or current()
    slots.directory.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + slots.wait_seconds
    pause = 0.02
    while True:
        for number in range(slots.count):
            held = _try_lock(slots.directory / f"slot-{number}.lock")
            if held is not None:
                try:
                    yield number
                finally:
                    fcntl.flock(held, fcntl.LOCK_UN)
                    os.close(held)
                return
        if time.monotonic() >= deadline:
            raise SlotsBusy(
                f"The server is busy running {what} for other requests "
                f"({slots.count} at a time); try again in a moment."
            )
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def _try_lock(path: Path) -> int | None:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        return None
    return descriptor
