"""Item sizes, pinned to the rules of the Developer Guide ("Item sizes and
formats") and its examples."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeler.engine.errors import ValidationException
from modeler.engine.size import (
    MAX_ITEM_SIZE,
    item_size,
    number_size,
    projection_size,
    value_size,
)
from modeler.engine.types import BinarySet, NumberSet, StringSet, item_from_wire


def test_max_item_size_is_400_kb() -> None:
    assert MAX_ITEM_SIZE == 400 * 1024 == 409_600


@pytest.mark.parametrize(
    ("item", "size"),
    [
        # String: UTF-8 name + UTF-8 value.
        ({"name": "Jo"}, 4 + 2),
        ({"name": "José"}, 4 + 5),
        ({"città": "€"}, 6 + 3),
        ({"s": ""}, 1),
        # Binary: name + raw bytes, not base64.
        ({"img": b"\x00\x01\x02\x03"}, 3 + 4),
        # Null and Boolean: name + 1.
        ({"gone": None}, 4 + 1),
        ({"ok": True}, 2 + 1),
        ({"ok": False}, 2 + 1),
    ],
)
def test_scalar_sizes(item: dict, size: int) -> None:
    assert item_size(item) == size


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("0", 1),
        ("7", 2),  # one significant digit: ceil(1/2) + 1
        ("12", 2),
        ("101", 3),
        ("500", 2),  # trailing zeros do not count
        ("0.001", 2),  # nor leading ones
        ("-12.5", 3),  # the sign and the point are not digits
        ("123456", 4),
        ("1E+5", 2),
        ("9" * 38, 20),  # 38 significant digits, the most DynamoDB stores
    ],
)
def test_number_size_is_one_byte_per_two_significant_digits_plus_one(
    text: str, size: int
) -> None:
    assert number_size(Decimal(text)) == size
    assert item_size({"n": Decimal(text)}) == 1 + size


def test_number_size_is_at_most_21_bytes() -> None:
    assert max(number_size(Decimal("1" * n)) for n in range(1, 39)) <= 21


def test_list_and_map_add_3_bytes_and_1_per_element() -> None:
    assert item_size({"l": []}) == 1 + 3
    assert item_size({"m": {}}) == 1 + 3
    # Each element: 1 byte + its value; a map element also counts its name.
    assert item_size({"l": ["ab", Decimal(5)]}) == 1 + 3 + (1 + 2) + (1 + 2)
    assert item_size({"m": {"k": "ab", "flag": True}}) == 1 + 3 + (1 + 1 + 2) + (
        1 + 4 + 1
    )


def test_nested_documents_sum_their_levels() -> None:
    inner = {"x": "yy"}  # 3 + (1 + 1 + 2) = 7
    assert value_size(inner) == 7
    assert item_size({"m": {"in": inner}}) == 1 + 3 + (1 + 2 + 7)
    assert item_size({"l": [[inner]]}) == 1 + 3 + 1 + (3 + 1 + 7)


def test_documents_nest_at_most_32_levels() -> None:
    deepest: object = "x"
    for _ in range(32):
        deepest = [deepest]
    assert item_size({"l": deepest}) == 1 + 32 * 4 + 1
    with pytest.raises(
        ValidationException, match="Nesting Levels have exceeded supported limits"
    ):
        item_size({"l": [deepest]})


def test_sets_sum_their_members() -> None:
    assert item_size({"ss": StringSet({"a", "bcd"})}) == 2 + 1 + 3
    assert item_size({"ns": NumberSet({Decimal(1), Decimal(500)})}) == 2 + 2 + 2
    assert item_size({"bs": BinarySet({b"\x01\x02"})}) == 2 + 2


def test_product_catalog_book_101_is_137_bytes() -> None:
    """The ProductCatalog sample item of the DynamoDB documentation, as
    sized by the ddb-calc item size calculator (AWS DynamoDB team)."""
    item = item_from_wire(
        {
            "Id": {"N": "101"},
            "Title": {"S": "Book 101 Title"},
            "ISBN": {"S": "111-1111111111"},
            "Authors": {"L": [{"S": "Author1"}]},
            "Price": {"N": "2"},
            "Dimensions": {"S": "8.5 x 11.0 x 0.5"},
            "PageCount": {"N": "500"},
            "InPublication": {"BOOL": True},
            "ProductCategory": {"S": "Book"},
        }
    )
    assert item_size(item) == 137


@given(
    st.dictionaries(st.text(min_size=1, max_size=10), st.text(max_size=30), max_size=8)
)
def test_string_items_are_utf8_names_plus_utf8_values(item: dict[str, str]) -> None:
    assert item_size(item) == sum(
        len(k.encode("utf-8")) + len(v.encode("utf-8")) for k, v in item.items()
    )


@given(
    st.decimals(
        allow_nan=False,
        allow_infinity=False,
        places=None,
        min_value=-(10**30),
        max_value=10**30,
    )
)
def test_number_size_counts_significant_digits(value: Decimal) -> None:
    significant = len("".join(map(str, value.as_tuple().digits)).strip("0"))
    assert number_size(value) == min((significant + 1) // 2 + 1, 21)


@pytest.mark.parametrize(
    "item",
    [
        {"PK": "a", "SK": "b", "GSI1PK": "c", "GSI1SK": "d", "total": Decimal("1.5")},
        {"PK": "é", "SK": "ü€", "GSI1PK": "c", "GSI1SK": "d", "other": "x"},
        {"PK": "a", "SK": "b", "GSI1PK": "c", "status": "ÄB", "note": [1]},
        {"PK": "a", "SK": Decimal(7), "GSI1PK": "c", "GSI1SK": "d", "status": "S"},
        {"PK": "a", "SK": ["b", "c"], "GSI1PK": "c", "GSI1SK": "d"},
    ],
)
def test_a_projection_measures_its_entry_as_the_entry_itself_is_measured(
    item: dict,
) -> None:
    """Keys of type S measured together, as one string: an entry that
    lacks one of them, or holds a value of another type, is measured
    attribute by attribute."""
    names = ("GSI1PK", "GSI1SK", "PK", "SK", "status", "total")
    size = projection_size(
        tuple((name, len(name.encode("utf-8"))) for name in names),
        ("GSI1PK", "GSI1SK", "PK", "SK"),
    )
    entry = {name: item[name] for name in names if name in item}
    assert size(item) == item_size(entry)
