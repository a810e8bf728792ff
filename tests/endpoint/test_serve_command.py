"""`manage.py serve_dynamodb` as a user runs it: a process serving a
design's table with its sample data, seen through boto3 and the AWS CLI,
and a data directory that keeps every acknowledged write across a restart,
a kill -9 in the middle of writing included."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.examples import EXAMPLES_DIR
from modeler.sampledata import generate, with_own_items
from tests.endpoint.conftest import boto3_client

ROOT = Path(__file__).resolve().parents[2]
DESIGN = EXAMPLES_DIR / "social-graph.yaml"
# Generous: the process starts Django on a machine other tests keep busy.
STARTUP_DEADLINE = 120


COMMAND = [sys.executable, "manage.py", "serve_dynamodb"]
WITHOUT_DJANGO = [sys.executable, "-m", "modeler.endpoint"]


class Served:
    def __init__(self, *args: str, command: list[str] = COMMAND) -> None:
        self.process = subprocess.Popen(  # our command, our arguments
            [*command, "--address", "127.0.0.1:0", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.output: list[str] = []
        self.url = self._wait_for_url()

    def _wait_for_url(self) -> str:
        """The URL the command prints once it answers (waits for that line,
        or for the process to end). Lines are read by a thread: a select()
        on the pipe would miss a line already in the reader's buffer, which
        two lines printed at once put there."""
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            for line in self.process.stdout:
                lines.put(line)
            lines.put("")

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        while True:
            try:
                line = lines.get(timeout=STARTUP_DEADLINE)
            except queue.Empty:
                break
            if not line:
                break
            self.output.append(line)
            found = re.search(r"endpoint on (http://\S+)", line)
            if found:
                return found.group(1)
        self.process.kill()
        raise AssertionError(
            "".join(self.output) + self.process.stderr.read() + " (no endpoint)"
        )

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self.process.send_signal(sig)
        self.process.wait()
        self.reader.join()  # at the end of the output, before it is closed
        self.process.stdout.close()
        self.process.stderr.close()


@pytest.fixture
def served():  # type: ignore[no-untyped-def]
    running: list[Served] = []

    def serve(*args: str, command: list[str] = COMMAND) -> Served:
        running.append(Served(*args, command=command))
        return running[-1]

    yield serve
    for one in running:
        if one.process.poll() is None:
            one.stop(signal.SIGKILL)


def _sample_keys(design_path: Path) -> set[tuple]:
    design = read_design(design_path.read_bytes()).design
    dataset = with_own_items(design, generate(design))
    key = [a.name for a in design.table.key_attributes]
    return {tuple(str(item[k]) for k in key) for item in dataset.items}, design


def _scan_keys(ddb, table: str, key: list[str]) -> set[tuple]:  # type: ignore[no-untyped-def]
    keys = set()
    for page in ddb.get_paginator("scan").paginate(TableName=table):
        for item in page["Items"]:
            keys.add(tuple(next(iter(item[k].values())) for k in key))
    return keys


@pytest.mark.parametrize("command", [COMMAND, WITHOUT_DJANGO], ids=["manage", "module"])
def test_a_design_served_with_the_simulators_sample_data(served, command):
    expected, design = _sample_keys(DESIGN)
    server = served(str(DESIGN), command=command)
    ddb = boto3_client(server.url)
    name = design.table.name
    assert ddb.list_tables()["TableNames"] == [name]
    key = [a.name for a in design.table.key_attributes]
    assert _scan_keys(ddb, name, key) == expected
    described = ddb.describe_table(TableName=name)["Table"]
    assert {i["IndexName"] for i in described.get("GlobalSecondaryIndexes", [])} == {
        i.name for i in design.table.indexes if i.is_global
    }
    server.stop()


@pytest.mark.skipif(shutil.which("aws") is None, reason="the AWS CLI is not installed")
def test_the_aws_cli_talks_to_it(served, tmp_path):
    server = served()
    env = {
        **os.environ,
        "AWS_ACCESS_KEY_ID": "any",
        "AWS_SECRET_ACCESS_KEY": "any",
        "AWS_DEFAULT_REGION": "ap-south-1",
        "AWS_CONFIG_FILE": str(tmp_path / "none"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
    }

    def aws(*args: str) -> dict:
        done = subprocess.run(
            [
                shutil.which("aws"),
                "dynamodb",
                *args,
                "--endpoint-url",
                server.url,
                "--output",
                "json",
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout or "{}")

    aws(
        "create-table",
        "--table-name",
        "Cli",
        "--attribute-definitions",
        "AttributeName=id,AttributeType=S",
        "--key-schema",
        "AttributeName=id,KeyType=HASH",
        "--billing-mode",
        "PAY_PER_REQUEST",
    )
    aws(
        "put-item",
        "--table-name",
        "Cli",
        "--item",
        '{"id": {"S": "1"}, "n": {"N": "1.50"}}',
    )
    got = aws("get-item", "--table-name", "Cli", "--key", '{"id": {"S": "1"}}')
    assert got["Item"] == {"id": {"S": "1"}, "n": {"N": "1.5"}}
    assert aws("list-tables")["TableNames"] == ["Cli"]
    server.stop()


def _create(ddb) -> None:  # type: ignore[no-untyped-def]
    ddb.create_table(
        TableName="Kept",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )


def test_the_data_dir_keeps_tables_and_writes_across_a_restart(served, tmp_path):
    server = served("--data-dir", str(tmp_path))
    ddb = boto3_client(server.url)
    _create(ddb)
    ddb.put_item(TableName="Kept", Item={"id": {"S": "a"}, "n": {"N": "1"}})
    ddb.update_item(
        TableName="Kept",
        Key={"id": {"S": "a"}},
        UpdateExpression="ADD n :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
    )
    ddb.update_time_to_live(
        TableName="Kept",
        TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"},
    )
    server.stop()
    again = served("--data-dir", str(tmp_path))
    ddb = boto3_client(again.url)
    assert ddb.get_item(TableName="Kept", Key={"id": {"S": "a"}})["Item"]["n"] == {
        "N": "2"
    }
    assert ddb.describe_time_to_live(TableName="Kept")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "ttl",
    }
    again.stop()


def test_kill_9_while_writing_loses_no_acknowledged_write(served, tmp_path):
    server = served("--data-dir", str(tmp_path))
    ddb = boto3_client(server.url)
    _create(ddb)
    acknowledged: list[int] = []
    enough = threading.Event()

    def write() -> None:
        client = boto3_client(server.url)
        n = 0
        while True:
            try:
                client.update_item(
                    TableName="Kept",
                    Key={"id": {"S": f"item-{n}"}},
                    UpdateExpression="ADD hits :one",
                    ExpressionAttributeValues={":one": {"N": "1"}},
                )
            except Exception:
                return  # the server is gone
            acknowledged.append(n)
            n += 1
            if n == 200:
                enough.set()

    writer = threading.Thread(target=write)
    writer.start()
    assert enough.wait(STARTUP_DEADLINE)
    server.stop(signal.SIGKILL)  # while the writer is still writing
    writer.join()
    again = served("--data-dir", str(tmp_path))
    ddb = boto3_client(again.url)
    keys = {item["id"]["S"] for item in ddb.scan(TableName="Kept")["Items"]}
    assert {f"item-{n}" for n in acknowledged} <= keys
    # At most the write the kill interrupted is there without its answer.
    assert len(keys) - len(acknowledged) <= 1
    hits = {i["hits"]["N"] for i in ddb.scan(TableName="Kept")["Items"]}
    assert hits == {"1"}  # no write replayed twice
    again.stop()


def test_a_busy_port_is_a_clear_error(served):
    server = served()
    port = server.url.rsplit(":", 1)[1]
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "serve_dynamodb",
            "--address",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    server.stop()


def test_without_a_design_the_readers_are_not_imported():
    # The cold start: an empty endpoint does not pay for the design readers
    # (every import format), which are imported when a design is given.
    probe = (
        "import django, sys; django.setup(); "
        "from django.core.management import load_command_class; "
        "load_command_class('modeler', 'serve_dynamodb'); "
        "print('modeler.importers.sources' in sys.modules)"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=STARTUP_DEADLINE,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "workbench.settings"},
        check=True,
    )
    assert run.stdout.strip() == "False"


# The endpoint's modules imported as a start imports them, then a statement.
_PARTIQL_PROBE = """
import sys
from modeler.endpoint import run, server, service
from modeler.engine.engine import Engine

def loaded():
    return any(name.startswith("modeler.engine.partiql") for name in sys.modules)

engine = Engine()
print(loaded())
engine.create_table({
    "TableName": "Tab", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}],
})
engine.execute_statement({"Statement": "INSERT INTO Tab VALUE {'k': 'a'}"})
print(engine.execute_statement({"Statement": "SELECT * FROM Tab"})["Items"], loaded())
"""


def test_the_partiql_parser_is_imported_on_the_first_statement():
    # A tenth of a second of the cold start: an endpoint whose clients send
    # no PartiQL never pays for it, and the first statement is answered.
    run = subprocess.run(
        [sys.executable, "-c", _PARTIQL_PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=STARTUP_DEADLINE,
        check=True,
    )
    assert run.stdout.splitlines() == ["False", "[{'k': {'S': 'a'}}] True"]


# manage.py serve_dynamodb ARGS with the server replaced by a report of
# what it was given and of Django's state when it was called (a design
# file is read, as the server would read it).
_PROBE = """
import json, runpy, sys
from pathlib import Path
import modeler.endpoint.run as run

def serve(*, address, designs, seed, data_dir, say):
    tables = [read().table.name for source, read in designs if Path(source).is_file()]
    from django.apps import apps
    print(json.dumps({
        "setup": apps.ready,
        "auth": "django.contrib.auth" in sys.modules,
        "address": address, "seed": seed, "data_dir": data_dir, "tables": tables,
    }))

run.serve = serve
sys.argv = ["manage.py", "serve_dynamodb", *sys.argv[1:]]
runpy.run_path("manage.py", run_name="__main__")
"""


def _probe(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=STARTUP_DEADLINE,
        check=True,
    )
    return json.loads(done.stdout)


def test_without_a_project_the_command_starts_without_django_setup(tmp_path):
    # Setting up Django was most of the cold start; nothing but a project
    # needs it, and every option reaches the server as given.
    assert _probe() == {
        "setup": False,
        "auth": False,
        "address": "127.0.0.1:8000",
        "seed": None,
        "data_dir": "",
        "tables": [],
    }
    given = _probe(
        str(DESIGN), "--seed", "7", "--data-dir", str(tmp_path), "--address", "9001"
    )
    assert given == {
        "setup": False,
        "auth": False,
        "address": "9001",
        "seed": 7,
        "data_dir": str(tmp_path),
        "tables": [read_design(DESIGN.read_bytes()).design.table.name],
    }


@pytest.mark.parametrize("args", [["a project's name"], ["--verbosity", "2"]])
def test_a_project_or_djangos_own_options_go_through_django(args):
    assert _probe(*args)["setup"] is True


def test_the_commands_errors_are_djangos_on_either_path():
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*COMMAND, *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=STARTUP_DEADLINE,
        )

    missing = run("missing.yaml")
    assert (missing.returncode, missing.stderr) == (
        1,
        "CommandError: missing.yaml: no such file\n",
    )
    address = run("--address", "nowhere")
    assert address.returncode == 1
    assert address.stderr == (
        "CommandError: --address nowhere: expected HOST:PORT or PORT, "
        "e.g. 127.0.0.1:8000\n"
    )
    # An abbreviation is Django's to judge: --s is --seed, --settings or
    # --skip-checks there.
    ambiguous = run("--s", "3")
    assert ambiguous.returncode == 2
    assert "error: ambiguous option: --s could match" in ambiguous.stderr
    unknown = run("--nope")  # Django's parser answers it, usage and all
    assert unknown.returncode == 2
    assert "[--skip-checks]" in unknown.stderr
    assert unknown.stderr.endswith(
        "manage.py serve_dynamodb: error: unrecognized arguments: --nope\n"
    )
