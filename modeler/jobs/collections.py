"""Item collections for the views, drawn by a worker: a page of the Item
collections section, or the partitions a collections diagram draws. The
worker answers from the table the design's simulation job loaded (it
keeps it) and puts the answer in Django's cache, under the design's data
and the question: a web request never makes sample data, and editing a
pattern, its traffic or a description keeps every answer."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache

from modeler import design as d
from modeler.diagrams.collections import (
    CollectionPage,
    Collections,
    PartitionView,
    collections_for,
)
from modeler.jobs.budget import Budget, BudgetExceeded
from modeler.jobs.pickling import dumps, loads
from modeler.jobs.runner import build_problem
from modeler.jobs.services import simulation_job_for
from modeler.jobs.tasks import draw_collections
from modeler.models import Project, SimulationJob
from modeler.sampledata import SampleDataError
from modeler.services import StaleVersionError, project_revision_design
from modeler.simulation.cache import cached_simulation, data_digest

logger = logging.getLogger(__name__)

# An answer is small (a page of items, or a diagram's few partitions) and
# holds while the data does: its key names the data.
CACHE_SECONDS = 24 * 60 * 60
# Why there is no answer is kept briefly: asking again tries again.
PROBLEM_SECONDS = 60
# A worker that has not answered by then is taken as lost: asking again
# queues another.
PENDING_SECONDS = 2 * 60


@dataclass(frozen=True)
class CollectionsQuestion:
    """What a view asks of the item collections of one index: a page of
    `per_page` items (`page` from 1), or, when `page` is 0, the first
    `max_partitions` partitions with `max_items` items each, for a
    diagram."""

    index: str
    entity: str = ""
    contains: str = ""
    page: int = 0
    per_page: int = 50
    keys: tuple[str, ...] = ()
    max_partitions: int = 10
    max_items: int = 20

    def answer(
        self, collections: Collections
    ) -> CollectionPage | tuple[list[PartitionView], int]:
        if self.page:
            return collections.page(
                index=self.index,
                entity=self.entity,
                contains=self.contains,
                page=self.page,
                per_page=self.per_page,
            )
        return collections.partitions(
            index=self.index,
            entity=self.entity,
            contains=self.contains,
            keys=self.keys,
            max_partitions=self.max_partitions,
            max_items=self.max_items,
        )

    def as_json(self) -> dict[str, Any]:
        """The question as a task's argument (JSON)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CollectionsQuestion:
        return cls(**{**data, "keys": tuple(data.get("keys", ()))})


@dataclass(frozen=True)
class CollectionsAnswer:
    """The answer (a CollectionPage, or a diagram's partitions and how many
    more matched); or why there is none; or, while it is being made,
    `pending`, with the simulation job that loads the data if that is
    what it waits for."""

    result: Any = None
    problem: str = ""
    pending: bool = False
    job: SimulationJob | None = None


def collections_answer(
    *,
    project: Project,
    design: d.Design,
    question: CollectionsQuestion,
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> CollectionsAnswer:
    """The answer to `question` about the project's current design: from
    the cache, or asked of a worker. The data is loaded by the design's
    simulation job (its progress is the page's while it runs); the worker
    that ran it keeps the table, so the question is queued once the job
    is done."""
    key = _answer_key(design, question)
    kept = _kept(key)
    if kept is not None:
        return kept
    job = simulation_job_for(project=project, design=design, user=user)
    if job.state in SimulationJob.ACTIVE:
        return CollectionsAnswer(pending=True, job=job)
    if job.state != SimulationJob.State.DONE:
        # The data could not be loaded (its message says why) or the user
        # cancelled the loading.
        message = job.message or "The simulation was cancelled."
        return CollectionsAnswer(
            problem=f"{message} Run the simulation again to see the sample data.",
            job=job,
        )
    # One worker per question, however many ask at once.
    if cache.add(f"{key}:pending", True, PENDING_SECONDS):
        draw_collections.enqueue(project.pk, project.version, question.as_json())
    # The task backend may have answered at once (tests run tasks so).
    return _kept(key) or CollectionsAnswer(pending=True)


def collections_draw(*, project_id: int, version: int, question: dict) -> None:
    """The worker's part: the answer for revision `version` of the project,
    from the table the worker keeps (loaded again, within a simulation's
    budget, when it has dropped it), put in the cache."""
    asked = CollectionsQuestion.from_json(question)
    try:
        project = Project.objects.get(pk=project_id)
        design = project_revision_design(project=project, number=version)
    except (Project.DoesNotExist, StaleVersionError):
        return  # deleted, or restored from a backup: nobody waits for it
    key = _answer_key(design, asked)
    budget = Budget(settings.SIMULATION_CPU_SECONDS, settings.SIMULATION_MEMORY_MB)
    result, problem = None, ""
    try:
        simulation, lock = cached_simulation(design, progress=lambda *_: budget.check())
        collections = collections_for(simulation)
        with lock:  # a write pattern may be changing the table
            result = asked.answer(collections)
    except BudgetExceeded as exc:
        problem = (
            f"Loading the sample data again passed {exc.budget_named()}: "
            "lower the counts in Sample data."
        )
    except Exception as exc:
        if not isinstance(exc, (SampleDataError, ClientError)):
            logger.exception("Drawing the collections of %r failed", design.name)
        problem = build_problem(exc)
    cache.set(
        key,
        dumps((result, problem)),
        PROBLEM_SECONDS if problem else CACHE_SECONDS,
    )
    cache.delete(f"{key}:pending")


def _kept(key: str) -> CollectionsAnswer | None:
    data = cache.get(key)
    if data is None:
        return None
    result, problem = loads(data)
    return CollectionsAnswer(result, problem)


def _answer_key(design: d.Design, question: CollectionsQuestion) -> str:
    asked = hashlib.sha256(repr(question).encode()).hexdigest()[:32]
    return f"collections:{data_digest(design)}:{asked}"
