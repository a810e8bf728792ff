"""Code for each access pattern: a Python function on boto3's client and an
AWS CLI command, both sending the pattern's real request.

The requests are the ones the simulator sends for the pattern against the
design's sample data (`modeler.simulation`), so their key values are
realistic and their expressions are exactly what was checked. A Query or
Scan that can span pages is read with boto3's paginator (or, when the
pattern takes one page of `limit` items, returns the page and its
LastEvaluatedKey); batches retry their unprocessed keys or items.
"""

from __future__ import annotations

import builtins
import json
import keyword
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d
from modeler.exporters.literals import comment_text, python_docstring, python_string
from modeler.simulation import PatternRun
from modeler.simulation.requests import cli_command

_METHODS = {
    "GetItem": "get_item",
    "Query": "query",
    "Scan": "scan",
    "BatchGetItem": "batch_get_item",
    "TransactGetItems": "transact_get_items",
    "PutItem": "put_item",
    "UpdateItem": "update_item",
    "DeleteItem": "delete_item",
    "BatchWriteItem": "batch_write_item",
    "TransactWriteItems": "transact_write_items",
}

# Names a pattern's function must not take: Python's keywords, the builtins
# the functions call (a module-level `dict` would shadow the builtin), and
# the names the module itself binds.
_TAKEN_NAMES = frozenset(dir(builtins)) | {"boto3", "client"}


@dataclass(frozen=True)
class PatternSnippet:
    pattern: str
    operation: str
    function: str
    python: str  # one function; empty when the request could not be built
    cli: str
    parameters: tuple[tuple[str, str], ...] = ()
    problem: str = ""  # why there is no request


def pattern_snippets(
    design: d.Design, runs: Sequence[PatternRun | None], *, problem: str = ""
) -> list[PatternSnippet]:
    """A snippet per access pattern, from the first request of its run in
    the simulation (`runs`, one per pattern; None for a pattern not run,
    with `problem` saying why)."""
    names: set[str] = set()
    out = []
    for pattern, run in zip(design.access_patterns, runs, strict=True):
        function = _function_name(pattern.name, names)
        parameters = (
            ()
            if run is None
            else tuple((k, _shown(v)) for k, v in run.parameters.items())
        )
        if run is None or not run.calls:
            if run is None:
                why = problem or "the simulation did not run this pattern"
            else:
                why = run.error or "the simulator sent no request for this pattern"
            out.append(
                PatternSnippet(
                    pattern.name,
                    pattern.operation_label,
                    function,
                    "",
                    "",
                    parameters,
                    why,
                )
            )
            continue
        call = run.calls[0]
        request = {
            k: v
            for k, v in call.request.items()
            if k not in ("ReturnConsumedCapacity", "ExclusiveStartKey")
        }
        out.append(
            PatternSnippet(
                pattern.name,
                pattern.operation_label,
                function,
                _python(design, pattern, function, call.operation, request, parameters),
                _cli(pattern, call.operation, request),
                parameters,
            )
        )
    return out


def _shown(value: Any) -> str:
    if isinstance(value, bytes):
        return repr(value)
    return json.dumps(value, default=str, ensure_ascii=False)


def _function_name(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "pattern"
    if base[0].isdigit():
        base = f"pattern_{base}"
    if keyword.iskeyword(base) or base in _TAKEN_NAMES:
        base = f"{base}_pattern"
    candidate, n = base, 2
    while candidate in taken:
        candidate = f"{base}_{n}"
        n += 1
    taken.add(candidate)
    return candidate


def python_literal(value: Any, indent: int = 0) -> str:
    """A value as Python source, laid out as ruff format would."""
    pad = " " * indent
    inner = " " * (indent + 4)
    compact = _compact(value)
    if compact is not None and indent + len(compact) <= 70:
        return compact
    if isinstance(value, dict):
        if not value:
            return "{}"
        body = ",\n".join(
            f"{inner}{python_string(str(k))}: {python_literal(v, indent + 4)}"
            for k, v in value.items()
        )
        return "{\n" + body + ",\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        body = ",\n".join(f"{inner}{python_literal(v, indent + 4)}" for v in value)
        return "[\n" + body + ",\n" + pad + "]"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, bytes):
        return repr(value)
    if isinstance(value, str):
        return python_string(value)
    if value is None:
        return "None"
    return repr(value)


def _compact(value: Any) -> str | None:
    """The value on one line, as ruff format writes a short literal."""
    if isinstance(value, dict):
        parts = [f"{python_string(str(k))}: {_compact(v)}" for k, v in value.items()]
        return None if "None" in parts else "{" + ", ".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(_compact(v)) for v in value) + "]"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, bytes):
        return repr(value)
    if isinstance(value, str):
        return python_string(value)
    return repr(value)


def _kwargs(request: dict[str, Any], indent: int) -> str:
    pad = " " * indent
    return "".join(
        f"{pad}{k}={python_literal(v, indent)},\n" for k, v in request.items()
    )


def _docstring(
    pattern: d.AccessPattern, parameters: tuple[tuple[str, str], ...]
) -> str:
    lines = [" ".join(pattern.name.split())]
    if pattern.description:
        lines += ["", *_wrap(pattern.description)]
    if parameters:
        lines += ["", "Sent with the sample data's values:"]
        lines += [f"    {k} = {v}" for k, v in parameters]
    return "    " + python_docstring("\n".join(lines) + "\n", "    ") + "\n"


def _wrap(text: str, width: int = 72) -> list[str]:
    out: list[str] = []
    for paragraph in text.splitlines():
        line = ""
        for word in paragraph.split():
            if line and len(line) + len(word) + 1 > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return out


def _python(
    design: d.Design,
    pattern: d.AccessPattern,
    function: str,
    operation: str,
    request: dict[str, Any],
    parameters: tuple[tuple[str, str], ...],
) -> str:
    method = _METHODS[operation]
    doc = _docstring(pattern, parameters)
    table = python_string(design.table.name)
    if operation in ("Query", "Scan") and pattern.limit is None:
        return (
            f"def {function}(client):\n{doc}"
            f"    paginator = client.get_paginator({python_string(method)})\n"
            "    items = []\n"
            "    for page in paginator.paginate(\n"
            f"{_kwargs(request, 8)}"
            "    ):\n"
            '        items.extend(page["Items"])\n'
            "    return items\n"
        )
    if operation in ("Query", "Scan"):
        return (
            f"def {function}(client, start_key=None):\n{doc}"
            "    # One page of at most Limit items; pass the LastEvaluatedKey it\n"
            "    # returns as start_key for the next page.\n"
            "    request = dict(\n"
            f"{_kwargs(request, 8)}"
            "    )\n"
            "    if start_key:\n"
            '        request["ExclusiveStartKey"] = start_key\n'
            f"    response = client.{method}(**request)\n"
            '    return response["Items"], response.get("LastEvaluatedKey")\n'
        )
    if operation == "BatchGetItem":
        return (
            f"def {function}(client):\n{doc}"
            f"    request_items = {python_literal(request['RequestItems'], 4)}\n"
            "    items = []\n"
            "    # DynamoDB may leave some keys unprocessed: ask again for those.\n"
            "    while request_items:\n"
            "        response = client.batch_get_item(RequestItems=request_items)\n"
            f'        items.extend(response["Responses"].get({table}, []))\n'
            '        request_items = response.get("UnprocessedKeys")\n'
            "    return items\n"
        )
    if operation == "BatchWriteItem":
        return (
            f"def {function}(client):\n{doc}"
            f"    request_items = {python_literal(request['RequestItems'], 4)}\n"
            "    # DynamoDB may leave some writes unprocessed: send those again.\n"
            "    while request_items:\n"
            "        response = client.batch_write_item(RequestItems=request_items)\n"
            '        request_items = response.get("UnprocessedItems")\n'
        )
    result = {
        "GetItem": '    return response.get("Item")\n',
        "TransactGetItems": (
            '    return [r["Item"] for r in response["Responses"] if "Item" in r]\n'
        ),
    }.get(operation, "    return response\n")
    return (
        f"def {function}(client):\n{doc}"
        f"    response = client.{method}(\n"
        f"{_kwargs(request, 8)}"
        "    )\n"
        f"{result}"
    )


def _cli(pattern: d.AccessPattern, operation: str, request: dict[str, Any]) -> str:
    command = cli_command(operation, request)
    if operation in ("Query", "Scan") and pattern.limit is not None:
        # The CLI would follow LastEvaluatedKey; the pattern reads one page.
        command += " --no-paginate"
    return command


def python_module(design: d.Design, snippets: list[PatternSnippet]) -> str:
    summary = (
        f"The access patterns of the design “{' '.join(design.name.split())}” on "
        "boto3's DynamoDB client.\n\nExported by the single-table workbench. Each "
        "function sends the request the\nsimulator checked, with the sample data's "
        "key values."
    )
    parts = [python_docstring(summary) + "\n\nimport boto3\n"]
    for snippet in snippets:
        if snippet.python:
            parts.append("\n\n" + snippet.python)
        else:
            what = comment_text(f"{snippet.pattern}: no request ({snippet.problem})")
            parts.append(f"\n\n# {what}\n")
    parts.append(
        '\n\nif __name__ == "__main__":\n'
        '    client = boto3.client("dynamodb")\n'
        f"    print({snippets[0].function}(client))\n"
        if snippets and snippets[0].python
        else ""
    )
    return "".join(parts)


def shell_script(design: d.Design, snippets: list[PatternSnippet]) -> str:
    lines = [
        "#!/bin/sh",
        f"# The access patterns of the design “{comment_text(design.name)}”"
        " as AWS CLI commands,",
        "# exported by the single-table workbench. Add --endpoint-url "
        "http://localhost:8000 for DynamoDB Local.",
        "set -e",
    ]
    for snippet in snippets:
        lines.append("")
        lines.append(f"# {comment_text(snippet.pattern)} ({snippet.operation})")
        lines.append(
            snippet.cli
            if snippet.cli
            else "# no request: " + comment_text(snippet.problem)
        )
    return "\n".join(lines) + "\n"
