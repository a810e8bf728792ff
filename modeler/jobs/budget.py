"""What one job may spend: CPU seconds of its own thread and memory added
to its process since it started; the disk a file it writes may take is
counted as it is written (`modeler.jobs.files`). Plain Python: nothing here
imports Django."""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_STATM = "/proc/self/statm"


class BudgetExceeded(Exception):
    """`kind` is "time", "memory" or "disk" (a file a worker writes);
    `spent` is in seconds, MB or bytes."""

    def __init__(self, kind: str, spent: float, limit: float) -> None:
        super().__init__(f"{kind} budget of {limit} passed ({spent:.0f})")
        self.kind, self.spent, self.limit = kind, spent, limit

    def budget_named(self) -> str:
        """The budget passed, as a message names it (with its setting)."""
        if self.kind == "time":
            return (
                f"the {self.limit:,.0f} s CPU budget of a simulation "
                "(SIMULATION_CPU_SECONDS)"
            )
        if self.kind == "disk":
            return (
                f"the {self.limit:,.0f} bytes a file may take (SAMPLE_FILE_MAX_BYTES)"
            )
        return (
            f"the {self.limit:,.0f} MB memory budget of a simulation "
            "(SIMULATION_MEMORY_MB)"
        )


def resident_mb() -> float:
    """The process's resident memory now (Linux), or its peak elsewhere."""
    try:
        with open(_STATM) as statm:
            return int(statm.read().split()[1]) * _PAGE / 2**20
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        # Kilobytes on Linux, bytes on macOS.
        return peak / 2**20 if peak > 2**32 else peak / 2**10


@dataclass
class Budget:
    cpu_seconds: float
    memory_mb: float
    _cpu_start: float = field(default_factory=time.thread_time)
    _memory_start: float = field(default_factory=resident_mb)

    def cpu_spent(self) -> float:
        return time.thread_time() - self._cpu_start

    def memory_added(self) -> float:
        return resident_mb() - self._memory_start

    def check(self) -> None:
        """Raises BudgetExceeded once either is passed."""
        spent = self.cpu_spent()
        if spent > self.cpu_seconds:
            raise BudgetExceeded("time", spent, self.cpu_seconds)
        added = self.memory_added()
        if added > self.memory_mb:
            raise BudgetExceeded("memory", added, self.memory_mb)


Progress = Callable[[str, int, int], None]


def checked_progress(budget: Budget, report: Progress, *, every: float) -> Progress:
    """A job's progress(phase, done, total): each call checks the budget
    (raising BudgetExceeded), and `report` hears of it at most every
    `every` seconds (pages waiting for the job poll what it stores)."""
    told = 0.0

    def progress(phase: str, done: int, total: int) -> None:
        nonlocal told
        budget.check()
        if time.monotonic() - told >= every:
            told = time.monotonic()
            report(phase, done, total)

    return progress
