"""The one module that talks boto3 to a real DynamoDB endpoint: DynamoDB
Local, AWS (credentials from boto3's standard chain, never from settings),
or moto's server in the tests.

It creates the design's table under a name of its own, loads the sample
items with batch writes (retrying unprocessed items), replays every read
pattern of a simulation, and reports where the endpoint and the simulator
disagree. It never writes to a table it did not create unless told to.

For an import it reads a live table: its description (with TTL, backups
and tags) and a bounded sample of its items, by a parallel Scan whose read
cost is estimated before it starts.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    InvalidRegionError,
    NoCredentialsError,
    PartialCredentialsError,
)

from modeler.design import model as d
from modeler.engine.types import item_from_wire, item_to_wire
from modeler.simulation import PatternRun, Simulation
from modeler.simulation.requests import create_table_request
from modeler.simulation.simulate import MAX_PAGES

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


def make_client(
    *, endpoint_url: str = "", region: str = "", service: str = "dynamodb"
) -> Any:
    """A boto3 client of DynamoDB (or of `service`, such as
    application-autoscaling, at the same endpoint); credentials come from
    boto3's chain. Raises EndpointError for an endpoint URL or a region
    that boto3 refuses, or a profile it cannot find."""
    region = region or "us-east-1"
    try:
        return boto3.client(
            service,  # type: ignore[call-overload]
            endpoint_url=endpoint_url or None,
            region_name=region,
            # An endpoint that does not answer fails in seconds, not in the
            # minutes of boto3's default 60 s per attempt.
            config=Config(
                retries={"max_attempts": 5, "mode": "standard"}, connect_timeout=5
            ),
        )
    except InvalidRegionError:
        raise EndpointError(
            f"{region!r} is not an AWS region name (such as eu-west-1)"
        ) from None
    except ValueError:  # botocore's "Invalid endpoint"
        raise EndpointError(
            f"the endpoint URL {endpoint_url!r} is not a URL: give one such as "
            "http://localhost:8000 (DynamoDB Local) or leave it out for AWS"
        ) from None
    except BotoCoreError as exc:
        raise EndpointError(_reason(exc)) from None


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
        except BotoCoreError as exc:
            raise EndpointError(_reason(exc)) from None
        else:
            if not self.use_existing:
                raise EndpointError(
                    f"the table {self.table_name} already exists; the workbench "
                    "only writes to tables it creates. Choose another table name "
                    "(--table-name), or load into it anyway (--use-existing)."
                )
            return
        request = create_table_request(self.design, table_name=self.table_name)
        request["Tags"] = [{"Key": CREATED_BY_TAG, "Value": CREATED_BY}]
        try:
            self.client.create_table(**request)
            # Set before waiting: a table that never becomes active is still
            # ours to delete.
            self.created = True
            self.client.get_waiter("table_exists").wait(TableName=self.table_name)
        except ClientError as exc:
            raise EndpointError(_message(exc)) from None
        except BotoCoreError as exc:  # also WaiterError
            raise EndpointError(_reason(exc)) from None

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
            if attempt:
                time.sleep(min(0.05 * 2 ** (attempt - 1), 2.0))
            try:
                response = self.client.batch_write_item(RequestItems=pending)
            except ClientError as exc:
                raise EndpointError(_message(exc)) from None
            except BotoCoreError as exc:
                raise EndpointError(_reason(exc)) from None
            pending = response.get("UnprocessedItems") or {}
            if not pending:
                return len(requests)
        left = len(pending.get(self.table_name, []))
        raise EndpointError(
            f"{left} items were still unprocessed after "
            f"{MAX_ATTEMPTS} attempts (throttled?)"
        )

    def replay(self, run: PatternRun, key_names: tuple[str, ...]) -> Comparison:
        """Send the pattern's read requests to the endpoint, page by page,
        and compare with what the simulator returned: the item keys in order
        (a Scan's in any order), Count and ScannedCount over all pages. Each
        endpoint cuts its 1 MB pages by its own reckoning of item sizes (moto
        at 1,000,000 bytes), so every page is fetched, as the simulator does,
        and the number of pages is not compared; nor is ConsumedCapacity,
        which moto does not compute. The endpoint's refusal of a request is a
        difference; losing the endpoint raises EndpointError."""
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
            except BotoCoreError as exc:
                raise EndpointError(_reason(exc)) from None
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
            if not last or run.pattern.limit is not None or pages >= MAX_PAGES:
                break
            request = {**request, "ExclusiveStartKey": last}
        comparison.count = (run.count, count)
        comparison.scanned_count = (run.scanned_count, scanned)
        simulated, there = comparison.keys_simulated, comparison.keys_endpoint
        # A Scan reads partitions in the order of a hash of their key, which
        # each endpoint computes its own way (the simulator's is not
        # DynamoDB's): its items are compared regardless of order, and a Scan
        # with a Limit reads a different first few items on each endpoint.
        is_scan = call.operation == "Scan"
        scan_sample = is_scan and run.pattern.limit is not None
        same_items = Counter(simulated) == Counter(there)
        if not scan_sample and not (same_items if is_scan else simulated == there):
            comparison.differences.append(
                f"items differ: the simulator returned {len(simulated)}, "
                f"the endpoint {len(there)}"
                + (" (same items, another order)" if same_items else "")
            )
        if run.count != count and not scan_sample:
            comparison.differences.append(f"Count {run.count} here, {count} there")
        if run.scanned_count != scanned:
            comparison.differences.append(
                f"ScannedCount {run.scanned_count} here, {scanned} there"
            )
        return comparison

    def delete_table(self) -> None:
        """Delete the table, only if this run created it."""
        if not self.created:
            return
        try:
            self.client.delete_table(TableName=self.table_name)
        except ClientError as exc:
            raise EndpointError(
                f"the table {self.table_name} could not be deleted: {_message(exc)}"
            ) from None
        except BotoCoreError as exc:
            raise EndpointError(
                f"the table {self.table_name} could not be deleted: {_reason(exc)}"
            ) from None
        self.created = False


def compare_with_endpoint(
    simulation: Simulation, endpoint: Endpoint, *, keep: bool = False
) -> list[Comparison]:
    """Create the table on the endpoint, load the simulation's items, replay
    every read pattern and compare; the table is deleted afterwards unless
    `keep` (only if this run created it, even when it failed half-way)."""
    try:
        endpoint.create_table()
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
    if str(error.get("Code", "")).isdigit():
        # A server that is not DynamoDB's API (a web server, a proxy): its
        # answer is an HTTP status, with a web page or nothing as message.
        return (
            f"the endpoint answered HTTP {error['Code']} without a DynamoDB error: "
            "is its URL a DynamoDB endpoint's?"
        )
    return f"{error.get('Code', 'Error')}: {error.get('Message', str(exc))}"


def _reason(exc: BotoCoreError) -> str:
    """What boto3 raised before any answer, and what to do about it."""
    if isinstance(exc, (NoCredentialsError, PartialCredentialsError)):
        return (
            f"{exc}: boto3 found no complete AWS credentials (it looks in "
            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws and "
            "the instance's role; DynamoDB Local takes any values)"
        )
    if isinstance(exc, (EndpointConnectionError, ConnectTimeoutError)):
        return (
            f"{exc}: check the endpoint URL (or the region, for AWS) and that the "
            "endpoint is running"
        )
    return str(exc)


# --- Reading a live table -------------------------------------------------

SCAN_PAGE_LIMIT = 1_000


@dataclass
class LiveTable:
    """What DescribeTable and its companions say of a table."""

    description: dict[str, Any]
    ttl: dict[str, Any] | None = None
    backups: dict[str, Any] | None = None
    tags: list[dict[str, str]] = field(default_factory=list)
    # Application Auto Scaling's targets of the table and its GSIs, each
    # with its policy's TargetValue; None when they could not be read.
    scaling: list[dict[str, Any]] | None = None
    notes: list[str] = field(default_factory=list)  # what could not be read
    # The settings the endpoint did not report ("TTL", "backups", "tags",
    # "deletion protection"), each with why: a reader must not take them
    # as off.
    unread: dict[str, str] = field(default_factory=dict)

    @property
    def item_count(self) -> int:
        return int(self.description.get("ItemCount") or 0)

    @property
    def average_item_bytes(self) -> float:
        size = float(self.description.get("TableSizeBytes") or 0)
        return size / self.item_count if self.item_count else 0.0

    @property
    def replicas(self) -> list[str]:
        return [
            str(r.get("RegionName"))
            for r in self.description.get("Replicas") or []
            if isinstance(r, dict)
        ]

    def scan_units(self, sample: int) -> float:
        """The read units an eventually consistent Scan of `sample` items
        costs, by the table's average item size (DynamoDB updates ItemCount
        and TableSizeBytes about every six hours): a Scan is charged by the
        total size it reads, at 0.5 units per 4 KB."""
        items = min(sample, self.item_count)
        return math.ceil(items * self.average_item_bytes / 4096) * 0.5


def describe_live_table(
    client: Any, table_name: str, scaling_client: Any = None
) -> LiveTable:
    """The table's description; TTL, point-in-time recovery and tags when
    the endpoint answers for them (a note says so when it does not), and
    for a provisioned table its auto scaling, read through
    `scaling_client` (Application Auto Scaling) when one is given."""
    try:
        description = client.describe_table(TableName=table_name)["Table"]
    except ClientError as exc:
        raise EndpointError(_message(exc)) from None
    except BotoCoreError as exc:
        raise EndpointError(_reason(exc)) from None
    live = LiveTable(description)
    if "DeletionProtectionEnabled" not in description:
        live.unread["deletion protection"] = (
            "DescribeTable gave no DeletionProtectionEnabled"
        )
    for what, operation, call in (
        (
            "TTL",
            "DescribeTimeToLive",
            lambda: client.describe_time_to_live(TableName=table_name),
        ),
        (
            "backups",
            "DescribeContinuousBackups",
            lambda: client.describe_continuous_backups(TableName=table_name),
        ),
        (
            "tags",
            "ListTagsOfResource",
            lambda: client.list_tags_of_resource(
                ResourceArn=description.get("TableArn", "")
            ),
        ),
    ):
        try:
            answer = call()
        except (ClientError, BotoCoreError) as exc:
            reason = _message(exc) if isinstance(exc, ClientError) else _reason(exc)
            live.notes.append(f"the table's {what} could not be read ({reason})")
            live.unread[what] = f"{operation}: {reason.rstrip(': ')}"
            continue
        if what == "TTL":
            live.ttl = answer.get("TimeToLiveDescription")
        elif what == "backups":
            live.backups = answer.get("ContinuousBackupsDescription")
        else:
            live.tags = answer.get("Tags") or []
    billing = (description.get("BillingModeSummary") or {}).get("BillingMode")
    if scaling_client is not None and billing in (None, "PROVISIONED"):
        try:
            live.scaling = _scaling(scaling_client, description)
        except (ClientError, BotoCoreError) as exc:
            reason = _message(exc) if isinstance(exc, ClientError) else _reason(exc)
            live.notes.append(
                f"the table's auto scaling could not be read ({reason}); the "
                "design leaves it to the exports' default"
            )
    return live


def _scaling(client: Any, description: dict[str, Any]) -> list[dict[str, Any]]:
    """DescribeScalableTargets and DescribeScalingPolicies for the table
    and its GSIs: each target with its target tracking policy's
    configuration (TargetValue, and the cooldowns and DisableScaleIn when
    the policy sets them)."""
    table = f"table/{description.get('TableName')}"
    resources = [table] + [
        f"{table}/index/{index.get('IndexName')}"
        for index in description.get("GlobalSecondaryIndexes") or []
    ]
    targets: list[dict[str, Any]] = []
    policies: dict[tuple[str, str], dict[str, Any]] = {}
    for start in range(0, len(resources), 50):  # the most ResourceIds a call takes
        chunk = resources[start : start + 50]
        for page in client.get_paginator("describe_scalable_targets").paginate(
            ServiceNamespace="dynamodb", ResourceIds=chunk
        ):
            targets += page.get("ScalableTargets") or []
    for resource in {t.get("ResourceId") for t in targets}:
        for page in client.get_paginator("describe_scaling_policies").paginate(
            ServiceNamespace="dynamodb", ResourceId=resource
        ):
            for policy in page.get("ScalingPolicies") or []:
                config = policy.get("TargetTrackingScalingPolicyConfiguration") or {}
                if "TargetValue" in config:
                    key = (policy.get("ResourceId"), policy.get("ScalableDimension"))
                    policies[key] = {  # type: ignore[index]
                        k: v
                        for k, v in config.items()
                        if k
                        in (
                            "TargetValue",
                            "ScaleInCooldown",
                            "ScaleOutCooldown",
                            "DisableScaleIn",
                        )
                    }
    return [
        {
            "TargetValue": None,
            **t,
            **policies.get((t.get("ResourceId"), t.get("ScalableDimension")), {}),
        }
        for t in targets
    ]


@dataclass
class Sample:
    """Items read by a sampling Scan, and what it cost."""

    items: list[dict[str, Any]]
    units: float  # as the endpoint reported them
    reported: bool  # whether the endpoint reported consumed capacity
    pages: int


def sample_items(
    client: Any, table_name: str, *, sample: int, segments: int = 4
) -> Sample:
    """Up to `sample` items (DynamoDB JSON), read by a parallel Scan of
    `segments` segments in pages of at most SCAN_PAGE_LIMIT items. Each
    segment reads its share; a segment of few partitions ends early, and
    the segments not yet at their end then share what is left, round after
    round. Eventually consistent: half the units of a strong read."""
    segments = max(1, min(segments, sample))
    items: list[dict[str, Any]] = []
    units, reported, pages = 0.0, False, 0
    # Segment -> the key to go on from (None: from the start).
    open_segments: dict[int, dict[str, Any] | None] = dict.fromkeys(range(segments))

    def scan(
        segment: int, share: int, start: dict[str, Any] | None
    ) -> tuple[list[dict[str, Any]], float, bool, int, dict[str, Any] | None]:
        got: list[dict[str, Any]] = []
        spent, told, count = 0.0, False, 0
        request: dict[str, Any] = {
            "TableName": table_name,
            "Segment": segment,
            "TotalSegments": segments,
            "ReturnConsumedCapacity": "TOTAL",
        }
        while len(got) < share:
            if start:
                request["ExclusiveStartKey"] = start
            request["Limit"] = min(SCAN_PAGE_LIMIT, share - len(got))
            try:
                page = client.scan(**request)
            except ClientError as exc:
                raise EndpointError(_message(exc)) from None
            except BotoCoreError as exc:
                raise EndpointError(_reason(exc)) from None
            count += 1
            got += page.get("Items", [])
            consumed = page.get("ConsumedCapacity") or {}
            if "CapacityUnits" in consumed:
                spent += float(consumed["CapacityUnits"])
                told = True
            start = page.get("LastEvaluatedKey")
            if not start:
                return got, spent, told, count, None
        return got, spent, told, count, start

    with ThreadPoolExecutor(max_workers=segments) as pool:
        while open_segments and len(items) < sample:
            left = sample - len(items)
            chosen = sorted(open_segments)[:left]
            shares = [
                left // len(chosen) + (n < left % len(chosen))
                for n in range(len(chosen))
            ]
            results = list(
                pool.map(scan, chosen, shares, [open_segments[c] for c in chosen])
            )
            for segment, (got, spent, told, count, start) in zip(
                chosen, results, strict=True
            ):
                items += got
                units += spent
                reported = reported or told
                pages += count
                if start is None:
                    del open_segments[segment]
                else:
                    open_segments[segment] = start
    return Sample(items[:sample], units, reported, pages)
