"""The order in which workers take queued tasks: the projects in turn, not
first come first served. One project's burst (a designer asking for a
simulation, the sample file, item collections and key proposals, or a
heavy design run again at other prices) would otherwise hold every worker
while other projects' first jobs wait behind it.

Among the ready tasks (django-tasks-db's order: priority, then time
queued), a worker takes first a task of a project that has none running
now, then of the project served longest ago (whose last task started
earliest, or that never had one), then the oldest. A simulation that never
ran (superseded by a later version, cancelled before it started) did not
serve its project: a designer's quick edits cost them no turn."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from modeler.jobs.recovery import SIMULATE_TASK
from modeler.models import SimulationJob

# The tasks whose first argument is their project's id.
PROJECT_TASKS = frozenset(
    (
        "modeler.jobs.proposals.propose_keys",
        "modeler.jobs.collections.draw_collections",
        "modeler.jobs.samplefiles.write_sample_file",
        "modeler.jobs.collections.render_collections_png",
    )
)
# How many ready tasks are weighed, oldest first: past them a project's
# turn comes when the queue drains that far.
CANDIDATES = 200
# How far back a project's last start is looked for: a project last served
# before then is as good as never served.
SERVED_WITHIN = dt.timedelta(days=1)
# Of the tasks other than simulations, the latest starts read.
STARTS_READ = 2_000

# A project's id, or ("task", row id) for a task of no project.
Project = Any


def claim_order(ready: Sequence[DBTaskResult]) -> list[DBTaskResult]:
    """`ready`, in the backend's order, in the order a worker should try
    to take them."""
    if len(ready) < 2:
        return list(ready)
    projects = _projects(ready)
    if len(set(projects.values())) < 2:
        return list(ready)
    running = DBTaskResult.objects.running().only("id", "task_path", "args_kwargs")
    busy = set(_projects(list(running)).values())
    served = _last_starts(set(projects.values()))
    never = dt.datetime.min.replace(tzinfo=dt.UTC)

    def turn(position: int) -> tuple:
        row = ready[position]
        project = projects[row.pk]
        return (-row.priority, project in busy, served.get(project, never), position)

    return [ready[i] for i in sorted(range(len(ready)), key=turn)]


def _projects(rows: Sequence[DBTaskResult]) -> dict[Any, Project]:
    """Each row's project (by row id); a row of no project is its own."""
    job_ids = {_first_argument(r) for r in rows if r.task_path == SIMULATE_TASK}
    job_projects = dict(
        SimulationJob.objects.filter(pk__in=job_ids - {None}).values_list(
            "pk", "project_id"
        )
    )
    found: dict[Any, Project] = {}
    for row in rows:
        argument = _first_argument(row)
        if row.task_path == SIMULATE_TASK and argument in job_projects:
            found[row.pk] = job_projects[argument]
        elif row.task_path in PROJECT_TASKS and argument is not None:
            found[row.pk] = argument
        else:
            found[row.pk] = ("task", row.pk)
    return found


def _last_starts(projects: Iterable[Project]) -> dict[Project, dt.datetime]:
    """When each project's latest task started: a simulation that ran
    (its job's start, not its row's: a superseded one never ran), or
    another task."""
    since = timezone.now() - SERVED_WITHIN
    ids = {p for p in projects if isinstance(p, int)}
    starts: dict[Project, dt.datetime] = dict(
        SimulationJob.objects.filter(project_id__in=ids, started__gte=since)
        .values("project_id")
        .annotate(last=Max("started"))
        .values_list("project_id", "last")
    )
    others = (
        DBTaskResult.objects.filter(task_path__in=PROJECT_TASKS, started_at__gte=since)
        .order_by("-started_at")
        .values_list("args_kwargs", "started_at")[:STARTS_READ]
    )
    for arguments, started in others:
        project = _first_of(arguments)
        if project in ids and (project not in starts or started > starts[project]):
            starts[project] = started
    return starts


def _first_argument(row: DBTaskResult) -> Any:
    return _first_of(row.args_kwargs)


def _first_of(arguments: Any) -> int | None:
    args = arguments.get("args") if isinstance(arguments, dict) else None
    first = args[0] if args else None
    return first if isinstance(first, int) and not isinstance(first, bool) else None
