"""Giving the C heap's free memory back to the system.

A bulk load makes and drops large temporary lists, dicts and sets (the
items' sizes, the entries of each index, the groups of each partition), as
the generation of sample data before it does. glibc's allocator keeps what
they took once it is free, in the middle of its heap, as resident memory of
the process (about 90 bytes an item after a simulation's load, a tenth of
its memory); `malloc_trim(0)` hands those pages back to the system (a
millisecond). Elsewhere than glibc (macOS, musl) there is no such call and
nothing is done."""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable


def release_free_memory() -> None:
    """Return the free pages of the C heap to the system where the C
    library can (glibc); elsewhere do nothing."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        # The process's own symbols, the C library's among them.
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim
