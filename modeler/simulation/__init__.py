"""Simulating a design: its access patterns run against its sample data in
the in-memory engine, with verdicts against what each pattern promises.
Pure Python; nothing here imports Django.

The names below are imported when first used, so that a caller of one
module (the request builder, say, to write an export) does not load the
simulator, botocore and Faker with it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from modeler.simulation.expectations import Verdict
    from modeler.simulation.runs import Call, Capacity, Draw, PatternRun
    from modeler.simulation.simulate import Simulation

_MODULES = {
    "Call": "runs",
    "Capacity": "runs",
    "Draw": "runs",
    "PatternRun": "runs",
    "Simulation": "simulate",
    "Verdict": "expectations",
}

__all__ = ["Call", "Capacity", "Draw", "PatternRun", "Simulation", "Verdict"]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
