"""Simulation jobs for the views: the one of a design, started or reused;
the one running in a project, for its indicator; cancelling."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from modeler import design as d
from modeler.jobs.tasks import simulate_design
from modeler.models import PatternResult, Project, SimulationJob
from modeler.simulation.cache import data_digest, design_digest

State = SimulationJob.State
# A running job whose worker has not reported for this long (past its
# budget) is taken as lost: its worker was stopped or died.
LOST_AFTER = dt.timedelta(seconds=60)


def simulation_job_for(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser,
) -> SimulationJob:
    """The latest job of this design's content (its current version or
    any other with the same content); a new one, queued, if there is none
    or the latest was lost. A failed or cancelled job is returned as it is:
    running it again is asked for (`simulation_job_rerun`)."""
    digest = design_digest(design)
    job = (
        SimulationJob.objects.filter(project=project, design_digest=digest)
        .order_by("-created", "-pk")
        .first()
    )
    if job is not None and _lost(job):
        SimulationJob.objects.filter(pk=job.pk, state=State.RUNNING).update(
            state=State.FAILED,
            message="The worker running this simulation stopped before it "
            "finished: run it again.",
            finished=timezone.now(),
        )
        job.refresh_from_db()
    if job is None:
        job = _start(project=project, design=design, user=user, digest=digest)
    return job


def simulation_job_rerun(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser,
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
    if job is not None and not _lost(job):
        return job
    return _start(project=project, design=design, user=user, digest=digest)


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
    return SimulationJob.objects.filter(project=project, pk=job_id).first()


def simulation_job_running(*, project: Project) -> SimulationJob | None:
    """The project's latest queued or running job, for the indicator."""
    job = (
        SimulationJob.objects.filter(project=project, state__in=SimulationJob.ACTIVE)
        .order_by("-created", "-pk")
        .first()
    )
    return None if job is None or _lost(job) else job


def pattern_result_list(*, job: SimulationJob, since: int = 0) -> list[PatternResult]:
    """The job's stored pattern results from position `since` on."""
    return list(job.results.filter(position__gte=since).order_by("position"))


def pattern_result_get(*, job: SimulationJob, position: int) -> PatternResult | None:
    return job.results.filter(position=position).first()


def _start(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser,
    digest: str,
) -> SimulationJob:
    job = SimulationJob.objects.create(
        project=project,
        revision_id=project.head_id,
        requested_by=user if user.is_authenticated else None,
        design_digest=digest,
        data_digest=data_digest(design),
        patterns_total=len(design.access_patterns),
    )
    # Views run outside a transaction: the row is visible to the workers.
    # With the immediate backend (tests) the job has run when this returns.
    result = simulate_design.enqueue(job.pk)
    SimulationJob.objects.filter(pk=job.pk).update(task_id=str(result.id))
    job.refresh_from_db()
    return job


def _lost(job: SimulationJob) -> bool:
    if job.state != State.RUNNING or job.heartbeat is None:
        return False
    silence = timezone.now() - job.heartbeat
    return silence > LOST_AFTER + dt.timedelta(seconds=settings.SIMULATION_CPU_SECONDS)
