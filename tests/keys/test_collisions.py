from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeler.keys import check_key_collisions, parse_template
from modeler.keys.overlap import CharClass, common_value, template_tokens
from tests.keys.factories import design, entity, gsi, table

ATTRIBUTES = ("customerId", "id", "orderId", "orderDate", "status", "qty:N", "sku")


def two(first_keys, second_keys, *indexes):
    return design(
        entity("Customer", first_keys, ATTRIBUTES),
        entity("Order", second_keys, ATTRIBUTES),
        on=table(*indexes),
    )


def test_entities_that_can_overwrite_each_other_on_the_table():
    the_design = two(
        {"PK": "CUST#{customerId}", "SK": "{id}"},
        {"PK": "CUST#{customerId}", "SK": "ORDER#{orderId}"},
    )
    [problem] = check_key_collisions(the_design)
    assert problem.severity == "error"
    assert problem.path == "entities.Customer.keys"
    assert problem.message == (
        "entities Customer and Order can write the same primary key "
        "(PK 'CUST#{customerId}' / SK '{id}' vs 'ORDER#{orderId}'; both can be "
        "PK 'CUST#x' / SK 'ORDER#x'): one would overwrite the other; give each "
        "entity a distinct literal prefix in the sort key"
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Distinct literal prefixes.
        ("PROFILE#{id}", "ORDER#{orderId}"),
        ("PROFILE", "ORDER#{orderId}"),
        # A padded number renders digits only, never the letter P.
        ("{qty:06d}", "P{orderId}"),
        # An unformatted number attribute renders digits, a sign or a point.
        ("{qty}", "ORDER"),
        # Same prefix, but the literal after it differs where neither
        # placeholder can reach.
        ("A#{qty:04d}#X", "A#{qty:04d}#Y"),
    ],
)
def test_no_collision(first, second):
    the_design = two(
        {"PK": "CUST#{customerId}", "SK": first},
        {"PK": "CUST#{customerId}", "SK": second},
    )
    assert check_key_collisions(the_design) == []


def test_no_collision_when_the_partition_keys_differ():
    the_design = two(
        {"PK": "CUST#{customerId}", "SK": "{id}"},
        {"PK": "ORDER#{orderId}", "SK": "{id}"},
    )
    assert check_key_collisions(the_design) == []


def test_a_digit_class_collides_with_a_numeric_literal():
    the_design = two(
        {"PK": "CUST#{customerId}", "SK": "V#{qty:04d}"},
        {"PK": "CUST#{customerId}", "SK": "V#0001"},
    )
    [problem] = check_key_collisions(the_design)
    assert "both can be PK 'CUST#x' / SK 'V#0001'" in problem.message


def test_collision_on_an_index_is_a_warning_naming_the_index():
    index = gsi("GSI1", "GSI1PK", "GSI1SK")
    the_design = two(
        {"PK": "C#{customerId}", "SK": "C", "GSI1PK": "{status}", "GSI1SK": "{id}"},
        {"PK": "C#{customerId}", "SK": "O", "GSI1PK": "{status}", "GSI1SK": "{sku}"},
        index,
    )
    [problem] = check_key_collisions(the_design)
    assert problem.severity == "warning"
    assert problem.path == "entities.Customer.keys"
    assert problem.message.startswith(
        "entities Customer and Order can write the same key on index GSI1 "
        "(GSI1PK '{status}' / GSI1SK '{id}' vs '{sku}'"
    )
    assert "a query for one would also return the other" in problem.message


def test_index_without_a_sort_key_asks_for_a_distinct_partition_key():
    the_design = two(
        {"PK": "C#{customerId}", "SK": "C", "GSI1PK": "{id}"},
        {"PK": "C#{customerId}", "SK": "O", "GSI1PK": "{sku}"},
        gsi("GSI1", "GSI1PK"),
    )
    [problem] = check_key_collisions(the_design)
    assert problem.message.endswith("distinct literal prefix in the partition key")


def test_entities_missing_from_an_index_cannot_collide_there():
    the_design = two(
        {"PK": "C#{customerId}", "SK": "C", "GSI1PK": "{id}", "GSI1SK": "X"},
        {"PK": "C#{customerId}", "SK": "O"},
        gsi("GSI1", "GSI1PK", "GSI1SK"),
    )
    assert check_key_collisions(the_design) == []


@pytest.mark.parametrize(
    ("first_when", "second_when", "collides"),
    [
        ("status = OPEN", "status = CLOSED", False),
        ("status in (OPEN, PENDING)", "status = CLOSED", False),
        ("status = OPEN", "status = OPEN", True),
        ("status = OPEN", "", True),
        ("status = OPEN", "sku = OPEN", True),
    ],
)
def test_sparse_conditions_that_exclude_each_other(first_when, second_when, collides):
    def keys(when):
        return {
            "PK": "C#{customerId}",
            "SK": "S#{id}",
            "GSI1PK": ("QUEUE", when) if when else "QUEUE",
            "GSI1SK": "{id}",
        }

    the_design = two(
        keys(first_when),
        {**keys(second_when), "SK": "O#{id}"},
        gsi("GSI1", "GSI1PK", "GSI1SK"),
    )
    assert bool(check_key_collisions(the_design)) is collides


def test_templates_that_do_not_parse_are_left_to_the_entity_check():
    the_design = two(
        {"PK": "C#{customerId}", "SK": "{id"},
        {"PK": "C#{customerId}", "SK": "{id}"},
    )
    assert check_key_collisions(the_design) == []


def tokens(source, numeric=()):
    return template_tokens(parse_template(source), lambda p: p.attribute in numeric)


@pytest.mark.parametrize(
    ("a", "b", "numeric", "example"),
    [
        ("CUST#{id}", "CUST#{id}", (), "CUST#x"),
        ("{a}#{b}", "X#Y#Z", (), "X#Y#Z"),
        ("{a}", "{b}", ("a",), "0"),
        ("{a}", "-1.5", ("a",), "-1.5"),
        ("{a}{b}", "Q", (), None),
        ("{a}", "Q", ("a",), None),
        ("ORDER#{a}", "ORDERS", (), None),
        ("x{a}", "{b}x", (), "xx"),
    ],
)
def test_common_value(a, b, numeric, example):
    assert common_value(tokens(a, numeric), tokens(b, numeric)) == example


def test_tokens():
    assert tokens("A{{{n:03d}}}{s}", numeric=("n",)) == (
        "A",
        "{",
        CharClass.NUMBER,
        "}",
        CharClass.ANY,
    )


LITERALS = st.text("AB#01", min_size=1, max_size=4)


@st.composite
def templates(draw, placeholders=("{s}", "{n:03d}")):
    """Literals and placeholders, each placeholder of its own attribute: the
    automaton does not know that a repeated attribute repeats its value."""
    segments = draw(
        st.lists(
            st.one_of(LITERALS, st.sampled_from(placeholders)), min_size=1, max_size=5
        )
    )
    return parse_template(
        "".join(
            s.replace("{s", f"{{s{i}").replace("{n", f"{{n{i}")
            for i, s in enumerate(segments)
        )
    )


def numeric_tokens(template):
    return template_tokens(template, lambda p: p.attribute.startswith("n"))


@given(templates(), st.data())
def test_a_template_collides_with_every_key_it_renders(template, data):
    """The search never misses a real collision: the constant template of any
    rendered key is found to overlap the template that rendered it."""
    values = {
        name: data.draw(
            st.integers(-50, 5000)
            if name.startswith("n")
            else st.text("AB#01xé", min_size=1, max_size=4)
        )
        for name in template.attributes
    }
    key = template.render(values)
    assert common_value(numeric_tokens(template), tuple(key)) is not None


@given(templates(placeholders=("{s}",)), templates(placeholders=("{s}",)))
def test_an_example_collision_is_a_key_both_templates_match(a, b):
    """And it never reports one that is not there: its example is a key that
    both templates could have rendered."""
    example = common_value(numeric_tokens(a), numeric_tokens(b))
    if example is not None:
        assert a.match(example) is not None
        assert b.match(example) is not None


# --- Only pairs whose literal prefixes and suffixes agree are compared -------

TEMPLATES = st.sampled_from(
    ["{id}", "C#{id}", "C#{id}#X", "C{id}", "CUST#{customerId}", "O#{orderId}"]
    + ["{qty:04d}", "P", "C#", "{id}#X", "{id}#Y", "C#{id}#{sku}", "A{qty}"]
)


def all_pairs(the_design):
    """The collisions found by comparing every pair, as before the grouping."""
    found = []
    for index_name, attrs in [("", the_design.table.key_attributes)] + [
        (i.name, i.key_attributes) for i in the_design.table.indexes
    ]:
        members = []
        for one in the_design.entities:
            if all(a.name in one.keys for a in attrs):
                members.append(one)
        for n, a in enumerate(members):
            for b in members[n + 1 :]:
                if all(
                    common_value(*(entity_tokens(e, attr) for e in (a, b))) is not None
                    for attr in attrs
                ):
                    found.append((index_name, a.name, b.name))
    return found


def entity_tokens(one, attr):
    return template_tokens(
        parse_template(one.keys[attr.name].template),
        lambda p: p.width is not None or attr.type == "N" or p.attribute == "qty",
    )


@given(st.lists(st.tuples(TEMPLATES, TEMPLATES), min_size=2, max_size=7))
def test_grouping_by_prefix_finds_every_collision(keys):
    the_design = design(
        *(
            entity(f"E{n}", {"PK": pk, "SK": sk}, ATTRIBUTES)
            for n, (pk, sk) in enumerate(keys)
        ),
        on=table(),
    )
    found = [
        (p.message.split()[1], p.message.split()[3])
        for p in check_key_collisions(the_design)
    ]
    expected = [(a, b) for _, a, b in all_pairs(the_design)]
    assert sorted(found) == sorted(expected)


def test_entities_sharing_every_prefix_are_compared_up_to_a_budget(monkeypatch):
    from modeler.keys import collisions

    monkeypatch.setattr(collisions, "MIN_COMPARISONS", 10)
    monkeypatch.setattr(collisions, "COMPARISONS_PER_ENTITY", 1)
    the_design = design(
        *(
            entity(f"E{n}", {"PK": "T#{id}", "SK": f"{{sku}}#{n}"}, ATTRIBUTES)
            for n in range(8)
        ),
        on=table(),
    )
    problems = check_key_collisions(the_design)
    assert problems[-1].severity == "warning"
    assert "stopped after 10 comparisons" in problems[-1].message


def test_entities_keyed_alike_are_checked_in_a_moment():
    # A model's facets inferred alike: 200 entities, 19,900 pairs that all
    # collide, each pair of templates searched once (it took seconds).
    the_design = design(
        *(
            entity(
                f"E{n}",
                {"PK": "KIND{customerId}#{id}", "SK": "KIND{sku}#META"},
                ATTRIBUTES,
            )
            for n in range(200)
        ),
        on=table(),
    )
    started = time.thread_time()
    problems = check_key_collisions(the_design)
    assert time.thread_time() - started < 2.5
    assert len(problems) == 200 * 199 // 2
    assert all(p.is_error for p in problems)


def test_a_shaped_placeholder_meets_only_its_own_characters():
    def shaped(source, classes):
        return template_tokens(
            parse_template(source), lambda p: False, lambda p: classes
        )

    uuid = (CharClass.UUID,)
    ulid = (CharClass.ULID,)
    time = (CharClass.NUMBER, CharClass.TIME)
    assert common_value(shaped("{id}", uuid), tuple("METADATA")) is None
    assert common_value(shaped("{id}", uuid), tuple("beef-01")) == "beef-01"
    assert common_value(shaped("{id}", ulid), tuple("ITEM")) is None
    assert common_value(shaped("{id}", ulid), shaped("{id}", uuid)) == "0"
    assert common_value(shaped("{at}", time), tuple("METADATA")) is None
    assert common_value(shaped("{at}", time), tuple("2025-01-01T00:00Z")) is not None
