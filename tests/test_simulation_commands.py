"""The commands around simulation: simulate, sample_data and compare_endpoint,
the last with modeler/infra/dynamodb.py against moto's DynamoDB server."""

from __future__ import annotations

import importlib
import io
import json
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import WaiterError
from botocore.waiter import Waiter
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.design.model import Design
from modeler.design_check import limits
from modeler.designfile import read_design
from modeler.engine.types import item_to_json_wire
from modeler.infra import dynamodb
from modeler.infra.dynamodb import Endpoint, EndpointError
from modeler.models import Project
from modeler.sampledata import generate, read_jsonl, write_jsonl
from modeler.services import sample_data as sample_services
from modeler.simulation import Simulation
from modeler.simulation.requests import create_table_request
from tests.conftest import REGION

BASE_DIR = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((BASE_DIR / "examples").glob("*.yaml"))
ORDER_FILE = BASE_DIR / "examples" / "order-management.yaml"
SOCIAL_FILE = BASE_DIR / "examples" / "social-graph.yaml"
# Customer profiles moved among the orders: "Orders of a customer" (SK
# begins_with ORDER#) now also returns the customer's profile.
PROFILE_AMONG_ORDERS = ORDER_FILE.read_text().replace(
    'SK: "PROFILE"', 'SK: "ORDER#PROFILE"', 1
)
# Line 67 of the example: the sort key of Order.
UNKNOWN_ATTRIBUTE = ORDER_FILE.read_text().replace(
    'SK: "ORDER#{orderDate}#{orderId}"', 'SK: "ORDER#{orderDat}#{orderId}"', 1
)
RESULT_FIELDS = {
    "requests",
    "count",
    "scanned_count",
    "last_evaluated_key",
    "consumed_capacity",
    "item_keys",
    "verdict",
    "reasons",
}
# One whole-table Scan of 250 items of about 4 KB: about 1.02 MB, so one page
# for the simulator (DynamoDB's 1 MB is 1,048,576 bytes) and two for moto
# (which stops at 1,000,000).
BLOBS = """\
format: single-table-workbench/v1
name: Blobs
table:
  name: blobs
  partition_key: {name: PK, type: S}
  sort_key: {name: SK, type: S}
  billing: {mode: PAY_PER_REQUEST}
entities:
  Blob:
    attributes:
      blobId: {type: S, generator: ulid}
      data: {type: S, generator: {constant: "%s"}}
    keys:
      PK: "BLOB#{blobId}"
      SK: "BLOB"
    sample: {count: 250}
access_patterns:
  - name: Every blob
    operation: Scan
    expects: {entity: Blob}
  - name: A few blobs
    operation: Scan
    limit: 10
    expects: {entity: Blob}
sample_data:
  seed: 1
""" % ("x" * 4000)
# Hand-written items with a binary sort key; the Query stops at its Limit, so
# its LastEvaluatedKey holds a binary value too.
BINARY_KEYS = """\
format: single-table-workbench/v1
name: Binary keys
table:
  name: binary-keys
  partition_key: {name: PK, type: S}
  sort_key: {name: SK, type: B}
  billing: {mode: PAY_PER_REQUEST}
entities:
  Chunk:
    attributes:
      fileId: {type: S, generator: {constant: f1}}
      digest: {type: B}
    keys:
      PK: "FILE#{fileId}"
      SK: "{digest}"
    sample: {count: 0}
access_patterns:
  - name: Chunks of a file
    operation: Query
    key: {PK: "FILE#{fileId}"}
    limit: 2
    expects: {entity: Chunk, where: {fileId: "{fileId}"}}
sample_data:
  seed: 1
  items:
    - {PK: {S: "FILE#f1"}, SK: {B: "AAE="}, fileId: {S: f1}}
    - {PK: {S: "FILE#f1"}, SK: {B: "AAI="}, fileId: {S: f1}}
    - {PK: {S: "FILE#f1"}, SK: {B: "AAM="}, fileId: {S: f1}}
"""


def _run(*args: str) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


def _design(source: Path | str) -> Design:
    text = source.read_text() if isinstance(source, Path) else source
    design = read_design(text).design
    assert design is not None
    return design


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _wire_key(item: dict[str, Any]) -> tuple[str, str]:
    return item["PK"]["S"], item["SK"]["S"]


# --- simulate ---------------------------------------------------------------------

LINE = re.compile(
    r"(?P<verdict>PASS|FAIL)  (?P<pattern>.+) \[(?P<operation>\w+)( on \w+)?\]  "
    r"Count \d+, ScannedCount \d+, \d+ pages?, [\d.]+ [RW]CU"
    r"(, \d+ more draws?)?(, costed on .+)?"
)


@pytest.fixture(scope="module")
def orders_json() -> dict[str, Any]:
    stdout, _ = _run("simulate", str(ORDER_FILE), "--json")
    return json.loads(stdout)


def _by_pattern(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["pattern"]: p for p in result["patterns"]}


def test_simulate_keeps_no_items_once_it_is_done():
    """The command simulates once: the items it generates are not kept for
    a next generation, which packing them would have cost it time and
    memory for."""
    generating = importlib.import_module("modeler.sampledata.generate")
    generating.forget_kept_items()

    stdout, _ = _run("simulate", str(ORDER_FILE))

    assert "sample items" in stdout
    assert generating._kept._items == 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_simulate_prints_each_pattern_with_its_verdict(path):
    design = _design(path)

    stdout, _ = _run("simulate", str(path))

    header, *lines = stdout.splitlines()
    seed = design.sample_data.seed
    assert re.fullmatch(rf"{design.name}: [\d,]+ sample items \(seed {seed}\)", header)
    results = [LINE.fullmatch(line) for line in lines]
    assert all(results), lines
    assert [(r["verdict"], r["pattern"], r["operation"]) for r in results] == [
        ("PASS", p.name, p.operation) for p in design.access_patterns
    ]


def test_simulate_json_gives_each_patterns_request_counts_keys_and_verdict(
    orders_json,
):
    design = _design(ORDER_FILE)

    assert orders_json["design"] == "Order management"
    assert orders_json["seed"] == 42
    assert [p["pattern"] for p in orders_json["patterns"]] == [
        p.name for p in design.access_patterns
    ]
    for result in orders_json["patterns"]:
        assert set(result) >= RESULT_FIELDS, result["pattern"]
        assert (result["verdict"], result["reasons"]) == ("pass", [])
        if result["operation"] in ("GetItem", "Query"):
            assert result["requests"][0]["TableName"] == "order-management"
            assert len(result["item_keys"]) == result["count"] > 0
            assert result["consumed_capacity"]["read_units"] > 0


def test_simulate_json_orders_of_a_customer_are_newest_first(orders_json):
    result = _by_pattern(orders_json)["Orders of a customer, newest first"]

    customer = result["parameters"]["customerId"]["S"]
    keys = [_wire_key(k) for k in result["item_keys"]]
    assert {pk for pk, _ in keys} == {f"CUST#{customer}"}
    sort_keys = [sk for _, sk in keys]
    assert all(sk.startswith("ORDER#") for sk in sort_keys)
    assert sort_keys == sorted(sort_keys, reverse=True)
    # The pattern's Limit of 20 stops the Query at the 20th order, whose key
    # is where the next page would start.
    assert result["requests"][0]["Limit"] == 20
    assert result["requests"][0]["ScanIndexForward"] is False
    assert result["count"] == result["scanned_count"] == 20
    assert result["last_evaluated_key"] == result["item_keys"][-1]


def test_simulate_json_of_a_get_item(orders_json):
    result = _by_pattern(orders_json)["Get customer profile"]

    customer = result["parameters"]["customerId"]["S"]
    assert result["item_keys"] == [
        {"PK": {"S": f"CUST#{customer}"}, "SK": {"S": "PROFILE"}}
    ]
    assert result["requests"][0]["Key"] == result["item_keys"][0]
    assert result["last_evaluated_key"] is None
    assert result["consumed_capacity"] == {
        "read_units": 0.5,
        "write_units": 0.0,
        "by_index": {"table": 0.5},
    }


def test_simulate_with_another_seed_chooses_other_parameters_same_verdicts(
    orders_json,
):
    stdout, _ = _run("simulate", str(ORDER_FILE), "--seed", "5", "--json")
    other = json.loads(stdout)

    assert other["seed"] == 5
    first, second = _by_pattern(orders_json), _by_pattern(other)
    for name in ("Get customer profile", "Orders of a customer, newest first"):
        assert first[name]["parameters"] != second[name]["parameters"], name
        assert first[name]["item_keys"] != second[name]["item_keys"], name
    assert {n: p["verdict"] for n, p in first.items()} == {
        n: p["verdict"] for n, p in second.items()
    }


def test_simulate_json_writes_binary_keys_as_base64(tmp_path):
    path = _write(tmp_path, "binary.yaml", BINARY_KEYS)

    stdout, _ = _run("simulate", str(path), "--json")

    (result,) = json.loads(stdout)["patterns"]
    assert result["item_keys"] == [
        {"PK": {"S": "FILE#f1"}, "SK": {"B": "AAE="}},
        {"PK": {"S": "FILE#f1"}, "SK": {"B": "AAI="}},
    ]
    assert result["last_evaluated_key"] == {
        "PK": {"S": "FILE#f1"},
        "SK": {"B": "AAI="},
    }


def test_simulate_fails_a_query_that_returns_an_item_it_does_not_promise(tmp_path):
    path = _write(tmp_path, "profile-among-orders.yaml", PROFILE_AMONG_ORDERS)
    stdout = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("simulate", str(path), stdout=stdout)

    assert raised.value.returncode == 1
    assert str(raised.value) == (
        "2 of 8 access patterns fail: Get customer profile, "
        "Orders of a customer, newest first"
    )
    lines = stdout.getvalue().splitlines()
    failing = lines.index(next(x for x in lines if "Orders of a customer, new" in x))
    assert lines[failing].startswith("FAIL  Orders of a customer, newest first ")
    assert (
        lines[failing + 1]
        == "      returns 1 item the pattern does not promise (1 Customer)"
    )


def test_simulate_of_a_design_file_with_errors_lists_them(tmp_path):
    """Through a real process: the exit code and that there is no traceback."""
    path = _write(tmp_path, "unknown-attribute.yaml", UNKNOWN_ATTRIBUTE)

    process = subprocess.run(
        [sys.executable, "manage.py", "simulate", str(path)],
        capture_output=True,
        cwd=BASE_DIR,
        timeout=60,
        check=False,
    )

    assert process.returncode == 1
    assert process.stdout == b""
    assert process.stderr.decode() == (
        f"CommandError: {path}:67: error: entities.Order.keys.SK: unknown "
        "attribute 'orderDat' at column 7; did you mean 'orderDate'?\n"
        f"{path}: fix the errors above\n"
    )


def test_simulate_of_a_missing_file(tmp_path):
    missing = tmp_path / "missing.yaml"

    with pytest.raises(CommandError) as raised:
        _run("simulate", str(missing))

    assert raised.value.returncode == 1
    assert str(raised.value) == f"{missing}: no such file"


def test_simulate_of_an_unknown_project(db):
    with pytest.raises(CommandError) as raised:
        _run("simulate", "no-such-design")

    assert str(raised.value) == (
        "no design file or project with id or name 'no-such-design'"
    )


def test_simulate_of_a_design_too_large_to_generate(tmp_path):
    text = SOCIAL_FILE.read_text().replace(
        "sample: {count: 500}", "sample: {count: 2000000}"
    )
    path = _write(tmp_path, "huge.yaml", text)

    with (
        pytest.raises(CommandError) as raised,
        limits.configured(limits.DesignLimits(sample_items=10**8, sample_bytes=10**12)),
    ):
        _run("simulate", str(path))

    assert str(raised.value) == (
        f"{path}: the sample data would hold more than 1,000,000 items "
        "(User alone would have 2,000,000); lower the counts"
    )


_LONG_KEY_DESIGN = """\
format: single-table-workbench/v1
name: Long keys
table:
  name: long-keys
  partition_key: {name: PK, type: S}
  sort_key: {name: SK, type: S}
  billing: {mode: PAY_PER_REQUEST}
  indexes:
    - name: GSI1
      kind: global
      partition_key: {name: GSI1PK, type: S}
      projection: ALL
entities:
  Thing:
    attributes:
      id: {type: S, generator: ulid}
      code: {type: S, generator: {faker: {provider: bothify, text: "THOUSAND_XS"}}}
    keys:
      PK: "T#{id}"
      SK: "T"
      GSI1PK: "{code}{code}{code}"
    sample: {count: 20}
access_patterns:
  - name: Things by code
    operation: Query
    index: GSI1
    key: {GSI1PK: "{code}{code}{code}"}
    expects: {entity: Thing}
"""


def test_simulate_of_a_design_whose_generated_key_is_too_long(tmp_path):
    # A partition key of GSI1 rendered to 3,000 bytes: DynamoDB refuses the
    # item (2,048 at most), and so does the load, with its message.
    text = _LONG_KEY_DESIGN.replace("THOUSAND_XS", "x" * 1000)
    path = _write(tmp_path, "long.yaml", text)

    with pytest.raises(CommandError) as raised:
        _run("simulate", str(path))

    assert str(raised.value) == (
        f"{path}: the sample data cannot be loaded: One or more parameter values "
        "were invalid: Size of hashkey has exceeded the maximum size limit of2048 "
        "bytes"
    )


# --- sample_data ------------------------------------------------------------------


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_sample_data_writes_the_items_simulate_runs_against(tmp_path):
    """The file holds what the simulator loads: every generated item, each
    key once."""
    design = _design(SOCIAL_FILE)
    output = tmp_path / "items.jsonl"

    _, stderr = _run("sample_data", str(SOCIAL_FILE), "--seed", "7", "-o", str(output))

    items = read_jsonl(output.read_text(), design=design, source=str(output))
    assert items == Simulation(design, seed=7).items
    assert len({(i["PK"], i["SK"]) for i in items}) == len(items)
    assert len(_lines(output)) == len(items)
    assert stderr == f"Wrote {len(items):,} items to {output}\n"


def test_sample_data_of_a_project_includes_its_users_items(owner, tmp_path):
    """As the simulation page's download does: the generated items, then
    the items the users typed or imported, a user's item replacing the
    generated one with its key."""
    _run("import_design", str(SOCIAL_FILE), "--owner", "owner")
    project = Project.objects.get(name="Social graph")
    design = _design(SOCIAL_FILE)
    generated = generate(design, seed=7).items
    taken = {**generated[0], "displayName": "Edited by a user"}
    own = {"PK": "USER#u-own", "SK": "PROFILE", "userId": "u-own"}
    sample_services.sample_items_import(
        project=project,
        design=design,
        text="\n".join(write_jsonl([taken, own])),
        source="own.jsonl",
        replace=True,
        version=project.version,
        author=owner,
    )

    with_own, _ = _run("sample_data", "Social graph")
    generated_only, _ = _run("sample_data", "Social graph", "--generated-only")

    lines = with_own.splitlines()
    assert len(lines) == len(generated) + 1
    assert read_jsonl(lines[-1], design=design, source="-") == [own]
    assert '"Edited by a user"' in with_own
    assert read_jsonl(generated_only, design=design, source="-") == generated


def test_sample_data_past_its_bytes_is_refused_before_any_item_is_made(
    tmp_path, monkeypatch
):
    """A 390 KB blob: 300 items are within SAMPLE_MAX_BYTES, 1,000 asked for
    with --items are not."""
    from tests.test_limits import blobs_text

    design = _write(tmp_path, "blobs.yaml", blobs_text(300))
    output = tmp_path / "items.jsonl"

    def no_items(*args, **kwargs):
        raise AssertionError("an item was made")

    monkeypatch.setattr("modeler.management.commands.sample_data.generate", no_items)
    monkeypatch.setattr("modeler.management.commands.sample_data.ItemStream", no_items)
    with pytest.raises(CommandError) as raised:
        _run("sample_data", str(design), "--items", "1000", "-o", str(output))

    assert str(raised.value) == (
        f"{design}: Doc's 1,000 items of about 389,151 bytes each would make the "
        "sample data about 389,151,000 bytes; this workbench allows at most "
        "250,000,000 bytes (setting SAMPLE_MAX_BYTES)"
    )
    assert not output.exists()


def test_sample_data_file_of_a_project_is_the_text_written_to_stdout(owner, tmp_path):
    """A file is written as the items are made; the users' items still
    replace the generated ones with their keys (and the later of two of
    their own wins), as on stdout, which is written from the whole list."""
    _run("import_design", str(SOCIAL_FILE), "--owner", "owner")
    project = Project.objects.get(name="Social graph")
    design = _design(SOCIAL_FILE)
    generated = generate(design, seed=7).items
    taken = {**generated[3], "displayName": "Edited by a user"}
    own = {"PK": "USER#u-own", "SK": "PROFILE", "userId": "u-own"}
    again = {**own, "displayName": "The later one"}
    sample_services.sample_items_import(
        project=project,
        design=design,
        text="\n".join(write_jsonl([taken, own, again])),
        source="own.jsonl",
        replace=True,
        version=project.version,
        author=owner,
    )
    output = tmp_path / "items.jsonl"

    stdout, _ = _run("sample_data", "Social graph", "--items", "700")
    _, stderr = _run("sample_data", "Social graph", "--items", "700", "-o", str(output))

    assert output.read_text(encoding="utf-8") == stdout
    lines = stdout.splitlines()
    assert len(lines) == 700 - 1 + 2
    assert '"Edited by a user"' in lines[-2] and '"The later one"' in lines[-1]
    assert stderr == f"Wrote {len(lines):,} items to {output}\n"


CROWDED = """
format: single-table-workbench/v1
name: Slots
table:
  name: slots
  partition_key: {name: PK, type: S}
  sort_key: {name: SK, type: S}
entities:
  Day:
    attributes:
      id: {type: S, generator: uuid}
    keys: {PK: "DAY#{id}", SK: "DAY"}
    sample: {count: 40}
  Slot:
    attributes:
      dayId: {type: S, generator: {ref: Day.id}}
      hour: {type: N, generator: {int: {min: 1, max: 5}}}
    keys: {PK: "DAY#{dayId}", SK: "SLOT#{hour:02d}"}
    sample: {per: Day, count: 8}
"""


def test_sample_data_file_whose_keys_run_out_holds_each_key_once(tmp_path):
    """Eight slots a day from five hours: the draws give up and items share
    keys, which only the whole list shows: the file is written again from
    it, the later of two items kept, as on stdout."""
    design = _write(tmp_path, "slots.yaml", CROWDED)
    output = tmp_path / "items.jsonl"
    output.write_text("an older file, longer than the items will be\n" * 9999)

    stdout, _ = _run("sample_data", str(design))
    _, stderr = _run("sample_data", str(design), "-o", str(output))

    assert output.read_text(encoding="utf-8") == stdout
    keys = [_wire_key(json.loads(line)) for line in stdout.splitlines()]
    assert len(keys) == len(set(keys)) == 40 + 40 * 5
    assert stderr == f"Wrote {len(keys):,} items to {output}\n"


def test_sample_data_failing_on_the_way_leaves_the_file_as_it_was(tmp_path):
    """The items are written as they are made; a generation that fails
    after some were written leaves no half file behind, and the file that
    was there as it was."""
    text = CROWDED.replace(
        "hour: {type: N, generator: {int: {min: 1, max: 5}}}",
        'hour: {type: S, generator: {faker: {provider: numerify, text: "#", '
        "unique: true}}}",
    ).replace("SLOT#{hour:02d}", "SLOT#{hour}")
    design = _write(tmp_path, "slots.yaml", text)
    output = tmp_path / "items.jsonl"
    output.write_text("the items of yesterday\n")

    with pytest.raises(CommandError) as raised:
        _run("sample_data", str(design), "-o", str(output))

    assert str(raised.value) == (
        f"{design}: Slot.hour: made 10 distinct values and cannot make more; "
        "widen the pattern, or set unique: false"
    )
    assert output.read_text() == "the items of yesterday\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["items.jsonl", "slots.yaml"]


def test_sample_data_whose_counts_make_too_few_items_leaves_no_file(tmp_path):
    design = _write(tmp_path, "none.yaml", CROWDED.replace("count: 40", "count: 0"))
    output = tmp_path / "items.jsonl"
    message = f"{design}: the design's counts make 0 items, not the 5 asked for"

    for args in (("-o", str(output)), ()):
        with pytest.raises(CommandError) as raised:
            _run("sample_data", str(design), "--items", "5", *args)
        assert str(raised.value) == message
    assert not output.exists()


def test_sample_data_through_a_link_writes_the_file_it_names(tmp_path):
    target, link = tmp_path / "items.jsonl", tmp_path / "link.jsonl"
    target.write_text("older\n")
    link.symlink_to(target)

    stdout, _ = _run("sample_data", str(ORDER_FILE), "--items", "50")
    _run("sample_data", str(ORDER_FILE), "--items", "50", "-o", str(link))

    assert link.is_symlink() and target.read_text(encoding="utf-8") == stdout


def test_sample_data_is_the_same_for_the_same_seed(tmp_path):
    paths = [tmp_path / name for name in ("a.jsonl", "b.jsonl", "c.jsonl")]

    for path, seed in zip(paths, ("3", "3", "4"), strict=True):
        _run("sample_data", str(SOCIAL_FILE), "--seed", seed, "-o", str(path))

    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert paths[0].read_bytes() != paths[2].read_bytes()


def test_sample_data_cuts_to_the_number_of_items(tmp_path):
    design = _design(ORDER_FILE)
    output = tmp_path / "items.jsonl"

    _run("sample_data", str(ORDER_FILE), "--items", "500", "-o", str(output))

    items = read_jsonl(output.read_text(), design=design, source=str(output))
    assert len(_lines(output)) == len(items) == 500
    assert items == generate(design, limit=500).items


def test_sample_data_scales_up_to_exactly_the_number_of_items(tmp_path):
    """With seed 10 the design makes 6,995 items; scaling its customers by
    10,493 / 6,995 and a tenth more still makes only 10,415, so it scales
    again."""
    design = _design(ORDER_FILE)
    output = tmp_path / "items.jsonl"

    _run(
        "sample_data",
        str(ORDER_FILE),
        "--seed",
        "10",
        "--items",
        "10493",
        "-o",
        str(output),
    )

    items = read_jsonl(output.read_text(), design=design, source=str(output))
    assert len(_lines(output)) == len(items) == 10_493
    assert len({(i["PK"], i["SK"]) for i in items}) == 10_493


def test_sample_data_file_is_byte_for_byte_the_wire_dicts_text(tmp_path):
    """More lines than one written block: the file is what serialising each
    item's wire dicts with json.dumps wrote, line after line."""
    design = _design(ORDER_FILE)
    output = tmp_path / "items.jsonl"

    _run("sample_data", str(ORDER_FILE), "--items", "5000", "-o", str(output))

    expected = "".join(
        json.dumps(item_to_json_wire(item), ensure_ascii=False, separators=(",", ":"))
        + "\n"
        for item in generate(design, limit=5000).items
    )
    assert output.read_bytes() == expected.encode()


def test_sample_data_to_stdout():
    design = _design(ORDER_FILE)

    stdout, stderr = _run("sample_data", str(ORDER_FILE), "--items", "3")

    assert stdout.count("\n") == 3
    assert read_jsonl(stdout, design=design, source="-") == (
        generate(design, limit=3).items
    )
    assert stderr == ""


def test_sample_data_of_a_project_by_name(owner):
    _run("import_design", str(SOCIAL_FILE), "--owner", "owner")

    from_project, _ = _run("sample_data", "Social graph", "--items", "20")
    from_file, _ = _run("sample_data", str(SOCIAL_FILE), "--items", "20")

    assert from_project == from_file


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("0", "Error: argument --items: must be 1 or more, not 0"),
        ("2000001", "--items: at most 1,000,000"),
    ],
)
def test_sample_data_refuses_a_number_of_items(items, message):
    with pytest.raises(CommandError) as raised:
        _run("sample_data", str(SOCIAL_FILE), "--items", items)

    assert str(raised.value) == message


def test_sample_data_to_a_directory_that_does_not_exist(tmp_path):
    output = tmp_path / "missing" / "items.jsonl"

    with pytest.raises(CommandError) as raised:
        _run("sample_data", str(SOCIAL_FILE), "--items", "3", "-o", str(output))

    assert str(raised.value) == f"{output}: No such file or directory"


# --- compare_endpoint against moto's server ---------------------------------------


def _compare(moto_url: str, design: Path, *args: str) -> str:
    stdout, _ = _run(
        "compare_endpoint",
        str(design),
        "--endpoint-url",
        moto_url,
        "--region",
        REGION,
        *args,
    )
    return stdout


def _table_names(client: Any) -> list[str]:
    return client.list_tables()["TableNames"]


def _scan_keys(client: Any, table: str) -> list[tuple[str, str]]:
    return sorted(_wire_key(item) for item in client.scan(TableName=table)["Items"])


SOCIAL_READS = [
    "Get user profile",
    "Users a user follows",
    "Followers of a user",
    "Does a user follow another",
]


def test_compare_endpoint_agrees_and_deletes_its_table(aws, moto_url):
    stdout = _compare(moto_url, SOCIAL_FILE, "--items", "300", "--table-name", "agrees")

    assert stdout.splitlines() == [f"SAME  {name}" for name in SOCIAL_READS] + [
        "4 read patterns agree with the simulator on agrees"
    ]
    assert "agrees" not in _table_names(aws)


def test_compare_endpoint_keeps_the_table_with_keep(aws, moto_url):
    _compare(moto_url, SOCIAL_FILE, "--items", "300", "--table-name", "kept", "--keep")

    simulated = Simulation(_design(SOCIAL_FILE), limit=300).items
    assert 0 < len(simulated) <= 300
    assert _scan_keys(aws, "kept") == sorted(
        (item["PK"], item["SK"]) for item in simulated
    )
    arn = aws.describe_table(TableName="kept")["Table"]["TableArn"]
    assert aws.list_tags_of_resource(ResourceArn=arn)["Tags"] == [
        {"Key": "created-by", "Value": "single-table-workbench"}
    ]
    aws.delete_table(TableName="kept")


def test_compare_endpoint_leaves_an_existing_table_alone(aws, moto_url):
    request = create_table_request(_design(SOCIAL_FILE), table_name="theirs")
    aws.create_table(**request)
    theirs = {"PK": {"S": "THEIRS#1"}, "SK": {"S": "THEIRS"}}
    aws.put_item(TableName="theirs", Item=theirs)

    with pytest.raises(CommandError) as raised:
        _compare(moto_url, SOCIAL_FILE, "--items", "300", "--table-name", "theirs")

    assert str(raised.value) == (
        "the table theirs already exists; the workbench only writes to tables "
        "it creates. Choose another table name (--table-name), or load into "
        "it anyway (--use-existing)."
    )
    assert _scan_keys(aws, "theirs") == [("THEIRS#1", "THEIRS")]

    # Told to, it loads into the table, and keeps it: it did not create it.
    stdout = _compare(
        moto_url,
        SOCIAL_FILE,
        "--items",
        "300",
        "--table-name",
        "theirs",
        "--use-existing",
    )

    assert stdout.endswith("4 read patterns agree with the simulator on theirs\n")
    assert ("THEIRS#1", "THEIRS") in _scan_keys(aws, "theirs")
    aws.delete_table(TableName="theirs")


def test_compare_endpoint_counts_what_moto_does_differently_as_no_difference(
    aws, moto_url, tmp_path
):
    """moto cuts Scan pages at 1,000,000 bytes, scans in another order and
    reports a constant ConsumedCapacity: none of these is a difference."""
    path = _write(tmp_path, "blobs.yaml", BLOBS)

    stdout = _compare(moto_url, path, "--table-name", "blobs", "--keep")

    assert stdout.splitlines() == [
        "SAME  Every blob",
        "SAME  A few blobs",
        "2 read patterns agree with the simulator on blobs",
    ]
    simulation = Simulation(_design(BLOBS))
    every, few = (simulation.run(p) for p in simulation.design.access_patterns)
    assert (every.count, every.pages) == (250, 1)
    page = aws.scan(TableName="blobs", ReturnConsumedCapacity="TOTAL")
    assert page["Count"] < 250
    assert "LastEvaluatedKey" in page
    assert page["ConsumedCapacity"]["CapacityUnits"] != every.capacity.read
    first_ten = [_wire_key(item) for item in page["Items"][:10]]
    assert first_ten != [(item["PK"], item["SK"]) for item in few.items]
    aws.delete_table(TableName="blobs")


def test_compare_endpoint_deletes_its_table_when_loading_fails(
    aws, moto_url, monkeypatch
):
    def refuse(self, items):
        raise EndpointError("ValidationException: refused")

    monkeypatch.setattr(Endpoint, "load", refuse)

    with pytest.raises(CommandError) as raised:
        _compare(moto_url, SOCIAL_FILE, "--items", "10", "--table-name", "half")

    assert str(raised.value) == "ValidationException: refused"
    assert "half" not in _table_names(aws)


def test_compare_endpoint_deletes_a_table_that_never_became_active(
    aws, moto_url, monkeypatch
):
    def give_up(self, **kwargs):
        raise WaiterError(self.name, "Max attempts exceeded", {})

    monkeypatch.setattr(Waiter, "wait", give_up)

    with pytest.raises(CommandError) as raised:
        _compare(moto_url, SOCIAL_FILE, "--items", "10", "--table-name", "stuck")

    assert str(raised.value) == "Waiter TableExists failed: Max attempts exceeded"
    assert "stuck" not in _table_names(aws)


@pytest.fixture
def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_compare_endpoint_that_cannot_be_reached(aws, unused_port):
    with pytest.raises(CommandError) as raised:
        _compare(f"http://127.0.0.1:{unused_port}", SOCIAL_FILE, "--items", "10")

    assert str(raised.value) == (
        f'Could not connect to the endpoint URL: "http://127.0.0.1:{unused_port}/": '
        "check the endpoint URL (or the region, for AWS) and that the endpoint is "
        "running"
    )


# --- Endpoint.load: batches and unprocessed items ---------------------------------


class FakeClient:
    """batch_write_item leaves the last `unprocessed` requests of each call
    unprocessed, `times` times."""

    def __init__(self, *, unprocessed: int, times: int) -> None:
        self.unprocessed = unprocessed
        self.times = times
        self.calls: list[list[dict[str, Any]]] = []

    def batch_write_item(self, *, RequestItems):  # boto3's name
        (requests,) = RequestItems.values()
        self.calls.append(requests)
        if self.times and self.unprocessed:
            self.times -= 1
            left = requests[-self.unprocessed :]
            return {"UnprocessedItems": {"social-graph-workbench": left}}
        return {"UnprocessedItems": {}}


@pytest.fixture
def sleeps(monkeypatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(dynamodb.time, "sleep", slept.append)
    return slept


def _items(count: int) -> list[dict[str, Any]]:
    return [{"PK": f"USER#{i}", "SK": "PROFILE"} for i in range(count)]


def test_load_writes_batches_of_25_and_retries_unprocessed_items(sleeps):
    client = FakeClient(unprocessed=3, times=1)
    endpoint = Endpoint(_design(SOCIAL_FILE), client)

    written = endpoint.load(_items(30))

    assert written == 30
    put = [
        {"PutRequest": {"Item": {"PK": {"S": f"USER#{i}"}, "SK": {"S": "PROFILE"}}}}
        for i in range(30)
    ]
    assert client.calls == [put[:25], put[22:25], put[25:]]
    assert sleeps == [0.05]


def test_load_gives_up_on_items_that_stay_unprocessed(sleeps):
    client = FakeClient(unprocessed=3, times=100)
    endpoint = Endpoint(_design(SOCIAL_FILE), client)

    with pytest.raises(EndpointError) as raised:
        endpoint.load(_items(10))

    assert str(raised.value) == (
        "3 items were still unprocessed after 8 attempts (throttled?)"
    )
    assert len(client.calls) == 8
    assert sleeps == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0]


def test_simulate_a_design_without_patterns_says_what_to_add(tmp_path):
    text = SOCIAL_FILE.read_text().split("access_patterns:")[0]
    path = _write(tmp_path, "no-patterns.yaml", text)

    stdout, _ = _run("simulate", str(path))

    assert stdout.splitlines()[-1] == (
        "No access patterns to simulate: list the reads and writes the "
        "application makes (access_patterns in the design file)."
    )


def test_sample_data_keeps_no_items_after_it_has_written_them(tmp_path):
    """The command generates once: the items are not kept in memory for a
    generation that will not come."""
    generate_module = importlib.import_module("modeler.sampledata.generate")
    generate_module.forget_kept_items()
    output = tmp_path / "items.jsonl"

    _run("sample_data", str(ORDER_FILE), "--items", "500", "-o", str(output))

    assert len(_lines(output)) == 500
    assert generate_module._kept._items == 0
