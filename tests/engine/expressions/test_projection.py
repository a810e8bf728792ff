"""Projection expressions (Developer Guide, "Projection expressions")."""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import Path, Usage, parse_projection
from modeler.engine.types import StringSet

D = Decimal

ITEM = {
    "pk": "k",
    "num": D(5),
    "tags": StringSet({"a"}),
    "lst": ["l0", {"k": "v", "w": "z"}, ["n0", "n1"], "l3", "l4"],
    "mp": {"a": {"b": D(1), "c": D(2)}, "d": "x", "e": ["e0", "e1"]},
}


def project(text: str, item: dict | None = None, names: dict | None = None) -> dict:
    return parse_projection(text, names).apply(ITEM if item is None else item)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pk", {"pk": "k"}),
        ("pk, num, tags", {"pk": "k", "num": D(5), "tags": StringSet({"a"})}),
        ("nope", {}),
        ("pk, nope", {"pk": "k"}),
        ("mp.d", {"mp": {"d": "x"}}),
        ("mp.a.b, mp.d", {"mp": {"a": {"b": D(1)}, "d": "x"}}),
        ("mp.a.b, mp.a.c", {"mp": {"a": {"b": D(1), "c": D(2)}}}),
        ("mp.nope", {}),
        ("mp.a.nope, mp.d", {"mp": {"d": "x"}}),
        # List elements close up, in index order whatever the written order.
        ("lst[0]", {"lst": ["l0"]}),
        ("lst[3], lst[0]", {"lst": ["l0", "l3"]}),
        ("lst[4], lst[9]", {"lst": ["l4"]}),
        ("lst[1].k", {"lst": [{"k": "v"}]}),
        ("lst[2][1], lst[0]", {"lst": ["l0", ["n1"]]}),
        ("lst[1].nope, lst[3]", {"lst": ["l3"]}),
        ("mp.e[1], mp.d", {"mp": {"d": "x", "e": ["e1"]}}),
        # A step into the wrong type projects nothing.
        ("mp[0]", {}),
        ("lst.k", {}),
        ("num.k", {}),
        ("pk[0]", {}),
    ],
)
def test_apply(text, expected):
    assert project(text) == expected


def test_placeholders_and_usage():
    projection = parse_projection(
        "#m.#a.b, #s", {"#m": "mp", "#a": "a", "#s": "status", "#unused": "x"}
    )
    assert projection.apply(ITEM | {"status": "on"}) == {
        "mp": {"a": {"b": D(1)}},
        "status": "on",
    }
    assert projection.usage == Usage(names={"#m", "#a", "#s"}, values=set())
    assert projection.paths == [Path(("mp", "a", "b")), Path(("status",))]


def test_apply_copies_and_leaves_the_item_alone():
    item = copy.deepcopy(ITEM)
    projected = project("mp, lst[1]", item)
    projected["mp"]["a"]["b"] = "changed"
    projected["lst"][0]["k"] = "changed"
    assert item == ITEM


def test_apply_is_reusable_across_items():
    projection = parse_projection("pk, mp.d", None)
    assert projection.apply({"pk": "a"}) == {"pk": "a"}
    assert projection.apply({"pk": "b", "mp": {"d": D(1)}}) == {
        "pk": "b",
        "mp": {"d": D(1)},
    }


def refusal(text: str, names: dict | None = None) -> str:
    with pytest.raises(ValidationException) as caught:
        parse_projection(text, names)
    return caught.value.message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "The expression can not be empty;"),
        ("a,", 'Syntax error; token: "<EOF>", near: ","'),
        ("a b", 'Syntax error; token: "b", near: "a b"'),
        ("a, , b", 'Syntax error; token: ",", near: ", , b"'),
        ("a = :v", 'Syntax error; token: "=", near: "a = :v"'),
        ("a-b", 'Syntax error; token: "-", near: "a-b"'),
        (":v", 'Syntax error; token: ":v", near: ":v"'),
        ("size(a)", 'Syntax error; token: "(", near: "size(a"'),
        ("status", "Attribute name is a reserved keyword; reserved keyword: status"),
        ("a.name", "Attribute name is a reserved keyword; reserved keyword: name"),
        (
            "#x",
            "An expression attribute name used in the document path is not defined; "
            "attribute name: #x",
        ),
        (
            "a, a",
            "Two document paths overlap with each other; must remove or rewrite one "
            "of these paths; path one: [a], path two: [a]",
        ),
        (
            "a, a.b",
            "Two document paths overlap with each other; must remove or rewrite one "
            "of these paths; path one: [a], path two: [a, b]",
        ),
        (
            "l[1].b, l[1]",
            "Two document paths overlap with each other; must remove or rewrite one "
            "of these paths; path one: [l, [1], b], path two: [l, [1]]",
        ),
        (
            "l[0], l.b",
            "Two document paths conflict with each other; must remove or rewrite one "
            "of these paths; path one: [l, [0]], path two: [l, b]",
        ),
    ],
)
def test_refusals(text, message):
    assert refusal(text) == f"Invalid ProjectionExpression: {message}"


def test_reserved_word_before_undefined_name_before_overlap():
    assert "reserved keyword" in refusal("#x, a, a, status")
    assert "attribute name: #x" in refusal("a, a, #x")


def test_placeholders_naming_the_same_path_overlap():
    assert refusal("#a, #b", {"#a": "x", "#b": "x"}).endswith(
        "path one: [x], path two: [x]"
    )


def test_kind_in_messages():
    with pytest.raises(ValidationException, match="Invalid AttributesToGet: "):
        parse_projection("", None, kind="AttributesToGet")
