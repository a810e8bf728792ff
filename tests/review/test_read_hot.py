"""A partition key made hot by reads is told what cools reads (a cache, a
spread or replicated item), not write sharding, which would make every read
of the key query all its shards."""

from __future__ import annotations

from tests.review.helpers import only, review

CATALOGUE = """
entities:
  Product:
    attributes:
      category: {type: S, generator: {choice: [books, games]}}
      productId: {type: S, generator: uuid}
      name: {type: S, generator: {faker: name}}
    keys: {PK: "CATEGORY#{category}", SK: "PRODUCT#{productId}"}
    sample: {count: 40}
access_patterns:
  - name: Products of a category
    operation: Query
    key: {PK: "CATEGORY#{category}", SK: {begins_with: "PRODUCT#"}}
    expects: {entity: Product, where: {category: "{category}"}}
    traffic: {rps: 500, peak_rps: READS}
  - name: Add a product
    operation: PutItem
    entity: Product
    traffic: {rps: 1, peak_rps: WRITES}
"""


def test_a_key_hot_on_reads_is_told_read_fixes() -> None:
    found = only(
        review(CATALOGUE.replace("READS", "8000").replace("WRITES", "2")),
        "low-cardinality-key",
    )
    assert found.figures["rcu"] == 2100
    assert found.fix.startswith("Reads make it hot (2,100 RCU/s against")
    assert "cache its reads (DAX" in found.fix
    assert "read one at random" in found.fix
    assert "read replica of the item" in found.fix
    assert "Write-shard the key" not in found.fix
    assert "write-shard the key" not in found.fix


def test_a_key_hot_on_writes_is_still_told_to_shard_them() -> None:
    found = only(
        review(CATALOGUE.replace("READS", "2").replace("WRITES", "1500")),
        "low-cardinality-key",
    )
    assert "Reads make it hot" not in found.fix
    assert "rite-shard the key" in found.fix
