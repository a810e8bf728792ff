"""What one import may spend: evaluation steps, the size of an evaluated
value, nesting and CPU time.

Anyone who can sign up can import a file, and `check_design` reads files in
CI: a few kilobytes must not hold a web worker or a build. A Terraform
configuration's locals and a CloudFormation template's conditions and
mappings refer to each other, so a small file can ask for exponential work
(locals that double a text 60 times); a NoSQL Workbench model's inference
grows with its facets and items. Every import has:

- a budget of evaluation steps (IMPORT_MAX_STEPS): each value the
  configuration's or template's expressions are evaluated to costs one, so
  a file is refused the same way on every machine;
- a largest evaluated value (IMPORT_MAX_VALUE_BYTES): a text or a list made
  by interpolating, joining or substituting past it is refused;
- CPU seconds (IMPORT_CPU_SECONDS), checked in the long loops, for work no
  step counts (parsing, the inference of a model's entities);
- nesting: a parsed document deeper than MAX_NESTING levels is refused
  before code that recurses walks it.

The site sets the limits from its settings (`modeler.apps` calls
`configure`); each reader opens a budget with `import_budget()` (a reader
called by another shares the caller's) and charges it. Past a limit, the
import stops with ImportLimitError, whose message names the setting.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

# DynamoDB nests an item's values at most 32 levels deep; in DynamoDB JSON
# each level is two (`{"M": {...}}`), and a model file holds its items some
# eight levels down. Every valid file is well within this.
MAX_NESTING = 100
# The CPU is looked at once in this many steps: reading the clock costs
# about as much as a step.
_STEPS_PER_CPU_CHECK = 1_000


@dataclass(frozen=True)
class ImportLimits:
    steps: int = 1_000_000
    value_bytes: int = 100_000
    cpu_seconds: float = 20.0  # under gunicorn's 30 s worker timeout


class ImportLimitError(Exception):
    """An import stopped at a limit; the message says which and names its
    setting. Not a ValueError: the readers' handlers of bad values must let
    it through."""


_current = ImportLimits()


def current() -> ImportLimits:
    return _current


def configure(limits: ImportLimits) -> None:
    global _current
    _current = limits


@contextlib.contextmanager
def configured(limits: ImportLimits) -> Iterator[ImportLimits]:
    """`limits` for the duration of a block (tests, benchmarks)."""
    previous = current()
    configure(limits)
    try:
        yield limits
    finally:
        configure(previous)


class Budget:
    """One import's spending against its limits."""

    def __init__(self, limits: ImportLimits) -> None:
        self.limits = limits
        self.steps = 0
        self._next_cpu_check = _STEPS_PER_CPU_CHECK
        # The CPU time of this thread, not of the process: a threaded server
        # runs other requests beside this one.
        self._started = time.thread_time()

    def charge(self, steps: int = 1) -> None:
        """Count evaluation steps; ImportLimitError past IMPORT_MAX_STEPS."""
        self.steps += steps
        if self.steps > self.limits.steps:
            raise ImportLimitError(
                f"evaluating the file's expressions takes more than "
                f"{self.limits.steps:,} steps (its values refer to each other "
                "too many times); this workbench allows at most that (setting "
                "IMPORT_MAX_STEPS)"
            )
        if self.steps >= self._next_cpu_check:
            self._next_cpu_check = self.steps + _STEPS_PER_CPU_CHECK
            self.check_cpu()

    def check_cpu(self) -> None:
        """ImportLimitError once the import has spent IMPORT_CPU_SECONDS."""
        if time.thread_time() - self._started > self.limits.cpu_seconds:
            raise ImportLimitError(
                f"this import took more than {self.limits.cpu_seconds:g} s of "
                "CPU; this workbench allows at most that (setting "
                "IMPORT_CPU_SECONDS): import a smaller file, or split it"
            )

    def check_size(self, size: int, what: str) -> None:
        """ImportLimitError when a value of `size` bytes, which `what`
        describes, passes IMPORT_MAX_VALUE_BYTES."""
        if size > self.limits.value_bytes:
            raise ImportLimitError(
                f"{what} evaluates to more than {self.limits.value_bytes:,} "
                "bytes; this workbench allows at most that for one value "
                "(setting IMPORT_MAX_VALUE_BYTES)"
            )


_open: ContextVar[Budget | None] = ContextVar("import_budget", default=None)


@contextlib.contextmanager
def import_budget(limits: ImportLimits | None = None) -> Iterator[Budget]:
    """The budget of the import under way, or a new one with `limits` (by
    default the site's) for the duration of the block."""
    outer = _open.get()
    if outer is not None:
        yield outer
        return
    budget = Budget(limits or current())
    token = _open.set(budget)
    try:
        yield budget
    finally:
        _open.reset(token)


def check_cpu() -> None:
    """For the long loops of code an import runs: stop it once it has spent
    its CPU seconds. Does nothing outside an import."""
    budget = _open.get()
    if budget is not None:
        budget.check_cpu()


def text_size(text: str) -> int:
    """A text's size in UTF-8 bytes."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def check_nesting(data: Any, *, what: str = "the file") -> None:
    """ImportLimitError when JSON-like `data` (dicts and lists) nests deeper
    than MAX_NESTING levels. Walks it without recursing, so any depth is
    measured safely."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_NESTING:
            raise ImportLimitError(nesting_message(what))
        stack.extend((child, depth + 1) for child in children)


def nesting_message(what: str = "the file") -> str:
    return (
        f"{what} is nested more than {MAX_NESTING} levels deep, which this "
        "workbench does not read (a DynamoDB item nests at most 32 levels)"
    )
