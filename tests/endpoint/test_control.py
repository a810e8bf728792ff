"""The control plane through boto3: UpdateTable's index builds, billing,
capacity and streams; Time to Live and its sweep; tags; limits and
endpoints."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from tests.endpoint.conftest import create_shop

GSI = {
    "Create": {
        "IndexName": "ByStatus",
        "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"},
    }
}
STATUS = [{"AttributeName": "status", "AttributeType": "S"}]


def _index(ddb, name="ByStatus"):  # type: ignore[no-untyped-def]
    table = ddb.describe_table(TableName="Shop")["Table"]
    found = [
        i for i in table.get("GlobalSecondaryIndexes", []) if i["IndexName"] == name
    ]
    return table["TableStatus"], (found[0] if found else None)


def test_a_created_index_is_built_then_active_and_holds_the_items(ddb, clock):
    create_shop(ddb)
    for n, status in enumerate(["OPEN", "OPEN", "SHIPPED"]):
        ddb.put_item(
            TableName="Shop",
            Item={"PK": {"S": f"O#{n}"}, "SK": {"S": "A"}, "status": {"S": status}},
        )
    ddb.update_table(
        TableName="Shop", AttributeDefinitions=STATUS, GlobalSecondaryIndexUpdates=[GSI]
    )
    status, index = _index(ddb)
    assert (status, index["IndexStatus"], index["Backfilling"]) == (
        "UPDATING",
        "CREATING",
        False,
    )
    query = {
        "TableName": "Shop",
        "IndexName": "ByStatus",
        "KeyConditionExpression": "#s = :s",
        "ExpressionAttributeNames": {"#s": "status"},
        "ExpressionAttributeValues": {":s": {"S": "OPEN"}},
    }
    with pytest.raises(ClientError, match="Cannot read from backfilling global"):
        ddb.query(**query)
    with pytest.raises(ddb.exceptions.LimitExceededException):
        ddb.update_table(
            TableName="Shop",
            GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "ByStatus"}}],
        )
    clock.now += 0.6
    assert _index(ddb)[1]["Backfilling"] is True
    clock.now += 0.5
    status, index = _index(ddb)
    assert (status, index["IndexStatus"], index["ItemCount"]) == ("ACTIVE", "ACTIVE", 3)
    assert "Backfilling" not in index
    assert ddb.query(**query)["Count"] == 2
    ddb.put_item(
        TableName="Shop",
        Item={"PK": {"S": "O#9"}, "SK": {"S": "A"}, "status": {"S": "OPEN"}},
    )
    assert ddb.query(**query)["Count"] == 3
    deleted = ddb.update_table(
        TableName="Shop",
        GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "ByStatus"}}],
    )["TableDescription"]
    assert deleted["GlobalSecondaryIndexes"][0]["IndexStatus"] == "DELETING"
    assert _index(ddb) == ("ACTIVE", None)
    with pytest.raises(ClientError, match="does not have the specified index"):
        ddb.query(**query)


def test_one_index_change_per_update(ddb):
    create_shop(ddb)
    other = {"Create": {**GSI["Create"], "IndexName": "Other"}}
    with pytest.raises(ddb.exceptions.LimitExceededException):
        ddb.update_table(
            TableName="Shop",
            AttributeDefinitions=STATUS,
            GlobalSecondaryIndexUpdates=[GSI, other],
        )
    assert _index(ddb) == ("ACTIVE", None)


def test_billing_mode_and_capacity_changes(ddb):
    create_shop(ddb)
    with pytest.raises(ClientError, match="ProvisionedThroughput must be specified"):
        ddb.update_table(TableName="Shop", BillingMode="PROVISIONED")
    table = ddb.update_table(
        TableName="Shop",
        BillingMode="PROVISIONED",
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
    )["TableDescription"]
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
    with pytest.raises(ClientError, match="The provisioned throughput for the table"):
        ddb.update_table(
            TableName="Shop",
            ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        )
    table = ddb.update_table(
        TableName="Shop",
        ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 5},
    )["TableDescription"]
    assert table["ProvisionedThroughput"]["NumberOfDecreasesToday"] == 1
    table = ddb.update_table(TableName="Shop", BillingMode="PAY_PER_REQUEST")[
        "TableDescription"
    ]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    with pytest.raises(ClientError, match="At least one of ProvisionedThroughput"):
        ddb.update_table(TableName="Shop")


def test_deletion_protection(ddb):
    create_shop(ddb, DeletionProtectionEnabled=True)
    with pytest.raises(ClientError, match="protected against deletion"):
        ddb.delete_table(TableName="Shop")
    ddb.update_table(TableName="Shop", DeletionProtectionEnabled=False)
    ddb.delete_table(TableName="Shop")
    assert ddb.list_tables()["TableNames"] == []


def test_time_to_live_sweeps_expired_items_never_early(ddb, server, clock):
    create_shop(ddb)
    assert ddb.describe_time_to_live(TableName="Shop")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "DISABLED"
    }
    spec = {"Enabled": True, "AttributeName": "expires"}
    assert (
        ddb.update_time_to_live(TableName="Shop", TimeToLiveSpecification=spec)[
            "TimeToLiveSpecification"
        ]
        == spec
    )
    with pytest.raises(ClientError, match="TimeToLive is already enabled"):
        ddb.update_time_to_live(TableName="Shop", TimeToLiveSpecification=spec)
    assert ddb.describe_time_to_live(TableName="Shop")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "expires",
    }
    now = int(clock.now)
    for name, expires in [("soon", {"N": str(now + 10)}), ("text", {"S": "0"})]:
        ddb.put_item(
            TableName="Shop",
            Item={"PK": {"S": name}, "SK": {"S": "A"}, "expires": expires},
        )
    ddb.put_item(TableName="Shop", Item={"PK": {"S": "none"}, "SK": {"S": "A"}})
    clock.now += 9
    assert server.service.sweep() == 0
    clock.now += 1
    assert server.service.sweep() == 1
    left = {i["PK"]["S"] for i in ddb.scan(TableName="Shop")["Items"]}
    assert left == {"text", "none"}


def test_tags(ddb):
    create_shop(ddb, Tags=[{"Key": "team", "Value": "orders"}])
    arn = ddb.describe_table(TableName="Shop")["Table"]["TableArn"]
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "dev"}])
    tags = ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
    assert sorted((t["Key"], t["Value"]) for t in tags) == [
        ("env", "dev"),
        ("team", "orders"),
    ]
    ddb.untag_resource(ResourceArn=arn, TagKeys=["team"])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == [
        {"Key": "env", "Value": "dev"}
    ]
    with pytest.raises(ddb.exceptions.ResourceNotFoundException):
        ddb.list_tags_of_resource(ResourceArn=arn.replace("Shop", "Gone"))


def test_limits_and_endpoints(ddb):
    assert ddb.describe_limits()["TableMaxReadCapacityUnits"] == 40000
    endpoints = ddb.describe_endpoints()["Endpoints"]
    assert endpoints[0]["CachePeriodInMinutes"] == 1440
