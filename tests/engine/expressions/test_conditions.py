"""Condition and filter expressions: every operator and function evaluated
over native items, precedence, DynamoDB's same-type-only comparisons and
missing attributes (Developer Guide, "Condition and filter expressions,
operators, and functions")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from modeler.engine.expressions import MISSING, Path, Usage, parse_condition
from modeler.engine.expressions.reserved import is_reserved
from modeler.engine.types import BinarySet, NumberSet, StringSet

ITEM = {
    "pk": "user#1",
    "nickname": "Alice",
    "age": Decimal(30),
    "score": Decimal("12.5"),
    "payload": b"\x01\x02\x03",
    "active": True,
    "nothing": None,
    "tags": StringSet({"red", "blue"}),
    "lucky": NumberSet({Decimal(7), Decimal(13)}),
    "blobs": BinarySet({b"\x01", b"\xff"}),
    "things": ["a", Decimal(1), {"k": "v"}, ["x"]],
    "address": {"city": "Paris", "zip": "75001", "geo": {"lat": Decimal("48.85")}},
    "emoji": "😀",
    "empty_list": [],
    "empty_map": {},
    "twin": Decimal(30),
}

VALUES = {
    ":alice": "Alice",
    ":alice_lower": "alice",
    ":al": "Al",
    ":lic": "lic",
    ":bob": "Bob",
    ":a": "a",
    ":x": "x",
    ":v": "v",
    ":paris": "Paris",
    ":red": "red",
    ":green": "green",
    ":seven_text": "7",
    ":thirty_text": "30",
    ":zero": Decimal(0),
    ":one": Decimal(1),
    ":two": Decimal(2),
    ":three": Decimal(3),
    ":four": Decimal(4),
    ":five": Decimal(5),
    ":seven": Decimal(7),
    ":twenty": Decimal(20),
    ":thirty": Decimal(30),
    ":thirty_point_zero": Decimal("30.0"),
    ":forty": Decimal(40),
    ":score": Decimal("12.50"),
    ":b01": b"\x01",
    ":b0203": b"\x02\x03",
    ":bff": b"\xff",
    ":true": True,
    ":false": False,
    ":null": None,
    ":kv": {"k": "v"},
    ":list_x": ["x"],
    ":things": ["a", Decimal("1.0"), {"k": "v"}, ["x"]],
    ":things_reordered": [Decimal(1), "a", {"k": "v"}, ["x"]],
    ":address": {
        "zip": "75001",
        "city": "Paris",
        "geo": {"lat": Decimal("48.850")},
    },
    ":tags": StringSet({"blue", "red"}),
    ":S": "S",
    ":N": "N",
    ":B": "B",
    ":BOOL": "BOOL",
    ":NULL": "NULL",
    ":L": "L",
    ":M": "M",
    ":SS": "SS",
    ":NS": "NS",
    ":BS": "BS",
}


def evaluate(text: str, item: dict | None = None, names: dict | None = None) -> bool:
    condition = parse_condition(text, names, VALUES, kind="FilterExpression")
    return condition.evaluate(ITEM if item is None else item)


def test_the_fixture_uses_no_reserved_word():
    assert not [name for name in ITEM if is_reserved(name)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # = and <> compare any types, but only a value of the same type is equal.
        ("age = :thirty", True),
        ("age = :thirty_point_zero", True),  # numbers compare numerically
        ("score = :score", True),
        ("age = :thirty_text", False),
        ("age <> :thirty_text", True),
        ("age <> :thirty", False),
        ("nickname = :alice", True),
        ("nickname = :alice_lower", False),
        ("active = :true", True),
        ("active = :one", False),  # a boolean is not the number 1
        ("nothing = :null", True),
        ("things = :things", True),
        ("things = :things_reordered", False),
        ("address = :address", True),
        ("tags = :tags", True),
        ("age = twin", True),
        # < <= > >= order S, N and B values against their own type only.
        ("age < :forty", True),
        ("age <= :thirty", True),
        ("age > :thirty", False),
        ("age >= :thirty", True),
        ("age < :thirty_text", False),
        ("age > :thirty_text", False),
        ("nickname < :bob", True),
        ("nickname < :alice_lower", True),  # "A" 0x41 sorts before "a" 0x61
        ("payload > :b01", True),
        ("payload < :bff", True),  # unsigned bytes
        ("active < :one", False),
        ("things > :one", False),
        # BETWEEN is inclusive.
        ("age BETWEEN :twenty AND :forty", True),
        ("age BETWEEN :thirty AND :thirty", True),
        ("age BETWEEN :zero AND :twenty", False),
        ("nickname BETWEEN :al AND :bob", True),
        ("nickname BETWEEN :zero AND :one", False),
        # IN is = against each choice.
        ("age IN (:twenty, :thirty)", True),
        ("age IN (:twenty, :thirty_text)", False),
        ("age IN (score, twin)", True),
        ("tags IN (:tags)", True),
    ],
)
def test_comparisons(text, expected):
    assert evaluate(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("attribute_exists(age)", True),
        ("attribute_exists(nothing)", True),  # NULL is a value
        ("attribute_exists(nope)", False),
        ("attribute_exists(address.geo.lat)", True),
        ("attribute_exists(address.country)", False),
        ("attribute_exists(things[3][0])", True),
        ("attribute_exists(things[4])", False),
        ("attribute_not_exists(nope)", True),
        ("attribute_not_exists(age)", False),
        ("attribute_type(nickname, :S)", True),
        ("attribute_type(age, :N)", True),
        ("attribute_type(payload, :B)", True),
        ("attribute_type(active, :BOOL)", True),
        ("attribute_type(nothing, :NULL)", True),
        ("attribute_type(things, :L)", True),
        ("attribute_type(address, :M)", True),
        ("attribute_type(tags, :SS)", True),
        ("attribute_type(lucky, :NS)", True),
        ("attribute_type(blobs, :BS)", True),
        ("attribute_type(age, :S)", False),
        ("attribute_type(nope, :S)", False),
        ("begins_with(nickname, :al)", True),
        ("begins_with(nickname, :alice_lower)", False),
        ("begins_with(payload, :b01)", True),
        ("begins_with(payload, :al)", False),  # binary against string
        ("begins_with(age, :al)", False),
        ("begins_with(tags, :red)", False),
        ("begins_with(nope, :al)", False),
        ("contains(nickname, :lic)", True),
        ("contains(nickname, :x)", False),
        ("contains(payload, :b0203)", True),
        ("contains(tags, :red)", True),
        ("contains(tags, :green)", False),
        ("contains(lucky, :seven)", True),
        ("contains(lucky, :seven_text)", False),
        ("contains(blobs, :bff)", True),
        ("contains(things, :a)", True),
        ("contains(things, :one)", True),
        ("contains(things, :kv)", True),
        ("contains(things, :list_x)", True),
        ("contains(things, :true)", False),
        ("contains(age, :thirty)", False),
        ("contains(nope, :a)", False),
        ("contains(address, :paris)", False),  # maps hold no members
    ],
)
def test_functions(text, expected):
    assert evaluate(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("size(nickname) = :five", True),
        ("size(payload) = :three", True),
        ("size(tags) = :two", True),
        ("size(things) = :four", True),
        ("size(address) = :three", True),
        ("size(empty_list) = :zero", True),
        ("size(empty_map) = :zero", True),
        # An emoji outside the Basic Multilingual Plane is two UTF-16 code
        # units, and DynamoDB's (Java) size counts code units.
        ("size(emoji) = :two", True),
        ("size(address.city) = :five", True),
        ("size(things[3]) = :one", True),
        # size of a number, a boolean, NULL or a missing attribute has no
        # value, so any comparison with it is false and <> is true.
        ("size(age) = :two", False),
        ("size(age) <> :two", True),
        ("size(active) > :zero", False),
        ("size(nope) >= :zero", False),
        ("size(nickname) BETWEEN :four AND :five", True),
        ("size(tags) IN (:one, :two)", True),
        ("size(nickname) > size(tags)", True),
        (":five = size(nickname)", True),
    ],
)
def test_size(text, expected):
    assert evaluate(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("address.city = :paris", True),
        ("address.geo.lat > :forty", True),
        ("things[0] = :a", True),
        ("things[2].k = :v", True),
        ("things[3][0] = :x", True),
        ("things[9] = :x", False),
        ("address[0] = :x", False),  # an index into a map
        ("things.k = :v", False),  # a name into a list
        ("nickname.initial = :x", False),  # anything into a string
        ("things[ 2 ] . k = :v", True),  # spaces inside a path are allowed
    ],
)
def test_nested_paths(text, expected):
    assert evaluate(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nope = :thirty", False),
        ("nope <> :thirty", True),
        ("nope < :thirty", False),
        ("nope >= :thirty", False),
        ("nope BETWEEN :zero AND :forty", False),
        ("nope IN (:thirty, :null)", False),
        ("NOT nope = :thirty", True),
        ("nope = other_nope", False),  # two missing attributes are not equal
        ("nope <> other_nope", True),
        ("address.nope = :x", False),
        ("address.nope <> :x", True),
    ],
)
def test_missing_attributes(text, expected):
    """Only <> (the negation of =) is true with a missing attribute; moto
    agrees (see test_moto_conformance)."""
    assert evaluate(text) is expected


def test_placeholders_for_names():
    names = {"#n": "nickname", "#a": "address", "#c": "city", "#dotted": "a.b"}
    assert evaluate("#n = :alice", names=names)
    assert evaluate("#a.#c = :paris AND address.#c = :paris", names=names)
    # A name from ExpressionAttributeNames is one attribute, dots and all.
    assert evaluate("#dotted = :x", item={"a.b": "x"}, names=names)
    assert not evaluate("#dotted = :x", item={"a": {"b": "x"}}, names=names)


def test_names_that_are_reserved_words_go_through_placeholders():
    names = {"#status": "status"}
    assert evaluate("#status = :a", item={"status": "a"}, names=names)


class TestPrecedence:
    """The documented example: with a and b true and c false, `a OR b AND c`
    is true and `(a OR b) AND c` is false. NOT binds tighter than AND, AND
    tighter than OR."""

    ITEM = {"a": Decimal(1), "b": Decimal(2), "c": Decimal(3)}
    A, B, C = "a = :one", "b = :two", "c = :four"  # true, true, false

    def check(self, text: str) -> bool:
        return evaluate(text, item=self.ITEM)

    def test_and_before_or(self):
        assert self.check(f"{self.A} OR {self.B} AND {self.C}")
        assert not self.check(f"({self.A} OR {self.B}) AND {self.C}")
        assert self.check(f"{self.C} AND {self.A} OR {self.B}")
        assert not self.check(f"{self.C} AND ({self.A} OR {self.B})")

    def test_not_before_and(self):
        # (NOT a) AND c is false; NOT (a AND c) would be true.
        assert not self.check(f"NOT {self.A} AND {self.C}")
        assert self.check(f"NOT ({self.A} AND {self.C})")

    def test_not_before_or(self):
        # (NOT a) OR b is true; NOT (a OR b) would be false.
        assert self.check(f"NOT {self.A} OR {self.B}")
        assert not self.check(f"NOT ({self.A} OR {self.B})")

    def test_not_not(self):
        assert self.check(f"NOT NOT {self.A}")

    def test_long_chains(self):
        assert self.check(f"{self.C} OR {self.C} OR {self.C} OR {self.A}")
        assert not self.check(f"{self.A} AND {self.B} AND {self.A} AND {self.C}")

    def test_comparisons_bind_tighter_than_between_and(self):
        # The AND of BETWEEN belongs to BETWEEN, the next one joins conditions.
        assert self.check("a BETWEEN :zero AND :two AND b = :two")

    @pytest.mark.parametrize(
        "text",
        [
            "a = :one and b = :two",
            "a = :one AnD b = :two",
            "not c = :four",
            "a between :zero and :two",
            "a in (:one)",
            "a=:one",
            "  a   =\t:one\n",
            "attribute_exists (a)",
            "(a) = :one",
            "(a = :one)",
            "((a = :one) AND (b = :two))",
        ],
    )
    def test_keywords_any_case_and_whitespace(self, text):
        assert self.check(text)


def test_usage_and_paths():
    condition = parse_condition(
        "#n = :alice AND (size(things) > :one OR address.#c IN (:paris, :x)) "
        "AND attribute_exists(#n)",
        {"#n": "nickname", "#c": "city", "#unused": "zzz"},
        {**VALUES, ":unused": "zzz"},
    )
    assert condition.usage == Usage(
        names={"#n", "#c"}, values={":alice", ":one", ":paris", ":x"}
    )
    assert condition.paths == [
        Path(("nickname",)),
        Path(("things",)),
        Path(("address", "city")),
    ]


def test_path_resolve():
    assert Path(("address", "geo", "lat")).resolve(ITEM) == Decimal("48.85")
    assert Path(("things", 2, "k")).resolve(ITEM) == "v"
    assert Path(("things", 7)).resolve(ITEM) is MISSING
    assert Path(("nope",)).resolve(ITEM) is MISSING
    assert Path(("nothing",)).resolve(ITEM) is None
    assert str(Path(("a", 2, "b"))) == "[a, [2], b]"
    assert Path(("a", 2, "b")).text == "a[2].b"


def test_evaluation_does_not_change_the_item():
    item = {"things": [Decimal(1)], "address": {"city": "Paris"}}
    before = repr(item)
    evaluate("contains(things, :one) AND address.city = :paris", item=item)
    assert repr(item) == before
