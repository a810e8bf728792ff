"""Diagrams and the key map at review-meeting speed.

1. The item-collection diagram of 50 partitions of 20 items (the
   device-telemetry example's table: 100 devices with their readings),
   through the real path: choose the partitions in the engine, build the
   DOT, render SVG with Graphviz, sanitise it; then PNG, and a cached hit.
   Target: under 1 s for the SVG a page shows.
2. The key map page of the largest example (the most key-map cells and
   patterns), as the server answers it: access check, design from the
   database, key map and pattern map, template. Target: under 100 ms.

Each figure is the median of several runs, printed with its target and
the ratio between them.

    make bench          (or: PYTHONPATH=. .venv/bin/python bench/diagrams.py)
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")

import django

django.setup()

from django.contrib.auth.models import User
from django.test import Client
from django.test.runner import DiscoverRunner
from django.test.utils import setup_test_environment

from modeler import diagrams
from modeler.designfile import read_design
from modeler.services import projects as project_services
from modeler.simulation import Simulation

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RUNS = 5
PARTITIONS, ITEMS = 50, 20


def median_seconds(action: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def line(label: str, seconds: float, target: float | None = None) -> None:
    text = f"  {label:<46} {seconds * 1000:9.1f} ms"
    if target is not None:
        verdict = "meets" if seconds < target else "MISSES"
        text += (
            f"   target {target * 1000:.0f} ms, ratio {seconds / target:.2f}"
            f" ({verdict})"
        )
    print(text)


def collections_diagram() -> None:
    design = read_design((EXAMPLES / "device-telemetry.yaml").read_bytes()).design
    collections = diagrams.Collections(Simulation(design))
    views, more = collections.partitions(
        index="table", max_partitions=PARTITIONS, max_items=ITEMS
    )
    shown = sum(len(v.items) for v in views)
    print(
        f"Item-collection diagram: {len(views)} partitions x {ITEMS} items "
        f"({shown} items drawn, +{more} partitions cut), {diagrams.dot_program()}"
    )
    info = collections.info("table")

    def select() -> object:
        return collections.partitions(
            index="table", max_partitions=PARTITIONS, max_items=ITEMS
        )

    def build() -> str:
        return diagrams.collections_dot(
            design_name=design.name, info=info, partitions=views, more_partitions=more
        )

    source = build()
    svg = diagrams.render(source, "svg")
    select_s = median_seconds(select)
    build_s = median_seconds(build)
    render_s = median_seconds(lambda: diagrams.render(source, "svg"))
    sanitise_s = median_seconds(lambda: diagrams.sanitise_svg(svg))
    png_s = median_seconds(lambda: diagrams.render(source, "png"))
    key = ("bench", source)
    diagrams.cached(key, lambda: diagrams.sanitise_svg(svg))
    cached_s = median_seconds(lambda: diagrams.cached(key, lambda: ""), runs=100)
    line("choose partitions in the engine", select_s)
    line("build DOT", build_s)
    line("render SVG (Graphviz)", render_s)
    line("sanitise SVG", sanitise_s)
    line(
        "total: the SVG a page shows",
        select_s + build_s + render_s + sanitise_s,
        target=1.0,
    )
    line("render PNG (download)", png_s)
    line("cached diagram (same design and data)", cached_s)
    print(f"  DOT {len(source):,} bytes, SVG {len(svg):,} bytes")


def keymap_page() -> None:
    candidates = [read_design(p.read_bytes()).design for p in EXAMPLES.glob("*.yaml")]
    design = max(
        candidates,
        key=lambda d: (
            len(d.entities) * len(diagrams.key_map(d).columns) + len(d.access_patterns)
        ),
    )
    keymap = diagrams.key_map(design)
    print(
        f"Key map page of the largest example, {design.name}: "
        f"{len(keymap.rows)} entities x {len(keymap.columns)} key attributes, "
        f"{len(design.access_patterns)} patterns"
    )
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    databases = runner.setup_databases()
    try:
        user = User.objects.create_user("bench")
        project = project_services.project_create(owner=user, design=design)
        client = Client()
        client.force_login(user)
        url = f"/projects/{project.pk}/key-map/"

        def request() -> None:
            response = client.get(url)
            if response.status_code != 200:
                raise SystemExit(f"the key map answered {response.status_code}")

        request()  # templates compiled, as on a running server
        domain_s = median_seconds(
            lambda: (diagrams.key_map(design), diagrams.pattern_map(design)), runs=20
        )
        page_s = median_seconds(request, runs=20)
        line("key map and pattern map (domain only)", domain_s)
        line("key map page: server time per request", page_s, target=0.1)
    finally:
        runner.teardown_databases(databases)


def main() -> None:
    collections_diagram()
    keymap_page()


if __name__ == "__main__":
    main()
