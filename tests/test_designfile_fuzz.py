"""The design file reader never raises, whatever the file holds.

Examples are mutated at random places (a value replaced by one of the wrong
type, a huge or non-finite number, hostile text, a deep structure; a key
removed or added), written back as YAML and read: the reader returns either
a design whose every problem is a warning, or problems with their paths; it
never raises. A design it accepts writes back to a file that reads as the
same design.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modeler.design.problems import SEVERITIES, has_errors
from modeler.designfile import dump_design, read_design

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml"))
DOCUMENTS = [yaml.safe_load(path.read_text()) for path in EXAMPLES]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 10**40, 2**63, -(2**63) - 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(
        ["", "{", "}", "{{", "{a", "{a:", "{a:x}", "#", "1e400", "-1e400", "NaN"]
        + ["\x00", "\u2028", "a" * 3000, "Customer.customerId", "=", "status ="]
        + ["{qty:099999999999d}", "{a}" * 50, "S", "N", "B", "Query", "GSI1"]
    ),
)
DYNAMODB_VALUES = st.sampled_from(
    [
        {"N": "1e400"},
        {"N": "-1e-400"},
        {"N": 1e400},
        {"N": "12345678901234567890123456789012345678901"},
        {"N": "not a number"},
        {"B": "not base64!"},
        {"SS": []},
        {"NS": ["1", "1"]},
        {"S": None},
        {"M": {"a": {"L": [{"N": "1"}, {"X": 1}]}}},
        {"NULL": False},
        {"BOOL": "yes"},
    ]
)


def nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


VALUES = st.one_of(
    SCALARS,
    DYNAMODB_VALUES,
    st.lists(SCALARS, max_size=3),
    st.dictionaries(st.text(max_size=5), SCALARS, max_size=3),
    st.integers(30, 60).map(nested),
)


def paths(document: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(document, dict):
        for key, value in document.items():
            found += paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += paths(value, (*prefix, index))
    return found


def replaced(document: Any, path: tuple, value: Any, how: str) -> Any:
    if not path:
        return value if how == "set" else document
    head, rest = path[0], path[1:]
    if isinstance(document, dict):
        copy = dict(document)
        if not rest and how == "delete":
            copy.pop(head, None)
        elif not rest and how == "add":
            copy[f"{head}_extra"] = value
        else:
            copy[head] = replaced(document[head], rest, value, how)
        return copy
    copy = list(document)
    if not rest and how == "delete":
        del copy[head]
    else:
        copy[head] = replaced(document[head], rest, value, how)
    return copy


@st.composite
def mutated_files(draw) -> str:
    document = draw(st.sampled_from(DOCUMENTS))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(document)))
        how = draw(st.sampled_from(["set", "set", "delete", "add"]))
        document = replaced(document, path, draw(VALUES), how)
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


def assert_read_cleanly(text: str | bytes) -> None:
    result = read_design(text)
    assert isinstance(result.problems, tuple)
    for problem in result.problems:
        assert problem.severity in SEVERITIES
        assert isinstance(problem.path, str) and problem.message
    if result.design is None:
        assert has_errors(list(result.problems))
        return
    again = read_design(dump_design(result.design))
    assert again.design == result.design, again.problems


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_files())
def test_a_mutated_example_reads_without_raising(text):
    assert_read_cleanly(text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_any_text_reads_without_raising(text):
    assert_read_cleanly(text)


def test_a_number_too_large_for_dynamodb_is_refused_at_read_time_with_its_path():
    document = yaml.safe_load((EXAMPLES[0]).read_text())
    document["sample_data"] = {
        "items": [
            {
                "PK": {"S": "A"},
                "SK": {"S": "B"},
                "total": {"N": "1e400"},
            }
        ]
    }
    if "sort_key" not in document["table"]:
        del document["sample_data"]["items"][0]["SK"]
    result = read_design(yaml.safe_dump(document, sort_keys=False))
    assert result.design is None
    [problem] = [p for p in result.problems if p.is_error]
    assert problem.path == "sample_data.items[0].total"
    assert "Number overflow" in problem.message
    assert problem.line is not None


def test_non_finite_numbers_in_generators_are_refused():
    document = yaml.safe_load((EXAMPLES[0]).read_text())
    entity = next(iter(document["entities"].values()))
    entity["attributes"]["extra"] = {
        "type": "N",
        "generator": {"int": {"min": 0, "max": math.inf}},
    }
    result = read_design(yaml.safe_dump(document, sort_keys=False))
    assert result.design is None
    assert any(p.path.endswith("attributes.extra.generator") for p in result.problems)
