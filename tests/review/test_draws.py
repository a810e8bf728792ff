"""Each read pattern is tried with many parameter draws: a range whose upper
end drops the items of its last day passes on a typical draw and fails on
a boundary draw, and the gate says which draw and which items."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

HOTEL = """\
format: single-table-workbench/v1
name: Hotel
table: {name: hotel, partition_key: PK, sort_key: SK}
entities:
  Hotel:
    attributes: {hotelId: {type: S, generator: uuid}}
    keys: {PK: "HOTEL#{hotelId}", SK: "META"}
    sample: {count: 3}
  Reservation:
    attributes:
      hotelId: {type: S, generator: {ref: Hotel.hotelId}}
      resId: {type: S, generator: ulid}
      checkIn: {type: S, generator: {date: {from: 2025-06-01, to: 2025-06-20}}}
    keys: {PK: "HOTEL#{hotelId}", SK: "RES#{checkIn}#{resId}"}
    sample: {per: Hotel, count: 60}
access_patterns:
  - name: Check-ins of a hotel between two dates
    operation: Query
    key: {PK: "HOTEL#{hotelId}", SK: {between: ["RES#{from}", "RES#{to}UPPER"]}}
    parameters:
      from: {type: S, example: "2025-05-01"}
      to: {type: S, example: "2025-06-30"}
    expects:
      entity: Reservation
      where: {hotelId: "{hotelId}", checkIn: {between: ["{from}", "{to}"]}}
    traffic: {rps: 5, peak_rps: 20}
"""


def _run(upper: str):
    result = read_design(HOTEL.replace("UPPER", upper))
    assert result.design is not None, result.problems
    simulation = Simulation(result.design)
    return (
        result.design,
        simulation,
        simulation.draw(simulation.run(result.design.access_patterns[0])),
    )


def test_an_upper_end_that_drops_its_last_day_fails_a_boundary_draw() -> None:
    design, simulation, run = _run("")
    # The first run, with the designer's example dates (no check-in on the
    # last day), passes...
    assert run.verdict.passed
    # ...a draw whose range ends on a day with check-ins does not, and names
    # them.
    assert run.failed_draw is not None
    last_day = run.failed_draw.parameters["to"]
    assert run.failed_draw.verdict.missing
    assert all(f"RES#{last_day}#" in key[1] for key in run.failed_draw.verdict.missing)
    assert not run.passed
    review = review_design(design, simulation=simulation, runs=[run])
    (broken,) = [f for f in review.findings if f.code == "pattern-fails"]
    assert broken.severity == "error"
    assert "draw with hotelId=" in broken.evidence[0]
    assert any(line.startswith("missing: HOTEL#") for line in broken.evidence)


def test_an_upper_end_past_the_last_day_passes_every_draw() -> None:
    _design, _simulation, run = _run("#~")
    assert run.failed_draw is None
    assert run.draws == 20
    assert run.passed


@pytest.mark.parametrize(("upper", "fails"), [("", True), ("#~", False)])
def test_simulate_and_check_design_fail_on_a_failed_draw(
    tmp_path: Path, upper: str, fails: bool
) -> None:
    path = tmp_path / "hotel.yaml"
    path.write_text(HOTEL.replace("UPPER", upper))
    for command in ("simulate", "check_design"):
        stdout = io.StringIO()
        if fails:
            with pytest.raises(CommandError) as error:
                call_command(command, str(path), stdout=stdout)
            assert error.value.returncode == 1
        else:
            call_command(command, str(path), stdout=stdout)
    if fails:
        assert " draw (hotelId=" in _simulate_output(path)


def _simulate_output(path: Path) -> str:
    stdout = io.StringIO()
    with pytest.raises(CommandError):
        call_command("simulate", str(path), stdout=stdout)
    return stdout.getvalue()
