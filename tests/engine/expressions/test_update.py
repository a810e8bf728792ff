"""Update expressions: every section applied to native items, and their
errors (Developer Guide, "Update expressions")."""

from __future__ import annotations

import copy
import dataclasses
import re
from decimal import Decimal

import pytest

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import Path, Usage, parse_update
from modeler.engine.types import BinarySet, NumberSet, StringSet

D = Decimal

ITEM = {
    "pk": "k",
    "num": D(5),
    "label": "hi",
    "lst": [D(0), D(1), D(2), D(3)],
    "mp": {"a": {"b": D(1)}, "c": "x"},
    "tags": StringSet({"a", "b"}),
    "lucky": NumberSet({D(7)}),
    "blobs": BinarySet({b"\x01"}),
}

VALUES = {
    ":one": D(1),
    ":two": D(2),
    ":zero": D(0),
    ":tenth": D("0.1"),
    ":fifth": D("0.2"),
    ":x": "x",
    ":y": "y",
    ":list": ["y"],
    ":empty_list": [],
    ":map": {"k": "v"},
    ":c": StringSet({"c"}),
    ":a": StringSet({"a"}),
    ":ab": StringSet({"a", "b"}),
    ":az": StringSet({"a", "z"}),
    ":seven": NumberSet({D(7)}),
    ":eight": NumberSet({D(8)}),
    ":b02": BinarySet({b"\x02"}),
    ":true": True,
    ":null": None,
    ":bytes": b"\x00",
    ":big": D("12345678901234567890123456789012345678"),
    ":huge": D("9.9E+125"),
}

WRONG_TYPE = "An operand in the update expression has an incorrect data type"
MISSING_OPERAND = (
    "The provided expression refers to an attribute that does not exist in the item"
)
INVALID_PATH = (
    "The document path provided in the update expression is invalid for update"
)


def apply(text: str, item: dict | None = None, names: dict | None = None) -> dict:
    return parse_update(text, names, VALUES).apply(ITEM if item is None else item)


def changes(text: str, item: dict | None = None) -> dict:
    """The attributes the update adds or changes, and None for those it
    removes."""
    before = ITEM if item is None else item
    after = apply(text, before)
    changed = {k: v for k, v in after.items() if before.get(k, object()) != v}
    return changed | {k: None for k in before if k not in after}


def refusal(text: str, item: dict | None = None, names=None, values=VALUES) -> str:
    with pytest.raises(ValidationException) as caught:
        parse_update(text, names, values).apply(ITEM if item is None else item)
    return caught.value.message


class TestSet:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("SET fresh = :x", {"fresh": "x"}),
            ("SET label = :map", {"label": {"k": "v"}}),
            ("SET num = num + :one", {"num": D(6)}),
            ("SET num = num - :two", {"num": D(3)}),
            ("SET num = :one - num", {"num": D(-4)}),
            ("SET fresh = :tenth + :fifth", {"fresh": D("0.3")}),  # exact decimals
            ("SET fresh = num", {"fresh": D(5)}),
            ("SET fresh = mp.a", {"fresh": {"b": D(1)}}),
            ("SET fresh = lst[1]", {"fresh": D(1)}),
            ("SET num = label, label = num", {"num": "hi", "label": D(5)}),
            (
                "SET lst = list_append(lst, :list)",
                {"lst": [D(0), D(1), D(2), D(3), "y"]},
            ),
            (
                "SET lst = list_append(:list, lst)",
                {"lst": ["y", D(0), D(1), D(2), D(3)]},
            ),
            ("SET fresh = list_append(:list, :empty_list)", {"fresh": ["y"]}),
            ("SET fresh = if_not_exists(fresh, :zero)", {"fresh": D(0)}),
            ("SET num = if_not_exists(num, :zero)", {}),
            (
                "SET counter_ = if_not_exists(counter_, :zero) + :one",
                {"counter_": D(1)},
            ),
            ("SET num = if_not_exists(num, :zero) + :one", {"num": D(6)}),
            (
                "SET fresh = list_append(if_not_exists(fresh, :empty_list), :list)",
                {"fresh": ["y"]},
            ),
            ("SET num = (num + :one)", {"num": D(6)}),
            ("SET num = (num) + (:one)", {"num": D(6)}),
            ("SET fresh = (:x)", {"fresh": "x"}),
        ],
    )
    def test_values(self, text, expected):
        assert changes(text) == expected

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("SET mp.c = :y", {"a": {"b": D(1)}, "c": "y"}),
            ("SET mp.d = :y", {"a": {"b": D(1)}, "c": "x", "d": "y"}),
            ("SET mp.a.b = :y", {"a": {"b": "y"}, "c": "x"}),
            ("SET mp.a.added = :y", {"a": {"b": D(1), "added": "y"}, "c": "x"}),
        ],
    )
    def test_nested_maps(self, text, expected):
        assert apply(text)["mp"] == expected

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("SET lst[1] = :x", [D(0), "x", D(2), D(3)]),
            ("SET lst[3] = :x", [D(0), D(1), D(2), "x"]),
            # An index past the end appends, in index order.
            ("SET lst[4] = :x", [D(0), D(1), D(2), D(3), "x"]),
            ("SET lst[99] = :x", [D(0), D(1), D(2), D(3), "x"]),
            ("SET lst[10] = :x, lst[7] = :y", [D(0), D(1), D(2), D(3), "y", "x"]),
            ("SET lst[0] = lst[3], lst[3] = lst[0]", [D(3), D(1), D(2), D(0)]),
        ],
    )
    def test_list_elements(self, text, expected):
        assert apply(text)["lst"] == expected

    def test_values_are_read_before_any_change(self):
        assert changes("SET num = :one, fresh = num") == {"num": D(1), "fresh": D(5)}

    def test_a_copied_value_is_independent_of_its_source(self):
        after = apply("SET copied = mp")
        after["copied"]["a"]["b"] = "changed"
        assert after["mp"] == {"a": {"b": D(1)}, "c": "x"}
        assert ITEM["mp"] == {"a": {"b": D(1)}, "c": "x"}

    def test_a_literal_is_copied_into_the_item(self):
        update = parse_update("SET fresh = :map", None, VALUES)
        first = update.apply(ITEM)
        first["fresh"]["k"] = "changed"
        assert update.apply(ITEM)["fresh"] == {"k": "v"}
        assert VALUES[":map"] == {"k": "v"}

    @pytest.mark.parametrize(
        "text",
        [
            "SET fresh = nope",
            "SET fresh = nope + :one",
            "SET fresh = :one - nope",
            "SET fresh = list_append(nope, :list)",
            "SET fresh = mp.nope",
            "SET fresh = lst[9]",
            # Both operands of if_not_exists are read, even when the first
            # exists.
            "SET num = if_not_exists(num, nope)",
        ],
    )
    def test_reading_a_missing_attribute(self, text):
        assert refusal(text) == MISSING_OPERAND

    @pytest.mark.parametrize(
        "text",
        [
            "SET fresh = label + :one",
            "SET fresh = :one - label",
            "SET fresh = lst + :one",
            "SET fresh = list_append(label, :list)",
            "SET fresh = list_append(:list, mp)",
            "SET fresh = if_not_exists(label, :list) + :one",
        ],
    )
    def test_wrong_operand_types_in_the_item(self, text):
        assert refusal(text) == WRONG_TYPE

    @pytest.mark.parametrize(
        "text",
        [
            "SET nope.k = :x",  # the parent map is missing
            "SET mp.nope.k = :x",
            "SET lst[9].k = :x",  # the parent element is missing
            "SET mp[0] = :x",  # an index into a map
            "SET lst.k = :x",  # a name into a list
            "SET label.k = :x",  # anything into a string
            "SET label[0] = :x",
            "SET num[0] = :x",
        ],
    )
    def test_invalid_document_paths(self, text):
        assert refusal(text) == INVALID_PATH

    def test_number_limits_apply_to_results(self):
        assert refusal("SET num = :big + :tenth") == (
            "Attempting to store more than 38 significant digits in a Number"
        )
        assert refusal("SET num = :huge + :huge") == (
            "Number overflow. Attempting to store a number with magnitude larger than "
            "supported range"
        )


class TestRemove:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("REMOVE label", {"label": None}),
            ("REMOVE label, num", {"label": None, "num": None}),
            ("REMOVE nope", {}),
            ("REMOVE mp.c", {"mp": {"a": {"b": D(1)}}}),
            ("REMOVE mp.a.b", {"mp": {"a": {}, "c": "x"}}),
            ("REMOVE mp.nope", {}),
            # Later elements shift down; every index is a position in the list
            # as it was.
            ("REMOVE lst[0]", {"lst": [D(1), D(2), D(3)]}),
            ("REMOVE lst[1], lst[2]", {"lst": [D(0), D(3)]}),
            ("REMOVE lst[2], lst[1]", {"lst": [D(0), D(3)]}),
            ("REMOVE lst[0], lst[3]", {"lst": [D(1), D(2)]}),
            ("REMOVE lst[9]", {}),
            ("SET lst[0] = :x REMOVE lst[1]", {"lst": ["x", D(2), D(3)]}),
            ("SET lst[5] = :x REMOVE lst[0]", {"lst": [D(1), D(2), D(3), "x"]}),
        ],
    )
    def test_remove(self, text, expected):
        assert changes(text) == expected

    @pytest.mark.parametrize(
        "text",
        ["REMOVE nope.k", "REMOVE lst[9].k", "REMOVE mp[0]", "REMOVE label.k"],
    )
    def test_invalid_document_paths(self, text):
        assert refusal(text) == INVALID_PATH


class TestAdd:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("ADD num :one", {"num": D(6)}),
            ("ADD num :tenth", {"num": D("5.1")}),
            ("ADD fresh :one", {"fresh": D(1)}),  # a missing number starts at 0
            ("ADD tags :c", {"tags": StringSet({"a", "b", "c"})}),
            ("ADD tags :a", {}),
            ("ADD lucky :eight", {"lucky": NumberSet({D(7), D(8)})}),
            ("ADD blobs :b02", {"blobs": BinarySet({b"\x01", b"\x02"})}),
            ("ADD fresh :c", {"fresh": StringSet({"c"})}),  # a missing set starts empty
            ("ADD mp.a.b :one", {"mp": {"a": {"b": D(2)}, "c": "x"}}),
            ("ADD lst[1] :one", {"lst": [D(0), D(2), D(2), D(3)]}),
            ("ADD num :one, fresh :c", {"num": D(6), "fresh": StringSet({"c"})}),
        ],
    )
    def test_add(self, text, expected):
        assert changes(text) == expected

    def test_the_result_keeps_its_set_type(self):
        assert type(apply("ADD tags :c")["tags"]) is StringSet

    @pytest.mark.parametrize(
        "text", ["ADD label :one", "ADD num :c", "ADD tags :seven", "ADD lst :one"]
    )
    def test_type_mismatch_with_the_item(self, text):
        assert refusal(text) == WRONG_TYPE

    def test_a_missing_parent(self):
        assert refusal("ADD nope.k :one") == INVALID_PATH


class TestDelete:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("DELETE tags :a", {"tags": StringSet({"b"})}),
            ("DELETE tags :az", {"tags": StringSet({"b"})}),  # absent members ignored
            ("DELETE tags :c", {}),
            ("DELETE tags :ab", {"tags": None}),  # an empty set is no attribute
            ("DELETE lucky :seven", {"lucky": None}),
            ("DELETE nope :a", {}),
        ],
    )
    def test_delete(self, text, expected):
        assert changes(text) == expected

    def test_an_emptied_nested_set_is_removed(self):
        item = {"pk": "k", "mp": {"s": StringSet({"a"}), "t": "x"}}
        assert apply("DELETE mp.s :a", item) == {"pk": "k", "mp": {"t": "x"}}

    @pytest.mark.parametrize("text", ["DELETE tags :seven", "DELETE label :a"])
    def test_type_mismatch_with_the_item(self, text):
        assert refusal(text) == WRONG_TYPE


def test_sections_in_any_order_and_letter_case():
    text = "delete tags :a ADD num :one remove label Set fresh = :x"
    assert changes(text) == {
        "tags": StringSet({"b"}),
        "num": D(6),
        "label": None,
        "fresh": "x",
    }


def test_placeholders():
    names = {"#n": "num", "#m": "mp", "#c": "c", "#status": "status"}
    after = apply("SET #n = #n + :one, #m.#c = :y, #status = :x", names=names)
    assert after["num"] == D(6)
    assert after["mp"]["c"] == "y"
    assert after["status"] == "x"


def test_attributes_paths_and_usage():
    update = parse_update(
        "SET #m.a.b = :one, lst[2] = if_not_exists(num, :zero) REMOVE label "
        "ADD tags :c DELETE lucky :seven",
        {"#m": "mp", "#unused": "x"},
        VALUES,
    )
    assert update.top_level_attributes == {"mp", "lst", "label", "tags", "lucky"}
    assert update.paths == [
        Path(("mp", "a", "b")),
        Path(("lst", 2)),
        Path(("label",)),
        Path(("tags",)),
        Path(("lucky",)),
    ]
    assert update.usage == Usage(names={"#m"}, values={":one", ":zero", ":c", ":seven"})


def test_apply_returns_a_new_item_and_leaves_the_input_alone():
    item = copy.deepcopy(ITEM)
    after = apply("SET mp.a.b = :x, lst[0] = :x REMOVE label ADD tags :c", item)
    assert item == ITEM
    assert after is not item
    assert after["mp"] is not item["mp"]
    assert after["mp"]["a"] is not item["mp"]["a"]
    assert after["lst"] is not item["lst"]


@pytest.mark.parametrize(
    "text",
    [
        "SET num = num + :one",
        "SET fresh = :x, num = :two, label = num",
        "SET num = :one, fresh = num",
        "SET copied = mp, lst = list_append(lst, :list)",
        "SET fresh = if_not_exists(fresh, :map), tags = :c",
        "SET num = gone_",
        "SET num = label + :one",
    ],
)
def test_top_level_sets_give_what_the_tree_walk_gives(text):
    """Updates that only SET top-level attributes take a shortcut; the walk
    of the tree gives the same item, attribute order included, or the same
    error."""
    update = parse_update(text, None, VALUES)
    assert update._top_level_sets is not None
    walked = dataclasses.replace(update, _top_level_sets=None)
    try:
        expected = walked.apply(ITEM)
    except ValidationException as error:
        with pytest.raises(ValidationException, match=re.escape(error.message)):
            update.apply(ITEM)
        return
    after = update.apply(ITEM)
    assert list(after.items()) == list(expected.items())
    assert after["lst"] is ITEM["lst"] or "lst" in text


@pytest.mark.parametrize(
    "text", ["SET mp.c = :y", "SET lst[0] = :x", "SET num = :one REMOVE label"]
)
def test_other_updates_walk_the_tree(text):
    assert parse_update(text, None, VALUES)._top_level_sets is None


def test_untouched_parts_are_shared():
    item = copy.deepcopy(ITEM)
    after = apply("SET mp.c = :y", item)
    assert after["lst"] is item["lst"]
    assert after["mp"]["a"] is item["mp"]["a"]


class TestErrors:
    @pytest.mark.parametrize("section", ["SET", "REMOVE", "ADD", "DELETE"])
    def test_each_section_once(self, section):
        action = {"SET": "a = :x", "REMOVE": "a", "ADD": "a :one", "DELETE": "a :c"}
        text = f"{section} {action[section]} {section} b{action[section][1:]}"
        assert refusal(text) == (
            f'Invalid UpdateExpression: The "{section}" section can only be used once '
            "in an update expression;"
        )

    @pytest.mark.parametrize(
        ("text", "one", "two", "relation"),
        [
            ("SET a = :x, a.b = :y", "[a]", "[a, b]", "overlap"),
            ("SET a.b = :x, a = :y", "[a, b]", "[a]", "overlap"),
            ("SET a = :x REMOVE a", "[a]", "[a]", "overlap"),
            ("REMOVE a[1], a[1]", "[a, [1]]", "[a, [1]]", "overlap"),
            ("SET a.b.c = :x ADD a.b :one", "[a, b, c]", "[a, b]", "overlap"),
            ("SET a[0] = :x, a.b = :y", "[a, [0]]", "[a, b]", "conflict"),
            ("SET a.b = :x REMOVE a[0].c", "[a, b]", "[a, [0], c]", "conflict"),
        ],
    )
    def test_paths_must_not_overlap(self, text, one, two, relation):
        assert refusal(text) == (
            f"Invalid UpdateExpression: Two document paths {relation} with each "
            "other; must remove or rewrite one of these paths; "
            f"path one: {one}, path two: {two}"
        )

    def test_placeholders_naming_the_same_attribute_overlap(self):
        message = refusal("SET #a = :x, #b = :y", names={"#a": "n", "#b": "n"})
        assert message.endswith("path one: [n], path two: [n]")

    def test_disjoint_siblings_are_fine(self):
        parse_update("SET a.b = :x, a.c = :y, l[0] = :x, l[1] = :y", None, VALUES)

    @pytest.mark.parametrize(
        ("text", "token", "near"),
        [
            ("SET", "<EOF>", "SET"),
            ("SET a", "<EOF>", "a"),
            ("SET a =", "<EOF>", "="),
            ("SET a = :x,", "<EOF>", ","),
            ("SET a = :x b = :y", "b", ":x b ="),
            ("SET a = :x + ", "<EOF>", "+"),
            ("SET a = :x + :y + :one", "+", ":y + :one"),
            ("SET a = :x * :y", "*", ":x * :y"),
            ("SET :x = a", ":x", "SET :x ="),
            ("REMOVE", "<EOF>", "REMOVE"),
            ("REMOVE a = :x", "=", "a = :x"),
            ("ADD a", "<EOF>", "a"),
            ("ADD a b", "b", "a b"),
            ("DELETE a :c :a", ":a", ":c :a"),
            ("a = :x", "a", "a ="),
            ("UPDATE a = :x", "UPDATE", "UPDATE a"),
            ("SET set = :x", "set", "SET set ="),
        ],
    )
    def test_syntax_errors(self, text, token, near):
        assert refusal(text) == (
            f'Invalid UpdateExpression: Syntax error; token: "{token}", near: "{near}"'
        )

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (
                "SET status = :x",
                "Attribute name is a reserved keyword; reserved keyword: status",
            ),
            (
                "REMOVE a.size",
                "Attribute name is a reserved keyword; reserved keyword: size",
            ),
            (
                "SET a = :nope",
                "An expression attribute value used in expression is "
                "not defined; attribute value: :nope",
            ),
            (
                "SET #a = :x",
                "An expression attribute name used in the document path "
                "is not defined; attribute name: #a",
            ),
            ("SET a = foo(b)", "Invalid function name; function: foo"),
            (
                "SET a = size(b)",
                "The function is not allowed in an update expression; function: size",
            ),
            (
                "SET a = if_not_exists(:x, :y)",
                "Operator or function requires a "
                "document path; operator or function: if_not_exists",
            ),
            (
                "SET a = if_not_exists(a, a)",
                "The first operand must be distinct from "
                "the remaining operands for this operator or function; operator: "
                "if_not_exists, first operand: [a]",
            ),
            (
                "SET a = list_append(a)",
                "Incorrect number of operands for operator or "
                "function; operator or function: list_append, number of operands: 1",
            ),
            (
                "SET a = list_append(:x, a)",
                "Incorrect operand type for operator or "
                "function; operator or function: list_append, operand type: S",
            ),
            (
                "SET a = a + :x",
                "Incorrect operand type for operator or function; "
                "operator or function: +, operand type: S",
            ),
            (
                "SET a = :list - a",
                "Incorrect operand type for operator or function; "
                "operator or function: -, operand type: L",
            ),
            (
                "SET a = list_append(a, :list) + :one",
                "Incorrect operand type for "
                "operator or function; operator or function: +, operand type: L",
            ),
            (
                "ADD a :x",
                "Incorrect operand type for operator or function; operator: "
                "ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND",
            ),
            (
                "ADD a :list",
                "Incorrect operand type for operator or function; "
                "operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND",
            ),
            (
                "ADD a :map",
                "Incorrect operand type for operator or function; "
                "operator: ADD, operand type: MAP, typeSet: ALLOWED_FOR_ADD_OPERAND",
            ),
            (
                "ADD a :true",
                "Incorrect operand type for operator or function; "
                "operator: ADD, operand type: BOOLEAN, typeSet: "
                "ALLOWED_FOR_ADD_OPERAND",
            ),
            (
                "ADD a :bytes",
                "Incorrect operand type for operator or function; "
                "operator: ADD, operand type: BINARY, typeSet: ALLOWED_FOR_ADD_OPERAND",
            ),
            (
                "ADD a :null",
                "Incorrect operand type for operator or function; "
                "operator: ADD, operand type: NULL, typeSet: ALLOWED_FOR_ADD_OPERAND",
            ),
            (
                "DELETE a :one",
                "Incorrect operand type for operator or function; "
                "operator: DELETE, operand type: NUMBER, typeSet: "
                "ALLOWED_FOR_DELETE_OPERAND",
            ),
            (
                "DELETE a :x",
                "Incorrect operand type for operator or function; "
                "operator: DELETE, operand type: STRING, typeSet: "
                "ALLOWED_FOR_DELETE_OPERAND",
            ),
            ("", "The expression can not be empty;"),
            (
                "SET " + ".".join(["a"] * 33) + " = :x",
                "The document path has too many nesting levels; nesting levels: 33",
            ),
        ],
    )
    def test_refusals(self, text, message):
        assert refusal(text) == f"Invalid UpdateExpression: {message}"

    def test_kind_in_messages(self):
        with pytest.raises(ValidationException, match="Invalid SomeUpdate: Syntax"):
            parse_update("SET", None, None, kind="SomeUpdate")

    def test_size_limit(self):
        text = "SET a = :x" + " " * 4087
        assert refusal(text).endswith("expression size: 4097")

    def test_operator_limit(self):
        values = {":o": D(1)}
        parse_update("SET " + ",".join(f"a{i}=:o+:o" for i in range(300)), None, values)
        text = "SET " + ",".join(f"a{i}=:o+:o" for i in range(301))
        assert refusal(text, values=values).endswith(
            "The expression contains too many operators; operator count: 301"
        )

    def test_reserved_word_before_function_name_before_section(self):
        assert "reserved keyword" in refusal("SET status = foo(a) SET b = :x")
        assert "Invalid function name" in refusal("SET a = foo(b) SET b = :x")

    def test_undefined_name_before_value_before_overlap(self):
        assert "attribute name: #n" in refusal("SET a = :nope, #n = :x, a = :x")
        assert "attribute value: :nope" in refusal("SET a = :nope, a = :x")
