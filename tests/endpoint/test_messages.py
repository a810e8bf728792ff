"""Error messages worded as DynamoDB words them (issue 33's list), seen
through boto3."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from tests.endpoint.conftest import create_shop

KEY = [{"AttributeName": "id", "KeyType": "HASH"}]
DEFINITIONS = [{"AttributeName": "id", "AttributeType": "S"}]


def _message(call, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ClientError) as raised:
        call(**kwargs)
    assert raised.value.response["Error"]["Code"] == "ValidationException"
    return raised.value.response["Error"]["Message"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "ab",
            "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3",
        ),
        (
            "a b c",
            "1 validation error detected: Value 'a b c' at 'tableName' failed to "
            "satisfy constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+",
        ),
        (
            "a!",
            "2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy "
            "constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+; Value 'a!' at 'tableName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 3",
        ),
    ],
)
def test_a_table_name_message_names_the_constraints_it_fails(ddb, name, message):
    assert _message(ddb.describe_table, TableName=name) == message


def test_the_key_type_message_names_the_element(ddb):
    message = _message(
        ddb.create_table,
        TableName="Shop",
        AttributeDefinitions=DEFINITIONS,
        KeySchema=[{"AttributeName": "id", "KeyType": "BOTH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    assert message == (
        "1 validation error detected: Value 'BOTH' at 'keySchema.1.member.keyType' "
        "failed to satisfy constraint: Member must satisfy enum value set: "
        "[HASH, RANGE]"
    )


def test_the_select_enum_in_dynamodbs_order(ddb):
    create_shop(ddb)
    message = _message(ddb.scan, TableName="Shop", Select="SOME")
    assert message == (
        "1 validation error detected: Value 'SOME' at 'select' failed to satisfy "
        "constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, "
        "COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"
    )
