"""The worker (`manage.py db_worker`) outlives what used to stop it or leave
its jobs hanging: a worker killed while it ran a job, the database failing
under it, one project's burst of jobs ahead of another's."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet

from modeler.conversion import design_from_project
from modeler.jobs import fairness, recovery, runner
from modeler.jobs import services as jobs
from modeler.jobs.collections import CollectionsQuestion, draw_collections
from modeler.jobs.samplefiles import write_sample_file
from modeler.models import SimulationJob
from modeler.services import projects as project_services
from tests.views.conftest import example_design, logged_in, with_roots

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(scope="module")
def order_design():
    return example_design("order-management")


@pytest.fixture(scope="module")
def small_design(order_design):
    return with_roots(order_design, 3)


@pytest.fixture
def queued(settings):
    settings.TASKS = DATABASE_TASKS


def _work(*options: str) -> None:
    call_command(
        "db_worker",
        "--batch",
        "--no-startup-delay",
        "--interval",
        "0",
        "--no-reload",
        *options,
    )


def _project(owner, design, name: str = ""):
    if name:
        design = dataclasses.replace(design, name=name)
    return project_services.project_create(owner=owner, design=design)


def _job(project, owner) -> SimulationJob:
    """The simulation job of the project's design, queued as a page does."""
    return jobs.simulation_job_for(
        project=project, design=design_from_project(project), user=owner
    )


def _row(job: SimulationJob) -> DBTaskResult:
    job.refresh_from_db()
    return DBTaskResult.objects.get(pk=job.task_id)


def wait_until(condition, *, timeout: float = 180, what: str = "") -> None:
    """Polls `condition` until it holds; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what or condition}")
        time.sleep(0.05)


def database_url() -> str:
    """The test database, for a worker in another process."""
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    password = database["PASSWORD"]
    user = database["USER"] + (f":{password}" if password else "")
    host = database["HOST"] or "localhost"
    return f"postgres://{user}@{host}:{database['PORT'] or 5432}/{database['NAME']}"


def worker_process(database: str, media: Path, *options: str) -> subprocess.Popen:
    """`manage.py db_worker` in a process of its own, as systemd runs it."""
    environment = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": "a test key that is only used by this worker process",
        "MEDIA_ROOT": str(media),
        "LOG_LEVEL": "WARNING",
    }
    environment.pop("WORKBENCH_DATABASE_TESTS_ONLY", None)
    return subprocess.Popen(  # our own command
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.1",
            *options,
        ],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


# --- A killed worker ------------------------------------------------------------


def test_a_killed_workers_job_is_failed_when_it_restarts_and_then_pruned(
    queued, owner, order_design, settings, tmp_path
):
    # About 50,000 items: seconds of work, so the worker is killed mid-job.
    project = _project(owner, with_roots(order_design, 1500))
    job = _job(project, owner)
    worker = worker_process(database_url(), tmp_path, "--worker-id", "host-1")
    try:
        wait_until(
            lambda: SimulationJob.objects.get(pk=job.pk).state == "running",
            what="the worker to start the job",
        )
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.communicate(timeout=60)
    row = _row(job)
    assert (row.status, job.state) == ("RUNNING", "running")
    # Left as it is, the queue keeps it: prune removes finished rows only.
    call_command("prune_db_task_results", "--min-age-days", "0", verbosity=0)
    assert DBTaskResult.objects.filter(pk=row.pk, status="RUNNING").exists()

    # systemd starts the instance again, with its id: its first look at the
    # queue finds the job it was running.
    _work("--worker-id", "host-1")

    row.refresh_from_db()
    job.refresh_from_db()
    assert row.status == "FAILED"
    assert row.exception_class_path == "modeler.jobs.recovery.WorkerLost"
    assert (job.state, job.message) == ("failed", recovery.STOPPED)
    page = logged_in(owner).get(f"/projects/{project.pk}/simulation/").content.decode()
    assert "The worker running this simulation stopped before it finished" in page
    assert "Run again" in page
    call_command("prune_db_task_results", "--min-age-days", "0", verbosity=0)
    assert not DBTaskResult.objects.filter(pk=row.pk).exists()


def _running(job: SimulationJob, *, worker: str, silent_for: float) -> DBTaskResult:
    """The job as a worker that died `silent_for` seconds into it left it."""
    row = _row(job)
    row.claim(worker)
    SimulationJob.objects.filter(pk=job.pk).update(
        state="running",
        started=row.started_at,
        heartbeat=row.started_at.__class__.fromtimestamp(
            time.time() - silent_for, tz=row.started_at.tzinfo
        ),
    )
    return row


def test_another_workers_silent_job_is_failed_by_any_worker_and_by_its_page(
    queued, owner, small_design, settings
):
    settings.SIMULATION_CPU_SECONDS = 10
    silent, alive, seen = (
        _project(owner, small_design, name=name) for name in ("Silent", "Alive", "Seen")
    )
    silent_job, alive_job, seen_job = (_job(p, owner) for p in (silent, alive, seen))
    silent_row = _running(silent_job, worker="gone", silent_for=71)
    alive_row = _running(alive_job, worker="busy", silent_for=69)
    seen_row = _running(seen_job, worker="gone", silent_for=71)

    # The page polling the job finds it lost, and fails its row too.
    jobs.simulation_job_get(project=seen, job_id=seen_job.pk)
    seen_row.refresh_from_db()
    assert seen_row.status == "FAILED"

    _work("--worker-id", "another")

    for row in (silent_row, alive_row):
        row.refresh_from_db()
    silent_job.refresh_from_db()
    alive_job.refresh_from_db()
    assert (silent_row.status, silent_job.state) == ("FAILED", "failed")
    assert silent_job.message == recovery.STOPPED
    # Within its budget and a minute: its worker is alive, only busy.
    assert (alive_row.status, alive_job.state) == ("RUNNING", "running")


def test_a_task_that_reports_nothing_is_lost_past_ten_budgets(
    queued, owner, small_design, settings
):
    settings.SIMULATION_CPU_SECONDS = 1
    project = _project(owner, small_design)
    old = write_sample_file.enqueue(project.pk, project.version).db_result
    recent = write_sample_file.enqueue(project.pk, project.version + 1).db_result
    for row, started_ago in ((old, 71), (recent, 69)):
        row.claim("gone")
        DBTaskResult.objects.filter(pk=row.pk).update(
            started_at=row.started_at.__class__.fromtimestamp(
                time.time() - started_ago, tz=row.started_at.tzinfo
            )
        )

    recovery.lost_tasks_fail()

    old.refresh_from_db()
    recent.refresh_from_db()
    assert (old.status, recent.status) == ("FAILED", "RUNNING")


# --- The database failing under the worker -------------------------------------


def test_the_worker_goes_on_when_the_database_fails_under_it(
    queued, owner, small_design, monkeypatch
):
    """What a database restart does to the worker, on any database: the
    claim and a running job fail with the errors a dropped connection
    gives. The worker waits, takes the queue again, and runs the next job."""
    first, second = (_project(owner, small_design, name=n) for n in ("First", "Next"))
    first_job, second_job = _job(first, owner), _job(second, owner)
    monkeypatch.setattr("modeler.jobs.worker.FIRST_RETRY_SECONDS", 0)
    polls = iter([OperationalError("server closed the connection unexpectedly")])
    real_ready = DBTaskResultQuerySet.ready

    def dropped_once(queryset):
        failure = next(polls, None)
        if failure is not None:
            raise failure
        return real_ready(queryset)

    monkeypatch.setattr(DBTaskResultQuerySet, "ready", dropped_once)
    real_simulate = runner._simulate

    def dropped_in_first(design, watch):
        if watch.job_id == first_job.pk:
            raise OperationalError("terminating connection: administrator command")
        return real_simulate(design, watch)

    monkeypatch.setattr(runner, "_simulate", dropped_in_first)

    _work()

    first_job.refresh_from_db()
    second_job.refresh_from_db()
    assert (first_job.state, first_job.message) == ("failed", recovery.DISCONNECTED)
    assert _row(first_job).status == "FAILED"
    assert second_job.state == "done"
    assert not DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).exists()


# --- The projects in turn ----------------------------------------------------------


def _started(rows) -> list:
    return sorted(rows, key=lambda row: DBTaskResult.objects.get(pk=row.pk).started_at)


@pytest.mark.usefixtures("database_cache")
def test_another_projects_job_runs_before_a_projects_second(
    queued, owner, small_design, settings
):
    busy, other = (_project(owner, small_design, name=n) for n in ("Busy", "Other"))
    # Three of the busy project's, then the other's.
    busy_rows = [
        DBTaskResult.objects.get(pk=_job(busy, owner).task_id),
        write_sample_file.enqueue(busy.pk, busy.version).db_result,
        draw_collections.enqueue(
            busy.pk, busy.version, CollectionsQuestion(index="table", page=1).as_json()
        ).db_result,
    ]
    other_row = DBTaskResult.objects.get(pk=_job(other, owner).task_id)

    _work()

    assert _started([*busy_rows, other_row]) == [
        busy_rows[0],
        other_row,
        busy_rows[1],
        busy_rows[2],
    ]
    assert set(
        DBTaskResult.objects.filter(
            pk__in=[r.pk for r in [*busy_rows, other_row]]
        ).values_list("status", flat=True)
    ) == {"SUCCESSFUL"}


def test_quick_edits_cost_their_project_no_turn(queued, owner, small_design):
    """Jobs of versions saved over are skipped, not run: the last version's
    job is its project's first, ahead of a job queued after it."""
    edited = _project(owner, small_design, name="Edited")
    jobs_of_edits = [_job(edited, owner)]
    design = small_design
    for version in (1, 2):
        design = dataclasses.replace(design, description=f"Edit {version}")
        project_services.project_save_design(
            project=edited, design=design, version=version, author=owner
        )
        jobs_of_edits.append(_job(edited, owner))
    later = _job(_project(owner, small_design, name="Later"), owner)

    _work()

    for job in (*jobs_of_edits, later):
        job.refresh_from_db()
    assert [j.state for j in jobs_of_edits] == ["superseded", "superseded", "done"]
    assert jobs_of_edits[-1].started < later.started


def test_a_project_with_a_job_running_waits_for_the_others(queued, owner, small_design):
    """With several workers, one project's jobs do not take them all."""
    running, waiting = (_project(owner, small_design, name=n) for n in ("Run", "Wait"))
    taken = write_sample_file.enqueue(running.pk, running.version).db_result
    taken.claim("another worker")
    second = write_sample_file.enqueue(running.pk, running.version + 1).db_result
    first_of_waiting = write_sample_file.enqueue(waiting.pk, waiting.version).db_result

    order = fairness.claim_order(list(DBTaskResult.objects.ready()))

    assert [row.pk for row in order] == [first_of_waiting.pk, second.pk]
