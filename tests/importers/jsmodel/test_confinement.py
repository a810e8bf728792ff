"""An uploaded module is code run on the server: each escape a hostile
module tries fails the import with a clear message and leaves nothing
behind; bad modules name the file and line and give no design."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

import workbench
from modeler.importers.jsmodel import read_js_module
from modeler.importers.jsmodel.sandbox import (
    Confinement,
    Limits,
    confinement_problem,
)
from modeler.infra import processes

pytestmark = pytest.mark.skipif(
    bool(confinement_problem()), reason=confinement_problem() or "confined"
)
# A file of the server's own, beside the temporary directory the module may read.
REPOSITORY_FILE = Path(workbench.__file__).resolve().parent / "settings.py"
# One CPU second (with time to spend it on a busy machine), or two wall
# seconds: each stop comes quickly.
CPU = Confinement(limits=Limits(cpu_seconds=1, wall_seconds=60))
WALL = Confinement(limits=Limits(wall_seconds=2))


def _import(body: str, name: str = "model.mjs", confinement=None):
    text = 'import { Entity } from "electrodb";\n' + body
    return read_js_module(text.encode(), filename=name, confinement=confinement)


def _message(found) -> str:
    assert found.design is None
    (problem,) = found.problems
    assert problem.is_error
    return problem.message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            'import fs from "node:fs";\nfs.writeFileSync("{target}", "x");',
            "model.mjs, line 3: the module tried to use FileSystemWrite",
        ),
        (
            'import cp from "node:child_process";\ncp.execSync("touch {target}");',
            "the module tried to use ChildProcess",
        ),
        (
            'import {{ Worker }} from "node:worker_threads";\n'
            "new Worker(\"require('fs').writeFileSync('{target}', 'x')\", "
            "{{ eval: true }});",
            "the module tried to use WorkerThreads",
        ),
    ],
)
def test_a_module_cannot_write_spawn_or_start_workers(body, expected, tmp_path):
    target = tmp_path / "escaped"
    found = _import(body.format(target=target))

    assert expected in _message(found)
    assert not target.exists()


@pytest.mark.parametrize("path", ["/etc/passwd", str(REPOSITORY_FILE)])
def test_a_module_reads_nothing_outside_its_directory(path):
    found = _import(f'import fs from "node:fs";\nfs.readFileSync("{path}");')

    assert "the module tried to use FileSystemRead" in _message(found)


def test_a_module_reaches_no_network():
    # A server listening on this machine's loopback: the module's own
    # network namespace has none of it.
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        found = _import(
            'import net from "node:net";\n'
            "await new Promise((ok, no) => net.connect("
            f'{port}, "127.0.0.1").on("connect", ok).on("error", no));'
        )
        fetched = _import(f'await fetch("http://127.0.0.1:{port}/");')
        server.setblocking(False)
        with pytest.raises(BlockingIOError):  # no connection is waiting
            server.accept()

    assert "tried to reach the network (ENETUNREACH)" in _message(found)
    # fetch fails before any socket (its parser needs more memory than a
    # module has); either way nothing reaches the server.
    assert _message(fetched).startswith("model.mjs")


def test_a_module_sees_no_secret_of_the_servers_environment(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "do-not-leak-me")
    found = _import("throw new Error(JSON.stringify(process.env));")

    message = _message(found)
    assert "Error: {" in message
    assert "do-not-leak-me" not in message and "SECRET_KEY" not in message


def test_a_module_is_not_root_even_inside_its_namespace():
    # Root of its user namespace would hold every capability there; the
    # module runs as nobody, with none.
    found = _import(
        "throw new Error(JSON.stringify("
        "{uid: process.getuid(), gid: process.getgid(), groups: process.getgroups()}));"
    )

    message = _message(found)
    assert '{"uid":65534,"gid":65534,"groups":[65534]}' in message


@pytest.mark.parametrize(
    ("body", "confinement", "expected"),
    [
        ("while (true) {}", CPU, "ran past its 1 CPU seconds and was stopped"),
        ("setInterval(() => {}, 1000);", WALL, "ran past 2 seconds and was stopped"),
        (
            "const kept = [];\nwhile (true) kept.push(new Array(1e6).fill(1));",
            None,
            "used more than the memory a module may (128 MB of heap)",
        ),
        (
            'while (true) console.log("x".repeat(10000));',
            None,
            "printed more than 1048576 bytes and was stopped",
        ),
    ],
)
def test_a_module_cannot_exhaust_cpu_time_memory_or_output(body, confinement, expected):
    found = _import(body, confinement=confinement)

    assert expected in _message(found)


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (
            'import { Entity } from "electrodb";\n\nnew Entity({ model: {',
            "broken.mjs",
            "broken.mjs, line 3: SyntaxError",
        ),
        (
            'const { Entity } = require("electrodb");\nconst x = ;',
            "broken.cjs",
            "broken.cjs, line 2: SyntaxError",
        ),
        (
            'const { Entity } = require("electrodb");\n\nnotDefined.call();',
            "thrown.js",
            "thrown.js, line 3: ReferenceError: notDefined is not defined",
        ),
        (
            'import { Entity } from "electrodb";\nexport const x = 1;',
            "empty.mjs",
            "empty.mjs: builds no ElectroDB Entity",
        ),
        (
            # ElectroDB before v1: no `model`.
            'import { Entity } from "electrodb";\n'
            'new Entity({ entity: "u", service: "s", attributes: {}, indexes: {} });',
            "old.mjs",
            "old.mjs: Entity 1: expected `{model: {entity, version, service}, "
            "attributes, indexes}` (ElectroDB v1-v3)",
        ),
        (
            # DynamoDB-Toolbox v1: attributes, no schema.
            'import { Table, Entity } from "dynamodb-toolbox";\n'
            'const table = new Table({ name: "t", partitionKey: { name: "pk", '
            'type: "string" } });\n'
            'new Entity({ name: "U", table, attributes: { pk: { partitionKey: '
            "true } } });",
            "v1.mjs",
            "v1.mjs: entity U: expected schema: item({...})",
        ),
        (
            'import { Entity } from "electrodb";\nexport const ok = 1;',
            "model.ts",
            "model.ts: is TypeScript: compile it to JavaScript (tsc)",
        ),
    ],
)
def test_bad_modules_name_the_file_and_line(text, name, expected):
    found = read_js_module(text.encode(), filename=name)

    assert found.design is None
    (problem,) = found.problems
    assert f"{problem.path}: {problem.message}".startswith(expected) or (
        expected in problem.message
    ), problem


def test_a_server_that_turns_modules_off_refuses_them_naming_the_setting():
    found = _import("export const x = 1;", confinement=Confinement(enabled=False))

    assert "(JS_MODULE_IMPORT is off)" in _message(found)


def test_a_forged_result_of_an_unexpected_shape_is_refused():
    # The module prints a result of its own after the runner's answer.
    found = _import(
        'setTimeout(() => process.stdout.write("\\n@@workbench-result@@" + '
        "JSON.stringify({ electrodb: { entities: [5] } })));"
    )

    assert _message(found).startswith("its run gave a result of an unexpected")


def test_an_import_in_the_tests_waits_on_no_other_test_run():
    """Other test runs on the machine held both of its process slots (two
    cfn-lint runs, seconds each on a loaded machine) past the 10 s wait, and
    an import here failed as busy: a test process has slots of its own."""
    slots = processes.current()

    assert slots.directory != processes.default_directory()
    found = _import("export const x = 1;")
    assert _message(found).startswith("builds no ElectroDB Entity")
