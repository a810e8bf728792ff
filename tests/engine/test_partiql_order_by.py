"""PartiQL's SELECT ... WHERE pk IN [...] ORDER BY the sort key, through the
engine's boto3-faced client: one Query per partition, merged in key order,
paged with Limit and NextToken, charged as the Queries are."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from modeler.engine.client import Client
from tests.engine.helpers import index, table_request, wire

# Sort keys chosen so that text order and DynamoDB's order differ: numbers
# by value (10 after 9), binaries by unsigned bytes (0x80 after 0x7f), and
# ties across partitions.
SORT_VALUES = {
    "S": {"a": ["O#1", "O#4", "O#7"], "b": ["O#2", "O#4", "O#9"], "c": ["O#3"]},
    "N": {"a": [1, 4, 7], "b": [2, 4, 10], "c": [-3]},
    "B": {"a": [b"\x01", b"\x7f"], "b": [b"\x02", b"\x80"], "c": [b"\x7f\x00"]},
}


def _native(value: dict[str, Any]) -> Any:
    ((kind, data),) = value.items()
    return float(data) if kind == "N" else data


def _shop(kind: str) -> Client:
    client = Client()
    client.create_table(
        **table_request(
            types={"SK": kind, "GSK": kind},
            gsis=[index("ByGroup", "GPK", "GSK")],
        )
    )
    for partition, values in SORT_VALUES[kind].items():
        for n, value in enumerate(values):
            client.put_item(
                TableName="Shop",
                Item={
                    "PK": wire(partition),
                    "SK": wire(value),
                    "GPK": wire(f"g{partition}"),
                    "GSK": wire(value),
                    "n": wire(n),
                },
            )
    return client


def _expected(kind: str, descending: bool, pk: str = "PK") -> list[tuple[str, Any]]:
    """Every item of partitions a, b, c by sort key, ties by partition key,
    all backwards for DESC."""
    items = [
        (f"g{p}" if pk == "GPK" else p, v)
        for p, values in SORT_VALUES[kind].items()
        for v in values
    ]
    ordered = sorted(items, key=lambda pair: (_native(wire(pair[1])), pair[0]))
    return ordered[::-1] if descending else ordered


def _pages(client: Client, statement: str, **extra: Any) -> list[list[dict]]:
    pages = []
    token = None
    while True:
        kwargs = dict(extra, **({"NextToken": token} if token else {}))
        answer = client.execute_statement(Statement=statement, **kwargs)
        pages.append(answer["Items"])
        token = answer.get("NextToken")
        if token is None:
            return pages


@pytest.mark.parametrize("kind", ["S", "N", "B"])
@pytest.mark.parametrize("direction", ["ASC", "DESC"])
def test_pages_of_two_over_three_partitions_and_an_empty_one(kind, direction):
    client = _shop(kind)
    select = "SELECT PK, SK FROM Shop WHERE PK IN ['c', 'a', 'empty', 'b']"
    statement = select + " ORDER BY SK " + direction
    pages = _pages(client, statement, Limit=2)
    assert all(len(page) <= 2 for page in pages)
    listed = [(item["PK"]["S"], _native(item["SK"])) for page in pages for item in page]
    assert listed == [
        (p, _native(wire(v))) for p, v in _expected(kind, direction == "DESC")
    ]
    # Without Limit: one page, the same order.
    (whole,) = _pages(client, statement)
    assert [(i["PK"]["S"], _native(i["SK"])) for i in whole] == listed


@pytest.mark.parametrize("direction", ["ASC", "DESC"])
def test_an_index_is_merged_on_its_own_keys_and_projects_as_asked(direction):
    client = _shop("N")
    select = "SELECT n FROM \"Shop\".\"ByGroup\" WHERE GPK IN ['ga', 'gb', 'gc']"
    statement = select + " ORDER BY GSK " + direction
    pages = _pages(client, statement, Limit=2)
    listed = [item for page in pages for item in page]
    expected = _expected("N", direction == "DESC", pk="GPK")
    # Only n was asked for: the keys read to merge and resume are not shown.
    assert listed == [{"n": wire(SORT_VALUES["N"][p[1]].index(v))} for p, v in expected]


def test_order_by_the_partition_key_then_the_sort_key_descending():
    client = _shop("N")
    answer = client.execute_statement(
        Statement="SELECT PK, SK FROM Shop WHERE PK = 'c' OR PK = 'a' OR PK = 'b' "
        "ORDER BY PK DESC, SK DESC"
    )
    assert [(i["PK"]["S"], i["SK"]["N"]) for i in answer["Items"]] == [
        ("c", "-3"),
        ("b", "10"),
        ("b", "4"),
        ("b", "2"),
        ("a", "7"),
        ("a", "4"),
        ("a", "1"),
    ]


def test_a_filter_and_a_sort_key_condition_apply_in_every_partition():
    client = _shop("N")
    statement = (
        "SELECT PK, SK FROM Shop WHERE PK IN ['a', 'b', 'c'] AND SK > 1 AND n >= 1 "
        "ORDER BY SK"
    )
    # Limit 1: a partition whose Query's page the filter empties is read on.
    pages = _pages(client, statement, Limit=1)
    assert [(i["PK"]["S"], i["SK"]["N"]) for page in pages for i in page] == [
        ("a", "4"),
        ("b", "4"),
        ("a", "7"),
        ("b", "10"),
    ]


def test_the_capacity_is_the_sum_of_the_partitions_queries():
    client = _shop("S")
    # Large items, so that each partition's read is several units.
    for n in range(3):
        client.put_item(
            TableName="Shop",
            Item={"PK": wire("b"), "SK": wire(f"P#{n}"), "blob": wire("x" * 9000)},
        )
    statement = "SELECT * FROM Shop WHERE PK IN ['a', 'b', 'empty'] ORDER BY SK"
    merged = client.execute_statement(
        Statement=statement, ReturnConsumedCapacity="INDEXES"
    )["ConsumedCapacity"]
    queries = [
        client.query(
            TableName="Shop",
            KeyConditionExpression="PK = :p",
            ExpressionAttributeValues={":p": wire(partition)},
            ReturnConsumedCapacity="INDEXES",
        )["ConsumedCapacity"]
        for partition in ("a", "b", "empty")
    ]
    total = sum(q["CapacityUnits"] for q in queries)
    assert total > 3 * 0.5  # b's items count: not one unit per Query
    assert merged == {
        "TableName": "Shop",
        "CapacityUnits": total,
        "Table": {"CapacityUnits": total},
    }


def _error(client: Client, **kwargs: Any) -> tuple[str, str]:
    with pytest.raises(ClientError) as raised:
        client.execute_statement(**kwargs)
    error = raised.value.response["Error"]
    return error["Code"], error["Message"]


def test_a_next_token_resumes_only_its_own_statement():
    client = _shop("S")
    statement = "SELECT * FROM Shop WHERE PK IN ['a', 'b'] ORDER BY SK"
    first = client.execute_statement(Statement=statement, Limit=2)
    for other in (
        statement + " DESC",
        "SELECT * FROM Shop WHERE PK IN ['a', 'c'] ORDER BY SK",
        "SELECT * FROM Shop WHERE PK = 'a'",
    ):
        assert _error(
            client, Statement=other, Limit=2, NextToken=first["NextToken"]
        ) == ("ValidationException", "NextToken does not match request")
    # Parameters are part of the statement a token resumes.
    with_parameters = "SELECT * FROM Shop WHERE PK IN [?, ?] ORDER BY SK"
    page = client.execute_statement(
        Statement=with_parameters, Parameters=[wire("a"), wire("b")], Limit=2
    )
    assert _error(
        client,
        Statement=with_parameters,
        Parameters=[wire("a"), wire("c")],
        NextToken=page["NextToken"],
    ) == ("ValidationException", "NextToken does not match request")
    rest = client.execute_statement(
        Statement=with_parameters,
        Parameters=[wire("a"), wire("b")],
        NextToken=page["NextToken"],
    )
    assert [i["SK"]["S"] for i in page["Items"] + rest["Items"]] == [
        "O#1",
        "O#2",
        "O#4",
        "O#4",
        "O#7",
        "O#9",
    ]
    assert _error(client, Statement=statement, NextToken="bm90IGEgdG9rZW4=") == (
        "ValidationException",
        "Invalid NextToken",
    )


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        (
            "SELECT * FROM Shop WHERE PK IN ['a', 'b'] ORDER BY n",
            "Attribute n in ORDER BY clause must be part of the primary key",
        ),
        (
            "SELECT * FROM Shop WHERE (PK = 'a' AND n = 1) OR PK = 'b' ORDER BY SK",
            "ORDER BY over several partitions needs the partition key's values in "
            "a condition of their own (PK IN [...], or PK = ... OR PK = ...), "
            "joined to the rest of the WHERE clause with AND",
        ),
        (
            "SELECT * FROM \"Shop\".\"ByGroup\" WHERE PK IN ['a', 'b'] ORDER BY GSK",
            "Must have at least one non-optional hash key condition in WHERE "
            "clause when using ORDER BY clause.",
        ),
    ],
)
def test_refusals_over_several_partitions(statement, message):
    assert _error(_shop("N"), Statement=statement) == ("ValidationException", message)


def test_at_most_fifty_partitions_are_merged():
    client = _shop("S")
    fifty = ", ".join(f"'p{n}'" for n in range(49)) + ", 'a'"
    select = "SELECT SK FROM Shop WHERE PK IN [%s] ORDER BY SK"
    answer = client.execute_statement(Statement=select % fifty)
    assert [i["SK"]["S"] for i in answer["Items"]] == ["O#1", "O#4", "O#7"]
    assert _error(
        client,
        Statement=select % (fifty + ", 'b'"),
    ) == (
        "ValidationException",
        "An IN list on the partition key can hold at most 50 values; this "
        "statement names 51",
    )


def test_a_query_or_scan_token_is_bound_to_its_statement_too():
    client = _shop("S")
    for statement in ("SELECT * FROM Shop WHERE PK = 'a'", "SELECT * FROM Shop"):
        page = client.execute_statement(Statement=statement, Limit=1)
        assert _error(
            client,
            Statement=statement + " AND n = 1"
            if "WHERE" in statement
            else statement + " WHERE n = 1",
            NextToken=page["NextToken"],
        ) == ("ValidationException", "NextToken does not match request")
        # Its own statement resumes after the first item.
        rest = _pages(client, statement, NextToken=page["NextToken"])
        whole = client.execute_statement(Statement=statement)["Items"]
        assert page["Items"] + [i for p in rest for i in p] == whole


def test_without_limit_a_page_ends_past_one_megabyte():
    client = _shop("S")
    for n in range(12):
        client.put_item(
            TableName="Shop",
            Item={
                "PK": wire("abc"[n % 3]),
                "SK": wire(f"Q#{n:02}"),
                "blob": wire("x" * 100_000),
            },
        )
    pages = _pages(client, "SELECT * FROM Shop WHERE PK IN ['a', 'b', 'c'] ORDER BY SK")
    # The 7 small items, then 100 KB ones until the page passes 1 MB.
    assert [len(page) for page in pages] == [7 + 11, 1]
    listed = [i["SK"]["S"] for page in pages for i in page]
    assert listed == sorted(
        [v for values in SORT_VALUES["S"].values() for v in values]
        + [f"Q#{n:02}" for n in range(12)]
    )
