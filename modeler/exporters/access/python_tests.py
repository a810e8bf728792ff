"""The pytest module shipped beside the data-access module: for every read
pattern (the write patterns' tests: python_write_tests), the sample data
the simulator checks the pattern on (a slice of it), the parameters the
simulator drew, and the items its own check expects; each test loads the
data into a table, calls the pattern's function and compares what it
returns with those items, turned into the same objects.

The data sits in the file as DynamoDB JSON (one item a line) inside a
string, so hostile values stay text, and the test code itself names only
identifiers the module made."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d
from modeler.exporters.access.cases import pattern_cases
from modeler.exporters.access.module import AccessModule, access_module, module_name
from modeler.exporters.access.patterns import PatternCode
from modeler.exporters.access.python_write_tests import WRITE_HELPERS, write_test
from modeler.exporters.literals import comment_text, python_docstring

LINE = 88


@dataclass(frozen=True)
class GeneratedTests:
    text: str
    tested: tuple[str, ...]  # the functions a test calls
    notes: tuple[str, ...]  # the patterns without a test, and why


def generated_tests(
    design: d.Design, module: AccessModule | None = None
) -> GeneratedTests:
    """The test module of `design`'s data-access module (made here unless
    given). Raises SampleDataError when the design cannot make its items."""
    module = module or access_module(design)
    names = module.names
    cases = pattern_cases(design, module.patterns, lambda entity: names[entity].cls)
    tests = cases.tests(_test, write_test)
    name = module_name(design)
    text = (
        _header(design, name)
        + "\n\nDATA: dict[str, Any] = json.loads(\n    "
        + python_docstring(_data_text(cases.data), "    ")
        + "\n)\n\n\n"
        + _HELPERS.replace("{module}", name)
        + (WRITE_HELPERS if cases.writes else "")
        + "".join("\n\n" + t for t in tests)
    )
    return GeneratedTests(text, tuple(c.function for c in cases.tested), cases.notes)


def _header(design: d.Design, name: str) -> str:
    title = " ".join(design.name.split())
    return (
        python_docstring(
            f"Tests of {name} for the design “{title}”, generated with it by "
            "the\nsingle-table workbench.\n\n"
            "For each read pattern: the sample data the workbench checked it "
            "on, loaded\ninto a new table; the function called with the "
            "parameters the simulator\ndrew; what it returns compared with the "
            "items the pattern promises.\nFor each write pattern: the function "
            "called with the parameters and\nitems the simulator drew; each "
            "written item read back by its key and\ncompared with what the "
            "design promises (its attributes, every index key\nits templates "
            "give, a deleted item gone); sent again, a write whose\ncondition "
            "then fails raises the module's named exception.\n\n"
            "They run on the client a `dynamodb_client` fixture gives (put one "
            "in\nconftest.py), else on boto3's when AWS_ENDPOINT_URL_DYNAMODB "
            "names a\nDynamoDB Local or `manage.py serve_dynamodb` endpoint "
            "that does not hold\nthe table yet (start serve_dynamodb without "
            "a design): each test creates\nthe table and deletes it after.\n"
        )
        + "\n\nfrom __future__ import annotations\n\n"
        "import base64\nimport importlib\nimport json\nimport os\n"
        "from collections.abc import Callable, Iterator\n"
        "from typing import Any\n\nimport pytest\n\n"
        f"import {name} as access"
    )


_HELPERS = '''def _value(wire: Any) -> Any:
    """A DynamoDB JSON value as boto3 takes it: binary values as bytes."""
    if isinstance(wire, dict):
        return {
            kind: (
                base64.b64decode(value)
                if kind == "B"
                else [base64.b64decode(b) for b in value]
                if kind == "BS"
                else _value(value)
            )
            for kind, value in wire.items()
        }
    if isinstance(wire, list):
        return [_value(value) for value in wire]
    return wire


Client = access.DynamoDBClient


def _native(item: dict[str, Any]) -> dict[str, Any]:
    return access._from_wire(_value(item))


@pytest.fixture
def client(request: pytest.FixtureRequest) -> Iterator[Client]:
    """A new table holding the sample items."""
    made: Any
    try:
        made = request.getfixturevalue("dynamodb_client")
    except pytest.FixtureLookupError:
        if not os.environ.get("AWS_ENDPOINT_URL_DYNAMODB"):
            pytest.skip("no dynamodb_client fixture and no AWS_ENDPOINT_URL_DYNAMODB")
        made = importlib.import_module("boto3").client("dynamodb")
    made.create_table(**DATA["table"])
    if hasattr(made, "get_waiter"):
        made.get_waiter("table_exists").wait(TableName=access.TABLE_NAME)
    try:
        for item in DATA["items"]:
            made.put_item(TableName=access.TABLE_NAME, Item=_value(item))
        yield made
    finally:
        made.delete_table(TableName=access.TABLE_NAME)


def _arguments(function: Callable[..., Any]) -> dict[str, Any]:
    """The parameters the simulator drew for the pattern."""
    return _native(DATA["patterns"][function.__name__]["arguments"])


def _expected(
    function: Callable[..., Any], convert: Callable[[dict[str, Any]], Any]
) -> list[Any]:
    """The items the pattern promises, as the function returns them."""
    case = DATA["patterns"][function.__name__]
    return [convert(_native(item)) for item in case["expected"]]


def _within(found: list[Any], expected: list[Any]) -> None:
    """Each item found is one the pattern promises, none twice."""
    for n, item in enumerate(found):
        assert item in expected, (item, expected)
        assert item not in found[:n], item


def _same_items(found: list[Any], expected: list[Any]) -> None:
    """The same items, in any order (the pattern promises no order)."""
    assert len(found) == len(expected), (found, expected)
    _within(found, expected)
'''


def _test(code: PatternCode, expects: d.Expectation) -> str:
    """One read pattern's test; it names only identifiers the module made
    (the pattern's name is in its docstring), in lines the formatter keeps."""
    pattern = code.pattern
    signature = f"def test_{code.function}(client: Client) -> None:"
    if len(signature) > LINE:
        signature = f"def test_{code.function}(\n    client: Client,\n) -> None:"
    lines = [
        signature,
        f"    {python_docstring(_promise(pattern, expects))}",
        f"    function = access.{code.function}",
        f"    convert = access.{code.converter}",
        "    expected = _expected(function, convert)",
    ]
    if pattern.operation == "GetItem":
        lines += [
            "    found = function(client, **_arguments(function))",
            "    assert ([] if found is None else [found]) == expected",
        ]
    elif pattern.limit is not None:
        lines += [
            f"    page = access.{code.page}",
            "    found = page(client, **_arguments(function)).items",
        ]
        if expects.order_by:
            lines.append(f"    assert found == expected[:{pattern.limit}]")
        else:
            lines += [
                f"    assert len(found) == min({pattern.limit}, len(expected))",
                "    _within(found, expected)",
            ]
    else:
        lines.append("    found = list(function(client, **_arguments(function)))")
        if expects.order_by:
            lines.append("    assert found == expected")
        else:
            lines.append("    _same_items(found, expected)")
    return "\n".join(lines) + "\n"


def _promise(pattern: d.AccessPattern, expects: d.Expectation) -> str:
    said = f"{comment_text(pattern.name)}: {', '.join(expects.entities)}"
    if expects.where:
        said += " where " + " and ".join(
            f"{p.attribute} {p.operator} {' '.join(p.values)}" for p in expects.where
        )
    if expects.order_by:
        said += ", by " + ", ".join(expects.order_by)
    if pattern.limit is not None:
        said += f", at most {pattern.limit}"
    return comment_text(said) + "."


def _data_text(data: dict[str, Any]) -> str:
    """The data as JSON text, an item or a case a line (ASCII only)."""

    def line(value: Any) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=True)

    lines = ["{", f'"table": {line(data["table"])},', '"items": [']
    items = [line(i) for i in data["items"]]
    lines += [f"{i}," for i in items[:-1]] + items[-1:]
    lines += ["],", '"patterns": {']
    cases = [f"{line(k)}: {line(v)}" for k, v in data["patterns"].items()]
    lines += [f"{c}," for c in cases[:-1]] + cases[-1:]
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"
