"""Values and keys that must not repeat: unique Faker values, placeholder
patterns drawn fresh, siblings picking distinct items, and one item per
primary key."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

from modeler.designfile import read_design
from modeler.sampledata import SampleDataError, generate
from tests.sampledata.helpers import design_from, example, one_attribute


def _values(design, attribute="v"):
    return [i[attribute] for i in generate(design).items if attribute in i]


def test_bothify_draws_fresh_values_past_the_faker_pool():
    design = one_attribute(
        "S",
        '{faker: {provider: bothify, text: "PRD-#####-??", unique: false}}',
        count=5000,
    )
    values = _values(design)
    assert all(re.fullmatch(r"PRD-\d{5}-[A-Za-z]{2}", v) for v in values)
    # A pool would hold 2,000 values; these are drawn for each item.
    assert len(set(values)) > 4900


@pytest.mark.parametrize(
    ("generator", "shape"),
    [
        ('{faker: {provider: numerify, text: "%#-!"}}', r"[1-9]\d-\d?"),
        ('{faker: {provider: lexify, text: "??", letters: "ab"}}', r"[ab]{2}"),
        ('{faker: {provider: hexify, text: "^^^^", upper: true}}', r"[0-9A-F]{4}"),
        ("{faker: numerify}", r"\d{3}"),
    ],
)
def test_placeholder_providers_keep_faker_meaning(generator, shape):
    values = _values(one_attribute("S", generator, count=300))
    assert all(re.fullmatch(shape, v) for v in values), values[:5]
    assert len(set(values)) > 1


def test_emails_are_unique_by_default_even_past_the_pool():
    values = _values(one_attribute("S", "{faker: email}", count=3000))
    assert len(set(values)) == 3000
    # Repeats of the pool are numbered, and stay valid addresses.
    numbered = [v for v in values if re.search(r"\+\d+@", v)]
    assert numbered
    assert all(v.count("@") == 1 for v in values)


def test_unique_false_lets_emails_repeat():
    values = _values(
        one_attribute("S", "{faker: {provider: email, unique: false}}", count=3000)
    )
    assert len(set(values)) <= 2000


def test_a_faker_attribute_in_the_primary_key_is_unique_by_default():
    design = design_from("""
        format: single-table-workbench/v1
        name: Cities
        table: {name: cities, partition_key: {name: PK, type: S}}
        entities:
          City:
            attributes:
              name: {type: S, generator: {faker: city}}
            keys: {PK: "CITY#{name}"}
            sample: {count: 2500}
        """)
    items = generate(design).items
    assert len({i["PK"] for i in items}) == 2500


def test_a_pattern_too_narrow_for_unique_values_says_so():
    design = one_attribute(
        "S", '{faker: {provider: numerify, text: "#", unique: true}}', count=20
    )
    with pytest.raises(SampleDataError) as error:
        generate(design)
    assert str(error.value) == (
        "Thing.v: made 10 distinct values and cannot make more; widen the "
        "pattern, or set unique: false"
    )


def test_reading_a_design_wants_unique_to_be_true_or_false():
    result = read_design(
        """
format: single-table-workbench/v1
name: Values
table: {name: values, partition_key: {name: PK, type: S}}
entities:
  Thing:
    attributes:
      id: {type: S, generator: uuid}
      v: {type: S, generator: {faker: {provider: email, unique: "yes"}}}
    keys: {PK: "THING#{id}"}
"""
    )
    assert [(p.path, p.message, p.line) for p in result.problems] == [
        ("entities.Thing.attributes.v.generator", "unique is true or false", 9)
    ]


def test_children_of_one_parent_pick_distinct_items():
    """A user follows another user once: without this, skewed picks would
    give a user the same followed user twice, and the second edge would
    overwrite the first."""
    data = generate(example("social-graph"))
    followed = defaultdict(list)
    for item, entity in zip(data.items, data.entities, strict=True):
        if entity == "Follow":
            followed[item["followerId"]].append(item["followedId"])
    assert all(len(set(ids)) == len(ids) for ids in followed.values())
    # Still skewed: the most followed user is followed far more than most.
    counts = Counter(i for ids in followed.values() for i in ids).most_common()
    assert counts[0][1] > 10 * counts[len(counts) // 2][1]


def test_siblings_outnumbering_the_choices_still_get_an_item_each():
    design = design_from("""
        format: single-table-workbench/v1
        name: Tags
        table:
          name: tags
          partition_key: {name: PK, type: S}
          sort_key: {name: SK, type: S}
        entities:
          Colour:
            attributes:
              name: {type: S, generator: {choice: [red, green]}}
              id: {type: S, generator: uuid}
            keys: {PK: "COLOUR#{id}", SK: "COLOUR"}
            sample: {count: 2}
          Post:
            attributes:
              id: {type: S, generator: uuid}
            keys: {PK: "POST#{id}", SK: "POST"}
            sample: {count: 3}
          Tag:
            attributes:
              postId: {type: S, generator: {ref: Post.id}}
              colourId: {type: S, generator: {pick: Colour.id}}
              n: {type: S, generator: {sequence: {width: 2}}}
            keys: {PK: "POST#{postId}", SK: "TAG#{n}"}
            sample: {per: Post, count: 3}
        """)
    tags = [
        i for i, e in zip(*vars(generate(design)).values(), strict=True) if e == "Tag"
    ]
    assert len(tags) == 9
    by_post = defaultdict(list)
    for tag in tags:
        by_post[tag["postId"]].append(tag["colourId"])
    # Two colours for three tags each: the first two differ, the third repeats.
    assert all(len(set(colours[:2])) == 2 for colours in by_post.values())


@pytest.mark.parametrize(
    "name", ["order-management", "social-graph", "device-telemetry"]
)
def test_every_item_has_a_primary_key_of_its_own(name):
    design = example(name)
    data = generate(design, items=30_000)
    keys = {(i["PK"], i.get("SK")) for i in data.items}
    assert len(data) == 30_000
    assert len(keys) == len(data)


def test_an_item_whose_key_is_taken_is_drawn_again():
    """Two children per parent, numbered from a range of five: without a
    second draw, about one parent in five would lose a child."""
    design = design_from("""
        format: single-table-workbench/v1
        name: Slots
        table:
          name: slots
          partition_key: {name: PK, type: S}
          sort_key: {name: SK, type: S}
        entities:
          Day:
            attributes:
              id: {type: S, generator: uuid}
            keys: {PK: "DAY#{id}", SK: "DAY"}
            sample: {count: 500}
          Slot:
            attributes:
              dayId: {type: S, generator: {ref: Day.id}}
              hour: {type: N, generator: {int: {min: 1, max: 5}}}
            keys: {PK: "DAY#{dayId}", SK: "SLOT#{hour:02d}"}
            sample: {per: Day, count: 2}
        """)
    data = generate(design)
    assert data.counts() == {"Day": 500, "Slot": 1000}
    assert len({(i["PK"], i["SK"]) for i in data.items}) == 1500


def test_a_generation_says_whether_two_items_share_a_key():
    """Eight children per parent, numbered from a range of five: three of
    each parent's keep a key taken before them (the draws give up), and the
    data set says so, made or taken from the kept items; the examples make
    every key once and say that."""
    crowded = design_from("""
        format: single-table-workbench/v1
        name: Slots
        table:
          name: slots
          partition_key: {name: PK, type: S}
          sort_key: {name: SK, type: S}
        entities:
          Day:
            attributes:
              id: {type: S, generator: uuid}
            keys: {PK: "DAY#{id}", SK: "DAY"}
            sample: {count: 50}
          Slot:
            attributes:
              dayId: {type: S, generator: {ref: Day.id}}
              hour: {type: N, generator: {int: {min: 1, max: 5}}}
            keys: {PK: "DAY#{dayId}", SK: "SLOT#{hour:02d}"}
            sample: {per: Day, count: 8}
        """)
    for _ in range(2):  # made, then from the kept items
        data = generate(crowded, seed=7)
        assert len({(i["PK"], i["SK"]) for i in data.items}) < len(data)
        assert not data.distinct_keys
    for _ in range(2):
        data = generate(example("order-management"), seed=7, items=2_000)
        assert len({(i["PK"], i["SK"]) for i in data.items}) == len(data)
        assert data.distinct_keys
