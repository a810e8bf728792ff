"""The generated migration script as a user runs it: a Python file, in its
own process, against a DynamoDB endpoint (the workbench's, loaded with the
old design's sample data). Killed halfway and started again, it leaves the
same table as a run that was never stopped; run again, it writes nothing.
Names from the design stay data in it."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.engine.engine import Engine
from modeler.evolution.matching import entity_matching
from modeler.evolution.plan import plan_migration
from modeler.evolution.proof import loaded_client, table_items
from modeler.evolution.script import migration_script, script_namespace
from modeler.evolution.spec import rewrite_spec
from modeler.sampledata import generate
from modeler.simulation.requests import create_table_request
from tests.evolution import revisions
from tests.evolution.revisions import smaller

ROOT = Path(__file__).resolve().parents[2]


class Endpoint:
    """The workbench's endpoint on a free port, holding the old design's
    sample data. With `stop_after`, the server stops answering after that
    many writes (the write is applied, its answer never sent) until
    `release()`: the moment a test kills the script."""

    def __init__(self, design: d.Design, stop_after: int | None = None) -> None:
        self.writes = 0
        self.stop_after = stop_after
        self.reached = threading.Event()
        self.released = threading.Event()
        self.engine = Engine()
        self.server = start(
            Service(self.engine, on_write=self._written), ("127.0.0.1", 0)
        )
        host, port = self.server.server_address[:2]
        self.url = f"http://{host}:{port}"
        self.engine.create_table(create_table_request(design))
        dataset = generate(design)
        self.engine.load_items(design.table.name, dataset.items, None)

    def _written(self, operation: str, body: bytes) -> None:
        self.writes += 1
        if self.stop_after is not None and self.writes == self.stop_after:
            self.reached.set()
            self.released.wait()

    def release(self) -> None:
        self.stop_after = None
        self.released.set()

    def close(self) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()

    def items(self, table: str) -> list[dict]:
        from modeler.engine.client import Client

        return sorted(
            table_items(Client(self.engine), table),
            key=lambda i: repr(sorted(i.items())),
        )


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        AWS_ACCESS_KEY_ID="anything",
        AWS_SECRET_ACCESS_KEY="anything",
        AWS_DEFAULT_REGION="us-east-1",
    )
    env.pop("AWS_PROFILE", None)
    return env


def _script_file(tmp_path: Path, before: d.Design, after: d.Design) -> Path:
    spec = rewrite_spec(
        before, after, entity_matching(before, after), wcu_per_second=0, title="test"
    )
    path = tmp_path / "migrate.py"
    path.write_text(migration_script(spec, before=before.name, after=after.name))
    return path


def _command(script: Path, endpoint: Endpoint, *args: str) -> list[str]:
    return [
        sys.executable,
        str(script),
        "--endpoint-url",
        endpoint.url,
        "--checkpoint",
        str(script.with_name("checkpoint.json")),
        *args,
    ]


def _run(script: Path, endpoint: Endpoint, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        _command(script, endpoint, *args),
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=300,
        cwd=script.parent,
    )


@pytest.fixture
def endpoints():
    made: list[Endpoint] = []

    def make(design: d.Design, stop_after: int | None = None) -> Endpoint:
        endpoint = Endpoint(design, stop_after)
        made.append(endpoint)
        return endpoint

    yield make
    for endpoint in made:
        endpoint.close()


def test_a_script_killed_halfway_and_resumed_leaves_the_same_table(tmp_path, endpoints):
    before = smaller(revisions.original())
    after = smaller(revisions.sort_key_changed())
    whole_dir, killed_dir = tmp_path / "whole", tmp_path / "killed"
    whole_dir.mkdir()
    killed_dir.mkdir()

    whole = endpoints(before)
    script = _script_file(whole_dir, before, after)
    finished = _run(script, whole)
    assert finished.returncode == 0, finished.stderr
    moved = whole.writes
    assert moved > 20  # each order put under its new key and its old one deleted

    killed = endpoints(before, stop_after=moved // 2)
    script = _script_file(killed_dir, before, after)
    process = subprocess.Popen(
        _command(script, killed),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_environment(),
        cwd=killed_dir,
    )
    try:
        assert killed.reached.wait(timeout=300)
    finally:
        process.kill()
        process.wait()
    killed.release()
    assert process.returncode != 0
    checkpoint = json.loads((killed_dir / "checkpoint.json").read_text())
    assert not all(s["done"] for s in checkpoint["segments"].values())

    resumed = _run(script, killed)
    assert resumed.returncode == 0, resumed.stderr
    assert killed.items(before.table.name) == whole.items(before.table.name)

    # After the final deploy, the cleanup removes the orders' old items.
    for endpoint, folder in ((whole, whole_dir), (killed, killed_dir)):
        cleaned = _run(script, endpoint, *_cleanup(folder))
        assert cleaned.returncode == 0, cleaned.stderr
    assert killed.items(before.table.name) == whole.items(before.table.name)

    verified = _run(script, killed, "--verify", "--cleanup")
    assert verified.returncode == 0, verified.stdout
    assert "Order: " in verified.stdout and "problem" not in verified.stdout


def _cleanup(folder: Path) -> tuple[str, ...]:
    return ("--cleanup", "--checkpoint", str(folder / "cleanup-checkpoint.json"))


def test_a_second_run_writes_nothing(tmp_path, endpoints):
    before = smaller(revisions.original())
    after = smaller(revisions.index_made_sparse())
    endpoint = endpoints(before)
    script = _script_file(tmp_path, before, after)
    assert _run(script, endpoint).returncode == 0
    # The customers that leave the index keep their keys until the cleanup:
    # the deployed application still queries the index for them.
    assert endpoint.writes == 0
    assert _run(script, endpoint, *_cleanup(tmp_path)).returncode == 0
    written = endpoint.writes
    assert written > 0
    table = endpoint.items(before.table.name)
    # A new run of both phases from the start.
    (tmp_path / "checkpoint.json").unlink()
    (tmp_path / "cleanup-checkpoint.json").unlink()
    assert _run(script, endpoint).returncode == 0
    again = _run(script, endpoint, *_cleanup(tmp_path))
    assert again.returncode == 0, again.stderr
    assert endpoint.writes == written
    assert endpoint.items(before.table.name) == table
    assert "rewritten 0" in again.stderr


def test_a_cleanup_killed_halfway_and_resumed_leaves_the_same_table(
    tmp_path, endpoints
):
    before = smaller(revisions.original())
    after = smaller(revisions.sort_key_changed())
    whole_dir, killed_dir = tmp_path / "whole", tmp_path / "killed"
    whole_dir.mkdir()
    killed_dir.mkdir()

    whole = endpoints(before)
    script = _script_file(whole_dir, before, after)
    assert _run(script, whole).returncode == 0
    rewritten = whole.writes
    assert _run(script, whole, *_cleanup(whole_dir)).returncode == 0
    deleted = whole.writes - rewritten
    assert deleted > 20  # each order's old item

    killed = endpoints(before)
    script = _script_file(killed_dir, before, after)
    assert _run(script, killed).returncode == 0
    killed.stop_after = killed.writes + deleted // 2
    process = subprocess.Popen(
        _command(script, killed, *_cleanup(killed_dir)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_environment(),
        cwd=killed_dir,
    )
    try:
        assert killed.reached.wait(timeout=300)
    finally:
        process.kill()
        process.wait()
    killed.release()
    checkpoint = json.loads((killed_dir / "cleanup-checkpoint.json").read_text())
    assert not all(s["done"] for s in checkpoint["segments"].values())

    resumed = _run(script, killed, *_cleanup(killed_dir))
    assert resumed.returncode == 0, resumed.stderr
    assert killed.items(before.table.name) == whole.items(before.table.name)
    verified = _run(script, killed, "--verify", "--cleanup")
    assert verified.returncode == 0, verified.stdout


def test_the_cleanup_refuses_the_rewrite_checkpoint(tmp_path, endpoints):
    before = smaller(revisions.original())
    after = smaller(revisions.index_made_sparse())
    endpoint = endpoints(before)
    script = _script_file(tmp_path, before, after)
    assert _run(script, endpoint).returncode == 0
    refused = _run(script, endpoint, "--cleanup")
    assert refused.returncode != 0
    assert "is of the rewrite run; give the cleanup run its own --checkpoint" in (
        refused.stderr
    )


def test_a_dry_run_counts_and_writes_nothing(tmp_path, endpoints):
    before = smaller(revisions.original())
    after = smaller(revisions.entity_split())
    endpoint = endpoints(before)
    script = _script_file(tmp_path, before, after)
    dry = _run(script, endpoint, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert endpoint.writes == 0
    assert "rewritten 15" in dry.stderr  # the 15 customers
    assert not (tmp_path / "checkpoint.json").exists()
    unverified = _run(script, endpoint, "--verify")
    assert unverified.returncode == 1
    assert "problem" in unverified.stdout


def test_a_checkpoint_of_another_plan_is_refused(tmp_path, endpoints):
    before = smaller(revisions.original())
    endpoint = endpoints(before)
    first = _script_file(tmp_path, before, smaller(revisions.index_made_sparse()))
    (tmp_path / "checkpoint.json").write_text(
        json.dumps({"plan": "another", "segments": {}})
    )
    refused = _run(first, endpoint)
    assert refused.returncode != 0
    assert "belongs to another plan" in refused.stderr
    assert endpoint.writes == 0


# --- Names from the design are data ---------------------------------------------

HOSTILE = 'X"""; __import__("os").system("touch PWNED"); """\n#\x00\\'


def _hostile(design: d.Design) -> d.Design:
    """Hostile text in the design's name (table names are checked), in an entity's
    name (one no other entity refers to) and in its sort key's literal."""

    def hostile(entity: d.Entity) -> d.Entity:
        if entity.name != "LineItem":
            return entity
        keys = dict(entity.keys, SK=d.KeyTemplate(HOSTILE + "{lineNo:03d}"))
        return dataclasses.replace(entity, name="LineItem" + HOSTILE, keys=keys)

    entities = tuple(hostile(e) for e in design.entities)
    return dataclasses.replace(design, name=HOSTILE, entities=entities)


def test_hostile_names_stay_data_in_the_script(tmp_path):
    before = smaller(revisions.original())
    after = smaller(revisions.key_attribute_renamed())
    before, after = _hostile(before), _hostile(after)
    spec = rewrite_spec(
        before, after, entity_matching(before, after), wcu_per_second=5, title=HOSTILE
    )
    text = migration_script(spec, before=before.name, after=after.name)
    tree = ast.parse(text)
    # The hostile text is only ever inside the one JSON string literal.
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and "PWNED" in node.value
        ):
            assert json.loads(node.value)["title"] == HOSTILE
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names
            if isinstance(node, ast.Import)
            else [ast.alias(node.module or "")]
        )
    }
    # Only the standard library and boto3 (with botocore, which it is built
    # on and installs): the script runs anywhere.
    assert imported == {
        "__future__",
        "argparse",
        "boto3",
        "botocore",
        "collections",
        "decimal",
        "json",
        "os",
        "sys",
        "threading",
        "time",
        "typing",
    }
    namespace = script_namespace(text)
    assert namespace["PLAN"]["title"] == HOSTILE
    assert namespace["PLAN"]["entities"][2]["name"] == "LineItem" + HOSTILE
    literal = namespace["PLAN"]["entities"][2]["table_keys"]["SK"]["parts"][0]
    assert literal == HOSTILE
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()
    # It runs: the rewrite of the renamed attribute, on the hostile table.
    client, _ = loaded_client(before, after, spec)
    tally = namespace["Migration"](namespace["PLAN"], client, workers=1).run()
    assert tally.by_entity == {"Customer": 15}
    assert tally.counts["unknown"] == 0  # the hostile line items recognised


def test_the_plan_proves_the_script_it_hands_out():
    plan = plan_migration(smaller(revisions.original()), smaller(revisions.gsi_added()))
    assert plan.proven
    namespace = script_namespace(plan.script)
    assert namespace["PLAN"] == plan.spec


def test_what_stops_the_script_is_said_in_a_line(tmp_path, endpoints):
    before = smaller(revisions.original())
    endpoint = endpoints(before)
    script = _script_file(tmp_path, before, smaller(revisions.index_made_sparse()))
    nowhere = endpoints(before)
    nowhere.close()  # nothing listens there any more
    missing = _run(script, endpoint, "--source-table", "Nope")
    unreachable = _run(script, nowhere)
    (tmp_path / "checkpoint.json").write_text(
        json.dumps({"plan": "another", "segments": {}})
    )
    other_plan = _run(script, endpoint)
    for run, says in [
        (missing, "ResourceNotFoundException"),
        (unreachable, "Could not connect to the endpoint URL"),
        (other_plan, "belongs to another plan"),
    ]:
        assert run.returncode == 1
        assert "Traceback" not in run.stderr, run.stderr
        (line,) = [x for x in run.stderr.splitlines() if x.startswith("error: ")]
        assert says in line
    # A Scan of no segment would scan nothing and say it is done.
    none = _run(script, endpoint, "--segments", "0")
    assert none.returncode == 2
    assert "--segments: give 1 or more" in none.stderr
    assert endpoint.writes == 0


@pytest.mark.parametrize(
    "after", [revisions.sort_key_changed, revisions.partition_key_changed]
)
def test_every_option_of_the_script_says_what_it_does(tmp_path, after):
    plan = plan_migration(revisions.original(), after(), proof=False)
    script = tmp_path / "migrate.py"
    script.write_text(plan.script)
    shown = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shown = " ".join(shown.split())
    assert (
        "the deployed table whose items are migrated (default: "
        f"{plan.spec['source_table']})" in shown
    )
    assert "http://localhost:8000 for DynamoDB Local" in shown
    assert "the AWS region of the tables" in shown
    assert "writing and deleting nothing and keeping no checkpoint" in shown
    assert "(default: 1000; 0: no limit)" in shown
    if plan.spec["copy"]:
        assert "the new table the items are copied into" in shown
        assert f"(default: {plan.spec['target_table']})" in shown
    else:
        assert "not used by this migration: it rewrites the items in place" in shown
    # And no option is left without a word.
    parser = script_namespace(plan.script)["parser_of"](plan.spec)
    unexplained = [
        action.option_strings for action in parser._actions if not action.help
    ]
    assert unexplained == []
