"""Every page and htmx partial of a project, cold and warm (issue 13).

The URL patterns of modeler/urls*.py are walked, and each one that answers
GET for a project is asked for, through Django's whole stack in this
process (test Client, session, access check, the design read from the
database, template), for the largest example (the most entities, key
attributes and patterns) on a temporary database: as a full page and, with
the HX-Request header, as the partial a click swaps in. Arguments are
filled from the design (an entity, an index, the first pattern, revision 1,
each export format, each diagram format) and a few query strings a page
links to are added (a diagram of item collections, an export format).

Each URL is asked for once first, unmeasured, and the worker (`db_worker`,
in this process) takes what that queued: the simulation job, a page of item
collections, the sample data file, as a worker beside the app servers would.
Cold is the next request with this process's memory emptied (the
simulations, reviews, decoded designs and diagrams kept between requests;
not the shared cache, which holds what the worker made), as on a fresh app
server; warm is the median of the next RUNS. CPU is this thread's,
with the child processes it waited for (Graphviz, cfn-lint). Targets from
issue 13: warm under 100 ms, cold under 300 ms, judged by CPU time (as in
editor_sections.py: the cores are shared, and wall time also counts what
else runs on them); a row past either is flagged with its ratio. Rows are
sorted by warm CPU time, slowest first. The htmx variant of a URL is shown
when its answer differs from the full page's. The project has a second
revision (its description changed) so that the diff pages have two to
compare.

    make bench          (or: PYTHONPATH=. .venv/bin/python bench/pages.py)
    PYTHONPATH=. .venv/bin/python bench/pages.py --profile simulation/0/ --htmx
        (cProfile of one URL under the project, cold then warm: the top
        functions by cumulative time)
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import importlib
import logging
import os
import pstats
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")

import django

django.setup()

from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.test.runner import DiscoverRunner
from django.test.utils import setup_test_environment
from django.urls import URLPattern, URLResolver, get_resolver
from django_tasks_db.models import DBTaskResult

from modeler.conversion import forget_decoded
from modeler.design.model import Design
from modeler.diagrams import cache as diagrams_cache
from modeler.examples import examples
from modeler.exporters.formats import EXPORT_FORMATS
from modeler.jobs.reviews import forget_reviews
from modeler.jobs.runner import forget_runs
from modeler.services import projects as project_services
from modeler.simulation.cache import forget_simulations

generate_module = importlib.import_module("modeler.sampledata.generate")
from modeler.models import Project

RUNS = 5
WARM_TARGET_S = 0.100
COLD_TARGET_S = 0.300
HTMX = {"HTTP_HX_REQUEST": "true"}
# Query strings the pages link to, beside the bare URLs.
EXTRA = {
    "diagram-download": ["?kind=collections"],
    "export-page": [f"?format={name}" for name in EXPORT_FORMATS],
    "collections-page": ["?page=2"],
    "history-compare": ["?before=1&after=2"],
    "history-consequences": ["?before=1&after=2"],
}


def size(design: Design) -> int:
    keys = len(design.table.all_key_attributes())
    return len(design.entities) * keys + len(design.access_patterns)


def patterns(
    resolver: URLResolver | None = None, prefix: str = ""
) -> Iterator[tuple[str, str]]:
    """(name, route) of every named URL pattern, includes walked."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern) and entry.name:
            yield entry.name, prefix + str(entry.pattern)


def urls(project: Project, design: Design) -> Iterator[tuple[str, str]]:
    """(name, URL) for each pattern of a project and each way of filling
    its arguments; the patterns outside a project (login, invitations,
    shared packs) are left out."""
    entity = max(design.entities, key=lambda e: len(e.attributes)).name
    index = design.table.indexes[0].name if design.table.indexes else ""
    values = {
        "project_id": [str(project.pk)],
        "position": ["0"],
        "number": ["1"],
        "section": ["table", "entities", "patterns"],
        "format_name": list(EXPORT_FORMATS),
        "fmt": ["svg", "png", "dot"],
    }
    for name, route in patterns():
        if "<int:project_id>" not in route:
            continue
        filled = [route]
        for converter, argument in _arguments(route):
            if argument == "name":
                choices = [index] if "index" in name else [entity]
            else:
                choices = values.get(argument, ["1"])
            filled = [
                url.replace(f"<{converter}:{argument}>", choice)
                for url in filled
                for choice in choices
            ]
        for url in filled:
            yield name, "/" + url
            for query in EXTRA.get(name, []):
                yield name, "/" + url + query


def _arguments(route: str) -> list[tuple[str, str]]:
    parts = []
    for piece in route.split("<")[1:]:
        converter, argument = piece.split(">", 1)[0].split(":")
        parts.append((converter, argument))
    return parts


def empty_caches() -> None:
    """This process's memory, as on a fresh app server: the simulations,
    the reviews and the entities' sample items kept between requests. The
    shared cache (the database's table) keeps what the worker made, as it
    does in production."""
    forget_simulations()
    forget_reviews()
    forget_runs()
    forget_decoded()
    diagrams_cache.clear()
    generate_module.forget_kept_items()


def work() -> None:
    """The worker takes what the request queued (a simulation job, a page
    of item collections, a file), as `manage.py db_worker` would."""
    if DBTaskResult.objects.filter(status="READY").exists():
        call_command(
            "db_worker",
            "--batch",
            "--no-startup-delay",
            "--interval",
            "0",
            "--no-reload",
            verbosity=0,
        )


@dataclass
class Row:
    label: str
    status: int
    cold: float
    cold_cpu: float
    warm: float
    warm_cpu: float

    @property
    def flags(self) -> str:
        flags = []
        if self.warm_cpu > WARM_TARGET_S:
            flags.append(f"WARM {self.warm_cpu / WARM_TARGET_S:.1f}x")
        if self.cold_cpu > COLD_TARGET_S:
            flags.append(f"COLD {self.cold_cpu / COLD_TARGET_S:.1f}x")
        return " ".join(flags)


def cpu() -> float:
    children = os.times()
    return time.thread_time() + children.children_user + children.children_system


def fetch(client: Client, url: str, headers: dict) -> tuple[int, bytes]:
    """A GET's status and body; a streamed download (the sample data) is
    read to its last byte."""
    response = client.get(url, **headers)
    if response.streaming:
        return response.status_code, b"".join(response.streaming_content)
    return response.status_code, response.content


def timed(client: Client, url: str, headers: dict) -> tuple[int, float, float, bytes]:
    start, start_cpu = time.perf_counter(), cpu()
    status, body = fetch(client, url, headers)
    seconds, cpu_seconds = time.perf_counter() - start, cpu() - start_cpu
    return status, seconds, cpu_seconds, body


def measure(client: Client, url: str, headers: dict) -> tuple[Row, bytes] | None:
    # First asked: what the request queues is done by the worker, unmeasured.
    fetch(client, url, headers)
    work()
    empty_caches()
    status, cold, cold_cpu, content = timed(client, url, headers)
    if status in (404, 405):
        return None  # POST only, or no such object to show
    runs = [timed(client, url, headers) for _ in range(RUNS)]
    label = url.split("/", 3)[3] or "(overview)"
    row = Row(
        label + (" [htmx]" if headers else ""),
        status,
        cold,
        cold_cpu,
        statistics.median(run[1] for run in runs),
        statistics.median(run[2] for run in runs),
    )
    return row, content


def profile(client: Client, url: str, headers: dict) -> None:
    for label in ("cold", "warm"):
        if label == "cold":
            fetch(client, url, headers)
            work()
            empty_caches()
        else:
            fetch(client, url, headers)
        profiler = cProfile.Profile()
        start = time.perf_counter()
        profiler.enable()
        status, _ = fetch(client, url, headers)
        profiler.disable()
        print(
            f"== {url} {label}: {status}, "
            f"{(time.perf_counter() - start) * 1000:.0f} ms under the profiler"
        )
        stats = pstats.Stats(profiler)
        # Our code (and the libraries it leans on) by cumulative time, then
        # every function by its own time.
        stats.sort_stats("cumulative").print_stats(
            r"modeler/|workbench/|yaml/|template/base|subprocess", 25
        )
        stats.sort_stats("tottime").print_stats(12)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", metavar="PATH", help="under /projects/<id>/")
    parser.add_argument("--htmx", action="store_true", help="with --profile")
    options = parser.parse_args()
    # The POST-only URLs answer 405 to a GET, logged as a warning each.
    logging.getLogger("django.request").setLevel(logging.ERROR)
    design = max((example.design for example in examples()), key=size)
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    databases = runner.setup_databases()
    try:
        user = User.objects.create_user("bench")
        project = project_services.project_create(owner=user, design=design)
        project, _ = project_services.project_save_design(
            project=project,
            design=dataclasses.replace(design, description="A second revision."),
            version=project.version,
            author=user,
        )
        client = Client()
        client.force_login(user)
        client.get("/")  # the first request's one-off imports
        if options.profile:
            url = f"/projects/{project.pk}/{options.profile}"
            profile(client, url, HTMX if options.htmx else {})
            return
        print(
            f"Every page and partial of {design.name} ({len(design.entities)} "
            f"entities, {len(design.access_patterns)} patterns), cold and warm "
            f"(median of {RUNS}); targets warm {WARM_TARGET_S * 1000:.0f} ms, "
            f"cold {COLD_TARGET_S * 1000:.0f} ms"
        )
        rows, names, measured = [], set(), set()
        for name, url in urls(project, design):
            names.add(name)
            page = measure(client, url, {})
            if page is None:
                continue
            measured.add(name)
            rows.append(page[0])
            partial = measure(client, url, HTMX)
            if partial and partial[0].status == 200 and partial[1] != page[1]:
                rows.append(partial[0])
        rows.sort(key=lambda row: -row.warm_cpu)
        print(
            f"  {'request':<52} {'st':>3} {'cold ms':>8} {'cpu':>7} "
            f"{'warm ms':>8} {'cpu':>7}  over target"
        )
        for row in rows:
            print(
                f"  {row.label:<52} {row.status:3d} {row.cold * 1000:8.1f} "
                f"{row.cold_cpu * 1000:7.1f} {row.warm * 1000:8.1f} "
                f"{row.warm_cpu * 1000:7.1f}  {row.flags}"
            )
        flagged = [row for row in rows if row.flags]
        print(
            f"  {len(rows)} requests, {len(flagged)} over a target "
            f"({sum(r.warm_cpu > WARM_TARGET_S for r in rows)} warm, "
            f"{sum(r.cold_cpu > COLD_TARGET_S for r in rows)} cold, by CPU); "
            f"not a GET of this project (POST only or 404): "
            f"{', '.join(sorted(names - measured))}"
        )
    finally:
        runner.teardown_databases(databases)


if __name__ == "__main__":
    main()
