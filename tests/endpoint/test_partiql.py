"""PartiQL through the endpoint, with boto3: ExecuteStatement,
BatchExecuteStatement and ExecuteTransaction run as the engine's own
operations (issue 33)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from tests.endpoint.conftest import create_shop


def _order(customer: str, order: str, **extra) -> dict:  # type: ignore[no-untyped-def]
    return {"PK": {"S": customer}, "SK": {"S": order}, **extra}


@pytest.fixture
def shop(ddb):  # type: ignore[no-untyped-def]
    create_shop(ddb)
    for n in range(5):
        ddb.put_item(
            TableName="Shop",
            Item=_order("C#1", f"O#{n}", total={"N": str(n * 10)}),
        )
    ddb.put_item(TableName="Shop", Item=_order("C#2", "O#9", total={"N": "5"}))
    return ddb


def _error(call, **kwargs) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(ClientError) as raised:
        call(**kwargs)
    error = raised.value.response["Error"]
    return error["Code"], error["Message"]


def test_insert_then_select_by_the_whole_key_with_parameters(shop):
    shop.execute_statement(
        Statement="INSERT INTO \"Shop\" VALUE {'PK': ?, 'SK': ?, 'tags': <<'a', 'b'>>, "
        "'note': {'k': [1, 'x', TRUE, NULL]}}",
        Parameters=[{"S": "C#3"}, {"S": "O#1"}],
    )
    found = shop.execute_statement(
        Statement='SELECT * FROM "Shop" WHERE PK = ? AND SK = ?',
        Parameters=[{"S": "C#3"}, {"S": "O#1"}],
    )
    assert found["Items"] == [
        {
            "PK": {"S": "C#3"},
            "SK": {"S": "O#1"},
            "tags": {"SS": ["a", "b"]},
            "note": {
                "M": {
                    "k": {"L": [{"N": "1"}, {"S": "x"}, {"BOOL": True}, {"NULL": True}]}
                }
            },
        }
    ]
    # The same statement as GetItem: the whole key, one item's capacity.
    counted = shop.execute_statement(
        Statement="SELECT SK FROM Shop WHERE PK = 'C#3' AND SK = 'O#1'",
        ReturnConsumedCapacity="TOTAL",
    )
    assert counted["Items"] == [{"SK": {"S": "O#1"}}]
    assert counted["ConsumedCapacity"] == {"TableName": "Shop", "CapacityUnits": 0.5}


def test_a_select_on_the_partition_key_is_a_query_with_a_filter(shop):
    found = shop.execute_statement(
        Statement="SELECT SK, total FROM Shop WHERE PK = 'C#1' AND total >= 20 "
        "AND begins_with(SK, 'O#')",
    )
    assert found["Items"] == [
        {"SK": {"S": f"O#{n}"}, "total": {"N": str(n * 10)}} for n in (2, 3, 4)
    ]


def test_a_select_without_the_partition_key_scans(shop):
    found = shop.execute_statement(
        Statement="SELECT SK FROM Shop WHERE total < 10 OR total IS MISSING"
    )
    assert sorted(i["SK"]["S"] for i in found["Items"]) == ["O#0", "O#9"]


def test_pages_with_limit_and_next_token(shop):
    seen = []
    token = None
    pages = 0
    while True:
        kwargs = {"NextToken": token} if token else {}
        page = shop.execute_statement(
            Statement="SELECT SK FROM Shop WHERE PK = 'C#1'", Limit=2, **kwargs
        )
        pages += 1
        seen += [i["SK"]["S"] for i in page["Items"]]
        token = page.get("NextToken")
        if token is None:
            break
    assert seen == [f"O#{n}" for n in range(5)]
    assert pages == 3


def test_update_sets_and_removes_and_needs_the_item(shop):
    shop.execute_statement(
        Statement="UPDATE Shop SET total = total + 5 SET status = 'paid' "
        "REMOVE missing WHERE PK = 'C#1' AND SK = 'O#1'"
    )
    item = shop.get_item(TableName="Shop", Key=_order("C#1", "O#1"))["Item"]
    assert item["total"] == {"N": "15"}
    assert item["status"] == {"S": "paid"}
    code, message = _error(
        shop.execute_statement,
        Statement="UPDATE Shop SET total = 1 WHERE PK = 'C#1' AND SK = 'nope'",
    )
    assert (code, message) == (
        "ConditionalCheckFailedException",
        "The conditional request failed",
    )
    assert "Item" not in shop.get_item(TableName="Shop", Key=_order("C#1", "nope"))


def test_delete_with_a_condition(shop):
    code, _ = _error(
        shop.execute_statement,
        Statement="DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#2' AND total = 99",
    )
    assert code == "ConditionalCheckFailedException"
    shop.execute_statement(
        Statement="DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#2' AND total = 20"
    )
    assert "Item" not in shop.get_item(TableName="Shop", Key=_order("C#1", "O#2"))


@pytest.mark.parametrize(
    ("statement", "parameters", "code", "message"),
    [
        (
            "INSERT INTO Shop VALUE {'PK': 'C#1', 'SK': 'O#1'}",
            None,
            "DuplicateItemException",
            "Duplicate primary key exists in table",
        ),
        (
            "SELECT * FROM Missing",
            None,
            "ResourceNotFoundException",
            "Requested resource not found",
        ),
        (
            "UPDATE Shop SET a = 1 WHERE PK = 'C#1'",
            None,
            "ValidationException",
            "Where clause does not contain a mandatory equality on all key attributes",
        ),
        (
            "SELECT * FROM Shop WHERE PK = ?",
            [{"S": "a"}, {"S": "b"}],
            "ValidationException",
            "Number of parameters in request and statement don't match.",
        ),
    ],
)
def test_what_a_statement_is_refused_for(shop, statement, parameters, code, message):
    kwargs = {"Parameters": parameters} if parameters else {}
    assert _error(shop.execute_statement, Statement=statement, **kwargs) == (
        code,
        message,
    )


def test_a_statement_that_does_not_parse(shop):
    code, message = _error(shop.execute_statement, Statement="SELEC * FROM Shop")
    assert code == "ValidationException"
    assert message.startswith("Statement wasn't well formed, can't be processed:")


def test_a_batch_answers_each_statement(shop):
    answer = shop.batch_execute_statement(
        Statements=[
            {"Statement": "SELECT * FROM Shop WHERE PK = 'C#2' AND SK = 'O#9'"},
            {"Statement": "INSERT INTO Shop VALUE {'PK': 'C#1', 'SK': 'O#1'}"},
            {"Statement": "INSERT INTO Shop VALUE {'PK': 'C#4', 'SK': 'O#1'}"},
        ]
    )
    assert answer["Responses"] == [
        {"TableName": "Shop", "Item": _order("C#2", "O#9", total={"N": "5"})},
        {
            "TableName": "Shop",
            "Error": {
                "Code": "DuplicateItem",
                "Message": "Duplicate primary key exists in table",
            },
        },
        {"TableName": "Shop"},
    ]
    assert "Item" in shop.get_item(TableName="Shop", Key=_order("C#4", "O#1"))


def _transact(shop, *statements: str) -> None:  # type: ignore[no-untyped-def]
    shop.execute_transaction(
        TransactStatements=[{"Statement": statement} for statement in statements]
    )


def _cancelled(shop, *statements: str) -> list[dict]:  # type: ignore[no-untyped-def]
    """The cancellation reasons of a transaction that must be cancelled."""
    with pytest.raises(ClientError) as raised:
        _transact(shop, *statements)
    return raised.value.response["CancellationReasons"]


def _exists(shop, customer: str, order: str) -> bool:  # type: ignore[no-untyped-def]
    return "Item" in shop.get_item(TableName="Shop", Key=_order(customer, order))


def test_a_transaction_writes_all_or_nothing(shop):
    _transact(
        shop,
        "INSERT INTO Shop VALUE {'PK': 'C#5', 'SK': 'A'}",
        "UPDATE Shop SET total = 0 WHERE PK = 'C#1' AND SK = 'O#3'",
    )
    assert _exists(shop, "C#5", "A")
    assert _cancelled(
        shop,
        "DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#4'",
        "INSERT INTO Shop VALUE {'PK': 'C#5', 'SK': 'A'}",
    ) == [
        {"Code": "None"},
        {"Code": "DuplicateItem", "Message": "Duplicate primary key exists in table"},
    ]
    # Nothing of the cancelled transaction was written.
    assert _exists(shop, "C#1", "O#4")


def test_a_read_transaction(shop):
    answer = shop.execute_transaction(
        TransactStatements=[
            {"Statement": "SELECT * FROM Shop WHERE PK = 'C#2' AND SK = 'O#9'"},
            {"Statement": "SELECT * FROM Shop WHERE PK = 'C#2' AND SK = 'none'"},
        ]
    )
    assert answer["Responses"] == [
        {"Item": _order("C#2", "O#9", total={"N": "5"})},
        {},
    ]


def test_exists_checks_an_item_in_a_transaction(shop):
    _transact(
        shop,
        "EXISTS(SELECT * FROM Shop WHERE PK = 'C#2' AND SK = 'O#9')",
        "INSERT INTO Shop VALUE {'PK': 'C#2', 'SK': 'O#10'}",
    )
    assert _exists(shop, "C#2", "O#10")
    reasons = _cancelled(
        shop,
        "EXISTS(SELECT * FROM Shop WHERE PK = 'C#2' AND SK = 'O#9' AND total > 100)",
        "INSERT INTO Shop VALUE {'PK': 'C#2', 'SK': 'O#11'}",
    )
    assert [r["Code"] for r in reasons] == ["ConditionalCheckFailed", "None"]
    assert not _exists(shop, "C#2", "O#11")


def test_nested_paths_in_the_projection_and_the_where(shop):
    shop.execute_statement(
        Statement="INSERT INTO Shop VALUE {'PK': 'C#7', 'SK': 'A', "
        "'address': {'city': 'Lyon', 'lines': ['1 rue', '2e']}}"
    )
    found = shop.execute_statement(
        Statement="SELECT address.city, address.lines[1] FROM Shop "
        "WHERE PK = 'C#7' AND address.city = 'Lyon'"
    )
    assert found["Items"] == [
        {"address": {"M": {"city": {"S": "Lyon"}, "lines": {"L": [{"S": "2e"}]}}}}
    ]


LEFTOVER = (
    "Statement wasn't well formed, can't be processed: Unexpected token after "
    "expression"
)


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("SELECT * FROM Shop WHERE PK = 'a' foo", LEFTOVER),
        ("SELECT * FROM Shop WHERE PK = 'a')", LEFTOVER),
        ("DELETE FROM Shop WHERE PK = 'a' AND SK = 'b' foo", LEFTOVER),
        ("INSERT INTO Shop t VALUE {'PK': 'a', 'SK': 'b'}", LEFTOVER),
        ("SELECT * FROM Shop t WHERE PK = 'a'", "Aliasing is not supported"),
        ("SELECT * FROM Shop AS t WHERE PK = 'a'", "Aliasing is not supported"),
        ("UPDATE Shop t SET a = 3 WHERE PK = 'a'", "Aliasing is not supported"),
        ("DELETE FROM Shop t WHERE PK = 'a'", "Aliasing is not supported"),
        (
            "SELECT * FROM Shop WHERE PK = 'a' # note",
            "Statement wasn't well formed, can't be processed: ",
        ),
    ],
)
def test_the_grammars_refusals_in_dynamodbs_words(shop, statement, message):
    assert _error(shop.execute_statement, Statement=statement) == (
        "ValidationException",
        message,
    )


def _sort_keys(answer: dict) -> list[str]:
    return [item["SK"]["S"] for item in answer["Items"]]


def test_order_by_the_sort_key_within_a_partition(shop):
    select = "SELECT SK FROM Shop WHERE PK = 'C#1'"
    assert _sort_keys(
        shop.execute_statement(Statement=select + " ORDER BY SK DESC")
    ) == [f"O#{n}" for n in (4, 3, 2, 1, 0)]
    assert _sort_keys(
        shop.execute_statement(Statement=select + " ORDER BY SK ASC")
    ) == [f"O#{n}" for n in range(5)]
    assert _sort_keys(
        shop.execute_statement(Statement=select + ' ORDER BY "PK", SK')
    ) == [f"O#{n}" for n in range(5)]
    # Pages keep the order: DESC resumes where the last page stopped.
    first = shop.execute_statement(Statement=select + " ORDER BY SK DESC", Limit=3)
    rest = shop.execute_statement(
        Statement=select + " ORDER BY SK DESC", NextToken=first["NextToken"]
    )
    assert _sort_keys(first) + _sort_keys(rest) == [f"O#{n}" for n in (4, 3, 2, 1, 0)]
    # With a filter and a condition on the sort key too.
    assert _sort_keys(
        shop.execute_statement(
            Statement="SELECT * FROM Shop WHERE PK = 'C#1' AND SK > 'O#1' "
            "AND total < 40 ORDER BY SK DESC"
        )
    ) == ["O#3", "O#2"]


def _all_pages(ddb, statement: str, **extra) -> list[list[dict]]:  # type: ignore[no-untyped-def]
    pages, token = [], None
    while True:
        answer = ddb.execute_statement(
            Statement=statement, **extra, **({"NextToken": token} if token else {})
        )
        pages.append(answer["Items"])
        token = answer.get("NextToken")
        if token is None:
            return pages


@pytest.mark.parametrize("direction", ["ASC", "DESC"])
def test_order_by_over_several_partitions_pages_the_merged_queries(shop, direction):
    # Three partitions with ties on the sort key, and one with no item.
    shop.put_item(TableName="Shop", Item=_order("C#2", "O#2", total={"N": "7"}))
    shop.put_item(TableName="Shop", Item=_order("C#3", "O#2", total={"N": "8"}))
    select = "SELECT PK, SK FROM Shop WHERE PK IN ['C#3', 'C#0', 'C#1', 'C#2']"
    statement = select + " ORDER BY SK " + direction
    pages = _all_pages(shop, statement, Limit=2, ReturnConsumedCapacity="TOTAL")
    assert all(len(page) <= 2 for page in pages)
    ascending = [
        ("C#1", "O#0"),
        ("C#1", "O#1"),
        ("C#1", "O#2"),
        ("C#2", "O#2"),
        ("C#3", "O#2"),
        ("C#1", "O#3"),
        ("C#1", "O#4"),
        ("C#2", "O#9"),
    ]
    assert [(i["PK"]["S"], i["SK"]["S"]) for page in pages for i in page] == (
        ascending if direction == "ASC" else ascending[::-1]
    )
    # A token from another statement is refused, as DynamoDB refuses it.
    first = shop.execute_statement(Statement=statement, Limit=2)
    assert _error(
        shop.execute_statement,
        Statement=statement.replace("'C#0', ", ""),
        NextToken=first["NextToken"],
    ) == ("ValidationException", "NextToken does not match request")


def test_order_by_over_several_partitions_of_an_index(ddb):
    ddb.create_table(
        TableName="Shop",
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": a, "AttributeType": "S"} for a in ("PK", "SK", "status")
        ]
        + [{"AttributeName": "total", "AttributeType": "N"}],
        KeySchema=[
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "ByStatus",
                "KeySchema": [
                    {"AttributeName": "status", "KeyType": "HASH"},
                    {"AttributeName": "total", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
    )
    for n, (status, total) in enumerate(
        [("paid", 30), ("open", 5), ("paid", 12), ("sent", 100), ("open", 40)]
    ):
        ddb.put_item(
            TableName="Shop",
            Item=_order("C#1", f"O#{n}", status={"S": status}, total={"N": str(total)}),
        )
    pages = _all_pages(
        ddb,
        "SELECT SK FROM \"Shop\".\"ByStatus\" WHERE status IN ['open', 'paid'] "
        "ORDER BY total DESC",
        Limit=2,
    )
    assert [[i["SK"]["S"] for i in page] for page in pages][:2] == [
        ["O#4", "O#0"],
        ["O#2", "O#1"],
    ]
    assert [i for page in pages[2:] for i in page] == []


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        (
            "SELECT * FROM Shop ORDER BY SK",
            "Must have WHERE clause in the statement when using ORDER BY clause.",
        ),
        (
            "SELECT * FROM Shop WHERE PK = 'C#1' ORDER BY total",
            "Attribute total in ORDER BY clause must be part of the primary key",
        ),
        (
            "SELECT * FROM Shop WHERE total > 1 ORDER BY SK",
            "Must have at least one non-optional hash key condition in WHERE "
            "clause when using ORDER BY clause.",
        ),
        (
            "SELECT * FROM Shop WHERE PK = 'C#1' OR total > 1 ORDER BY SK",
            "Must have at least one non-optional hash key condition in WHERE "
            "clause when using ORDER BY clause.",
        ),
    ],
)
def test_order_by_is_refused_as_dynamodb_refuses_it(shop, statement, message):
    assert _error(shop.execute_statement, Statement=statement) == (
        "ValidationException",
        message,
    )


@pytest.mark.parametrize(
    ("returning", "expected"),
    [
        (
            "ALL OLD *",
            _order("C#1", "O#1", total={"N": "10"}),
        ),
        (
            "ALL NEW *",
            _order("C#1", "O#1", total={"N": "11"}, status={"S": "paid"}),
        ),
        ("MODIFIED OLD *", {"total": {"N": "10"}}),
        ("MODIFIED NEW *", {"total": {"N": "11"}, "status": {"S": "paid"}}),
    ],
)
def test_update_returning_each_image(shop, returning, expected):
    answer = shop.execute_statement(
        Statement="UPDATE Shop SET total = total + 1 SET status = 'paid' "  # noqa: S608 - PartiQL under test
        f"WHERE PK = 'C#1' AND SK = 'O#1' RETURNING {returning}"
    )
    assert answer["Items"] == [expected]


def test_delete_returning_the_old_item_and_nothing_else(shop):
    answer = shop.execute_statement(
        Statement="DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#2' RETURNING ALL OLD *"
    )
    assert answer["Items"] == [_order("C#1", "O#2", total={"N": "20"})]
    # Nothing was there: no item to return.
    again = shop.execute_statement(
        Statement="DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#2' RETURNING ALL OLD *"
    )
    assert again["Items"] == []
    code, message = _error(
        shop.execute_statement,
        Statement="DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#3' "
        "RETURNING ALL NEW *",
    )
    assert code == "ValidationException"
    assert "only RETURNING ALL OLD *" in message
    assert _exists(shop, "C#1", "O#3")


def test_returning_is_refused_in_a_transaction(shop):
    code, message = _error(
        shop.execute_transaction,
        TransactStatements=[
            {
                "Statement": "UPDATE Shop SET total = 1 WHERE PK = 'C#1' AND "
                "SK = 'O#1' RETURNING ALL NEW *"
            }
        ],
    )
    assert (code, message) == (
        "ValidationException",
        "RETURNING clause is not supported in ExecuteTransaction.",
    )
    item = shop.get_item(TableName="Shop", Key=_order("C#1", "O#1"))["Item"]
    assert item["total"] == {"N": "10"}


def test_a_batch_returns_each_writes_returning_image_in_its_item(shop):
    answer = shop.batch_execute_statement(
        Statements=[
            {
                "Statement": "UPDATE Shop SET total = total + 1 "
                "WHERE PK = 'C#1' AND SK = 'O#1' RETURNING ALL NEW *"
            },
            {
                "Statement": "UPDATE Shop SET total = 7 "
                "WHERE PK = 'C#1' AND SK = 'O#3' RETURNING MODIFIED OLD *"
            },
            {
                "Statement": "DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#2' "
                "RETURNING ALL OLD *"
            },
            {"Statement": "UPDATE Shop SET total = 0 WHERE PK = 'C#1' AND SK = 'O#4'"},
            {
                "Statement": "DELETE FROM Shop WHERE PK = 'C#9' AND SK = 'O#9' "
                "RETURNING ALL OLD *"
            },
        ]
    )
    assert answer["Responses"] == [
        {"TableName": "Shop", "Item": _order("C#1", "O#1", total={"N": "11"})},
        {"TableName": "Shop", "Item": {"total": {"N": "30"}}},
        {"TableName": "Shop", "Item": _order("C#1", "O#2", total={"N": "20"})},
        {"TableName": "Shop"},  # no RETURNING: nothing returned
        {"TableName": "Shop"},  # nothing was there to delete
    ]
    assert not _exists(shop, "C#1", "O#2")
