"""Declared capacity is compared with the load: a provisioned table below
its average load (error) or only its peak (warning), a GSI short of write
capacity (error: it throttles the table's writes), and on-demand tables
past the table quota or the warm throughput of a new table."""

from __future__ import annotations

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

DESIGN = """\
format: single-table-workbench/v1
name: Meters
table:
  name: meters
  partition_key: {name: PK, type: S}
  sort_key: {name: SK, type: S}
  billing: BILLING
  indexes:
    - name: GSI1
      kind: global
      partition_key: {name: GSI1PK, type: S}
      sort_key: {name: GSI1SK, type: S}
      projection: KEYS_ONLY
      GSI_CAPACITY
entities:
  Meter:
    attributes: {meterId: {type: S, generator: uuid}}
    keys: {PK: "METER#{meterId}", SK: "META"}
    sample: {count: 500}
  Reading:
    attributes:
      meterId: {type: S, generator: {ref: Meter.meterId}}
      at: {type: S, generator: {date: {from: 2025-01-01, to: 2025-12-31}}}
      day: {type: S, generator: {choice: [D1, D2, D3, D4, D5, D6, D7, D8, D9]}}
    keys:
      PK: "METER#{meterId}"
      SK: "READING#{at}"
      GSI1PK: "DAY#{day}#{meterId}"
      GSI1SK: "{at}"
    sample: {per: Meter, count: 3}
access_patterns:
  - name: Record a reading
    operation: PutItem
    entity: Reading
    traffic: {rps: RPS, peak_rps: PEAK}
"""


def _findings(
    *,
    billing: str = "{mode: PROVISIONED, read: 100, write: 1000}",
    gsi: str = "capacity: {read: 10, write: 1000}",
    rps: int = 100,
    peak: int = 200,
) -> list:
    text = (
        DESIGN.replace("BILLING", billing)
        .replace("GSI_CAPACITY", gsi)
        .replace("PEAK", str(peak))
        .replace("RPS", str(rps))
    )
    result = read_design(text)
    assert result.design is not None, result.problems
    review = review_design(result.design, simulation=Simulation(result.design))
    return [
        f
        for f in review.findings
        if f.code in ("under-provisioned", "on-demand-quota", "warm-throughput")
    ]


def test_capacity_enough_for_the_peak_raises_nothing() -> None:
    assert _findings() == []


def test_a_table_below_its_average_load_is_an_error() -> None:
    # 600 writes/s of 1 WCU on the table against 500 provisioned, not scaled.
    (short,) = _findings(
        billing="{mode: PROVISIONED, read: 100, write: 500, auto_scaling: false}",
        rps=600,
        peak=600,
    )
    assert (short.severity, short.location.name) == ("error", "meters")
    assert short.message == "Table meters is provisioned below its write load"
    assert "throttled all the time" in short.why
    assert short.evidence == (
        "provisioned: 500 WCU, not auto scaled",
        "needed: 600 WCU/s on average, 600 at peak",
    )


def test_auto_scaling_that_reaches_the_average_load_makes_it_a_warning() -> None:
    # By default auto scaling may raise the 500 WCU to 5,000: it follows the
    # 600, late.
    (short,) = _findings(
        billing="{mode: PROVISIONED, read: 100, write: 500}", rps=600, peak=600
    )
    assert short.severity == "warning"
    assert "Auto scaling raises it (up to 5,000)" in short.why
    assert short.evidence[0] == "provisioned: 500 WCU, auto scaled up to 5,000"


def test_an_average_load_above_auto_scalings_maximum_is_an_error() -> None:
    scaled = "{write: {min: 400, max: 550, target: 70}, read: false}"
    (short,) = _findings(
        billing=f"{{mode: PROVISIONED, read: 100, write: 500, auto_scaling: {scaled}}}",
        rps=600,
        peak=600,
    )
    assert short.severity == "error"
    assert "more than auto scaling's maximum of 550" in short.why


def test_a_table_below_its_peak_only_is_a_warning() -> None:
    (short,) = _findings(
        billing="{mode: PROVISIONED, read: 100, write: 500}", rps=300, peak=900
    )
    assert short.severity == "warning"
    assert "auto scaling reacts only after two minutes" in short.why


def test_a_gsi_short_of_write_capacity_is_an_error() -> None:
    (short,) = _findings(gsi="capacity: {read: 10, write: 25}", rps=100, peak=200)
    assert (short.severity, short.location.kind, short.location.name) == (
        "error",
        "index",
        "GSI1",
    )
    assert "throttles the table's own writes" in short.why


def test_on_demand_past_the_warm_throughput_and_the_table_quota() -> None:
    on_demand = {"billing": "{mode: PAY_PER_REQUEST}", "gsi": ""}
    assert _findings(**on_demand, rps=100, peak=1000) == []
    (warm,) = _findings(**on_demand, rps=100, peak=3000)  # 6,000 WCU with GSI1
    assert (warm.code, warm.severity) == ("warm-throughput", "advice")
    (quota,) = _findings(**on_demand, rps=1000, peak=25_000)  # 50,000 WCU
    assert (quota.code, quota.severity) == ("on-demand-quota", "warning")
