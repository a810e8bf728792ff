"""Each finding, triggered by a small design that has the problem, and
kept quiet by the same design without it."""

from __future__ import annotations

import dataclasses
import re

from modeler.design import model as d
from modeler.review import review_design
from tests.review.helpers import codes, design_from, only, review, review_of

CUSTOMERS = """
entities:
  Customer:
    attributes:
      customerId: {type: S, generator: ulid}
      name: {type: S, generator: {faker: name}, max_length: 100}
      status: {type: S, generator: {choice: {ACTIVE: 20, PENDING: 1}}}
    keys:
      PK: "CUST#{customerId}"
      SK: "PROFILE"
    sample: {count: 200}
"""


# --- Patterns -------------------------------------------------------------------


def test_a_scan_that_an_existing_key_can_serve_is_an_error_with_that_query():
    found = only(
        review(
            CUSTOMERS
            + """
access_patterns:
  - name: Customer by id, scanning
    operation: Scan
    filter: 'customerId = {customerId}'
    expects: {entity: Customer, where: {customerId: "{customerId}"}}
    traffic: {rps: 5, peak_rps: 20}
"""
        ),
        "scan",
    )
    assert found.severity == "error"
    assert found.location.kind == "pattern"
    assert found.location.path == "access_patterns[0]"
    assert found.figures["scanned"] == 200 and found.figures["returned"] == 1
    assert "Query the table with the partition key 'CUST#{customerId}'" in found.fix


def test_a_rare_scan_no_index_can_serve_is_a_warning_suggesting_a_sparse_index():
    found = only(
        review(
            CUSTOMERS
            + """
access_patterns:
  - name: Pending customers, nightly
    operation: Scan
    filter: 'status = "PENDING"'
    expects: {entity: Customer, where: {status: PENDING}}
    traffic: {rps: 0.001, peak_rps: 0.001}
"""
        ),
        "no-index",
    )
    assert found.severity == "warning"
    assert "Add a sparse GSI whose partition key is 'PENDING'" in found.fix
    assert "sparse" in found.fix


def test_a_query_whose_filter_discards_most_items_is_a_warning_with_the_ratio():
    text = (
        CUSTOMERS
        + """
  Order:
    attributes:
      customerId: {type: S, generator: {ref: Customer.customerId}}
      orderId: {type: S, generator: ulid}
      status: {type: S, generator: {choice: {OPEN: 1, DONE: 29}}}
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderId}"
    sample: {per: Customer, count: 60}
access_patterns:
  - name: Open orders of a customer
    operation: Query
    key: {PK: "CUST#{customerId}", SK: {begins_with: "ORDER#"}}
    filter: 'status = "OPEN"'
    expects: {entity: Order, where: {customerId: "{customerId}", status: OPEN}}
    traffic: {rps: 10, peak_rps: 50}
"""
    ).replace("sample: {count: 200}", "sample: {count: 5}")
    found = only(review(text), "filter-ratio")
    assert found.severity == "warning"
    assert found.figures["ratio"] >= 10
    assert found.figures["scanned"] == 60


def test_a_query_needing_several_pages_is_a_warning():
    big = "x" * 20_000
    found = only(
        review(
            f"""
entities:
  Log:
    attributes:
      logId: {{type: S, generator: {{constant: L1}}}}
      seq: {{type: N, generator: sequence}}
      body: {{type: S, generator: {{constant: "{big}"}}}}
    keys:
      PK: "LOG#{{logId}}"
      SK: "LINE#{{seq:06d}}"
    sample: {{count: 80}}
access_patterns:
  - name: A whole log
    operation: Query
    key: {{PK: "LOG#{{logId}}"}}
    expects: {{entity: Log, where: {{logId: "{{logId}}"}}}}
    traffic: {{rps: 1, peak_rps: 2}}
"""
        ),
        "several-requests",
    )
    assert found.figures["pages"] == 2  # 80 x 20 KB is 1.6 MB: two 1 MB pages


def test_strongly_consistent_reads_on_a_gsi_are_an_error():
    base = design_from(
        """
  indexes:
    - {name: GSI1, partition_key: GSI1PK, projection: KEYS_ONLY}
"""
        + CUSTOMERS.replace(
            '      SK: "PROFILE"', '      SK: "PROFILE"\n      GSI1PK: "N#{name}"'
        )
        + """
access_patterns:
  - name: By name
    operation: Query
    index: GSI1
    key: {GSI1PK: "N#{name}"}
    expects: {entity: Customer, where: {name: "{name}"}}
"""
    )
    strong = dataclasses.replace(
        base,
        access_patterns=(
            dataclasses.replace(base.access_patterns[0], consistent_read=True),
        ),
    )
    assert "strong-gsi-read" not in {f.code for f in review_of(base).findings}
    found = only(review_of(strong), "strong-gsi-read")
    assert found.severity == "error"


ORDERS = """
entities:
  Order:
    attributes:
      customerId: {type: S, generator: ulid}
      orderId: {type: S, generator: ulid}
      orderDate: {type: S, generator: {date: {from: "2025-01-01", to: "2025-12-31"}}}
      status: {type: S, generator: {choice: [OPEN, SHIPPED, DONE]}}
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderId}#{orderDate}"
    sample: {count: 50}
"""


def test_a_sort_key_with_the_ordered_attribute_after_an_unfixed_one_is_a_warning():
    text = (
        ORDERS
        + """
access_patterns:
  - name: Orders of a customer by date
    operation: Query
    key: {PK: "CUST#{customerId}", SK: {begins_with: "ORDER#"}}
    expects: {entity: Order, where: {customerId: "{customerId}"}, order_by: [orderDate]}
"""
    )
    found = only(review(text), "sort-key-range")
    assert "puts orderId before orderDate" in found.evidence[0]
    fixed = review(
        text.replace("ORDER#{orderId}#{orderDate}", "ORDER#{orderDate}#{orderId}")
    )
    assert "sort-key-range" not in {f.code for f in fixed.findings}


def test_a_range_on_an_attribute_missing_from_the_sort_key_is_a_warning():
    found = only(
        review(
            ORDERS.replace('SK: "ORDER#{orderId}#{orderDate}"', 'SK: "ORDER#{orderId}"')
            + """
access_patterns:
  - name: Orders of a customer in a period
    operation: Query
    key: {PK: "CUST#{customerId}", SK: {begins_with: "ORDER#"}}
    filter: 'orderDate between {from} and {to}'
    parameters:
      from: {type: S, example: "2025-03-01"}
      to: {type: S, example: "2025-03-31"}
    expects:
      entity: Order
      where: {customerId: "{customerId}", orderDate: {between: ["{from}", "{to}"]}}
"""
        ),
        "sort-key-range",
    )
    assert "does not contain orderDate" in found.evidence[0]


TRANSACTION = """
  Part:
    attributes:
      orderId: {{type: S, generator: {{ref: Order.orderId}}}}
      partNo: {{type: N, generator: sequence}}
      blob: {{type: S, generator: {{constant: "{blob}"}}}}
    keys:
      PK: "ORDER#{{orderId}}"
      SK: "PART#{{partNo:04d}}"
    sample: {{per: Order, count: 2}}
access_patterns:
  - name: Order with its parts
    operation: TransactWriteItems
    actions:
      - {{operation: Put, entity: Order}}
      - {{operation: Put, entity: Part, count: "{{n}}"}}
    parameters:
      n: {{type: N, example: "{count}"}}
    traffic: {{rps: 1, peak_rps: 2}}
"""


def test_a_transaction_over_100_items_is_an_error():
    found = only(
        review(ORDERS + TRANSACTION.format(blob="x", count=150)), "transaction-items"
    )
    assert found.severity == "error"
    assert found.figures["items"] == 151
    fine = review(ORDERS + TRANSACTION.format(blob="x", count=99))
    assert not {"transaction-items", "transaction-size"} & {
        f.code for f in fine.findings
    }


def test_a_transaction_over_4_mb_is_an_error():
    found = only(
        review(ORDERS + TRANSACTION.format(blob="x" * 60_000, count=80)),
        "transaction-size",
    )
    assert found.severity == "error"
    assert found.figures["bytes"] > 4 * 1024 * 1024


# --- Partitions -----------------------------------------------------------------

DEVICES = """
entities:
  Device:
    attributes:
      deviceId: {type: S, generator: uuid}
    keys:
      PK: "DEVICE#{deviceId}"
      SK: "META"
    sample: {count: 10}
  Reading:
    attributes:
      deviceId: {type: S, generator: {ref: Device.deviceId}}
      readingId: {type: S, generator: ulid}
      value: {type: N, generator: {int: {min: 0, max: 100}}}
    keys:
      PK: "DEVICE#{deviceId}"
      SK: "READING#{readingId}"
    sample: {per: Device, count: 20, hot: {keys: 1, share: 0.5}}
access_patterns:
  - name: Record a reading
    operation: PutItem
    entity: Reading
    traffic: {rps: 500, peak_rps: PEAK}
"""


def test_writes_over_1000_wcu_on_one_key_are_a_hot_partition_with_a_shard_count():
    found = only(review(DEVICES.replace("PEAK", "3000")), "hot-partition")
    assert found.severity == "error"
    assert found.location.kind == "table"
    # Half of the readings belong to one device: 1,500 WCU/s at peak.
    assert found.figures["wcu"] == 1500
    assert found.figures["shards"] == 2
    assert "#0..#1" in found.fix
    calm = review(DEVICES.replace("PEAK", "1500"))
    assert "hot-partition" not in {f.code for f in calm.findings}


def test_reads_over_3000_rcu_on_one_key_are_a_hot_partition():
    found = only(
        review(
            DEVICES.replace("PEAK", "10")
            + """
  - name: Device details
    operation: GetItem
    key: {PK: "DEVICE#{deviceId}", SK: "META"}
    expects: {entity: Device, where: {deviceId: "{deviceId}"}}
    traffic: {rps: 1000, peak_rps: 70000}
"""
        ),
        "hot-partition",
    )
    # Ten devices: 7,000 GetItems/s of 0.5 RCU on each device's key.
    assert found.figures["rcu"] == 3500
    assert found.figures["copies"] == 2
    assert found.message == "Hot partition: reads"


def test_a_low_cardinality_gsi_key_is_reported_with_its_load():
    text = (
        """
  indexes:
    - {name: ByStatus, partition_key: GSI1PK, sort_key: GSI1SK, projection: KEYS_ONLY}
"""
        + ORDERS.replace(
            '      SK: "ORDER#{orderId}#{orderDate}"',
            '      SK: "ORDER#{orderId}"\n      GSI1PK: "{status}"\n'
            '      GSI1SK: "{orderDate}#{orderId}"',
        )
        + """
access_patterns:
  - name: Place an order
    operation: PutItem
    entity: Order
    traffic: {rps: 100, peak_rps: PEAK}
"""
    )
    # At 300/s the busiest of its 3 values is far from a partition's
    # limit: an expert would not raise it.
    assert [
        f
        for f in review(text.replace("PEAK", "300")).findings
        if f.code == "low-cardinality-key"
    ] == []
    busy = only(review(text.replace("PEAK", "1800")), "low-cardinality-key")
    assert busy.severity == "warning"
    assert busy.figures["live_values"] == 3
    assert busy.location.name == "ByStatus"
    assert busy.figures["utilization"] >= 0.5
    # No traffic stated: nothing to say.
    idle = review(text.replace("PEAK", "0").replace("rps: 100", "rps: 0"))
    assert [f for f in idle.findings if f.code == "low-cardinality-key"] == []


def test_a_day_bucket_key_takes_every_current_write():
    text = """
  indexes:
    - {name: ByDay, partition_key: GSI1PK, sort_key: GSI1SK, projection: KEYS_ONLY}
entities:
  Event:
    attributes:
      eventId: {type: S, generator: ulid}
      day: {type: S, generator: {date: {from: "2025-01-01", to: "2025-03-31"}}}
    keys:
      PK: "EVENT#{eventId}"
      SK: "EVENT"
      GSI1PK: "DAY#{day}"
      GSI1SK: "{eventId}"
    sample: {count: 300}
access_patterns:
  - name: Record an event
    operation: PutItem
    entity: Event
    traffic: {rps: 800, peak_rps: 1200}
"""
    result = review(text)
    bucket = only(result, "time-bucket-key")
    assert bucket.figures["live_values"] == 1
    assert bucket.severity == "warning"
    # Spread over 90 days in the sample, yet every write goes to today's key.
    hot = only(result, "hot-partition")
    assert hot.location.name == "ByDay"
    assert hot.figures["wcu"] == 1200
    assert hot.figures["shards"] == 2


SHARDED_DAYS = """
  indexes:
    - {name: ByDay, partition_key: GSI1PK, sort_key: GSI1SK, projection: KEYS_ONLY}
entities:
  Event:
    attributes:
      eventId: {type: S, generator: ulid}
      day: {type: S, generator: {date: {from: "2025-01-01", to: "2025-03-31"}}}
      shard: {type: N, generator: {int: {min: 0, max: 9}}}
    keys:
      PK: "EVENT#{eventId}"
      SK: "EVENT"
      GSI1PK: "DAY#{day}#{shard}"
      GSI1SK: "{eventId}"
    sample: {count: 300}
access_patterns:
  - name: Record an event
    operation: PutItem
    entity: Event
    traffic: {rps: 800, peak_rps: PEAK}
"""


def test_a_day_key_already_sharded_enough_raises_nothing():
    result = review(SHARDED_DAYS.replace("PEAK", "1200"))  # 120 WCU/s a shard
    codes = {f.code for f in result.findings}
    assert not codes & {"time-bucket-key", "low-cardinality-key", "hot-partition"}


def test_a_sharded_day_key_near_its_limit_says_how_many_shards_to_have():
    bucket = only(review(SHARDED_DAYS.replace("PEAK", "7000")), "time-bucket-key")
    assert bucket.severity == "warning"
    # 700 WCU/s on the busiest of 10 shards: 7,000 per day key, / 500 = 14.
    assert bucket.fix.startswith(
        "The key is already write-sharded over 10 values of shard; raise that to 14"
    )


def test_an_item_collection_growing_past_10_gb_with_an_lsi_is_a_warning():
    text = """
  indexes:
    - {name: LSI1, kind: local, sort_key: LSI1SK, projection: ALL}
""" + DEVICES.replace("PEAK", "600").replace(
        '      SK: "READING#{readingId}"',
        '      SK: "READING#{readingId}"\n      LSI1SK: "V#{value:03d}"',
    )
    found = only(review(text), "item-collection")
    assert found.severity == "warning"
    # The hot device gets over half of 500 writes/s, each a reading of about
    # 180 bytes and an LSI1 entry (ALL) of the same size: some 8 GB a day.
    assert 1 < found.figures["days"] < 2
    without_lsi = review(DEVICES.replace("PEAK", "600"))
    assert "item-collection" not in {f.code for f in without_lsi.findings}


def _expiring_readings(days: str) -> str:
    """DEVICES at 10 readings/s with LSI1, readings kept `days` (TTL)."""
    return """
  ttl_attribute: expiresAt
  indexes:
    - {name: LSI1, kind: local, sort_key: LSI1SK, projection: ALL}
""" + DEVICES.replace("PEAK", "20").replace("rps: 500", "rps: 10").replace(
        '      SK: "READING#{readingId}"',
        '      SK: "READING#{readingId}"\n      LSI1SK: "V#{value:03d}"',
    ).replace(
        "      value: {type: N, generator: {int: {min: 0, max: 100}}}",
        "      value: {type: N, generator: {int: {min: 0, max: 100}}}\n"
        "      takenAt: {type: S, generator: {timestamp: {from: 2026-06-01, "
        "to: 2026-06-30}}}\n"
        "      expiresAt: {type: N, generator: {expires: {from: takenAt, "
        f"days: {days}}}}}}}",
    )


def test_a_collection_whose_items_expire_in_time_is_no_risk():
    # About 0.16 GB a day on the hot device: 10 GB in two months without a
    # TTL. Kept a week, the collection levels off near 1.6 GB.
    unbounded = only(
        review(_expiring_readings("7").replace("ttl_attribute: expiresAt", "")),
        "item-collection",
    )
    assert unbounded.severity == "warning"
    assert 40 < unbounded.figures["days"] < 90
    assert "item-collection" not in {
        c for c, _ in codes(review(_expiring_readings("7")))
    }


def test_a_retention_longer_than_the_collection_allows_is_still_a_warning():
    found = only(review(_expiring_readings("90")), "item-collection")
    assert found.severity == "warning"
    levels = next(e for e in found.evidence if "levels off near" in e)
    # 90 days kept and 3 for DynamoDB to delete them: some 15 GB.
    assert re.search(r"levels off near 1[3-7]\.\d GB", levels), levels
    assert "only if they expire within" in found.fix


# --- Items and keys -------------------------------------------------------------


def test_an_unbounded_list_is_advice_and_a_list_rewritten_by_a_pattern_a_warning():
    text = CUSTOMERS.replace(
        "      status: {type: S, generator: {choice: {ACTIVE: 20, PENDING: 1}}}",
        "      status: {type: S, generator: {choice: {ACTIVE: 20, PENDING: 1}}}\n"
        "      events: {type: L, generator: {list: {of: {faker: sentence}, max: 8}}}\n"
        "      tags: {type: SS, generator: {list: {of: {choice: [a, b, c]}}}}",
    )
    found = only(review(text), "item-growth")
    assert found.severity == "advice"
    assert found.location.kind == "attribute"
    assert found.location.name == "Customer.events"  # tags: a set of 3 choices
    assert found.figures["members_that_fit"] > 1000
    rewritten = only(
        review(
            text
            + """
access_patterns:
  - name: Log an event
    operation: UpdateItem
    entity: Customer
    set: {events: "{events}"}
"""
        ),
        "item-growth",
    )
    assert rewritten.severity == "warning"


def test_declared_lengths_past_400_kb_are_an_error():
    found = only(
        review(
            CUSTOMERS.replace(
                "      name: {type: S, generator: {faker: name}, max_length: 100}",
                "      name: {type: S, generator: {faker: name}, max_length: 410000}",
            )
        ),
        "item-size",
    )
    assert found.figures["bytes"] > 409_600


def test_an_unpadded_number_in_a_sort_key_is_shown_sorting_wrongly():
    text = """
entities:
  Line:
    attributes:
      orderId: {type: S, generator: {constant: O1}}
      lineNo: {type: N, generator: sequence}
    keys:
      PK: "ORDER#{orderId}"
      SK: "LINE#{lineNo}"
    sample: {count: 12}
"""
    found = only(review(text), "unpadded-number")
    assert "lineNo 9 sorts after 10 ('9' > '10' as text)" in found.evidence[0]
    assert "{lineNo:03d}" in found.fix
    padded = review(text.replace("LINE#{lineNo}", "LINE#{lineNo:03d}"))
    assert "unpadded-number" not in {f.code for f in padded.findings}


def test_a_us_style_date_in_a_sort_key_is_a_warning():
    text = """
entities:
  Visit:
    attributes:
      userId: {type: S, generator: ulid}
      visitDate: {type: S, generator: {faker: {provider: date, pattern: "%m/%d/%Y"}}}
    keys:
      PK: "USER#{userId}"
      SK: "VISIT#{visitDate}"
    sample: {count: 20}
"""
    found = only(review(text), "date-not-iso")
    assert "not ISO-8601" in found.evidence[0]
    iso = review(
        text.replace(
            '{faker: {provider: date, pattern: "%m/%d/%Y"}}',
            "{date: {from: 2025-01-01, to: 2025-12-31}}",
        )
    )
    assert "date-not-iso" not in {f.code for f in iso.findings}


def test_a_key_that_can_pass_1024_bytes_is_an_error():
    base = design_from(CUSTOMERS.replace('SK: "PROFILE"', 'SK: "NAME#{name}"'))
    customer = base.entities[0]
    long_name = dataclasses.replace(customer.attribute("name"), max_length=300)
    design = dataclasses.replace(
        base,
        entities=(
            dataclasses.replace(
                customer,
                attributes=tuple(
                    long_name if a.name == "name" else a for a in customer.attributes
                ),
            ),
        ),
    )
    found = only(review_design(design), "key-too-long")
    assert found.figures["bytes"] == 5 + 300 * 4
    assert "key-too-long" not in {f.code for f in review_design(base).findings}


def test_two_entities_sharing_an_index_key_are_a_collision_warning():
    found = only(
        review(
            """
  indexes:
    - {name: GSI1, partition_key: GSI1PK, projection: KEYS_ONLY}
entities:
  A:
    attributes: {id: {type: S, generator: ulid}}
    keys: {PK: "A#{id}", SK: "A", GSI1PK: "X#{id}"}
  B:
    attributes: {id: {type: S, generator: ulid}}
    keys: {PK: "B#{id}", SK: "B", GSI1PK: "X#{id}"}
"""
        ),
        "key-collision",
    )
    assert found.severity == "warning"


# --- Indexes --------------------------------------------------------------------


def _with_indexes(base: d.Design, indexes: list[d.Index]) -> d.Design:
    return dataclasses.replace(
        base, table=dataclasses.replace(base.table, indexes=tuple(indexes))
    )


def test_index_quotas_are_errors():
    base = design_from(CUSTOMERS)
    gsis = [
        d.Index(f"GSI{i}", "global", (d.KeyAttribute(f"G{i}PK"),)) for i in range(21)
    ]
    lsis = [
        d.Index(f"LSI{i}", "local", (d.KeyAttribute("PK"),), (d.KeyAttribute(f"L{i}"),))
        for i in range(6)
    ]
    wide = [
        d.Index(
            "Wide",
            "global",
            (d.KeyAttribute("WPK"),),
            projection=d.Projection("INCLUDE", tuple(f"a{i}" for i in range(101))),
        )
    ]
    titles = {
        f.message
        for f in review_design(_with_indexes(base, gsis + lsis + wide)).findings
        if f.code == "index-quota"
    }
    assert titles == {
        "Over 20 GSIs",
        "Over 5 LSIs",
        "Over 100 projected non-key attributes",
    }
    assert not [
        f
        for f in review_design(_with_indexes(base, gsis[:20])).findings
        if f.code == "index-quota"
    ]


PROJECTED = """
  indexes:
    - {{name: GSI1, partition_key: GSI1PK, projection: {projection}}}
entities:
  Doc:
    attributes:
      docId: {{type: S, generator: ulid}}
      body: {{type: S, generator: {{constant: "{body}"}}}}
    keys: {{PK: "DOC#{{docId}}", SK: "DOC", GSI1PK: "D#{{docId}}"}}
    sample: {{count: 20}}
access_patterns:
  - name: Save a document
    operation: PutItem
    entity: Doc
    traffic: {{rps: 100, peak_rps: 200}}
"""


def test_an_all_projection_of_large_items_under_heavy_writes_is_a_warning():
    found = only(
        review(PROJECTED.format(projection="ALL", body="x" * 2900)), "projection-all"
    )
    # Items just under 3 KB: 3 WCU per index copy instead of 1, at 200/s.
    assert found.figures["extra_wcu"] == 400
    assert found.figures["peak_wcu"] == 600
    small = review(PROJECTED.format(projection="ALL", body="x" * 100))
    assert "projection-all" not in {f.code for f in small.findings}
    keys_only = review(PROJECTED.format(projection="KEYS_ONLY", body="x" * 3000))
    assert "projection-all" not in {f.code for f in keys_only.findings}


SPARSE = (
    """
  indexes:
    - {name: GSI2, partition_key: GSI2PK, sort_key: GSI2SK, projection: KEYS_ONLY}
"""
    + ORDERS.replace(
        '      SK: "ORDER#{orderId}#{orderDate}"',
        '      SK: "ORDER#{orderDate}#{orderId}"\n'
        '      GSI2PK: {template: "OPEN", when: "status = OPEN"}\n'
        '      GSI2SK: {template: "{orderDate}#{orderId}", when: "status = OPEN"}',
    )
    + """
access_patterns:
  - name: Ship an order
    operation: UpdateItem
    entity: Order
    set: {status: SHIPPED}
    REMOVE
"""
)


def test_an_update_that_leaves_a_sparse_index_without_removing_its_keys_is_a_warning():
    found = only(review(SPARSE.replace("REMOVE", "")), "sparse-exit")
    assert found.severity == "warning"
    assert found.location.name == "GSI2"
    assert "remove: [GSI2PK, GSI2SK]" in found.fix
    fixed = review(SPARSE.replace("REMOVE", "remove: [GSI2PK, GSI2SK]"))
    assert "sparse-exit" not in {f.code for f in fixed.findings}
    staying = review(SPARSE.replace("SHIPPED", "OPEN").replace("REMOVE", ""))
    assert "sparse-exit" not in {f.code for f in staying.findings}
    # A status set from a parameter, among values of which SHIPPED and DONE
    # leave the working set: shipped orders would stay "open".
    unknown = only(
        review(
            SPARSE.replace(
                "set: {status: SHIPPED}", 'set: {status: "{status}"}'
            ).replace("REMOVE", "")
        ),
        "sparse-exit",
    )
    assert unknown.severity == "warning"
    assert "can make Order's condition" in unknown.evidence[0]
    # Only when nothing says which values the parameter takes is it advice.
    only_open = only(
        review(
            SPARSE.replace("set: {status: SHIPPED}", 'set: {status: "{status}"}')
            .replace("choice: [OPEN, SHIPPED, DONE]", "choice: [OPEN]")
            .replace("REMOVE", "")
        ),
        "sparse-exit",
    )
    assert only_open.severity == "advice"


def test_a_plain_design_without_traffic_has_no_findings():
    assert codes(review(CUSTOMERS)) == []


def test_the_summary_asks_for_traffic_when_no_pattern_states_it():
    result = review(
        CUSTOMERS
        + """
access_patterns:
  - name: Get a customer
    operation: GetItem
    key: {PK: "CUST#{customerId}", SK: "PROFILE"}
    expects: {entity: Customer, where: {customerId: "{customerId}"}}
"""
    )
    assert result.findings == ()
    assert "No access pattern states its traffic" in " ".join(result.summary())


def test_a_gsi_that_lacks_attributes_the_pattern_returns_needs_a_fetch():
    text = (
        """
  indexes:
    - {name: ByName, partition_key: GSI1PK, projection: PROJECTION}
"""
        + CUSTOMERS.replace(
            '      SK: "PROFILE"', '      SK: "PROFILE"\n      GSI1PK: "N#{name}"'
        )
        + """
access_patterns:
  - name: Customers by name
    operation: Query
    index: ByName
    key: {GSI1PK: "N#{name}"}
    LISTED
    expects: {entity: Customer, where: {name: "{name}"}}
"""
    )
    found = only(
        review(text.replace("PROJECTION", "KEYS_ONLY").replace("LISTED", "")),
        "fetch-back",
    )
    # customerId comes back inside PK and name is the query's own value.
    assert "status of Customer is not in it" in found.evidence[0]
    assert found.figures["requests"] == 1
    for projection, listed in (
        ("{type: INCLUDE, attributes: [status]}", ""),
        ("ALL", ""),
        ("KEYS_ONLY", "projection: [customerId, name]"),
    ):
        quiet = review(text.replace("PROJECTION", projection).replace("LISTED", listed))
        assert "fetch-back" not in {f.code for f in quiet.findings}, projection


def test_the_busiest_key_among_many_is_the_one_a_full_pass_finds():
    from modeler.review.checks.partitions import Loads
    from modeler.review.evidence import Evidence
    from modeler.simulation import Simulation

    # 600 devices with Zipf-skewed readings: more key values than a stream's
    # top keys, so the busiest is found among the top ones and proven.
    text = (
        DEVICES.replace("PEAK", "900")
        .replace("    sample: {count: 10}", "    sample: {count: 600}")
        .replace(
            "sample: {per: Device, count: 20, hot: {keys: 1, share: 0.5}}",
            "sample: {per: Device, count: {zipf: {s: 1.2, max: 60}}}",
        )
    )
    design = design_from(text)
    simulation = Simulation(design)
    runs = {i: simulation.run(p) for i, p in enumerate(design.access_patterns)}
    evidence = Evidence(design, simulation.items, simulation.entities, runs)
    loads = Loads(evidence)
    keys = {k for stream in loads.streams["table"] for k in stream.counts}
    assert len(keys) > 400
    for measure in (lambda load: load.write, lambda load: load.utilization):
        key, load = loads.busiest("table", measure)
        full_key, full_load = loads._best("table", keys, measure)
        assert measure(load) == measure(full_load)
        assert (key, load.write) == (full_key, full_load.write)
        # The pass over every key, as the fallback makes it (its sums kept
        # for the next measure), finds the same.
        assert loads._best("table", None, measure) == (full_key, full_load)
    # On a tie, the first key in key order.
    assert loads._best("table", None, lambda load: 0.0)[0] == min(keys)
    assert loads._best("table", keys, lambda load: 0.0)[0] == min(keys)


def test_declared_text_lengths_count_the_bytes_the_text_takes():
    # 110,000 characters of names: 4 bytes each would be 440,000 bytes, but
    # the names are ASCII, a byte a character: the item fits in 400 KB.
    text = CUSTOMERS.replace(
        "      name: {type: S, generator: {faker: name}, max_length: 100}",
        "      name: {type: S, generator: {faker: name}, max_length: 110000}",
    )
    assert "item-size" not in {f.code for f in review(text).findings}
    # Names of three-byte characters at 140,000 characters do not fit.
    wide = text.replace("{faker: name}", "{choice: [東京, 大阪]}").replace(
        "110000", "140000"
    )
    found = only(review(wide), "item-size")
    assert found.figures["bytes"] == 420_004
    assert "name takes up to 3 bytes a character in the sample" in found.evidence[1]
