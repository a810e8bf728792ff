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


DAY_BUCKETS = """\
format: single-table-workbench/v1
name: Day buckets
table: {name: readings, partition_key: PK, sort_key: SK}
entities:
  Device:
    attributes: {deviceId: {type: S, generator: uuid}}
    keys: {PK: "DEVICE#{deviceId}", SK: "META"}
    sample: {count: 3}
  Reading:
    attributes:
      deviceId: {type: S, generator: {ref: Device.deviceId}}
      day: {type: S, generator: {date: {from: 2026-06-01, to: 2026-06-07}}}
      clock: {type: S, generator: {faker: time}}
      readingAt: {type: S, generator: {template: "{day}T{clock}Z"}}
    keys: {PK: "DEVICE#{deviceId}#{day}", SK: "AT#{readingAt}"}
    sample: {per: Device, count: 150}
access_patterns:
  - name: Readings of a device over a day
    operation: Query
    key: {PK: "DEVICE#{deviceId}#{day}", SK: {between: ["AT#{from}", "AT#{to}"]}}
    parameters:
      day: {type: S, example: "2026-06-03"}
      from: {type: S, example: "2026-06-03T00:00:00Z"}
      to: {type: S, example: "2026-06-03T23:59:59Z"}
    expects:
      entity: Reading
      where: {deviceId: "{deviceId}", readingAt: {between: ["{from}", "{to}"]}}
    traffic: {rps: 5, peak_rps: 20}
"""


def test_a_day_bucketed_key_fails_a_range_over_midnight() -> None:
    design = read_design(DAY_BUCKETS).design
    simulation = Simulation(design)
    run = simulation.draw(simulation.run(design.access_patterns[0]))
    # The designer's example stays within one day's bucket and passes...
    assert run.verdict.passed
    # ...a range from a reading's time to the same time the next day reads
    # one bucket only: the readings after midnight are missing.
    draw = run.failed_draw
    assert draw is not None and draw.kind == "day-change"
    start, end = draw.parameters["from"], draw.parameters["to"]
    assert start[10:] == end[10:] and start[:10] < end[:10]
    assert draw.verdict.missing
    next_day = end[:10]
    assert all(f"#{next_day}" in key[0] for key in draw.verdict.missing)


def test_a_range_that_stays_in_its_bucket_passes_the_day_change_draws() -> None:
    # The same readings promised within the day's bucket: a range over
    # midnight asks only for the first day's part, which the bucket holds.
    text = DAY_BUCKETS.replace(
        'where: {deviceId: "{deviceId}", readingAt',
        'where: {deviceId: "{deviceId}", day: "{day}", readingAt',
    )
    design = read_design(text).design
    simulation = Simulation(design)
    run = simulation.draw(simulation.run(design.access_patterns[0]))
    assert run.failed_draw is None, run.failed_draw
    assert run.draws == 20
