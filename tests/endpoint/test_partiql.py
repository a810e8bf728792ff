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


def test_a_transaction_writes_all_or_nothing(shop):
    shop.execute_transaction(
        TransactStatements=[
            {"Statement": "INSERT INTO Shop VALUE {'PK': 'C#5', 'SK': 'A'}"},
            {"Statement": "UPDATE Shop SET total = 0 WHERE PK = 'C#1' AND SK = 'O#3'"},
        ]
    )
    assert "Item" in shop.get_item(TableName="Shop", Key=_order("C#5", "A"))
    with pytest.raises(ClientError) as raised:
        shop.execute_transaction(
            TransactStatements=[
                {"Statement": "DELETE FROM Shop WHERE PK = 'C#1' AND SK = 'O#4'"},
                {"Statement": "INSERT INTO Shop VALUE {'PK': 'C#5', 'SK': 'A'}"},
            ]
        )
    assert raised.value.response["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "DuplicateItem", "Message": "Duplicate primary key exists in table"},
    ]
    # Nothing of the cancelled transaction was written.
    assert "Item" in shop.get_item(TableName="Shop", Key=_order("C#1", "O#4"))


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
    shop.execute_transaction(
        TransactStatements=[
            {"Statement": "EXISTS(SELECT * FROM Shop WHERE PK = 'C#2' AND SK = 'O#9')"},
            {"Statement": "INSERT INTO Shop VALUE {'PK': 'C#2', 'SK': 'O#10'}"},
        ]
    )
    assert "Item" in shop.get_item(TableName="Shop", Key=_order("C#2", "O#10"))
    with pytest.raises(ClientError) as raised:
        shop.execute_transaction(
            TransactStatements=[
                {
                    "Statement": "EXISTS(SELECT * FROM Shop WHERE PK = 'C#2' "
                    "AND SK = 'O#9' AND total > 100)"
                },
                {"Statement": "INSERT INTO Shop VALUE {'PK': 'C#2', 'SK': 'O#11'}"},
            ]
        )
    assert [r["Code"] for r in raised.value.response["CancellationReasons"]] == [
        "ConditionalCheckFailed",
        "None",
    ]
    assert "Item" not in shop.get_item(TableName="Shop", Key=_order("C#2", "O#11"))


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
