"""Simulation jobs for the views: the one of a design, looked up (a GET)
or started or reused (a POST); the one running in a project, for its
indicator; cancelling."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from modeler.design import model as d
from modeler.jobs.recovery import STOPPED, job_is_lost, lost_job_fail
from modeler.jobs.reviews import review_key, review_stored
from modeler.jobs.runner import simulate_design
from modeler.models import PatternResult, Project, Revision, SimulationJob
from modeler.review.review import Review, review_design
from modeler.selectors import ProjectNotFound, project_cost_settings
from modeler.simulation.cache import data_digest, design_digest

logger = logging.getLogger(__name__)
State = SimulationJob.State
# Finished jobs kept per project (with their pattern results), newest first.
KEPT_JOBS = 20


def simulation_job_for(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser | None,
    revision: Revision | None = None,
) -> SimulationJob:
    """The latest job of this design's content (its current version or
    any other with the same content); a new one, queued, if there is none
    or the latest was lost or superseded. A failed or cancelled job is
    returned as it is: running it again is asked for
    (`simulation_job_rerun`). `design` is the project's current one unless
    `revision` says whose it is."""
    digest = design_digest(design)
    job = (
        SimulationJob.objects.filter(project=project, design_digest=digest)
        .order_by("-created", "-pk")
        .first()
    )
    if job is not None and job.state != State.SUPERSEDED:
        lost_job_fail(job)
    else:
        job = _start(
            project=project, design=design, user=user, digest=digest, revision=revision
        )
    return job


def simulation_job_latest(
    *, project: Project, design: d.Design
) -> SimulationJob | None:
    """The latest job of this design's content as it stands, or None:
    nothing is started or marked, for a page that only shows it (a job
    lost or superseded is started again by `simulation_job_for`)."""
    return (
        SimulationJob.objects.filter(
            project=project, design_digest=design_digest(design)
        )
        .order_by("-created", "-pk")
        .first()
    )


def simulation_job_find(*, project: Project, design: d.Design) -> SimulationJob | None:
    """The latest job of this design's content, as a page shows it, or
    None when there is none (or only a superseded one) and a POST has to
    start it (`simulation_job_for`). It writes nothing: a job whose worker
    stopped is shown as failed, and marked so by the next POST or by the
    workers' recovery."""
    job = simulation_job_latest(project=project, design=design)
    if job is None or job.state == State.SUPERSEDED:
        return None
    if job_is_lost(job):
        job.state, job.message = State.FAILED, STOPPED
    return job


def design_review_stored(*, project: Project, design: d.Design) -> Review | None:
    """The review of `design` at the project's prices if its simulation job
    made it, else None; nothing is started (`design_review_get` does)."""
    cost = project_cost_settings(project=project)
    return review_stored(review_key(design, cost.prices, cost.stored_items))


def simulation_job_rerun(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser | None,
    revision: Revision | None = None,
) -> SimulationJob:
    """A new job for the design, unless one of its content is queued or
    running already (then that one)."""
    digest = design_digest(design)
    job = (
        SimulationJob.objects.filter(
            project=project, design_digest=digest, state__in=SimulationJob.ACTIVE
        )
        .order_by("-created", "-pk")
        .first()
    )
    if job is not None and not lost_job_fail(job):
        return job
    return _start(
        project=project, design=design, user=user, digest=digest, revision=revision
    )


@dataclass(frozen=True)
class DesignReview:
    """A design's review, or the job making it (`review` is None until the
    job is done); neither when a POST has to start the job."""

    review: Review | None
    job: SimulationJob | None = None

    @property
    def to_start(self) -> bool:
        return self.review is None and self.job is None


def design_review_get(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser | None = None,
    revision: Revision | None = None,
    start: bool = False,
) -> DesignReview:
    """The review of `design` (the project's current one, or `revision`'s)
    at the project's prices, made by its simulation job: from the cache if
    a job made it, else the job making it; with `start` (a POST), started
    if need be, else (a GET, which writes nothing) neither review nor job
    when it has to be started (`DesignReview.to_start`). When the
    simulation failed or was cancelled, the review of what the design alone
    shows (quick: no sample data), with the job's message as the
    simulation's problem. Nothing is simulated here: the worker does it."""
    cost = project_cost_settings(project=project)
    key = review_key(design, cost.prices, cost.stored_items)
    review = review_stored(key)
    if review is not None:
        return DesignReview(review)
    found = dict(project=project, design=design, user=user, revision=revision)
    if not start:
        job = simulation_job_find(project=project, design=design)
        if job is None or job.state == State.DONE:
            # None yet, or done but its review is not at hand (made at
            # other prices, or dropped by the cache): a POST runs it.
            return DesignReview(None)
    else:
        job = simulation_job_for(**found)
    if job.state == State.DONE:
        # Done now (jobs run at once when the task backend is immediate),
        # or done at other prices, or the cache has dropped its review.
        review = review_stored(key)
        if review is not None:
            return DesignReview(review, job)
        job = simulation_job_rerun(**found)
        review = review_stored(key)
        if review is not None:
            return DesignReview(review, job)
    if job.state in SimulationJob.ACTIVE:
        return DesignReview(None, job)
    if job.state == State.DONE:
        logger.error(
            "Simulation job %s is done but its review %s is not in the cache",
            job.pk,
            key,
        )
        problem = "its review could not be kept in the cache (see the server's log)"
    else:
        problem = job.message.rstrip(".") or "the simulation was cancelled"
    without = review_design(
        design,
        prices=cost.prices,
        stored_items=cost.stored_items,
        simulation_problem=problem,
    )
    return DesignReview(without, job)


def simulation_job_cancel(*, project: Project, job_id: int) -> SimulationJob | None:
    """Asks the project's job to stop: a queued one is cancelled at once,
    a running one at its worker's next check. None if there is no such
    job in the project."""
    job = SimulationJob.objects.filter(project=project, pk=job_id).first()
    if job is None:
        return None
    SimulationJob.objects.filter(pk=job.pk, state__in=SimulationJob.ACTIVE).update(
        cancel_requested=True
    )
    SimulationJob.objects.filter(pk=job.pk, state=State.QUEUED).update(
        state=State.CANCELLED,
        message="Cancelled before it started.",
        finished=timezone.now(),
    )
    job.refresh_from_db()
    return job


def simulation_job_get(*, project: Project, job_id: int) -> SimulationJob | None:
    """The project's job; one whose worker stopped is marked failed first,
    so that a page polling its progress says so instead of waiting on."""
    job = SimulationJob.objects.filter(project=project, pk=job_id).first()
    if job is not None:
        lost_job_fail(job)
    return job


def simulation_job_running(*, project: Project) -> SimulationJob | None:
    """The project's latest queued or running job, for the indicator."""
    job = (
        SimulationJob.objects.filter(project=project, state__in=SimulationJob.ACTIVE)
        .order_by("-created", "-pk")
        .first()
    )
    return None if job is None or job_is_lost(job) else job


def pattern_result_list(*, job: SimulationJob, since: int = 0) -> list[PatternResult]:
    """The job's stored pattern results from position `since` on."""
    return list(job.results.filter(position__gte=since).order_by("position"))


def pattern_result_get(*, job: SimulationJob, position: int) -> PatternResult | None:
    return job.results.filter(position=position).first()


def _start(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser | None,
    digest: str,
    revision: Revision | None,
) -> SimulationJob:
    try:
        with transaction.atomic():
            job = SimulationJob.objects.create(
                project=project,
                revision_id=project.head_id if revision is None else revision.pk,
                requested_by=user
                if user is not None and user.is_authenticated
                else None,
                design_digest=digest,
                data_digest=data_digest(design),
                patterns_total=len(design.access_patterns),
            )
    except IntegrityError:
        if not Project.objects.filter(pk=project.pk).exists():
            # Deleted since the request found it (a teammate, meanwhile).
            raise ProjectNotFound("No such project") from None
        # Another request started one for this design at the same instant
        # (one active job per design: a constraint of the table).
        active = (
            SimulationJob.objects.filter(
                project=project, design_digest=digest, state__in=SimulationJob.ACTIVE
            )
            .order_by("-created", "-pk")
            .first()
        )
        if active is None:
            raise
        return active
    # The project keeps its last jobs, however many edits it sees.
    old = (
        SimulationJob.objects.filter(project=project)
        .exclude(state__in=SimulationJob.ACTIVE)
        .order_by("-created", "-pk")
        .values_list("pk", flat=True)[KEPT_JOBS:]
    )
    SimulationJob.objects.filter(pk__in=list(old)).delete()
    # Views run outside a transaction: the row is visible to the workers.
    # With the immediate backend (tests) the job has run when this returns.
    result = simulate_design.enqueue(job.pk)
    SimulationJob.objects.filter(pk=job.pk).update(task_id=str(result.id))
    started = SimulationJob.objects.filter(pk=job.pk).first()
    if started is None:  # the project deleted meanwhile, and its jobs
        raise ProjectNotFound("No such project")
    return started
