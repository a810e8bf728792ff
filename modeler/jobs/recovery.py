"""Tasks whose worker is gone: a worker killed (kill -9, out of memory,
the machine lost) leaves its queue row RUNNING, which
`prune_db_task_results` never removes, and its simulation job running,
which the pages would wait on for ever. A row is taken as lost when:

- the worker that claimed it says so: between two tasks a worker runs
  none, so a row still RUNNING under its id is one it could not finish
  (it lost the database while running it) or one a process with the same
  `--worker-id` left when it was killed (the systemd units give each
  instance a fixed id, so its restart finds it at once);
- its simulation job has been silent for its budget and a minute more,
  the rule the pages use (`services.LOST_AFTER`): the job reports several
  times a second while it runs;
- any other task has run for ten times the CPU budget and a minute more:
  such tasks report nothing, and they work within that budget (loading a
  table again, drawing a diagram, writing a file, the solver).

The row is marked failed (so prune removes it in its time) and its
simulation job failed with a message saying to run it again (so the pages
offer Run again). The workers check between tasks and at start, and a page
finding a lost job checks its row (`services.simulation_job_get`)."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from typing import Any

from django.conf import settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from modeler.models import SimulationJob

logger = logging.getLogger(__name__)

SIMULATE_TASK = "modeler.jobs.runner.simulate_design"
# A running job whose worker has not reported for this long past its
# budget is taken as lost.
LOST_AFTER = dt.timedelta(seconds=60)
# How many CPU budgets a task that reports nothing may run for.
QUIET_TASK_BUDGETS = 10

STOPPED = "The worker running this simulation stopped before it finished: run it again."
DISCONNECTED = (
    "The worker running this simulation lost its connection to the database "
    "before it finished: run it again."
)


class WorkerLost(Exception):
    """What a lost task's row records as its failure: its worker stopped
    (or lost the database) while it ran."""


def job_is_lost(job: SimulationJob) -> bool:
    """A running job silent for its budget and a minute more."""
    if job.state != SimulationJob.State.RUNNING or job.heartbeat is None:
        return False
    silence = timezone.now() - job.heartbeat
    return silence > LOST_AFTER + dt.timedelta(seconds=settings.SIMULATION_CPU_SECONDS)


def lost_job_fail(job: SimulationJob, message: str = STOPPED) -> bool:
    """Marks a lost job failed, and its queue row; whether it was lost."""
    if not job_is_lost(job):
        return False
    _job_fail(job.pk, message)
    try:
        row = uuid.UUID(job.task_id)
    except ValueError:
        pass  # another task backend's id (tests run tasks at once)
    else:
        _rows_fail(DBTaskResult.objects.filter(pk=row), message)
    job.refresh_from_db()
    return True


def lost_tasks_fail(*, worker_id: str = "", disconnected: bool = False) -> int:
    """Marks failed every RUNNING row whose worker is gone, and its
    simulation job; how many. `worker_id` is the caller's, which runs no
    task now: its own rows are lost whatever their age. `disconnected`:
    it lost the database since it last checked (its messages say so)."""
    running = list(
        DBTaskResult.objects.running().only(
            "id", "task_path", "args_kwargs", "worker_ids", "started_at"
        )
    )
    if not running:
        return 0
    jobs = SimulationJob.objects.in_bulk(
        {_job_id(row) for row in running if row.task_path == SIMULATE_TASK} - {None}
    )
    now = timezone.now()
    budget = dt.timedelta(seconds=settings.SIMULATION_CPU_SECONDS)
    lost = 0
    for row in running:
        mine = bool(worker_id) and row.worker_ids[-1:] == [worker_id]
        job = jobs.get(_job_id(row)) if row.task_path == SIMULATE_TASK else None
        if mine:
            message = DISCONNECTED if disconnected else STOPPED
        elif job is not None and job_is_lost(job):
            message = STOPPED
        elif job is not None and job.state == SimulationJob.State.RUNNING:
            continue  # it reports: its worker is alive
        elif row.started_at and now - row.started_at > (
            QUIET_TASK_BUDGETS * budget + LOST_AFTER
        ):
            message = STOPPED
        else:
            continue
        if _rows_fail(DBTaskResult.objects.filter(pk=row.pk), message):
            lost += 1
            logger.warning(
                "Task %s (%s) of worker %s was lost: marked failed",
                row.pk,
                row.task_path.rpartition(".")[2],
                row.worker_ids[-1] if row.worker_ids else "?",
            )
        if job is not None:
            _job_fail(job.pk, message)
    return lost


def _job_id(row: DBTaskResult) -> Any:
    args = row.args_kwargs.get("args") or [None]
    return args[0] if isinstance(args[0], int) else None


def _job_fail(job_id: int, message: str) -> None:
    SimulationJob.objects.filter(pk=job_id, state=SimulationJob.State.RUNNING).update(
        state=SimulationJob.State.FAILED, message=message, finished=timezone.now()
    )


def _rows_fail(rows: Any, message: str) -> int:
    return rows.filter(status="RUNNING").update(
        status="FAILED",
        finished_at=timezone.now(),
        exception_class_path=f"{WorkerLost.__module__}.{WorkerLost.__qualname__}",
        traceback=f"{WorkerLost.__qualname__}: {message}\n",
        return_value=None,
    )
