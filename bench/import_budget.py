"""The audit's hostile import files (issue 30) and others of their families,
through `check_design --no-review` and `import_design`, as a user runs them.

Each file is written to a temporary directory and each command runs in a
child process on a temporary SQLite database (migrated once), with the
site's default budgets; its CPU time (user and system, from the operating
system's account of the child) is printed beside the wall time, with the
command's last line. A child's time includes Django's start: the first row,
a small valid template, shows it. The last column is the file's reading
alone, in this process (this thread's CPU time, through the reader every
command and the web import use). Before the budgets, the doubling locals,
the nested conditions and the 844 KB model each ran past gunicorn's 30 s
(the conditions alone for minutes), and the deep files ended in a
RecursionError traceback.

    PYTHONPATH=. .venv/bin/python bench/import_budget.py
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from modeler.importers.sources import read_design_source
from tests.exporters import hostile_files as hostile

ROOT = Path(__file__).resolve().parents[1]


def facets_apart(facets: int = 300, items: int = 20) -> str:
    """As the audit's model, but each facet's keys have a word of their own
    (`KINDBC#00003`): nothing collides, 300 entities."""
    text = hostile.nwb_facets_keyed_alike(facets, items)
    model = json.loads(text)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for f, facet in enumerate(model["DataModel"][0]["TableFacets"]):
        word = letters[f // 26 % 26] + letters[f % 26]
        for item in facet["TableData"]:
            for key in ("PK", "SK"):
                item[key]["S"] = item[key]["S"].replace(f"KIND{f}#", f"KIND{word}#")
    return json.dumps(model, separators=(",", ":"))


FILES: list[tuple[str, Callable[[], str]]] = [
    ("small.json (baseline)", lambda: hostile.cfn_tagged(3)),
    ("double.tf (audit)", lambda: hostile.tf_doubling_locals(60)),
    ("chains.tf, 100 KB", lambda: hostile.tf_many_chains()),
    ("fanout.tf", lambda: hostile.tf_fanout_locals(60)),
    ("lists.tf", lambda: hostile.tf_doubling_lists(60)),
    ("deep.tf", lambda: hostile.tf_nested(900)),
    ("conditions.json (audit)", lambda: hostile.cfn_nested_conditions(45)),
    ("mappings.json", lambda: hostile.cfn_doubling_mappings(60)),
    ("join.json", hostile.cfn_long_join),
    ("sub.json", hostile.cfn_long_sub),
    ("deep.template.json", lambda: hostile.cfn_nested(900)),
    ("model.json, 300 facets (audit)", lambda: hostile.nwb_facets_keyed_alike()),
    ("model.json, 300 facets apart", facets_apart),
    ("model.json, 6,000 kinds", lambda: hostile.nwb_kinds_by_shape(6_000)),
    ("model.json, item 900 deep", lambda: hostile.nwb_nested_item(450)),
]


def child(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """CPU and wall seconds of a manage.py command, and what it said: its
    first error, else its last line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(  # noqa: S603 (our own command)
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = (done.stdout + done.stderr).strip().splitlines()
    errors = [line for line in lines if ": error: " in line]
    said = (errors or lines or [""])[0 if errors else -1]
    return cpu, wall, said.split(": ", 1)[-1]


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "DJANGO_SUPERUSER_PASSWORD": "bench-password-not-used",
        }
        for setup in (
            ["migrate", "--verbosity", "0"],
            ["createsuperuser", "--noinput", "--username", "bench"]
            + ["--email", "bench@example.com"],
        ):
            subprocess.run(  # noqa: S603 (our own command)
                [sys.executable, str(ROOT / "manage.py"), *setup], env=env, check=True
            )
        print(
            f"{'file':<31} {'bytes':>8}  {'check_design CPU (wall)':>24}  "
            f"{'import_design CPU (wall)':>24}  {'read CPU':>8}  outcome"
        )
        for label, make in FILES:
            text = make()
            name = label.split(",")[0].split(" ")[0]
            path = folder / name
            path.write_text(text)
            check = child(["check_design", str(path), "--no-review"], env)
            imported = child(["import_design", str(path), "--owner", "bench"], env)
            started = time.thread_time()
            read_design_source(text, filename=name)
            read = time.thread_time() - started
            print(
                f"{label:<31} {len(text.encode()):>8}  "
                f"{check[0]:8.2f} s ({check[1]:7.2f} s)  "
                f"{imported[0]:10.2f} s ({imported[1]:7.2f} s)  {read:6.2f} s  "
                f"{imported[2][:110]}"
            )


if __name__ == "__main__":
    main()
