"""A pick `with` another draws its attribute from the item that pick drew,
so the columns of a composite foreign key name one row of the parent table."""

from __future__ import annotations

import pytest

from modeler.designfile import read_design
from modeler.sampledata import generate
from tests.sampledata.helpers import design_from

DESIGN = """
    format: single-table-workbench/v1
    name: Stores
    table: {{name: stores, partition_key: {{name: PK, type: S}},
             sort_key: {{name: SK, type: S}}}}
    entities:
      Store:
        attributes:
          region: {{type: S, generator: {{choice: [EU, US, AP]}}}}
          storeNo: {{type: N, generator: sequence}}
        keys: {{PK: "STORE#{{region}}", SK: "{{storeNo:04d}}"}}
        sample: {{count: 30}}
      Sale:
        attributes:
          saleId: {{type: S, generator: ulid}}
          storeRegion: {{type: S, generator: {region}}}
          storeNo: {{type: N, required: false, presence: 0.7,
                     generator: {{pick: Store.storeNo}}}}
        keys: {{PK: "SALE#{{saleId}}", SK: "SALE"}}
        sample: {{count: 300}}
    """


def _pairs(region: str):
    data = generate(design_from(DESIGN.format(region=region)), seed=3)
    stores = {
        (i["region"], i["storeNo"])
        for i, e in zip(data.items, data.entities, strict=True)
        if e == "Store"
    }
    sales = [i for i, e in zip(data.items, data.entities, strict=True) if e == "Sale"]
    return stores, sales


def test_a_pick_with_another_draws_from_the_same_item():
    # Declared before its partner: drawn after it all the same.
    stores, sales = _pairs("{pick: {from: Store.region, with: storeNo}}")

    given = [s for s in sales if "storeNo" in s]
    assert 150 < len(given) < 270  # the partner's presence of 0.7
    assert all((s["storeRegion"], s["storeNo"]) in stores for s in given)
    # Where the partner is absent, so is the attribute it would be drawn with.
    assert all("storeRegion" not in s for s in sales if "storeNo" not in s)


def test_independent_picks_name_pairs_of_no_row():
    # What `with` is for: two picks draw two items.
    stores, sales = _pairs("{pick: Store.region}")

    given = [s for s in sales if "storeNo" in s]
    matching = sum((s["storeRegion"], s["storeNo"]) in stores for s in given)
    assert matching < 0.6 * len(given)


@pytest.mark.parametrize("partner", ["saleId", "storeRegion", "nope"])
def test_with_names_another_pick_of_the_same_entity(partner):
    text = DESIGN.format(region=f"{{pick: {{from: Store.region, with: {partner}}}}}")
    problems = read_design(text.replace("\n    ", "\n")).problems

    assert [p.message for p in problems if p.is_error] == [
        "with names another attribute of Sale picked from Store without `with` "
        f"(such as {{pick: Store.storeId}}); found '{partner}'"
    ]
