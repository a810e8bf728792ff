"""What the views ask of a design's loaded table (a page of its item
collections, a diagram's partitions, the sample data as a file), answered
by a worker and kept in Django's cache under the design's data: a web
request never makes sample data. The data is loaded by the design's
simulation job (the page shows its progress while it runs); the worker
that ran it keeps the table, so the question is queued once the job is
done. An answer too large for the cache is a file (`modeler.jobs.files`),
the cache keeping its name."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache

from modeler.design import model as d
from modeler.design_check.limits import check_sample_size
from modeler.jobs.budget import Budget, BudgetExceeded, checked_progress
from modeler.jobs.files import file_exists
from modeler.jobs.pickling import FORMAT, dumps, loads
from modeler.jobs.runner import build_problem
from modeler.jobs.services import simulation_job_find, simulation_job_for
from modeler.models import Project, SimulationJob
from modeler.sampledata import SampleDataError
from modeler.services.projects import StaleVersionError, project_revision_design
from modeler.simulation import Simulation
from modeler.simulation.cache import cached_simulation, data_digest

logger = logging.getLogger(__name__)

# An answer holds while the data does: its key names the data.
CACHE_SECONDS = 24 * 60 * 60
# Why there is no answer is kept briefly: asking again tries again.
PROBLEM_SECONDS = 60
# A worker that has not answered by then is taken as lost: asking again
# queues another.
PENDING_SECONDS = 2 * 60
# How often a worker loading the table again says how far it is.
PROGRESS_SECONDS = 0.5


@dataclass(frozen=True)
class Reloading:
    """How far a worker that had let the table go is in loading it again:
    `done` of `total` items in `phase` (a SimulationJob phase)."""

    phase: str
    done: int
    total: int

    @property
    def phase_label(self) -> str:
        return SimulationJob.Phase(self.phase).label

    @property
    def percent(self) -> int:
        return 100 * self.done // self.total if self.total else 0


@dataclass(frozen=True)
class TableAnswer:
    """The answer; or why there is none; or, while it is being made,
    `pending`, with the simulation job that loads the data if that is
    what it waits for, or how far the worker is in loading it again if it
    had let it go; or, as a GET finds it (asking nothing), `to_start`: a
    POST has to start what makes it, the simulation job that loads the
    data (`loaded` False) or the worker's task."""

    result: Any = None
    problem: str = ""
    pending: bool = False
    job: SimulationJob | None = None
    reloading: Reloading | None = None
    to_start: bool = False
    loaded: bool = True


def table_answer(
    *,
    project: Project,
    design: d.Design,
    key: str,
    ask: Callable[[], object],
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> TableAnswer:
    """The answer kept under `key` (which names the data of `design`, the
    project's current one); else, unless a job loaded the same data
    before (for another version), the simulation job's progress while it
    loads the data, or why it could not; else `ask()` queues the worker's
    task (once, however many ask at once)."""
    kept = _kept(key)
    if kept is not None:
        return kept
    if not _loaded(project, design):
        job = simulation_job_for(project=project, design=design, user=user)
        waiting = _waiting_for(job)
        if waiting is not None:
            return waiting
    if cache.add(_pending(key), True, PENDING_SECONDS):
        ask()
    # The task backend may have answered at once (tests run tasks so).
    kept = _kept(key)
    if kept is not None:
        return kept
    reloading = cache.get(_pending(key))
    return TableAnswer(
        pending=True,
        reloading=Reloading(*reloading) if isinstance(reloading, tuple) else None,
    )


def table_answer_find(*, project: Project, design: d.Design, key: str) -> TableAnswer:
    """The answer kept under `key`, or what it waits for, as a page that
    only shows it (a GET) finds it: nothing is asked, started or marked.
    When nothing makes it yet, `to_start`: the POST that starts it is
    `table_answer`."""
    kept = _kept(key)
    if kept is not None:
        return kept
    if not _loaded(project, design):
        job = simulation_job_find(project=project, design=design)
        if job is None:
            return TableAnswer(to_start=True, loaded=False)
        waiting = _waiting_for(job)
        if waiting is not None:
            return waiting
    reloading = cache.get(_pending(key))
    if reloading is None:
        return TableAnswer(to_start=True)
    return TableAnswer(
        pending=True,
        reloading=Reloading(*reloading) if isinstance(reloading, tuple) else None,
    )


def _loaded(project: Project, design: d.Design) -> bool:
    """Whether a job of the project loaded the design's data (for this
    version or another with the same data)."""
    return SimulationJob.objects.filter(
        project=project,
        data_digest=data_digest(design),
        state=SimulationJob.State.DONE,
    ).exists()


def _waiting_for(job: SimulationJob) -> TableAnswer | None:
    """What an answer waits for while the simulation job loads the data,
    or why it cannot come; None once the job is done."""
    if job.state in SimulationJob.ACTIVE:
        return TableAnswer(pending=True, job=job, loaded=False)
    if job.state != SimulationJob.State.DONE:
        # The data could not be loaded (its message says why) or the
        # user cancelled the loading.
        message = job.message or "The simulation was cancelled."
        return TableAnswer(
            problem=f"{message} Run the simulation again to see the sample data.",
            job=job,
            loaded=False,
        )
    return None


def table_answer_kept(key: str) -> TableAnswer | None:
    """The answer kept under `key`, or None: nothing is asked (for a page
    that only shows what is there)."""
    return _kept(key)


def table_file_answer(**asked: Any) -> TableAnswer:
    """`table_answer` for an answer that is a file's name (`modeler.jobs.
    files`): a file removed since is written again."""
    answer = table_answer(**asked)
    if answer.result is not None and not file_exists(answer.result):
        cache.delete(asked["key"])
        answer = table_answer(**asked)
    return answer


def table_file_find(*, project: Project, design: d.Design, key: str) -> TableAnswer:
    """`table_answer_find` for an answer that is a file's name: a file
    removed since is to be written again (by `table_file_answer`)."""
    answer = table_answer_find(project=project, design=design, key=key)
    if answer.result is not None and not file_exists(answer.result):
        return TableAnswer(to_start=True)
    return answer


class Refused(Exception):
    """What `make` raises when the design cannot give the answer: its
    message, for the user, is kept as the answer's problem."""


def table_answer_make(
    *,
    project_id: int,
    version: int,
    key_of: Callable[[d.Design], str],
    make: Callable[[d.Design, Simulation], Any],
) -> None:
    """The worker's part: `make(design, simulation)` for revision `version`
    of the project, from the table the worker keeps (loaded again, within a
    simulation's budget, when it has dropped it), put in the cache under
    `key_of(design)` with the table's lock held."""
    try:
        project = Project.objects.get(pk=project_id)
        design = project_revision_design(project=project, number=version)
    except (Project.DoesNotExist, StaleVersionError):
        return  # deleted, or restored from a backup: nobody waits for it
    key = key_of(design)
    budget = Budget(settings.SIMULATION_CPU_SECONDS, settings.SIMULATION_MEMORY_MB)
    # Only when the worker loads the table again: the pages waiting for the
    # answer show how far it is, twice a second at most.
    progress = checked_progress(
        budget,
        lambda phase, done, total: cache.set(
            _pending(key), (phase, done, total), PENDING_SECONDS
        ),
        every=PROGRESS_SECONDS,
    )

    result, problem = None, ""
    refused = check_sample_size(design)
    try:
        if refused:  # a limit the site lowered since the design's job ran
            raise Refused(f"The sample data cannot be made: {refused[0].message}.")
        simulation, lock = cached_simulation(design, progress=progress)
        with lock:  # a write pattern may be changing the table
            result = make(design, simulation)
    except Refused as exc:
        problem = str(exc)
    except BudgetExceeded as exc:
        problem = (
            f"Loading the sample data again passed {exc.budget_named()}: "
            "lower the counts in Sample data."
        )
    except Exception as exc:
        if not isinstance(exc, (SampleDataError, ClientError)):
            logger.exception("Answering %s for %r failed", key, design.name)
        problem = build_problem(exc)
    cache.set(
        key,
        dumps((result, problem)),
        PROBLEM_SECONDS if problem else CACHE_SECONDS,
    )
    cache.delete(_pending(key))


def table_key(kind: str, design: d.Design, question: str = "") -> str:
    """Where an answer of `kind` to `question` about the design's data is
    kept."""
    return f"{kind}:{FORMAT}:{data_digest(design)}:{question}"


def _pending(key: str) -> str:
    """Where a worker asked for the answer under `key` is marked (True), or
    says how far it is in loading the table again (phase, done, total)."""
    return f"{key}:pending"


def _kept(key: str) -> TableAnswer | None:
    data = cache.get(key)
    if data is None:
        return None
    result, problem = loads(data)
    return TableAnswer(result, problem)
