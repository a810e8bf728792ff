"""A server on a free port per test module, and boto3 clients for it."""

from __future__ import annotations

import boto3
import pytest
from botocore.config import Config

from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.engine.engine import Engine


def boto3_client(url: str, service: str = "dynamodb"):  # type: ignore[no-untyped-def]
    # Any credentials and region are accepted; no retries, so an error is
    # seen as the server sent it.
    return boto3.client(
        service,
        endpoint_url=url,
        region_name="eu-west-3",
        aws_access_key_id="anything",
        aws_secret_access_key="anything",
        config=Config(retries={"max_attempts": 1}),
    )


class Clock:
    """The engine's clocks, moved by the test: `monotonic` (index builds) and
    `wall` (TTL expiry, stream records), in seconds."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def engine(clock: Clock) -> Engine:
    return Engine(clock=clock.monotonic, wall_clock=clock.wall)


@pytest.fixture
def server(engine):  # type: ignore[no-untyped-def]
    running = start(Service(engine), ("127.0.0.1", 0))
    yield running
    running.shutdown()
    running.server_close()


@pytest.fixture
def ddb(server):  # type: ignore[no-untyped-def]
    return boto3_client(server.url)


@pytest.fixture
def streams(server):  # type: ignore[no-untyped-def]
    return boto3_client(server.url, "dynamodbstreams")


def create_shop(ddb, name: str = "Shop", **extra) -> None:  # type: ignore[no-untyped-def]
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
        ],
        KeySchema=[
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        BillingMode="PAY_PER_REQUEST",
        **extra,
    )
