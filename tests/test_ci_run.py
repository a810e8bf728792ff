"""`.ci/run --help` says what CI does and which environment it reads, and
runs nothing; an argument it does not know is refused with the usage.

The commands CI would run (apt-get, make, mktemp for PostgreSQL's
directory, runuser) are replaced by stubs that fail loudly, so a script
that went on to run CI would fail here at once instead of installing
packages or starting the test suite inside the test suite."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "run"
STUBBED = ("apt-get", "make", "mktemp", "runuser")
# Generous: the script answers in milliseconds; this only stops a runaway.
TIMEOUT_SECONDS = 30


@pytest.fixture
def stubbed_path(tmp_path: Path) -> dict[str, str]:
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for name in STUBBED:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "CI ran {name}" >&2\nexit 97\n')
        stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    return {**os.environ, "PATH": f"{stubs}{os.pathsep}{os.environ['PATH']}"}


def _run(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(  # our script, our arguments
        [shutil.which("bash") or "bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_the_usage_and_runs_nothing(flag, stubbed_path, tmp_path):
    done = _run(flag, env=stubbed_path, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("Usage: .ci/run [--help]\n")
    for documented in ("make test", "PostgreSQL", "CI_POSTGRES_PORT", "TEST_WORKERS"):
        assert documented in done.stdout
    assert "==>" not in done.stdout  # no step of CI started


@pytest.mark.parametrize("args", [["--bogus"], ["run"], ["--help", "extra"]])
def test_an_unknown_argument_is_refused_with_the_usage(args, stubbed_path, tmp_path):
    done = _run(*args, env=stubbed_path, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    unknown = next(a for a in args if a != "--help")
    assert done.stderr.startswith(f".ci/run: unknown argument '{unknown}'\n")
    assert "Usage: .ci/run [--help]" in done.stderr
    assert "CI ran" not in done.stderr
