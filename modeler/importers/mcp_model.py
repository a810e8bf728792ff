"""Import of the DynamoDB MCP server's `dynamodb_data_model.json`: the
model an AI writes with awslabs' dynamodb-mcp-server, which holds
`tables` (boto3 create_table parameters), `items` (batch_write_item
requests by table) and `access_patterns` (a number, a description, the
table and index, the operation and an AWS CLI `implementation`).

Each table becomes a design (a project) the way a NoSQL Workbench model's
table does: the importer restates the file as such a model and reads it
with `workbench`, so the entities and their key templates are inferred
from the items by the same rules (`USER#u1` and `USER#u2` under a userId
give `USER#{userId}`). The access patterns become the design's access
patterns (`mcp_patterns`). What cannot be carried is named in the notes;
bad input names the JSON path (`tables[0].KeySchema`). Imports no Django.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import PurePath
from typing import Any

import yaml

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import DEFAULT_MAX_BYTES, dump_design, read_design
from modeler.importers.budget import ImportLimitError, check_nesting, import_budget
from modeler.importers.mcp_patterns import mcp_patterns
from modeler.importers.tables import (
    ALL_TABLES,
    ImportedTable,
    TableChoice,
    TablesImport,
    failed,
    kind_of,
)
from modeler.importers.workbench import read_workbench
from modeler.infra.textfiles import TextFileError, file_text

_TABLE_FIELDS = {
    "TableName",
    "AttributeDefinitions",
    "KeySchema",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "BillingMode",
}


class McpModelError(ValueError):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def looks_like_mcp_model(source: str | bytes) -> bool:
    """A JSON object with the MCP server's `tables` and `access_patterns`."""
    head = source[:8192]
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    return (
        head.lstrip("\ufeff \t\r\n").startswith("{")
        and '"DataModel"' not in head
        and (
            '"access_patterns"' in head
            or ('"tables"' in head and '"KeySchema"' in head)
        )
    )


def read_mcp_model(
    source: str | bytes,
    *,
    filename: str = "",
    max_bytes: int = DEFAULT_MAX_BYTES,
    choice: TableChoice = ALL_TABLES,
) -> TablesImport:
    """A design per table of the file (those `choice` picks); never raises
    on bad input."""
    try:
        text = file_text(source, max_bytes=max_bytes, kind="data model files")
    except TextFileError as exc:
        return failed(str(exc))
    with import_budget():
        try:
            data = _load(text)
            model, notes = _workbench_model(data, filename)
        except McpModelError as exc:
            return TablesImport(
                problems=(error("mcp-model-invalid", exc.path, exc.message),)
            )
        except ImportLimitError as exc:
            return failed(str(exc))
        found = read_workbench(json.dumps(model), max_bytes=10**9, choice=choice)
        entries = data.get("access_patterns")
        if entries is not None and not isinstance(entries, list):
            return TablesImport(
                problems=(
                    error(
                        "mcp-model-invalid",
                        "access_patterns",
                        f"expected a list, found {kind_of(entries)}",
                    ),
                )
            )
        return _finished(found, notes, entries or [])


def _load(text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise McpModelError(
            f"line {exc.lineno} column {exc.colno}", f"is not JSON: {exc.msg}"
        ) from None
    check_nesting(data)
    if not isinstance(data, dict):
        raise McpModelError("$", f"expected a JSON object, found {kind_of(data)}")
    return data


def _list(data: Any, path: str, *, required: bool = False) -> list:
    if data is None and not required:
        return []
    if data is None:
        raise McpModelError(path, "is missing")
    if not isinstance(data, list):
        raise McpModelError(path, f"expected a list, found {kind_of(data)}")
    return data


def _workbench_model(data: dict, filename: str) -> tuple[dict, list[str]]:
    """The file as a NoSQL Workbench model (version 3.0), and notes on what
    it holds that the model does not."""
    tables = _list(data.get("tables"), "tables", required=True)
    if not tables:
        raise McpModelError("tables", "has no table: nothing to import")
    items = data.get("items") or {}
    if not isinstance(items, dict):
        raise McpModelError(
            "items", f"expected an object by table name, found {kind_of(items)}"
        )
    names = []
    out = []
    notes: list[str] = []
    for i, table in enumerate(tables):
        path = f"tables[{i}]"
        if not isinstance(table, dict):
            raise McpModelError(
                path, f"expected a table object, found {kind_of(table)}"
            )
        name = table.get("TableName")
        if not isinstance(name, str) or not name:
            raise McpModelError(f"{path}.TableName", "is required: the table's name")
        names.append(name)
        types = _definitions(table, path)
        converted: dict[str, Any] = {
            "TableName": name,
            "KeyAttributes": _keys(table.get("KeySchema"), f"{path}.KeySchema", types),
        }
        for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
            indexes = _list(table.get(member), f"{path}.{member}")
            if indexes:
                converted[member] = [
                    _index(index, f"{path}.{member}[{j}]", types)
                    for j, index in enumerate(indexes)
                ]
        if table.get("BillingMode") == "PROVISIONED":
            notes.append(
                f"{path}.BillingMode: PROVISIONED without its capacity; "
                "the design is on demand"
            )
        extra = sorted(k for k in table if k not in _TABLE_FIELDS)
        if extra:
            notes.append(f"{path}: not carried: " + ", ".join(extra))
        converted["TableData"] = _items(items.get(name), f"items.{name}")
        out.append(converted)
    unknown = sorted(set(items) - set(names))
    if unknown:
        raise McpModelError(f"items.{unknown[0]}", "names no table of `tables`")
    title = " ".join(re.findall(r"[A-Za-z0-9]+", PurePath(filename).stem))
    model = {
        "ModelName": title or "DynamoDB data model",
        "ModelMetadata": {"Version": "3.0"},
        "DataModel": out,
    }
    return model, notes


def _definitions(table: dict, path: str) -> dict[str, str]:
    types = {}
    for j, spec in enumerate(
        _list(
            table.get("AttributeDefinitions"),
            f"{path}.AttributeDefinitions",
            required=True,
        )
    ):
        where = f"{path}.AttributeDefinitions[{j}]"
        if not isinstance(spec, dict) or not isinstance(spec.get("AttributeName"), str):
            raise McpModelError(where, "expected {AttributeName, AttributeType}")
        if spec.get("AttributeType") not in ("S", "N", "B"):
            raise McpModelError(
                f"{where}.AttributeType",
                f"expected S, N or B, found {spec.get('AttributeType')!r}",
            )
        types[spec["AttributeName"]] = spec["AttributeType"]
    return types


def _keys(schema: Any, path: str, types: dict[str, str]) -> dict:
    keys: dict[str, dict] = {}
    for j, spec in enumerate(_list(schema, path, required=True)):
        where = f"{path}[{j}]"
        if not isinstance(spec, dict) or spec.get("KeyType") not in ("HASH", "RANGE"):
            raise McpModelError(
                where, "expected {AttributeName, KeyType: HASH or RANGE}"
            )
        name = spec.get("AttributeName")
        if name not in types:
            raise McpModelError(
                f"{where}.AttributeName",
                f"{name!r} is not in the table's AttributeDefinitions",
            )
        part = "PartitionKey" if spec["KeyType"] == "HASH" else "SortKey"
        keys[part] = {"AttributeName": name, "AttributeType": types[name]}
    if "PartitionKey" not in keys:
        raise McpModelError(path, "has no HASH key")
    return keys


def _index(index: Any, path: str, types: dict[str, str]) -> dict:
    if not isinstance(index, dict) or not isinstance(index.get("IndexName"), str):
        raise McpModelError(path, "expected an index with IndexName and KeySchema")
    converted = {
        "IndexName": index["IndexName"],
        "KeyAttributes": _keys(index.get("KeySchema"), f"{path}.KeySchema", types),
    }
    projection = index.get("Projection") or {"ProjectionType": "ALL"}
    if not isinstance(projection, dict) or projection.get("ProjectionType") not in (
        "ALL",
        "KEYS_ONLY",
        "INCLUDE",
    ):
        raise McpModelError(
            f"{path}.Projection.ProjectionType", "expected ALL, KEYS_ONLY or INCLUDE"
        )
    converted["Projection"] = projection
    return converted


def _items(requests: Any, path: str) -> list:
    out = []
    for j, request in enumerate(_list(requests, path)):
        item = (
            request.get("PutRequest", {}).get("Item")
            if isinstance(request, dict)
            else None
        )
        if not isinstance(item, dict):
            raise McpModelError(f"{path}[{j}]", "expected {PutRequest: {Item: {...}}}")
        out.append(item)
    return out


_WORKBENCH_PATH = re.compile(r"DataModel\[(\d+)\]")


def _finished(found: TablesImport, notes: list[str], entries: list) -> TablesImport:
    """The workbench reader's designs with the access patterns, and its
    findings with this file's paths."""

    def path(text: str) -> str:
        return _WORKBENCH_PATH.sub(r"tables[\1]", text).replace(".TableData", " items")

    tables = tuple(
        _with_patterns(
            t.table_name,
            t.design,
            tuple(
                dataclasses.replace(
                    p, location=dataclasses.replace(p.location, path=path(p.path))
                )
                for p in t.problems
            ),
            tuple(notes) + t.notes,
            entries,
        )
        for t in found.tables
    )
    return TablesImport(found.model_name, "", tables, found.problems)


def _with_patterns(
    table: str,
    design: d.Design | None,
    problems: tuple[Finding, ...],
    notes: tuple[str, ...],
    entries: list,
) -> ImportedTable:
    """The table's design with the access patterns of its entries, read
    as a design file is."""
    if design is None:
        return ImportedTable(table, None, problems, notes)
    more = list(notes)
    patterns = mcp_patterns(entries, design, table, more)
    if not patterns:
        return ImportedTable(table, design, problems, tuple(more))
    doc = yaml.safe_load(dump_design(design))
    doc["access_patterns"] = patterns
    result = read_design(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    return ImportedTable(
        table,
        result.design if not any(p.is_error for p in result.problems) else None,
        problems + tuple(result.problems),
        tuple(more),
    )
