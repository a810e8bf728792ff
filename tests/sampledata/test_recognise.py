"""Telling an item's entity from its keys."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modeler.sampledata import Dataset, EntityRecogniser, generate, with_own_items
from tests.keys.factories import design, entity
from tests.sampledata.helpers import example

EXAMPLES = ["order-management", "social-graph", "device-telemetry"]


@pytest.mark.parametrize("name", EXAMPLES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_generated_item_is_recognised_as_its_entity(name, seed):
    design = example(name)
    dataset = generate(design, seed=seed, scale=0.05)
    recogniser = EntityRecogniser(design)
    assert [recogniser.entity_of(i) for i in dataset.items] == dataset.entities


@pytest.fixture(scope="module")
def overlapping():
    """Two entities whose keys can collide (a design error, but a design
    being edited can have it): one with literal text, one without."""
    return design(
        entity(
            "Order", {"PK": "ORDER#{orderId}", "SK": "ORDER#{orderId}"}, ("orderId",)
        ),
        entity("Anything", {"PK": "{a}", "SK": "{b}"}, ("a", "b")),
    )


def test_the_entity_with_the_most_literal_text_wins(overlapping):
    recogniser = EntityRecogniser(overlapping)
    assert recogniser.entity_of({"PK": "ORDER#1", "SK": "ORDER#1"}) == "Order"
    assert recogniser.entity_of({"PK": "X", "SK": "Y"}) == "Anything"


def test_values_in_the_keys_must_agree_with_the_attributes(overlapping):
    recogniser = EntityRecogniser(overlapping)
    # The key says order 1; the item says order 2: not an Order as written.
    item = {"PK": "ORDER#1", "SK": "ORDER#1", "orderId": "2"}
    assert recogniser.entity_of(item) == "Anything"
    # And the two keys of an Order name the same order.
    assert recogniser.entity_of({"PK": "ORDER#1", "SK": "ORDER#2"}) == "Anything"


def test_an_item_no_entity_could_have_written():
    recogniser = EntityRecogniser(example("order-management"))
    assert recogniser.entity_of({"PK": "NOPE#1", "SK": "PROFILE"}) is None
    assert recogniser.entity_of({"PK": "CUST#1"}) is None


def test_many_entities_recognise_many_items_in_a_moment():
    # A model of 300 kinds, 20 items each, one with no literal start; each
    # item was matched against every entity (a third of reading the model).
    words = [f"K{chr(65 + n // 26)}{chr(65 + n % 26)}" for n in range(300)]
    many = design(
        *(
            entity(word.title(), {"PK": f"{word}#{{id}}", "SK": "META"}, ("id",))
            for word in words
        ),
        entity("Loose", {"PK": "{a}", "SK": "LOOSE"}, ("a",)),
    )
    items = [{"PK": f"{word}#{n}", "SK": "META"} for word in words for n in range(20)]
    items.append({"PK": "KAB", "SK": "LOOSE"})
    recogniser = EntityRecogniser(many)
    started = time.thread_time()
    found = [recogniser.entity_of(item) for item in items]
    assert time.thread_time() - started < 0.5
    assert found == [w.title() for w in words for _ in range(20)] + ["Loose"]


def test_generated_items_under_one_key_are_loaded_once_as_the_table_holds_them():
    # The generator gives up drawing a fresh key after a few tries, so a
    # design with few keys can make two items under one: the simulator must
    # hold the later one only, as DynamoDB would after both writes.
    the_design = example("social-graph")
    first, second = (
        {"PK": "USER#1", "SK": "PROFILE", "name": "a"},
        {
            "PK": "USER#1",
            "SK": "PROFILE",
            "name": "b",
        },
    )
    kept = with_own_items(the_design, Dataset([first, second], ["User", "User"]))
    assert kept.items == [second]


def test_items_known_to_have_distinct_keys_are_given_back_as_they_are():
    the_design = example("order-management")
    generated = generate(the_design, seed=3, items=500)
    kept = with_own_items(the_design, generated)
    assert kept.items == generated.items and kept.items is not generated.items
    assert kept.entities == generated.entities and kept.distinct_keys
    # Items not known to be distinct are looked at: the later of two wins.
    first, second = ({"PK": "CUSTOMER#1", "SK": "PROFILE", "n": n} for n in (1, 2))
    unknown = with_own_items(the_design, Dataset([first, second], ["C", "C"]))
    assert unknown.items == [second]
