"""Simulation jobs queued in the database and run by the real worker
(`manage.py db_worker`), as `make run` and production run them."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from modeler import services
from modeler.design import Design
from modeler.jobs import services as jobs
from modeler.jobs.budget import Budget, BudgetExceeded
from modeler.models import PatternResult, SimulationJob
from modeler.sampledata import generate
from tests.views.conftest import example_design, logged_in, with_roots

pytestmark = pytest.mark.django_db(transaction=True)

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(scope="module")
def order_design() -> Design:
    return example_design("order-management")


@pytest.fixture
def queued(settings):
    """Jobs are queued in the database until a worker takes them."""
    settings.TASKS = DATABASE_TASKS


def _work() -> None:
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--interval", "0", "--no-reload"
    )


def test_the_worker_runs_a_queued_job_and_stores_every_result(
    queued, owner, order_design
):
    design = with_roots(order_design, 3)
    project = services.project_create(owner=owner, design=design)
    client = logged_in(owner)

    page = client.get(f"/projects/{project.pk}/simulation/").content.decode()

    job = SimulationJob.objects.get(project=project)
    assert job.state == "queued" and job.requested_by == owner
    assert DBTaskResult.objects.get(id=job.task_id).status == "READY"
    assert 'data-job-state="queued"' in page
    assert 'hx-trigger="every 1s"' in page
    assert "Waiting for a worker to start the simulation" in page
    assert not PatternResult.objects.exists()

    _work()

    job.refresh_from_db()
    items = len(generate(design))
    assert (job.state, job.phase, job.message) == ("done", "running", "")
    assert (job.items_made, job.items_loaded, job.items_total) == (items,) * 3
    assert (job.patterns_run, job.patterns_total) == (8, 8)
    assert job.started and job.finished and job.percent == 100
    results = list(job.results.all())
    assert [r.position for r in results] == list(range(8))
    assert [r.name for r in results] == [p.name for p in design.access_patterns]
    assert {r.verdict for r in results} == {"pass"}
    assert DBTaskResult.objects.get(id=job.task_id).status == "SUCCESSFUL"

    # The page polled before now gets the results and stops polling.
    progress = client.get(
        f"/projects/{project.pk}/simulation/jobs/{job.pk}/?shown=0",
        headers={"HX-Request": "true"},
    ).content.decode()
    assert 'data-job-state="done"' in progress
    assert 'hx-trigger="every 1s"' not in progress
    assert progress.count('hx-swap-oob="true"') == 8 + 1  # results and counts
    # The same design is not simulated twice.
    client.get(f"/projects/{project.pk}/simulation/")
    assert SimulationJob.objects.filter(project=project).count() == 1


def test_progress_is_stored_while_the_worker_runs(queued, owner, order_design):
    project = services.project_create(owner=owner, design=order_design)
    job = jobs.simulation_job_for(project=project, design=order_design, user=owner)
    seen: list[tuple] = []
    real = PatternResult.objects.create

    def watching(**fields):
        seen.append(
            SimulationJob.objects.filter(pk=job.pk)
            .values_list("phase", "items_made", "items_loaded", "patterns_run")
            .get()
        )
        return real(**fields)

    PatternResult.objects.create = watching
    try:
        _work()
    finally:
        del PatternResult.objects.create

    items = len(generate(order_design))
    # Each result is stored while the job runs, after the earlier ones.
    assert seen == [("running", items, items, n) for n in range(8)]


def test_a_job_cancelled_before_a_worker_takes_it_never_runs(
    queued, owner, order_design
):
    project = services.project_create(owner=owner, design=with_roots(order_design, 3))
    job = jobs.simulation_job_for(
        project=project, design=with_roots(order_design, 3), user=owner
    )

    jobs.simulation_job_cancel(project=project, job_id=job.pk)
    _work()

    job.refresh_from_db()
    assert (job.state, job.message) == ("cancelled", "Cancelled before it started.")
    assert job.phase == "" and not job.results.exists()


def test_budget_is_checked_on_the_jobs_own_cpu_time():
    budget = Budget(cpu_seconds=1000, memory_mb=100_000)
    budget.check()
    with pytest.raises(BudgetExceeded) as raised:
        Budget(cpu_seconds=-1, memory_mb=100_000).check()
    assert raised.value.kind == "time"
    with pytest.raises(BudgetExceeded) as raised:
        Budget(cpu_seconds=1000, memory_mb=-1).check()
    assert raised.value.kind == "memory"
