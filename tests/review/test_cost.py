"""Capacity and monthly cost against cases computed by hand from the rules
and prices of shared/DOMAIN.md: 730 hours (2,628,000 s) a month, on-demand
$0.125 / $0.625 per million read / write request units, provisioned
$0.00013 / $0.00065 per RCU / WCU hour at 70% target utilization, storage
$0.25 per GB-month (2^30 bytes) with 100 bytes per item and index entry."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from modeler.review.cost import (
    on_demand_monthly,
    provisioned_monthly,
    provisioned_units,
    storage_monthly,
)
from modeler.review.prices import DOCUMENTED_PRICES, Prices, PricesError
from tests.review.helpers import review

PRICES = DOCUMENTED_PRICES


def test_on_demand_reads_50_units_a_second_cost_16_425_a_month():
    # 50 x 2,628,000 = 131,400,000 read request units x $0.125 / million.
    assert on_demand_monthly(
        read_units_per_second=50, write_units_per_second=0, prices=PRICES
    ) == Decimal("16.425")


def test_on_demand_writes_20_units_a_second_cost_32_85_a_month():
    # 20 x 2,628,000 = 52,560,000 write request units x $0.625 / million.
    assert on_demand_monthly(
        read_units_per_second=0, write_units_per_second=20, prices=PRICES
    ) == Decimal("32.85")


@pytest.mark.parametrize(
    ("peak", "units"), [(70, 100), (70.7, 101), (0, 1), (0.2, 1), (700, 1000)]
)
def test_provisioned_capacity_keeps_peak_at_70_percent(peak, units):
    assert provisioned_units(peak) == units


def test_provisioned_100_rcu_and_100_wcu_cost_56_94_a_month():
    # 730 h x (100 x $0.00013 + 100 x $0.00065) = 730 x $0.078.
    assert provisioned_monthly(rcu=100, wcu=100, prices=PRICES) == Decimal("56.94")


def test_a_gigabyte_stored_costs_a_quarter():
    assert storage_monthly(storage_bytes=2**30, prices=PRICES) == Decimal("0.25")


# One entity whose items all have the same size:
#   PK "T#" + ULID (26)      2 + 28 = 30 bytes
#   SK "THING"               2 + 5  = 7
#   id (ULID)                2 + 26 = 28
#   body (1,000 x "x")       4 + 1,000 = 1,004
#   GSI1PK "{id}"            6 + 26 = 32
#   GSI1SK "THING"           6 + 5  = 11
# = 1,112 bytes: 2 WCU to write, 0.5 RCU to read eventually consistent.
# Its KEYS_ONLY GSI1 entry: PK, SK, GSI1PK, GSI1SK = 80 bytes: 1 WCU.
THINGS = """
  indexes:
    - {{name: GSI1, partition_key: GSI1PK, sort_key: GSI1SK, projection: KEYS_ONLY}}
entities:
  Thing:
    attributes:
      id: {{type: S, generator: ulid}}
      body: {{type: S, generator: {{constant: "{body}"}}}}
    keys: {{PK: "T#{{id}}", SK: "THING", GSI1PK: "{{id}}", GSI1SK: "THING"}}
    sample: {{count: 40}}
access_patterns:
  - name: Get a thing
    operation: GetItem
    key: {{PK: "T#{{id}}", SK: "THING"}}
    consistent_read: {strong}
    expects: {{entity: Thing, where: {{id: "{{id}}"}}}}
    traffic: {{rps: 100, peak_rps: 700}}
  - name: Save a thing
    operation: {write}
    {write_fields}
    traffic: {{rps: 10, peak_rps: 70}}
"""


def _things(*, strong="false", write="PutItem", body="x" * 1000):
    fields = (
        "entity: Thing"
        if write == "PutItem"
        else "actions: [{operation: Put, entity: Thing}]"
    )
    return THINGS.format(strong=strong, write=write, write_fields=fields, body=body)


def test_per_pattern_units_times_traffic_and_the_table_cost():
    result = review(_things(), stored_items=1_048_576)
    cost = result.cost
    read, write = cost.patterns
    assert (read.units, read.average, read.peak) == (0.5, 50, 350)
    # 2 WCU on the table and 1 on GSI1 for each put.
    assert (write.units, write.average, write.peak) == (3, 30, 210)
    assert dict(write.by_index) == {"table": 2, "GSI1": 1}
    assert read.monthly_on_demand(PRICES) == Decimal("16.425")
    # 30 x 2,628,000 = 78,840,000 write request units: $49.275.
    assert write.monthly_on_demand(PRICES) == Decimal("49.275")
    assert cost.on_demand == Decimal("65.700")
    # Table: 350 RCU and 140 WCU at peak -> 500 RCU, 200 WCU.
    # GSI1: 70 WCU at peak -> 100 WCU, and the minimum 1 RCU.
    table, gsi = cost.provisioned
    assert (table.read, table.write, gsi.read, gsi.write) == (500, 200, 1, 100)
    # 730 x (501 x 0.00013 + 300 x 0.00065) = 730 x 0.26013 = 189.8949
    assert cost.provisioned_total == Decimal("189.8949")
    assert cost.cheaper == "on-demand"
    assert cost.saving == Decimal("124.1949")
    # Storage: 1,048,576 items x (1,112 + 100) and as many GSI1 entries x
    # (80 + 100) bytes = 1,459,617,792 bytes = 1.359375 GB: $0.33984375.
    assert [(c.name, c.entries, c.average_size) for c in cost.storage] == [
        ("test-table", 1_048_576, 1112),
        ("GSI1", 1_048_576, 80),
    ]
    assert cost.storage_bytes == 1_459_617_792
    assert cost.storage_monthly == Decimal("0.33984375")


def test_strong_reads_of_a_5_kb_item_cost_2_units_and_transactions_double_writes():
    cost = review(
        _things(strong="true", write="TransactWriteItems", body="x" * 5000)
    ).cost
    read, write = cost.patterns
    # 5,112 bytes: two 4 KB read units, strongly consistent.
    assert read.units == 2
    # 5 WCU on the table and 1 on GSI1, twice for a transaction.
    assert write.units == 12


def test_steady_traffic_is_cheaper_provisioned():
    text = (
        _things()
        .replace("peak_rps: 700", "peak_rps: 100")
        .replace("peak_rps: 70", "peak_rps: 10")
    )
    cost = review(text).cost
    # On demand: 50 RRU/s -> $16.425, 30 WRU/s -> $49.275: $65.70.
    # Provisioned: table 72 RCU (50 / 0.7), 29 WCU (20 / 0.7); GSI1 1 RCU,
    # 15 WCU: 730 x (73 x 0.00013 + 44 x 0.00065) = $27.8057.
    assert cost.on_demand == Decimal("65.700")
    assert cost.provisioned_total == Decimal("27.8057")
    assert cost.cheaper == "provisioned"


def test_prices_are_checked_field_by_field():
    values = DOCUMENTED_PRICES.as_mapping()
    assert Prices.from_mapping(values) == DOCUMENTED_PRICES
    with pytest.raises(PricesError) as error:
        Prices.from_mapping({**values, "wcu_hour": "-1"})
    assert error.value.field_name == "wcu_hour"
    with pytest.raises(PricesError, match="taken: 'soon' is not a date"):
        Prices.from_mapping({**values, "taken": "soon"})
    assert Prices.from_mapping({**values, "taken": dt.date(2026, 1, 2)}).taken == (
        dt.date(2026, 1, 2)
    )
