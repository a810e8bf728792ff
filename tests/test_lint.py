"""`make lint`'s checks, held by the suite that CI runs: ruff on the whole
tree and mypy on every domain package (pyproject.toml's [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True
    )


def test_ruff_finds_nothing_to_fix_or_reformat() -> None:
    checked = _run("ruff", "check", ".")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    formatted = _run("ruff", "format", "--check", ".")
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr


def test_mypy_passes_on_the_domain_packages(tmp_path: Path) -> None:
    # A cache of its own: the suite's processes may run this at once with a
    # developer's `make lint`.
    typed = _run("mypy", "--cache-dir", str(tmp_path / "cache"))
    assert typed.returncode == 0, typed.stdout + typed.stderr
    assert "Success: no issues found" in typed.stdout
