"""A command's process ended without Python's teardown of its heap.

A command that has built a simulation of a million items leaves some ten
million objects behind it, which Python's finalization frees one by one
when the process ends (0.5 s of the CPU of `check_design` at a million
items), though the system takes the process's memory back at once. Such a
command calls `end_quickly()`; once the command is over (its output
written, Django's connections closed), manage.py calls `end_process`,
which flushes logging and the output streams and ends the process with the
command's exit status, skipping that teardown. Nothing is skipped for a
command run inside another process (`call_command`, the tests): only
manage.py ends the process, and only when the main thread is the only one
(ending it would stop the others without their clean-up), nor under a
profiler or a tracer (cProfile and coverage write their figures in the
teardown)."""

from __future__ import annotations

import logging
import os
import sys
import threading

_quickly = False


def end_quickly() -> None:
    """Ask manage.py to end this process without its teardown once the
    command is over."""
    global _quickly
    _quickly = True


def end_process(code: object) -> None:
    """End the process now with `code` (an exit status as `sys.exit` takes
    it: None is 0) when the command asked for it (`end_quickly`); return
    otherwise, and for a status that is not a number (`sys.exit` prints
    it)."""
    if not _quickly or threading.active_count() > 1:
        return
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return
    if code is not None and type(code) is not int:
        return
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or a reader gone
            return  # Python's own ending reports it as it does
    os._exit(code or 0)
