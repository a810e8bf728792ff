"""The tasks that workers (`manage.py db_worker`) take from the queue."""

from __future__ import annotations

from django_tasks import task

from modeler.jobs.runner import run_job


@task()
def simulate_design(job_id: int) -> None:
    """A design's simulation job (`modeler.jobs.runner.run_job`)."""
    run_job(job_id)
