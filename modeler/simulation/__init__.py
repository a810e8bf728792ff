"""Simulating a design: its access patterns run against its sample data in
the in-memory engine, with verdicts against what each pattern promises.
Pure Python; nothing here imports Django."""

from __future__ import annotations

from modeler.simulation.expectations import Verdict
from modeler.simulation.simulate import Call, Capacity, Draw, PatternRun, Simulation

__all__ = ["Call", "Capacity", "Draw", "PatternRun", "Simulation", "Verdict"]
