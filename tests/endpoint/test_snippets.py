"""The Export section's connection snippets work as pasted against the
endpoint serving the design."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess

import pytest

from modeler.designfile import read_design
from modeler.endpoint.designs import design_load
from modeler.endpoint.snippets import endpoint_snippets
from modeler.examples import EXAMPLES_DIR


@pytest.fixture
def design(server, clock):  # type: ignore[no-untyped-def]
    # Before the sample's readings expire (the test clock's 2027 is past
    # them): else the server's TTL sweeper deletes them while a test counts.
    clock.now = 1_600_000_000.0
    design = read_design((EXAMPLES_DIR / "device-telemetry.yaml").read_bytes()).design
    with server.service.lock:  # the server's TTL sweeper runs already
        design_load(server.service.engine, design)
    return design


def test_the_boto3_snippet_runs_as_pasted(server, design):
    address = server.url.removeprefix("http://")
    snippets = endpoint_snippets(design, project="7", address=address)
    assert snippets.command == (
        f"python manage.py serve_dynamodb 7 --address {address}"
    )
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(snippets.python, {})  # noqa: S102 (our snippet, as a user pastes it)
    lines = printed.getvalue().splitlines()
    count = server.service.engine.describe_table({"TableName": design.table.name})
    assert lines[0] == str(count["Table"]["ItemCount"])
    assert len(lines) == 6  # the count and five items


@pytest.mark.skipif(shutil.which("aws") is None, reason="the AWS CLI is not installed")
def test_the_cli_snippet_runs_as_pasted(server, design, tmp_path):
    address = server.url.removeprefix("http://")
    snippets = endpoint_snippets(design, project="7", address=address)
    done = subprocess.run(  # noqa: S602 (our snippet, through a shell as pasted)
        snippets.cli,
        shell=True,
        capture_output=True,
        text=True,
        env={
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "AWS_CONFIG_FILE": str(tmp_path / "none"),
        },
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["Items"]) == 5
