"""Run an uploaded JavaScript module with node, confined, and read back what
it built.

The module is code from the upload: it runs in a child process that
- reads only its own temporary directory, which holds the module, our
  runner and our recorders standing in for the libraries (Node 20's
  permission model: `--experimental-permission --allow-fs-read=DIR`, and no
  write, child process, worker or addon permission);
- has no network: it runs in a new network namespace, whose only
  interface is a loopback that is down;
- is not root, even inside the user namespace that network namespace
  needs: the server's user is mapped to `nobody` there (`unshare
  --map-user`), so node starts with no capability at all, where `unshare
  -r` would make it root of its namespace, holding every capability there;
- has a stripped environment, CPU seconds and address space limits
  (RLIMIT_CPU, RLIMIT_AS, set by `prlimit`), no core file, a file-size
  limit that caps what it prints (its output goes to files here; a larger
  write kills it), and a wall-clock timeout after which its process group
  is killed.

What comes back is data, checked like any uploaded file: a module that
forges the runner's output gains nothing a hand-written design does not.

Where a confinement is missing on this machine (no node 20, user
namespaces disabled, no prlimit), `confinement_problem` says which, and the import is
refused rather than run unconfined. Imports no Django.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from modeler.infra import processes

SHIM = Path(__file__).resolve().parent / "shim"
# Who the module runs as inside its user namespace: nobody, not root.
MODULE_UID = MODULE_GID = 65534
# A user and network namespace of its own, the server's user mapped to
# nobody (util-linux 2.38 or later).
UNSHARE_ARGS = (
    f"--map-user={MODULE_UID}",
    f"--map-group={MODULE_GID}",
    "--net",
)
# The library names the recorders stand in for (subpaths included).
LIBRARIES = ("electrodb", "dynamodb-toolbox")
RESULT_MARK = "\n@@workbench-result@@"


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int = 5
    wall_seconds: float = 15.0
    memory_bytes: int = 1024 * 1024 * 1024  # address space; node reserves much
    heap_mb: int = 128
    output_bytes: int = 1024 * 1024


@dataclass(frozen=True)
class Confinement:
    """Whether uploaded modules may run here at all (WORKBENCH's
    JS_MODULE_IMPORT setting)."""

    enabled: bool = True
    limits: Limits = Limits()


_current = Confinement()


def configure(confinement: Confinement) -> None:
    global _current
    _current = confinement


def current() -> Confinement:
    return _current


class ModuleRunError(Exception):
    """The module could not be run or failed; the message is for a user,
    naming the file and, where node gives one, the line."""


@functools.cache
def _probe() -> str:
    """'' when node 20+ and a network namespace are available, else what
    is missing (cached: the machine does not change under a server)."""
    node = shutil.which("node")
    if node is None:
        return "node is not installed on the server (Node 20 or later is needed)"
    try:
        version = subprocess.run(  # noqa: S603 (fixed argv, no shell)
            [node, "--version"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "node cannot be run on the server"
    found = re.match(r"v(\d+)\.", version)
    if not found or int(found.group(1)) < 20:
        return f"node {version or '?'} has no permission model (Node 20 or later)"
    if shutil.which("prlimit") is None:
        return "prlimit (util-linux) is not installed on the server"
    unshare = shutil.which("unshare")
    try:
        ok = (
            unshare is not None
            and subprocess.run(  # noqa: S603 (fixed argv, no shell)
                [unshare, *UNSHARE_ARGS, "true"], capture_output=True, timeout=10
            ).returncode
            == 0
        )
    except (OSError, subprocess.SubprocessError):
        ok = False
    if not ok:
        return (
            "the server cannot deny a module the network: `unshare "
            f"{' '.join(UNSHARE_ARGS)}` (a user and network namespace, the "
            "module running as nobody) fails here; it needs util-linux 2.38 "
            "or later and unprivileged user namespaces (sysctl "
            "kernel.unprivileged_userns_clone=1 or user.max_user_namespaces "
            "above 0)"
        )
    return ""


def confinement_problem(confinement: Confinement | None = None) -> str:
    """Why uploaded modules cannot run here, naming the setting; ''."""
    confinement = confinement or current()
    if not confinement.enabled:
        return (
            "JavaScript modules are not imported on this server "
            "(JS_MODULE_IMPORT is off)"
        )
    missing = _probe()
    if missing:
        return (
            f"JavaScript modules are not imported on this server: {missing}. "
            "Until then, set JS_MODULE_IMPORT=false to say so up front"
        )
    return ""


def run_module(
    text: str,
    *,
    filename: str,
    module_type: str,
    confinement: Confinement | None = None,
) -> dict:
    """What the module built, as the runner reports it (a JSON object).
    `module_type` is "module" (ESM) or "commonjs". ModuleRunError otherwise."""
    confinement = confinement or current()
    problem = confinement_problem(confinement)
    if problem:
        raise ModuleRunError(problem)
    limits = confinement.limits
    with tempfile.TemporaryDirectory(prefix="workbench-js-") as root:
        base = Path(root)
        work = base / "module"
        work.mkdir()
        model = work / ("model.mjs" if module_type == "module" else "model.cjs")
        model.write_text(text, encoding="utf-8")
        shutil.copy(SHIM / "runner.cjs", work / "runner.cjs")
        for library in LIBRARIES:
            package = work / "node_modules" / library
            package.mkdir(parents=True)
            shutil.copy(SHIM / f"{library}.cjs", package / "index.cjs")
            (package / "package.json").write_text(
                json.dumps(
                    {
                        "name": library,
                        "main": "index.cjs",
                        "exports": {".": "./index.cjs", "./*": "./index.cjs"},
                    }
                )
            )
        shutil.copy(SHIM / "recorder.cjs", work / "node_modules" / "recorder.cjs")
        out_path, err_path = base / "stdout", base / "stderr"
        try:
            with (
                processes.slot("JavaScript modules"),
                out_path.open("wb") as out,
                err_path.open("wb") as err,
            ):
                code = _run(work, model, out, err, limits)
        except processes.SlotsBusy as exc:
            raise ModuleRunError(f"{filename}: {exc}") from None
        printed = out_path.stat().st_size + err_path.stat().st_size
        output = out_path.read_bytes().decode("utf-8", "replace")
        errors = err_path.read_bytes().decode("utf-8", "replace")
    if printed >= limits.output_bytes or code == -int(signal.SIGXFSZ):
        # Node ignores SIGXFSZ: a write past RLIMIT_FSIZE fails (EFBIG).
        raise ModuleRunError(
            f"{filename}: printed more than {limits.output_bytes} bytes and was stopped"
        )
    return _result(code, output, errors, filename, model.name, limits)


def _run(work: Path, model: Path, out, err, limits: Limits) -> int:
    prlimit, unshare, node = (
        shutil.which(name) for name in ("prlimit", "unshare", "node")
    )
    if prlimit is None or unshare is None or node is None:  # gone since _probe
        raise ModuleRunError(
            "prlimit, unshare or node is no longer installed on the server"
        )
    # The limits are set by prlimit as it starts the command, not by a
    # preexec_fn: that is not safe in a threaded server.
    cpu, memory, output = limits.cpu_seconds, limits.memory_bytes, limits.output_bytes
    command = [
        prlimit,
        f"--cpu={cpu}:{cpu + 1}",
        f"--as={memory}:{memory}",
        f"--fsize={output}:{output}",
        "--core=0:0",
        "--nofile=64:64",
        "--",
        unshare,
        *UNSHARE_ARGS,
        node,
        f"--max-old-space-size={limits.heap_mb}",
        "--experimental-permission",
        f"--allow-fs-read={work}",
        "--disable-proto=delete",
        "--no-warnings",
        str(work / "runner.cjs"),
        str(model),
    ]
    # The argv is fixed: the module is a file node reads, never a word here.
    process = subprocess.Popen(  # noqa: S603
        command,
        cwd=work,
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
        env={"PATH": "/usr/bin:/bin", "NODE_OPTIONS": "", "LANG": "C.UTF-8"},
        start_new_session=True,
    )
    try:
        return process.wait(timeout=limits.wall_seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return -int(signal.SIGALRM)  # told apart from a CPU limit below


def _result(
    code: int, output: str, errors: str, filename: str, model: str, limits: Limits
) -> dict:
    if code in (-int(signal.SIGXCPU), -int(signal.SIGKILL)) and not output:
        raise ModuleRunError(
            f"{filename}: ran past its {limits.cpu_seconds} CPU seconds and was "
            "stopped (a module that builds entities returns at once)"
        )
    if code == -int(signal.SIGALRM):
        raise ModuleRunError(
            f"{filename}: ran past {limits.wall_seconds:g} seconds and was stopped"
        )
    if "heap out of memory" in errors or "Failed to reserve" in errors:
        raise ModuleRunError(
            f"{filename}: used more than the memory a module may "
            f"({limits.heap_mb} MB of heap) and was stopped"
        )
    mark = output.rfind(RESULT_MARK)
    if mark < 0 or code != 0:
        line, message = _node_error(errors, model, code)
        where = f", line {line}" if line else ""
        raise ModuleRunError(f"{filename}{where}: {message}")
    try:
        found = json.loads(output[mark + len(RESULT_MARK) :])
    except json.JSONDecodeError:
        raise ModuleRunError(f"{filename}: its run ended unreadably") from None
    if not isinstance(found, dict):
        raise ModuleRunError(f"{filename}: its run ended unreadably")
    if "error" in found:
        line = found.get("line")
        where = f", line {line}" if isinstance(line, int) else ""
        raise ModuleRunError(f"{filename}{where}: {found['error']}"[:2000])
    return found


def _node_error(errors: str, model: str, code: int) -> tuple[int | None, str]:
    """Node's own report of a module that failed before the runner could
    answer (a syntax error of an ES module), with its line."""
    line = None
    found = re.search(re.escape(model) + r":(\d+)", errors)
    if found:
        line = int(found.group(1))
    message = next(
        (
            text.strip()
            for text in errors.splitlines()
            if re.match(r"\s*[A-Z]\w*(Error|Exception)\b", text)
        ),
        "",
    )
    return line, (message or f"the module stopped without an answer (exit {code})")[
        :1000
    ]
