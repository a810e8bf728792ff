"""Generated data sets: deterministic, shaped by the sample settings, and
made of exactly the items the design's key templates would write."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from modeler.design_check import limits
from modeler.sampledata import (
    MAX_ITEMS,
    SampleDataError,
    allow_items,
    generate,
    max_items,
    write_jsonl,
)
from modeler.sampledata.generate import forget_kept_items
from tests.sampledata.helpers import design_from, example, one_attribute


@pytest.fixture(scope="module")
def orders():
    return generate(example("order-management"))


def test_the_same_seed_gives_the_same_items_byte_for_byte():
    design = example("order-management")
    first = "\n".join(write_jsonl(generate(design, seed=5).items))
    second = "\n".join(write_jsonl(generate(design, seed=5).items))
    assert first == second
    assert first != "\n".join(write_jsonl(generate(design, seed=6).items))


def test_root_counts_and_children_per_parent(orders):
    counts = orders.counts()
    assert counts["Customer"] == 200
    per_order = Counter(
        item["orderId"]
        for item, entity in zip(orders.items, orders.entities, strict=True)
        if entity == "LineItem"
    )
    # LineItem: uniform 1..5 per order, so every order has 1 to 5 lines.
    assert len(per_order) == counts["Order"]
    assert set(per_order.values()) == {1, 2, 3, 4, 5}


def test_zipf_children_are_skewed_and_capped(orders):
    per_customer = Counter(
        item["customerId"]
        for item, entity in zip(orders.items, orders.entities, strict=True)
        if entity == "Order"
    )
    sizes = sorted(per_customer.values())
    assert sizes[-1] <= 50, "zipf max"
    assert sizes[0] >= 1
    # Most customers have few orders, a few have many.
    assert sizes[len(sizes) // 2] <= 5 < sizes[-1]


def test_children_reference_their_parent_and_follow_it(orders):
    current: dict[str, dict] = {}
    for item, entity in zip(orders.items, orders.entities, strict=True):
        current[entity] = item
        if entity == "Order":
            assert item["customerId"] == current["Customer"]["customerId"]
        if entity == "LineItem":
            assert item["orderId"] == current["Order"]["orderId"]


def test_a_sequence_counts_within_each_parent(orders):
    lines: dict[str, list] = {}
    for item, entity in zip(orders.items, orders.entities, strict=True):
        if entity == "LineItem":
            lines.setdefault(item["orderId"], []).append(int(item["lineNo"]))
    assert all(
        numbers == list(range(1, len(numbers) + 1)) for numbers in lines.values()
    )


def test_keys_are_rendered_from_the_templates(orders):
    for item, entity in zip(orders.items, orders.entities, strict=True):
        if entity == "Order":
            assert item["PK"] == f"CUST#{item['customerId']}"
            assert item["SK"] == f"ORDER#{item['orderDate']}#{item['orderId']}"
        if entity == "LineItem":
            assert item["SK"] == f"ITEM#{int(item['lineNo']):03d}"


def test_sparse_keys_only_while_the_condition_holds(orders):
    placed = [
        (item, entity)
        for item, entity in zip(orders.items, orders.entities, strict=True)
        if entity == "Order"
    ]
    assert {("GSI2PK" in item) for item, _ in placed} == {True, False}
    assert all(("GSI2PK" in item) == (item["status"] == "OPEN") for item, _ in placed)
    customers = [
        i for i, e in zip(orders.items, orders.entities, strict=True) if e == "Customer"
    ]
    assert not any("GSI2PK" in item for item in customers)


def test_optional_attributes_appear_on_about_their_share(orders):
    customers = [
        i for i, e in zip(orders.items, orders.entities, strict=True) if e == "Customer"
    ]
    share = sum("phone" in c for c in customers) / len(customers)
    assert 0.45 < share < 0.75  # presence 0.6


HOT_DEVICES = """
format: single-table-workbench/v1
name: Hot devices
table: {name: devices, partition_key: PK, sort_key: SK}
entities:
  Device:
    attributes:
      deviceId: {type: S, generator: uuid}
    keys: {PK: "DEVICE#{deviceId}", SK: META}
    sample: {count: 100}
  Reading:
    attributes:
      deviceId: {type: S, generator: {ref: Device.deviceId}}
      readingAt: {type: S, generator: {timestamp: {from: 2026-06-01, to: 2026-06-30}}}
      expiresAt: {type: N, generator: {expires: {from: readingAt, days: 30}}}
    keys: {PK: "DEVICE#{deviceId}", SK: "READING#{readingAt}"}
    sample:
      per: Device
      count: {uniform: {min: 20, max: 80}}
      hot: {keys: 3, share: 0.2}
"""


def test_hot_keys_take_their_share_of_the_children():
    telemetry = generate(design_from(HOT_DEVICES))
    devices = [
        i["deviceId"]
        for i, e in zip(telemetry.items, telemetry.entities, strict=True)
        if e == "Device"
    ]
    readings = Counter(
        i["deviceId"]
        for i, e in zip(telemetry.items, telemetry.entities, strict=True)
        if e == "Reading"
    )
    hot = sum(readings[device] for device in devices[:3])
    assert hot / sum(readings.values()) == pytest.approx(0.2, abs=0.01)
    assert min(readings[d] for d in devices[:3]) > 3 * max(
        readings[d] for d in devices[3:]
    )


def test_expires_counts_days_from_the_items_own_time():
    telemetry = generate(design_from(HOT_DEVICES))
    readings = [
        i
        for i, e in zip(telemetry.items, telemetry.entities, strict=True)
        if e == "Reading"
    ]
    assert readings
    for reading in readings:
        taken = datetime.fromisoformat(reading["readingAt"].replace("Z", "+00:00"))
        assert reading["expiresAt"] == int(taken.timestamp()) + 30 * 86_400


def test_pick_with_skew_makes_celebrities():
    graph = generate(example("social-graph"))
    followed = Counter(
        i["followedId"]
        for i, e in zip(graph.items, graph.entities, strict=True)
        if e == "Follow"
    )
    users = graph.counts()["User"]
    top = followed.most_common(1)[0][1]
    assert top > 10 * (sum(followed.values()) / users)


def test_scale_multiplies_the_roots():
    design = example("social-graph")
    assert generate(design, scale=0.1).counts()["User"] == 50


def test_limit_keeps_whole_families_first():
    dataset = generate(example("order-management"), limit=100)
    assert len(dataset) == 100
    assert dataset.entities[0] == "Customer"
    assert dataset.items == generate(example("order-management")).items[:100]


def test_a_table_key_over_an_undeclared_attribute_names_the_entity():
    design = design_from("""
        format: single-table-workbench/v1
        name: Broken
        table: {name: broken, partition_key: {name: PK, type: S}}
        entities:
          Thing:
            attributes:
              id: {type: S, generator: uuid}
            keys: {PK: "THING#{id}"}
        """)
    entity = design.entities[0]
    import dataclasses

    from modeler.design import model as d

    broken = dataclasses.replace(
        design,
        entities=(
            dataclasses.replace(
                entity, keys=d.freeze({"PK": d.KeyTemplate("THING#{missing}")})
            ),
        ),
    )
    with pytest.raises(SampleDataError, match=r"Thing: .*'missing'"):
        generate(broken)


def test_a_table_key_attribute_is_present_even_when_optional():
    design = design_from("""
        format: single-table-workbench/v1
        name: Optional key
        table: {name: optional, partition_key: {name: PK, type: S}}
        entities:
          Thing:
            attributes:
              id: {type: S, generator: uuid, required: false, presence: 0.1}
            keys: {PK: "THING#{id}"}
            sample: {count: 50}
        """)
    assert len(generate(design)) == 50


def test_too_many_items_is_refused_before_memory_runs_out():
    # Past the site's limit on sample items (checked when a design is read),
    # generating still refuses past MAX_ITEMS: the commands ask for up to that.
    with limits.configured(limits.DesignLimits(sample_items=MAX_ITEMS * 2)):
        design = design_from(f"""
            format: single-table-workbench/v1
            name: Huge
            table: {{name: huge, partition_key: {{name: PK, type: S}}}}
            entities:
              Thing:
                attributes:
                  id: {{type: S, generator: uuid}}
                keys: {{PK: "THING#{{id}}"}}
                sample: {{count: {MAX_ITEMS + 1}}}
            """)
    with pytest.raises(SampleDataError, match="more than 1,000,000 items"):
        generate(design)


def test_a_site_that_allows_more_items_raises_the_ceiling():
    """SAMPLE_MAX_ITEMS past a million (apps.py hands it to `allow_items`)
    lets a generation make that many: `simulate` at ten million items."""
    text = """
        format: single-table-workbench/v1
        name: Huge
        table: {name: huge, partition_key: {name: PK, type: S}}
        entities:
          Thing:
            attributes:
              id: {type: S, generator: uuid}
            keys: {PK: "THING#{id}"}
            sample: {count: COUNT}
        """
    with limits.configured(
        limits.DesignLimits(sample_items=MAX_ITEMS * 20, sample_bytes=10**10)
    ):
        design = design_from(text.replace("COUNT", str(MAX_ITEMS * 10 + 1)))
    allow_items(MAX_ITEMS * 10)
    try:
        assert max_items() == MAX_ITEMS * 10
        with pytest.raises(SampleDataError, match="more than 10,000,000 items"):
            generate(design)
        allow_items(100)  # never below a million
        assert max_items() == MAX_ITEMS
    finally:
        allow_items(MAX_ITEMS)


@pytest.mark.parametrize("wanted", [10, 5000, 20_000])
def test_asking_for_a_number_of_items_gives_exactly_that_many(wanted):
    dataset = generate(example("order-management"), items=wanted)
    assert len(dataset) == wanted
    assert dataset.entities[0] == "Customer"


def test_the_counts_drawn_for_a_smaller_data_set_serve_a_larger_one():
    """The children's counts are kept per parent as drawn: a larger data
    set made after a smaller one (or planned at several scales first) has
    the items it has when made from nothing."""
    design = example("order-management")
    forget_kept_items()
    generate(design, items=3000)
    after_smaller = list(write_jsonl(generate(design, items=9000).items))
    forget_kept_items()
    assert list(write_jsonl(generate(design, items=9000).items)) == after_smaller


def test_faker_dates_count_from_a_fixed_moment_not_from_today():
    """`past_date` is a day of the 30 before "now": now is pinned to
    2026-06-30, so the values do not move with the day the data is made."""
    design = one_attribute("S", "{faker: past_date}", count=50)
    days = [item["v"] for item in generate(design).items]
    assert all("2026-05-31" <= day <= "2026-06-30" for day in days), days[:3]


def test_the_same_seed_gives_the_same_bytes_in_another_process():
    """Nothing depends on the process: not the clock (Faker's `time` in the
    telemetry example), not string hashing."""
    script = (
        "import hashlib, sys;"
        "from modeler.sampledata import generate, write_jsonl;"
        "from tests.sampledata.helpers import example;"
        "lines = write_jsonl(generate(example('device-telemetry')).items);"
        "print(hashlib.sha256('\\n'.join(lines).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1
