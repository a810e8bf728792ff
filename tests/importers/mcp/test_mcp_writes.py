"""An MCP data model's writes (put-item, update-item, delete-item,
transact-write-items, batch-write-item) become the design's write patterns:
the update expression's ways and removals, the condition, the actions of a
transaction or batch; what the design cannot state is named."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from modeler.importers.mcp_patterns import mcp_patterns
from modeler.importers.sources import read_design_source
from modeler.review import review_design
from modeler.simulation.simulate import Simulation

HERE = Path(__file__).resolve().parent
MODEL = json.loads((HERE / "dynamodb_data_model.json").read_text())
TABLE = "social-graph"
PROFILE = {"PK": {"S": "USER#u00000002"}, "SK": {"S": "PROFILE"}}
FOLLOW = {
    "PK": {"S": "USER#u00000002"},
    "SK": {"S": "FOLLOWS#u00000001"},
    "GSI1PK": {"S": "USER#u00000001"},
    "GSI1SK": {"S": "FOLLOWER#u00000002"},
    "followerId": {"S": "u00000002"},
    "followerName": {"S": "Alan Turing"},
    "followedId": {"S": "u00000001"},
    "followedAt": {"S": "2025-01-02T03:04:05Z"},
}


def _q(value: object) -> str:
    return "'" + json.dumps(value, separators=(",", ":")) + "'"


def _command(verb: str, **options: object) -> str:
    words = ["aws", "dynamodb", verb]
    for option, value in options.items():
        words.append("--" + option.replace("_", "-"))
        if value is not True:
            words.append(value if isinstance(value, str) else _q(value))
    return " ".join(words)


def _update(expression: str, names: dict, values: dict, **more: object) -> str:
    return _command(
        "update-item",
        table_name=TABLE,
        key=PROFILE,
        update_expression=f"'{expression}'",
        expression_attribute_names=names,
        expression_attribute_values=values,
        **more,
    )


def _imported(implementation: str):
    """The design of the social graph's model with one more entry, and the
    import's notes."""
    model = copy.deepcopy(MODEL)
    model["access_patterns"].append(
        {
            "pattern": "9",
            "description": "The request",
            "table": TABLE,
            "implementation": implementation,
        }
    )
    found = read_design_source(json.dumps(model).encode(), filename="m.json")
    assert found.ok, found.problems
    (design,) = found.designs
    return design, found.notes


def _pattern(implementation: str) -> tuple[dict, list[str]]:
    """The entry as the design file states it (before the design reads it,
    so a way the social graph's attributes do not allow is shown too)."""
    design, _ = _imported(_command("get-item", table_name=TABLE, key=PROFILE))
    notes: list[str] = []
    entries = [{"pattern": "9", "description": "The request", "table": TABLE}]
    entries[0]["implementation"] = implementation
    patterns = mcp_patterns(entries, design, TABLE, notes)
    return (patterns[0] if patterns else {}), notes


def test_an_update_states_each_way_and_its_condition():
    design, notes = _imported(
        _update(
            "SET #displayName = :name, #joinedAt = if_not_exists(#joinedAt, :now)"
            " REMOVE #verified",
            {
                "#displayName": "displayName",
                "#joinedAt": "joinedAt",
                "#verified": "verified",
                "#PK": "PK",
            },
            {
                ":name": {"S": "Alan M. Turing"},
                ":now": {"S": "2025-02-01T00:00:00Z"},
                ":old": {"S": "Alan Turing"},
            },
            condition_expression="'attribute_exists(#PK) AND #displayName = :old'",
        )
    )
    (write,) = [p for p in design.access_patterns if p.name == "AP9 The request"]
    (action,) = write.actions

    assert (write.operation, action.entity) == ("UpdateItem", "Profile")
    assert action.set == (("displayName", "{displayName}"),)
    assert action.set_if_absent == (("joinedAt", "{joinedAt}"),)
    assert action.remove == ("verified",)
    # The value the condition expects is not the one the update sets.
    assert action.condition == (
        "attribute_exists(PK) AND displayName = {expected_displayName}"
    )
    assert {(p.name, p.example) for p in write.parameters} == {
        ("displayName", "Alan M. Turing"),
        ("joinedAt", "2025-02-01T00:00:00Z"),
        ("expected_displayName", "Alan Turing"),
    }
    assert not [n for n in notes if n.startswith("access_patterns[4]")]
    review = review_design(design, simulation=Simulation(design))
    (run,) = [r for r in review.runs if r is not None and r.pattern is write]
    assert run.passed, run


def test_a_counter_and_a_set_member_are_added_and_deleted():
    pattern, notes = _pattern(
        _update(
            "SET #views = #views + :one, #score = #score - :two "
            "ADD #tags :tag DELETE #badges :badge",
            {
                "#views": "views",
                "#score": "score",
                "#tags": "tags",
                "#badges": "badges",
            },
            {
                ":one": {"N": "1"},
                ":two": {"N": "2"},
                ":tag": {"SS": ["rust"]},
                ":badge": {"SS": ["newcomer"]},
            },
        )
    )

    assert notes == []
    assert pattern["add"] == {"views": "1", "score": "-2", "tags": "{tags}"}
    assert pattern["delete"] == {"badges": "{badges}"}
    assert pattern["parameters"] == {
        "tags": {"type": "S", "example": "rust"},
        "badges": {"type": "S", "example": "newcomer"},
    }


def test_a_batch_of_the_same_put_is_one_action_with_its_count():
    second = copy.deepcopy(FOLLOW)
    second["SK"] = {"S": "FOLLOWS#u00000004"}
    design, _ = _imported(
        _command(
            "batch-write-item",
            request_items={
                TABLE: [
                    {"PutRequest": {"Item": FOLLOW}},
                    {"PutRequest": {"Item": second}},
                    {"DeleteRequest": {"Key": PROFILE}},
                ]
            },
        )
    )
    (write,) = [p for p in design.access_patterns if p.name == "AP9 The request"]

    assert write.operation == "BatchWriteItem"
    assert [(a.operation, a.entity, a.count) for a in write.actions] == [
        ("Put", "Follows", "2"),
        ("Delete", "Profile", ""),
    ]


@pytest.mark.parametrize(
    ("implementation", "words"),
    [
        (
            _update(
                "SET #a.#b = :v",
                {"#a": "address", "#b": "city"},
                {":v": {"S": "Leeds"}},
            ),
            "not carried: it names a nested path",
        ),
        (
            _update(
                "SET #l = list_append(#l, :v)",
                {"#l": "history"},
                {":v": {"L": [{"S": "x"}]}},
            ),
            "not carried: its update sets a value the design cannot state",
        ),
        (
            _update("SET #n = :v", {"#n": "displayName"}, {}),
            "not carried: :v has no value in the expression values",
        ),
        (
            _command("update-item", table_name=TABLE, key=PROFILE),
            "not carried: an update without an update expression",
        ),
        (
            _command(
                "transact-write-items",
                transact_items=[
                    {"Put": {"TableName": TABLE, "Item": FOLLOW}},
                    {"Put": {"TableName": "audit", "Item": FOLLOW}},
                ],
            ),
            "not carried: --transact-items[1] writes the table audit",
        ),
        (
            _command(
                "transact-write-items",
                transact_items=[{"Get": {"TableName": TABLE, "Key": PROFILE}}],
            ),
            "not carried: --transact-items[0]: Get is not read",
        ),
    ],
)
def test_a_write_the_design_cannot_state_is_named(implementation, words):
    pattern, notes = _pattern(implementation)

    assert pattern == {}
    (note,) = notes
    assert note.startswith("access_patterns[0] (AP9 The request): " + words), note


def test_an_option_the_design_has_no_place_for_is_named():
    pattern, notes = _pattern(
        _command(
            "transact-write-items",
            transact_items=[
                {
                    "Put": {
                        "TableName": TABLE,
                        "Item": FOLLOW,
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                }
            ],
            client_request_token="order-42",
        )
    )

    assert pattern["actions"] == [{"operation": "Put", "entity": "Follows"}]
    assert notes == [
        "access_patterns[0] (AP9 The request): carried without "
        "--client-request-token order-42; "
        "--transact-items[0].ReturnValuesOnConditionCheckFailure"
    ]


def _follows(filter_expression: str, names: dict, values: dict, **more) -> str:
    """The social graph's 'Users a user follows' with a filter."""
    return _command(
        "query",
        table_name=TABLE,
        key_condition_expression="'#pk = :pk AND begins_with(#sk, :sk)'",
        filter_expression=f"'{filter_expression}'",
        expression_attribute_names={"#pk": "PK", "#sk": "SK", **names},
        expression_attribute_values={
            ":pk": {"S": "USER#u00000001"},
            ":sk": {"S": "FOLLOWS#"},
            **values,
        },
        **more,
    )


def test_a_querys_filter_is_its_filter_and_expectation():
    """A query's filter was dropped without a word: its expectation then
    held the items the filter discards."""
    design, notes = _imported(
        _follows(
            "#at >= :since AND #name <> :me",
            {"#at": "followedAt", "#name": "followerName", "#n": "followedId"},
            {":since": {"S": "2024-01-01T00:00:00Z"}, ":me": {"S": "Nobody"}},
            projection_expression="'#n'",
            return_consumed_capacity="TOTAL",
        )
    )
    (read,) = [p for p in design.access_patterns if p.name == "AP9 The request"]

    assert (
        read.filter == "followedAt >= {followedAt} and followerName <> {followerName}"
    )
    assert sorted((w.attribute, w.operator, w.values) for w in read.expects.where) == [
        ("followedAt", ">=", ("{followedAt}",)),
        ("followerId", "=", ("{followerId}",)),
        ("followerName", "!=", ("{followerName}",)),
    ]
    assert {(p.name, p.example) for p in read.parameters} == {
        ("followedAt", "2024-01-01T00:00:00Z"),
        ("followerName", "Nobody"),
    }
    assert [n for n in notes if n.startswith("access_patterns[4]")] == [
        "access_patterns[4] (AP9 The request): carried without "
        "--projection-expression #n; --return-consumed-capacity TOTAL"
    ]
    review = review_design(design, simulation=Simulation(design))
    (run,) = [r for r in review.runs if r is not None and r.pattern is read]
    assert run.passed, run


@pytest.mark.parametrize(
    ("expression", "names", "values", "why"),
    [
        (
            "#at < :a OR #at > :b",
            {"#at": "followedAt"},
            {":a": {"S": "2024"}, ":b": {"S": "2025"}},
            "the filter holds a clause an expectation cannot state: OR, NOT, "
            "size, contains or attribute_type",
        ),
        (
            "#g = :g",
            {"#g": "GSI1PK"},
            {":g": {"S": "USER#u00000002"}},
            "GSI1PK is no attribute of the items read",
        ),
        (
            "#id = :id",
            {"#id": "followerId"},
            {":id": {"S": "u00000001"}},
            "the key's expectation states followerId too",
        ),
        (
            "#at > :a AND #at < :b",
            {"#at": "followedAt"},
            {":a": {"S": "2024"}, ":b": {"S": "2025"}},
            "the filter states followedAt twice",
        ),
    ],
)
def test_a_filter_the_expectation_cannot_state_is_named(expression, names, values, why):
    pattern, notes = _pattern(_follows(expression, names, values))

    assert "filter" not in pattern
    assert notes == [
        "access_patterns[0] (AP9 The request): carried without "
        f"--filter-expression {expression} ({why})"
    ]
