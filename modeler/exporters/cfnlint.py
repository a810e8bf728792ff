"""cfn-lint on an exported CloudFormation template, for the Export section.

cfn-lint runs in a child process with a time limit (a template is user
data; a linter bug or a slow rule must not hold a web worker), on a
temporary file, with no shell. Results are kept in memory by the template's
hash, so previewing the same design again costs nothing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from modeler.infra import processes

TIME_LIMIT_SECONDS = 30
MAX_CACHED = 64
REGION = "us-east-1"

_RUNNER = "import sys; from cfnlint.runner import main; sys.exit(main())"
# Problems of the moment, not of the template: not kept in the cache.
_NOT_KEPT = ("cfn-lint timed out", "The server is busy")


@dataclass(frozen=True)
class Finding:
    level: str  # Error, Warning, Informational
    rule: str
    message: str
    line: int | None


@dataclass(frozen=True)
class LintResult:
    """What cfn-lint said; `problem` is set when it could not run."""

    findings: tuple[Finding, ...] = ()
    problem: str = ""
    version: str = ""

    @property
    def clean(self) -> bool:
        return not self.problem and not any(
            f.level in ("Error", "Warning") for f in self.findings
        )


_cache: OrderedDict[str, LintResult] = OrderedDict()
_lock = threading.Lock()


def cfn_lint_version() -> str:
    try:
        from importlib.metadata import version

        return version("cfn-lint")
    except Exception:  # not installed: no version to show
        return ""


def lint_template(
    text: str, *, suffix: str = ".yaml", timeout: float | None = None
) -> LintResult:
    """cfn-lint's findings on a template; `timeout` defaults to
    TIME_LIMIT_SECONDS, read at each call."""
    key = hashlib.sha256(f"{suffix}\0{text}".encode()).hexdigest()
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    result = _run(text, suffix, TIME_LIMIT_SECONDS if timeout is None else timeout)
    if not result.problem or not result.problem.startswith(_NOT_KEPT):
        with _lock:
            _cache[key] = result
            while len(_cache) > MAX_CACHED:
                _cache.popitem(last=False)
    return result


def _run(text: str, suffix: str, timeout: float) -> LintResult:
    if importlib.util.find_spec("cfnlint") is None:
        return LintResult(problem="cfn-lint is not installed on this server")
    version = cfn_lint_version()
    with tempfile.TemporaryDirectory(prefix="cfn-lint-") as folder:
        path = Path(folder) / f"template{suffix}"
        path.write_text(text, encoding="utf-8")
        try:
            with processes.slot("cfn-lint"):
                completed = subprocess.run(  # noqa: S603 (fixed argv, no shell)
                    [
                        sys.executable,
                        "-c",
                        _RUNNER,
                        str(path),
                        "--format",
                        "json",
                        "--regions",
                        REGION,
                    ],
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                    cwd=folder,
                    check=False,
                )
        except subprocess.TimeoutExpired:
            return LintResult(
                problem=f"cfn-lint timed out after {timeout:g} seconds", version=version
            )
        except processes.SlotsBusy as exc:
            return LintResult(problem=str(exc), version=version)
    try:
        raw = json.loads(completed.stdout)
        if not isinstance(raw, list):
            raise json.JSONDecodeError("not a list", completed.stdout, 0)
    except json.JSONDecodeError:
        message = (completed.stderr or completed.stdout).strip().splitlines()
        return LintResult(
            problem="cfn-lint failed: " + (message[-1] if message else "no output"),
            version=version,
        )
    findings = tuple(
        Finding(
            level=str(entry.get("Level", "")),
            rule=str(entry.get("Rule", {}).get("Id", "")),
            message=str(entry.get("Message", "")),
            line=(entry.get("Location", {}).get("Start", {}) or {}).get("LineNumber"),
        )
        for entry in raw
    )
    return LintResult(findings=findings, version=version)
