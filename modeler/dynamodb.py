"""The one module that talks boto3 to a real DynamoDB endpoint: DynamoDB
Local, AWS (credentials from boto3's standard chain, never from settings),
or moto's server in the tests.

It creates the design's table under a name of its own, loads the sample
items with batch writes (retrying unprocessed items), replays every read
pattern of a simulation, and reports where the endpoint and the simulator
disagree. It never writes to a table it did not create unless told to.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from modeler import design as d
from modeler.engine.types import item_from_wire, item_to_wire
from modeler.simulation import PatternRun, Simulation
from modeler.simulation.requests import create_table_request

BATCH_SIZE = 25  # BatchWriteItem's limit
MAX_ATTEMPTS = 8
CREATED_BY_TAG = "created-by"
CREATED_BY = "single-table-workbench"


class EndpointError(Exception):
    """The endpoint refused or the table cannot be used safely."""


@dataclass
class Comparison:
    """One read pattern on the endpoint next to the simulator."""

    pattern: str
    keys_simulated: list[tuple] = field(default_factory=list)
    keys_endpoint: list[tuple] = field(default_factory=list)
    count: tuple[int, int] = (0, 0)  # simulated, endpoint
    scanned_count: tuple[int, int] = (0, 0)
    differences: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.differences


def make_client(*, endpoint_url: str = "", region: str = "") -> Any:
    """A boto3 DynamoDB client; credentials come from boto3's chain."""
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint_url or None,
        region_name=region or "us-east-1",
        config=Config(retries={"max_attempts": 5, "mode": "standard"}),
    )


class Endpoint:
    """A design's table on a real endpoint."""

    def __init__(
        self,
        design: d.Design,
        client: Any,
        *,
        table_name: str = "",
        use_existing: bool = False,
    ) -> None:
        self.design = design
        self.client = client
        self.table_name = table_name or f"{design.table.name}-workbench"
        self.use_existing = use_existing
        self.created = False

    def create_table(self) -> None:
        """Create the table, refusing to reuse one this module did not
        create unless `use_existing` was given."""
        try:
            self.client.describe_table(TableName=self.table_name)
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ResourceNotFoundException":
                raise EndpointError(_message(exc)) from None
        else:
            if not self.use_existing:
                raise EndpointError(
                    f"the table {self.table_name} already exists; the workbench "
                    "only writes to tables it creates. Choose another table name, "
                    "or pass use_existing to load into it anyway."
                )
            return
        request = create_table_request(self.design, table_name=self.table_name)
        request["Tags"] = [{"Key": CREATED_BY_TAG, "Value": CREATED_BY}]
        try:
            self.client.create_table(**request)
            self.client.get_waiter("table_exists").wait(TableName=self.table_name)
        except ClientError as exc:
            raise EndpointError(_message(exc)) from None
        self.created = True

    def load(self, items: Iterable[Mapping[str, Any]]) -> int:
        """Write the items with BatchWriteItem, retrying the unprocessed
        ones with exponential back-off. Returns the number written."""
        written = 0
        batch: list[dict[str, Any]] = []
        for item in items:
            batch.append({"PutRequest": {"Item": item_to_wire(dict(item))}})
            if len(batch) == BATCH_SIZE:
                written += self._write_batch(batch)
                batch = []
        if batch:
            written += self._write_batch(batch)
        return written

    def _write_batch(self, requests: list[dict[str, Any]]) -> int:
        pending = {self.table_name: requests}
        for attempt in range(MAX_ATTEMPTS):
            try:
                response = self.client.batch_write_item(RequestItems=pending)
            except ClientError as exc:
                raise EndpointError(_message(exc)) from None
            pending = response.get("UnprocessedItems") or {}
            if not pending:
                return len(requests)
            time.sleep(min(0.05 * 2**attempt, 2.0))
        left = len(pending.get(self.table_name, []))
        raise EndpointError(
            f"{left} items were still unprocessed after "
            f"{MAX_ATTEMPTS} attempts (throttled?)"
        )

    def replay(self, run: PatternRun, key_names: tuple[str, ...]) -> Comparison:
        """Send the pattern's read requests to the endpoint, page by page,
        and compare with what the simulator returned."""
        comparison = Comparison(run.pattern.name)
        comparison.keys_simulated = [
            tuple(item.get(k) for k in key_names) for item in run.items
        ]
        if not run.calls or run.error:
            comparison.differences.append(
                f"not replayed: the simulation did not run ({run.error})"
            )
            return comparison
        call = run.calls[0]
        request = {**call.request, "TableName": self.table_name}
        method = {"GetItem": "get_item", "Query": "query", "Scan": "scan"}.get(
            call.operation
        )
        if method is None:
            comparison.differences.append(f"{call.operation} is not replayed")
            return comparison
        count = scanned = pages = 0
        while True:
            try:
                response = getattr(self.client, method)(**request)
            except ClientError as exc:
                comparison.differences.append(f"the endpoint refused: {_message(exc)}")
                return comparison
            pages += 1
            page = (
                ([response["Item"]] if "Item" in response else [])
                if (method == "get_item")
                else response.get("Items", [])
            )
            for wire in page:
                item = item_from_wire(wire)
                comparison.keys_endpoint.append(tuple(item.get(k) for k in key_names))
            count += len(page) if method == "get_item" else response.get("Count", 0)
            scanned += 1 if method == "get_item" else response.get("ScannedCount", 0)
            last = response.get("LastEvaluatedKey")
            if not last or run.pattern.limit is not None or pages >= run.pages:
                break
            request = {**request, "ExclusiveStartKey": last}
        comparison.count = (run.count, count)
        comparison.scanned_count = (run.scanned_count, scanned)
        if comparison.keys_simulated != comparison.keys_endpoint:
            comparison.differences.append(
                f"items differ: the simulator returned {len(comparison.keys_simulated)}"
                f", the endpoint {len(comparison.keys_endpoint)}"
                + (
                    ""
                    if set(comparison.keys_simulated) != set(comparison.keys_endpoint)
                    else " (same items, another order)"
                )
            )
        if run.count != count:
            comparison.differences.append(f"Count {run.count} here, {count} there")
        if run.scanned_count != scanned:
            comparison.differences.append(
                f"ScannedCount {run.scanned_count} here, {scanned} there"
            )
        return comparison

    def delete_table(self) -> None:
        """Delete the table, only if this run created it."""
        if self.created:
            self.client.delete_table(TableName=self.table_name)
            self.created = False


def compare_with_endpoint(
    simulation: Simulation, endpoint: Endpoint, *, keep: bool = False
) -> list[Comparison]:
    """Create the table on the endpoint, load the simulation's items, replay
    every read pattern and compare; the table is deleted afterwards unless
    `keep`."""
    endpoint.create_table()
    try:
        endpoint.load(simulation.items)
        comparisons = []
        for run in simulation.run_all():
            if run.pattern.operation in ("GetItem", "Query", "Scan"):
                comparisons.append(endpoint.replay(run, simulation.key_names))
        return comparisons
    finally:
        if not keep:
            endpoint.delete_table()


def _message(exc: ClientError) -> str:
    error = exc.response.get("Error", {})
    return f"{error.get('Code', 'Error')}: {error.get('Message', str(exc))}"
