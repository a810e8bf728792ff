"""The tasks that workers (`manage.py db_worker`) take from the queue."""

from __future__ import annotations

from django_tasks import task

from modeler.jobs.proposals import key_proposal_run
from modeler.jobs.runner import run_job


@task()
def simulate_design(job_id: int) -> None:
    """A design's simulation job (`modeler.jobs.runner.run_job`)."""
    run_job(job_id)


@task()
def propose_keys(project_id: int, version: int, keep: list[str]) -> None:
    """Key proposals for a project's revision (`modeler.jobs.proposals`)."""
    key_proposal_run(project_id=project_id, version=version, keep=keep)


@task()
def draw_collections(project_id: int, version: int, question: dict) -> None:
    """A page or diagram of a revision's item collections
    (`modeler.jobs.collections`)."""
    from modeler.jobs.collections import collections_draw  # it queues this task

    collections_draw(project_id=project_id, version=version, question=question)


@task()
def write_sample_file(project_id: int, version: int) -> None:
    """A revision's sample data as a file (`modeler.jobs.samplefiles`)."""
    from modeler.jobs.samplefiles import sample_file_write  # it queues this task

    sample_file_write(project_id=project_id, version=version)


@task()
def render_collections_png(
    project_id: int, version: int, question: dict, scale: int
) -> None:
    """A collections diagram as a PNG file (`modeler.jobs.collections`)."""
    from modeler.jobs.collections import collections_png_render  # it queues this

    collections_png_render(
        project_id=project_id, version=version, question=question, scale=scale
    )
