"""One moto server per test process (each pytest-xdist worker starts its
own, on a free port), a boto3 client for it, and the engine's client beside
it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from moto.server import ThreadedMotoServer

from modeler.engine.client import Client
from tests.conformance.harness import Pair


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """moto's server on 127.0.0.1 and a port the OS picks, so parallel
    workers never collide. werkzeug's request log is silenced: it would
    print a line per request."""
    werkzeug = logging.getLogger("werkzeug")
    level = werkzeug.level
    werkzeug.setLevel(logging.CRITICAL)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()
        werkzeug.setLevel(level)


@pytest.fixture(scope="session")
def moto(moto_endpoint: str) -> Any:
    """A boto3 DynamoDB client for moto's server. Dummy credentials are given
    to the constructor so that no credential lookup happens, and retries are
    off so that a moto error surfaces at once instead of after back-off."""
    return boto3.client(
        "dynamodb",
        endpoint_url=moto_endpoint,
        region_name="us-east-1",
        aws_access_key_id="conformance",
        aws_secret_access_key="conformance",
        config=Config(retries={"total_max_attempts": 1}),
    )


@pytest.fixture(scope="session")
def pair(moto: Any) -> Pair:
    """The engine and moto side by side. Session-scoped so hypothesis tests
    can use it; each example creates and deletes its own tables."""
    return Pair(engine=Client(), moto=moto)
