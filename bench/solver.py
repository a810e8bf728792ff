"""The key-design solver against hand-made designs.

For each shipped example and each problem of the solver's corpus
(tests/solver/problems/), the hand-made design is reviewed as it is, then
its keys are removed (entities, patterns' needs and traffic kept) and the
solver proposes keys within its default budget of 10 s of CPU. Per problem:
the solver's CPU and wall time, how many designs it simulated and reviewed,
whether its best proposal is proven (every pattern passes every draw, no
error or warning finding), its index count beside the hand-made one, and
its monthly cost at the stated traffic beside the hand-made one's (on
demand, or provisioned for a provisioned table, plus storage), with the
ratio.

    PYTHONPATH=. .venv/bin/python bench/solver.py
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
django.setup()

from modeler.designfile import read_design
from modeler.review.review import review_design
from modeler.simulation import Simulation
from modeler.solver import propose, strip_keys
from modeler.solver.projections import design_monthly_cost

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "examples").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "solver" / "problems").glob("*.yaml")
)


def main() -> None:
    print(
        f"{'problem':<24} {'CPU s':>6} {'wall s':>7} {'checked':>7} {'proven':>6} "
        f"{'indexes':>8} {'hand':>5} {'$/month':>10} {'hand $':>10} {'ratio':>6}"
    )
    worst = 0.0
    for path in FILES:
        hand = read_design(path.read_text()).design
        hand_review = review_design(hand, simulation=Simulation(hand))
        hand_cost = design_monthly_cost(hand, hand_review.cost)
        wall, cpu = time.perf_counter(), time.process_time()
        proposal = propose(strip_keys(hand))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        worst = max(worst, cpu)
        best = proposal.best
        cost = best.monthly_cost if best is not None else None
        print(
            f"{path.stem:<24} {cpu:>6.2f} {wall:>7.2f} {proposal.checked:>7} "
            f"{'yes' if best is not None and best.proven else 'NO':>6} "
            f"{best.index_count if best else '-':>8} {len(hand.table.indexes):>5} "
            f"{cost or 0:>10,.2f} {hand_cost:>10,.2f} "
            f"{(cost / hand_cost if cost and hand_cost else 0):>6.2f}"
        )
    print(f"slowest solve: {worst:.2f} s of CPU (budget 10 s)")


if __name__ == "__main__":
    main()
