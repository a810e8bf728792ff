"""The write patterns' part of the generated Python tests: each write
pattern's test and the helpers they share. Their data (what the simulator
drew, what the table then holds) is `write_cases`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modeler.exporters.access.patterns import PatternCode
from modeler.exporters.literals import comment_text, python_docstring

LINE = 88


def write_test(code: PatternCode, case: Mapping[str, Any]) -> str:
    """One write pattern's test, naming only identifiers the module made."""
    pattern = code.pattern
    signature = f"def test_{code.function}(client: Client) -> None:"
    if len(signature) > LINE:
        signature = f"def test_{code.function}(\n    client: Client,\n) -> None:"
    entities = sorted({a.entity for a in pattern.actions})
    promise = f"{comment_text(pattern.name)}: writes {', '.join(entities)}"
    lines = [
        signature,
        f"    {python_docstring(comment_text(promise) + '.')}",
        f"    function = access.{code.function}",
        "    _remove_recreated(client, function)",
        "    function(client, **_write_arguments(function))",
        "    _check_written(client, function)",
    ]
    if case["refused"]:
        error = (
            "TransactionCanceled"
            if pattern.operation == "TransactWriteItems"
            else "ConditionFailed"
        )
        lines += [
            f"    with pytest.raises(access.{error}):",
            "        function(client, **_write_arguments(function))",
        ]
    return "\n".join(lines) + "\n"


WRITE_HELPERS = '''

def _remove_recreated(client: Client, function: Callable[..., Any]) -> None:
    """The sample items the pattern's Put re-creates, removed first (as the
    workbench's simulator does)."""
    for key in DATA["patterns"][function.__name__]["delete"]:
        client.delete_item(TableName=access.TABLE_NAME, Key=_value(key))


def _write_arguments(function: Callable[..., Any]) -> dict[str, Any]:
    """The parameters and objects the simulator drew for the write pattern."""
    case = DATA["patterns"][function.__name__]
    arguments = _native(case["arguments"])
    for name, given in case["entities"].items():
        cls = getattr(access, given["make"])
        objects = [cls.from_item(_native(item)) for item in given["items"]]
        arguments[name] = objects if given["many"] else objects[0]
    return arguments


def _check_written(client: Client, function: Callable[..., Any]) -> None:
    """Each written item read back by its key: what the design promises,
    with every index key its templates give (a deleted item gone)."""
    for written in DATA["patterns"][function.__name__]["written"]:
        found = client.get_item(
            TableName=access.TABLE_NAME, Key=_value(written["key"]), ConsistentRead=True
        ).get("Item")
        expected = written["item"]
        if expected is None:
            assert found is None, (written["key"], found)
        else:
            assert found is not None, written["key"]
            assert access._from_wire(found) == _native(expected)
'''
