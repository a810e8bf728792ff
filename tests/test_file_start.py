"""The commands that read a DESIGN run on a design file without
django.setup() (`modeler.management.file_start`), and through Django as
before for a project or Django's own --settings; either way their output,
errors and exit status are the same."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from modeler.examples import EXAMPLES_DIR

ROOT = Path(__file__).resolve().parents[1]
ORDER_FILE = str(EXAMPLES_DIR / "order-management.yaml")

# manage.py ARGS, reporting once on stderr (as the process ends, whichever
# way it ends) whether Django was set up and whether a model was imported.
_PROBE = """
import atexit, json, logging, runpy, sys
from modeler.management import process_end

reported = []

def report():
    if not reported:
        from django.apps import apps
        reported.append(True)
        print(json.dumps({
            "setup": apps.ready,
            "models": "modeler.models" in sys.modules,
            "logging": [h.formatter._fmt for h in logging.getLogger().handlers],
        }), file=sys.stderr)

ending = process_end.end_process

def end_process(code):
    report()
    ending(code)

process_end.end_process = end_process
atexit.register(report)
sys.argv = ["manage.py", *sys.argv[1:]]
runpy.run_path("manage.py", run_name="__main__")
"""


def _untimed(output: str) -> str:
    return re.sub(r"[0-9.]+ s of CPU", "N s of CPU", output)


def _run(
    *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess, dict]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    *errors, report = done.stderr.splitlines()
    done.stderr = "".join(f"{line}\n" for line in errors)
    return done, json.loads(report)


@pytest.mark.parametrize(
    "args",
    [
        ["check_design", ORDER_FILE],
        ["simulate", ORDER_FILE],
        ["sample_data", ORDER_FILE, "--items", "50"],
        ["export_design", ORDER_FILE, "--format", "cloudformation-yaml"],
        ["propose_keys", ORDER_FILE],
    ],
)
def test_a_design_file_is_read_without_django_setup(args, capsys):
    done, report = _run(*args)
    assert report == {
        "setup": False,
        "models": False,
        # Logging as the settings configure it (under Django too).
        "logging": ["{asctime} {levelname} {name}: {message}"],
    }
    assert done.returncode == 0, done.stderr
    # The same output as the command run inside Django (propose_keys says
    # how long its search took).
    call_command(*args)
    assert _untimed(done.stdout) == _untimed(capsys.readouterr().out)


@pytest.mark.parametrize(
    "args",
    [
        ["check_design", "no such project"],
        ["check_design", ORDER_FILE, "--settings", "workbench.settings"],
    ],
)
def test_a_project_or_djangos_settings_go_through_django(args):
    done, report = _run(*args)
    assert report["setup"] is True


def test_errors_are_djangos_on_the_path_without_setup():
    missing, report = _run("check_design", "missing.yaml")
    assert report["setup"] is False
    assert (missing.returncode, missing.stderr) == (
        1,
        "CommandError: missing.yaml: no such file\n",
    )
    # A refused argument goes to Django's parser, which reports it with
    # the usage, as always.
    refused, report = _run("check_design", ORDER_FILE, "--stored-items", "x")
    assert report["setup"] is True
    assert refused.returncode == 2
    assert refused.stderr.endswith(
        "manage.py check_design: error: argument --stored-items: invalid int "
        "value: 'x'\n"
    )
    negative, report = _run("check_design", ORDER_FILE, "--stored-items", "-1")
    assert report["setup"] is False
    assert (negative.returncode, negative.stderr) == (
        1,
        "CommandError: --stored-items must be 0 or more\n",
    )


@pytest.mark.parametrize("command", ["check_design", "serve_dynamodb"])
def test_the_sites_limits_hold_without_django_setup(command):
    # The app's ready() hands the settings' limits to the design checks;
    # without Django's setup they are handed over all the same.
    done, report = _run(command, ORDER_FILE, env={"SAMPLE_MAX_ITEMS": "10"})
    assert report["setup"] is False
    assert done.returncode == 1
    assert "this workbench allows at most 10 (setting SAMPLE_MAX_ITEMS)" in (
        done.stdout + done.stderr
    )
