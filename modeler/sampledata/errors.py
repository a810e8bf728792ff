"""The error of sample data that cannot be made."""

from __future__ import annotations


class SampleDataError(ValueError):
    """A design whose sample data cannot be made; the message names the
    entity and attribute."""
