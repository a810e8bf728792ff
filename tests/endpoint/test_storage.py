"""--data-dir keeps the streams: a restart gives back each stream's ARN,
shard, sequence numbers and records, from the snapshot and the journal."""

from __future__ import annotations

from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.endpoint.storage import DataDir
from modeler.engine.engine import Engine
from tests.endpoint.conftest import boto3_client, create_shop


def _serve(tmp_path, clock):  # type: ignore[no-untyped-def]
    storage = DataDir(tmp_path, sync=False)
    engine = Engine(clock=clock.monotonic, wall_clock=clock.wall)
    storage.restore(engine)
    storage.checkpoint(engine)
    server = start(Service(engine, on_write=storage.record), ("127.0.0.1", 0))
    return server, storage


def _stop(server, storage) -> None:  # type: ignore[no-untyped-def]
    server.shutdown()
    server.server_close()
    storage.close()


def _records(url: str) -> tuple[str, list[dict]]:
    streams = boto3_client(url, "dynamodbstreams")
    (listed,) = streams.list_streams(TableName="Shop")["Streams"]
    arn = listed["StreamArn"]
    (shard,) = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    iterator = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
    )["ShardIterator"]
    records = streams.get_records(ShardIterator=iterator)["Records"]
    return arn, [
        {
            "name": r["eventName"],
            "sequence": r["dynamodb"]["SequenceNumber"],
            "keys": r["dynamodb"]["Keys"],
            "image": r["dynamodb"].get("NewImage"),
        }
        for r in records
    ]


def test_stream_records_survive_a_restart(tmp_path, clock):
    server, storage = _serve(tmp_path, clock)
    ddb = boto3_client(server.url)
    create_shop(
        ddb,
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
    )
    item = {"PK": {"S": "C#1"}, "SK": {"S": "O#1"}, "data": {"B": b"\x00\x01"}}
    ddb.put_item(TableName="Shop", Item=item)
    # Folded into the snapshot, as a long-running server does on stop.
    storage.checkpoint(server.service.engine)
    ddb.delete_item(TableName="Shop", Key={"PK": item["PK"], "SK": item["SK"]})
    before = _records(server.url)
    _stop(server, storage)

    again, storage = _serve(tmp_path, clock)
    after = _records(again.url)
    assert after == before
    assert [r["name"] for r in after[1]] == ["INSERT", "REMOVE"]
    assert after[1][0]["image"] == item
    # New writes number on from the kept ones.
    boto3_client(again.url).put_item(TableName="Shop", Item=item)
    _, latest = _records(again.url)
    assert int(latest[-1]["sequence"]) > int(before[1][-1]["sequence"])
    _stop(again, storage)
