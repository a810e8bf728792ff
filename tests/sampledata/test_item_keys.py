"""Every generated item has its own primary key: an item drawn under a key
already taken is drawn again, since writing it would replace the earlier
item and the table would hold fewer items than the design counts."""

from __future__ import annotations

from modeler.sampledata import generate
from tests.sampledata.helpers import design_from

# 25 tickets numbered from 1 to 40: drawn independently, two of them would
# share a number in nearly every data set.
NUMBERED = """
    format: single-table-workbench/v1
    name: Tickets
    table: {name: tickets, partition_key: {name: PK, type: S}}
    entities:
      Ticket:
        attributes:
          number: {type: N, generator: {int: {min: 1, max: 40}}}
          seat: {type: S, generator: {choice: [A, B, C]}}
        keys: {PK: "TICKET#{number}"}
        sample: {count: 25}
    """


def test_an_item_whose_key_is_taken_is_drawn_again():
    design = design_from(NUMBERED)
    for seed in range(5):
        items = generate(design, seed=seed).items
        keys = [item["PK"] for item in items]
        assert len(items) == 25
        assert len(set(keys)) == 25, seed
        # The key is made from the item's own values, drawn together.
        assert all(item["PK"] == f"TICKET#{item['number']}" for item in items)
