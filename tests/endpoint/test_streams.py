"""DynamoDB Streams through boto3's dynamodbstreams client on the same
port: a record per change with the view type's images, iterators of every
type, closed shards, 24 hours' retention."""

from __future__ import annotations

import pytest

from tests.endpoint.conftest import create_shop


def _shard(streams, arn):  # type: ignore[no-untyped-def]
    return streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]


def _records(streams, arn, kind="TRIM_HORIZON", **extra):  # type: ignore[no-untyped-def]
    iterator = streams.get_shard_iterator(
        StreamArn=arn,
        ShardId=_shard(streams, arn)["ShardId"],
        ShardIteratorType=kind,
        **extra,
    )["ShardIterator"]
    return streams.get_records(ShardIterator=iterator)


def test_records_of_every_write_with_both_images(ddb, streams):
    create_shop(
        ddb,
        StreamSpecification={
            "StreamEnabled": True,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        },
    )
    table = ddb.describe_table(TableName="Shop")["Table"]
    arn = table["LatestStreamArn"]
    assert table["StreamSpecification"]["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    key = {"PK": {"S": "C#1"}, "SK": {"S": "A"}}
    ddb.put_item(TableName="Shop", Item={**key, "n": {"N": "1"}})
    ddb.put_item(TableName="Shop", Item={**key, "n": {"N": "1"}})  # no change
    ddb.update_item(
        TableName="Shop",
        Key=key,
        UpdateExpression="SET n = :two",
        ExpressionAttributeValues={":two": {"N": "2"}},
    )
    ddb.delete_item(TableName="Shop", Key=key)
    records = _records(streams, arn)["Records"]
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY", "REMOVE"]
    modify = records[1]["dynamodb"]
    assert modify["Keys"] == key
    assert modify["OldImage"]["n"] == {"N": "1"}
    assert modify["NewImage"]["n"] == {"N": "2"}
    assert "NewImage" not in records[2]["dynamodb"]
    numbers = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert numbers == sorted(numbers)
    after = _records(
        streams,
        arn,
        "AFTER_SEQUENCE_NUMBER",
        SequenceNumber=records[0]["dynamodb"]["SequenceNumber"],
    )["Records"]
    assert [r["eventName"] for r in after] == ["MODIFY", "REMOVE"]
    assert _records(streams, arn, "LATEST")["Records"] == []
    listed = streams.list_streams(TableName="Shop")["Streams"]
    assert listed == [
        {
            "StreamArn": arn,
            "TableName": "Shop",
            "StreamLabel": table["LatestStreamLabel"],
        }
    ]


def test_keys_only_and_a_failed_transaction_writes_no_record(ddb, streams):
    create_shop(
        ddb, StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    )
    arn = ddb.describe_table(TableName="Shop")["Table"]["LatestStreamArn"]
    ddb.put_item(
        TableName="Shop", Item={"PK": {"S": "x"}, "SK": {"S": "1"}, "a": {"S": "b"}}
    )
    with pytest.raises(ddb.exceptions.TransactionCanceledException):
        ddb.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": "Shop",
                        "Item": {"PK": {"S": "y"}, "SK": {"S": "1"}},
                    }
                },
                {
                    "ConditionCheck": {
                        "TableName": "Shop",
                        "Key": {"PK": {"S": "x"}, "SK": {"S": "1"}},
                        "ConditionExpression": "attribute_not_exists(PK)",
                    }
                },
            ]
        )
    records = _records(streams, arn)["Records"]
    assert len(records) == 1
    assert set(records[0]["dynamodb"]) >= {"Keys", "SequenceNumber", "SizeBytes"}
    assert "NewImage" not in records[0]["dynamodb"]


def test_disabling_closes_the_shard_and_enabling_starts_a_new_stream(
    ddb, streams, clock
):
    create_shop(
        ddb, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    )
    first = ddb.describe_table(TableName="Shop")["Table"]["LatestStreamArn"]
    ddb.put_item(TableName="Shop", Item={"PK": {"S": "x"}, "SK": {"S": "1"}})
    with pytest.raises(
        ddb.exceptions.ClientError, match="already has an enabled stream"
    ):
        ddb.update_table(
            TableName="Shop",
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
        )
    ddb.update_table(TableName="Shop", StreamSpecification={"StreamEnabled": False})
    description = streams.describe_stream(StreamArn=first)["StreamDescription"]
    assert description["StreamStatus"] == "DISABLED"
    assert "EndingSequenceNumber" in description["Shards"][0]["SequenceNumberRange"]
    closed = _records(streams, first)
    assert len(closed["Records"]) == 1
    assert "NextShardIterator" not in closed
    clock.now += 1
    ddb.update_table(
        TableName="Shop",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "OLD_IMAGE"},
    )
    second = ddb.describe_table(TableName="Shop")["Table"]["LatestStreamArn"]
    assert second != first
    assert len(streams.list_streams()["Streams"]) == 2


def test_records_older_than_a_day_are_trimmed(ddb, streams, clock):
    create_shop(
        ddb, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    )
    arn = ddb.describe_table(TableName="Shop")["Table"]["LatestStreamArn"]
    ddb.put_item(TableName="Shop", Item={"PK": {"S": "old"}, "SK": {"S": "1"}})
    clock.now += 23 * 3600
    ddb.put_item(TableName="Shop", Item={"PK": {"S": "new"}, "SK": {"S": "1"}})
    assert len(_records(streams, arn)["Records"]) == 2
    clock.now += 2 * 3600
    records = _records(streams, arn)["Records"]
    assert [r["dynamodb"]["Keys"]["PK"]["S"] for r in records] == ["new"]


def test_ttl_deletions_are_service_deletions(ddb, streams, server, clock):
    create_shop(
        ddb, StreamSpecification={"StreamEnabled": True, "StreamViewType": "OLD_IMAGE"}
    )
    ddb.update_time_to_live(
        TableName="Shop",
        TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"},
    )
    arn = ddb.describe_table(TableName="Shop")["Table"]["LatestStreamArn"]
    ddb.put_item(
        TableName="Shop",
        Item={"PK": {"S": "x"}, "SK": {"S": "1"}, "ttl": {"N": str(int(clock.now))}},
    )
    assert server.service.sweep() == 1
    remove = _records(streams, arn)["Records"][-1]
    assert remove["eventName"] == "REMOVE"
    assert remove["userIdentity"] == {
        "Type": "Service",
        "PrincipalId": "dynamodb.amazonaws.com",
    }


def test_unknown_stream_and_expired_iterator(ddb, streams, clock):
    create_shop(
        ddb, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    )
    arn = ddb.describe_table(TableName="Shop")["Table"]["LatestStreamArn"]
    with pytest.raises(streams.exceptions.ResourceNotFoundException):
        streams.describe_stream(StreamArn=arn + "x")
    iterator = streams.get_shard_iterator(
        StreamArn=arn,
        ShardId=_shard(streams, arn)["ShardId"],
        ShardIteratorType="LATEST",
    )["ShardIterator"]
    clock.now += 16 * 60
    with pytest.raises(streams.exceptions.ExpiredIteratorException):
        streams.get_records(ShardIterator=iterator)
