"""Simulation jobs queued in the database and run by the real worker
(`manage.py db_worker`), as `make run` and production run them."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import subprocess
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from modeler import selectors
from modeler.conversion import design_from_project
from modeler.design.model import Design, Traffic
from modeler.jobs import services as jobs
from modeler.jobs.budget import Budget, BudgetExceeded
from modeler.jobs.collections import draw_collections
from modeler.jobs.reviews import forget_reviews
from modeler.models import PatternResult, SimulationJob
from modeler.sampledata import generate
from modeler.services import projects as project_services
from modeler.simulation import cache as simulation_cache
from modeler.simulation.cache import forget_simulations
from tests.views.conftest import example_design, logged_in, with_roots
from tests.views.starting import opened, start_jobs

pytestmark = pytest.mark.django_db(transaction=True)

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
REDIS_SERVER = "/usr/bin/redis-server"


@pytest.fixture(scope="module")
def order_design() -> Design:
    return example_design("order-management")


@pytest.fixture
def queued(settings):
    """Jobs are queued in the database until a worker takes them."""
    settings.TASKS = DATABASE_TASKS


@pytest.fixture
def only_the_worker(monkeypatch):
    """A context in which no request can make sample data or run Graphviz:
    only the worker may."""

    @contextlib.contextmanager
    def requests_only():
        with monkeypatch.context() as no_work:
            no_work.setattr("modeler.simulation.cache.Simulation", None)
            no_work.setattr("modeler.views.diagrams.diagrams.render", None)
            yield

    return requests_only


def _work() -> None:
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--interval", "0", "--no-reload"
    )


def test_the_worker_runs_a_queued_job_and_stores_every_result(
    queued, owner, order_design
):
    design = with_roots(order_design, 3)
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)

    # The page finds no job and posts to start it as it loads.
    page = client.get(f"/projects/{project.pk}/simulation/").content.decode()
    assert "data-simulation-start" in page
    start_jobs(client, project)
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
    assert (job.state, job.phase, job.message) == ("done", "reviewing", "")
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
    # The results, the sample counts and the header's indicator.
    assert progress.count('hx-swap-oob="true"') == 8 + 2
    # The same design is not simulated twice.
    start_jobs(client, project)
    assert SimulationJob.objects.filter(project=project).count() == 1


@pytest.mark.usefixtures("database_cache")
def test_the_review_waits_for_the_job_then_shows_what_the_worker_made(
    queued, owner, order_design, settings
):
    # The database's cache, as the web and worker processes share it.
    design = with_roots(order_design, 3)
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    review_page = f"/projects/{project.pk}/review/"
    findings = f"/projects/{project.pk}/findings/patterns/"
    start_jobs(client, project)

    page = client.get(review_page).content.decode()
    partial = client.get(findings, headers={"HX-Request": "true"}).content.decode()

    # Nothing is reviewed in the request: the page says the job makes it,
    # asks again every second, and the prices stay editable.
    assert "The design review is made with the simulation" in page
    assert "waiting for a worker to start it" in page
    assert 'hx-trigger="every 1s"' in page and 'hx-select="#review-body"' in page
    # One region of that id: the progress is swapped for itself, not nested
    # one level deeper at each poll.
    assert page.count('id="review-body"') == 1
    assert "Summary for the review meeting" not in page
    assert 'id="cost-settings"' in page
    assert "The design review is being made with the simulation" in partial
    assert 'hx-trigger="load delay:1s"' in partial
    slide = client.get(f"/projects/{project.pk}/present/0/").content.decode()
    assert 'hx-trigger="every 1s" hx-select="#deck"' in slide
    assert "Waiting for its turn" in slide
    # The pack, a file without script, reloads itself; not yet a download.
    pack = client.get(f"/projects/{project.pk}/reviews/pack/1/?download=1")
    assert pack.status_code == 200 and "Content-Disposition" not in pack
    assert "default-src 'none'" in pack["Content-Security-Policy"]
    assert '<meta http-equiv="refresh" content="2">' in pack.content.decode()
    assert "The review pack of revision 1 is being made" in pack.content.decode()
    assert SimulationJob.objects.filter(project=project).count() == 1

    _work()
    forget_reviews()  # as another process would: from the shared cache

    page = client.get(review_page).content.decode()
    partial = client.get(findings, headers={"HX-Request": "true"}).content.decode()
    assert "Summary for the review meeting" in page
    assert "The design review is made with the simulation" not in page
    assert page.count('id="review-body"') == 1
    assert 'hx-trigger="every 1s"' not in page
    assert "Design review of the access patterns" in partial or (
        "The design review finds nothing to change" in partial
    )
    pack = client.get(f"/projects/{project.pk}/reviews/pack/1/?download=1")
    assert "attachment" in pack["Content-Disposition"]
    slide = client.get(f"/projects/{project.pk}/present/0/").content.decode()
    assert 'hx-trigger="every 1s"' not in slide
    assert "<strong>Passes</strong>" in slide
    assert "Partition <code>CUST#" in slide and "data-returned" in slide
    assert SimulationJob.objects.filter(project=project).count() == 1


@pytest.mark.usefixtures("database_cache")
def test_item_collections_are_drawn_by_the_worker_and_kept_across_edits(
    queued, owner, order_design, settings, only_the_worker
):
    design = with_roots(order_design, 3)
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    page_url = f"/projects/{project.pk}/collections/?entity=Customer"
    diagram_url = f"/projects/{project.pk}/diagrams/?kind=collections"
    download_url = f"/projects/{project.pk}/diagrams/diagram.svg?kind=collections"

    def visit() -> tuple[str, str, object]:
        with only_the_worker():
            return (
                opened(client, page_url).content.decode(),
                opened(client, diagram_url).content.decode(),
                opened(client, download_url),
            )

    page, diagram, download = visit()
    # While the simulation job loads the data, its progress, asked again.
    assert "The item collections come with the simulation" in page
    assert "waiting for a worker to start it" in page
    assert 'hx-select="#collections-results"' in page
    assert 'hx-select="#diagram-results"' in diagram
    assert download.status_code == 202
    assert "Content-Disposition" not in download
    assert '<meta http-equiv="refresh" content="2">' in download.content.decode()

    _work()  # the simulation job
    page, diagram, download = visit()
    # The job is done: a worker is asked for this page and this diagram.
    assert "The item collections are drawn in the background" in page
    assert "The item-collection diagram is drawn in the background" in diagram
    assert download.status_code == 202
    drawing = DBTaskResult.objects.filter(
        task_path=draw_collections.module_path, status="READY"
    )
    assert drawing.count() == 2  # the page and the diagram (the download's)

    _work()
    page, diagram, download = visit()
    assert 'class="partition-key">CUST#' in page
    assert "3</strong> items in <strong>3</strong> partitions" in page
    assert "hx-trigger" not in page.split('id="collections-results"')[1][:200]
    assert "<svg" in diagram
    assert download.status_code == 200 and b"<svg" in download.content

    # A pattern's traffic edited: a new simulation job for the design, but
    # the same data, so the collections are shown at once.
    edited = selectors.project_design(project=project)
    pattern = edited.access_patterns[0]
    edited = dataclasses.replace(
        edited,
        access_patterns=(
            dataclasses.replace(pattern, traffic=Traffic(rps=123, peak_rps=456)),
            *edited.access_patterns[1:],
        ),
    )
    project_services.project_save_design(
        project=project, design=edited, version=1, author=owner, summary="traffic"
    )
    page, diagram, _ = visit()
    assert 'class="partition-key">CUST#' in page
    assert "<svg" in diagram
    assert not drawing.exists()


@pytest.mark.usefixtures("database_cache")
def test_the_sample_data_file_is_written_by_the_worker_and_kept_across_edits(
    queued, owner, order_design, settings, only_the_worker
):
    design = with_roots(order_design, 3)
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    url = f"/projects/{project.pk}/simulation/sample-data.jsonl"

    def download():
        with only_the_worker():
            return opened(client, url)

    waiting = download()
    assert waiting.status_code == 202 and "Content-Disposition" not in waiting
    page = waiting.content.decode()
    assert '<meta http-equiv="refresh" content="2">' in page
    assert "which the simulation is loading: waiting for a worker" in page
    assert f'href="/projects/{project.pk}/simulation/">Back to Simulation' in page

    _work()  # the simulation job
    waiting = download()
    assert waiting.status_code == 202
    assert "The sample data file is made in the background" in waiting.content.decode()

    _work()  # the file
    response = download()
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="order-management-sample-data.jsonl"'
    )
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == len(generate(design))
    written = list(Path(settings.MEDIA_ROOT, "sample-data").iterdir())
    assert len(written) == 1

    # A description edited: the same data, the same file, at once.
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(design, description="Edited"),
        version=1,
        author=owner,
        summary="description",
    )
    again = download()
    assert again.status_code == 200
    assert b"".join(again.streaming_content).decode().splitlines() == lines
    # Removed from the disk: written again when asked for.
    written[0].unlink()
    assert download().status_code == 202
    _work()
    assert download().status_code == 200


@pytest.mark.usefixtures("database_cache")
def test_a_collections_diagrams_png_is_drawn_by_the_worker_into_a_file(
    queued, owner, order_design, settings, only_the_worker
):
    project = project_services.project_create(
        owner=owner, design=with_roots(order_design, 3)
    )
    client = logged_in(owner)
    png = f"/projects/{project.pk}/diagrams/diagram.png?kind=collections&scale=2"
    none = f"/projects/{project.pk}/diagrams/diagram.png?kind=collections&pk=nothing"
    opened(client, png)
    _work()  # the simulation job

    def download(url: str):
        with only_the_worker():
            return opened(client, url)

    waiting = download(png)
    assert waiting.status_code == 202
    assert "The diagram is made in the background" in waiting.content.decode()
    assert download(none).status_code == 202

    _work()

    response = download(png)
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="order-management-collections-table@2x.png"'
    )
    assert b"".join(response.streaming_content).startswith(b"\x89PNG")
    assert len(list(Path(settings.MEDIA_ROOT, "diagrams").iterdir())) == 1
    refused = download(none)
    assert refused.status_code == 302
    page = client.get(refused["Location"]).content.decode()
    assert "The diagram cannot be downloaded. No partition matches" in page


@pytest.mark.usefixtures("database_cache")
def test_a_worker_that_let_the_table_go_says_how_far_it_is_in_loading_it_again(
    queued, owner, order_design, settings, monkeypatch
):
    monkeypatch.setattr("modeler.jobs.loaded_tables.PROGRESS_SECONDS", 0)
    design = with_roots(order_design, 3)
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    page_url = f"/projects/{project.pk}/collections/"
    opened(client, page_url)
    _work()  # the simulation job
    forget_simulations()  # as a worker that has run other designs' since
    assert "drawn in the background" in opened(client, page_url).content.decode()
    # What the page shows while the worker loads the items again.
    seen = []
    build = simulation_cache.Simulation

    def watched(design, *, seed=None, progress=None):
        def told(phase: str, done: int, total: int) -> None:
            progress(phase, done, total)
            if phase == "loading" and done == total and not seen:
                seen.append(client.get(page_url).content.decode())

        return build(design, seed=seed, progress=told)

    monkeypatch.setattr(simulation_cache, "Simulation", watched)

    _work()

    items = len(generate(design))
    assert (
        "The worker had let that data go and loads it again first: loading it "
        f"into the engine, {items} of {items} items."
    ) in seen[0]
    assert '<progress max="100" value="100"' in seen[0]
    page = client.get(page_url).content.decode()
    assert 'class="partition-key">CUST#' in page and "let that data go" not in page


def test_a_collections_diagram_opened_first_starts_the_job_for_its_visitor(
    queued, owner, order_design, only_the_worker
):
    project = project_services.project_create(
        owner=owner, design=with_roots(order_design, 3)
    )

    url = f"/projects/{project.pk}/diagrams/?kind=collections"

    with only_the_worker():
        page = opened(logged_in(owner), url)

    assert "waiting for a worker to start it" in page.content.decode()
    assert SimulationJob.objects.get(project=project).requested_by == owner


def test_item_collections_say_why_the_simulation_loaded_no_data(
    queued, owner, order_design
):
    project = project_services.project_create(
        owner=owner, design=with_roots(order_design, 3)
    )
    client = logged_in(owner)
    page_url = f"/projects/{project.pk}/collections/"
    opened(client, page_url)
    jobs.simulation_job_cancel(
        project=project, job_id=SimulationJob.objects.get(project=project).pk
    )

    page = client.get(page_url).content.decode()

    assert "Cancelled before it started. Run the simulation again" in page
    assert f'href="/projects/{project.pk}/simulation/">Go to Simulation' in page
    assert 'hx-trigger="every 1s"' not in page


def test_jobs_of_versions_saved_over_before_a_worker_came_are_skipped(
    queued, owner, order_design
):
    design = with_roots(order_design, 3)
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    start_jobs(client, project)
    for version in (1, 2):  # two quick edits, each page seen (and posting)
        design = dataclasses.replace(design, description=f"Edit {version}")
        project_services.project_save_design(
            project=project,
            design=design,
            version=version,
            author=owner,
            summary=f"edit {version}",
        )
        start_jobs(client, project)
    first, second, last = SimulationJob.objects.order_by("created", "pk")

    _work()

    for job in (first, second, last):
        job.refresh_from_db()
    assert (first.state, second.state, last.state) == (
        "superseded",
        "superseded",
        "done",
    )
    assert not PatternResult.objects.filter(job__in=[first, second]).exists()
    assert PatternResult.objects.filter(job=last).count() == len(design.access_patterns)
    # A page that still asks for an older version (a diff of revisions)
    # has it simulated again.
    revision = project.revisions.get(number=1)
    again = jobs.simulation_job_for(
        project=project,
        design=project_services.project_revision_design(project=project, number=1),
        user=owner,
        revision=revision,
    )
    assert again.pk not in (first.pk, second.pk) and again.state == "queued"
    _work()
    again.refresh_from_db()
    assert again.state == "done"


@pytest.fixture
def redis_url(tmp_path):
    """A throwaway Redis server (Debian's redis-server; .ci/run installs
    it), on a free local port, saving nothing."""
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"no {REDIS_SERVER}: sudo apt-get install redis-server")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(  # a fixed program and arguments
        [
            REDIS_SERVER,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_with_redis_the_review_reaches_the_pages_through_it(
    queued, owner, order_design, settings, redis_url
):
    import redis

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
        }
    }
    project = project_services.project_create(
        owner=owner, design=with_roots(order_design, 3)
    )
    client = logged_in(owner)
    start_jobs(client, project)
    page = client.get(f"/projects/{project.pk}/review/").content.decode()
    assert "The design review is made with the simulation" in page

    _work()
    forget_reviews()

    page = client.get(f"/projects/{project.pk}/review/").content.decode()
    assert "Summary for the review meeting" in page
    keys = redis.Redis.from_url(redis_url).keys("*review:*")
    assert len(keys) == 1


@pytest.mark.usefixtures("database_cache")
def test_keys_are_proposed_by_the_worker_and_adopted_from_what_it_kept(
    queued, owner, order_design, settings, monkeypatch
):
    project = project_services.project_create(
        owner=owner, design=with_roots(order_design, 3)
    )
    client = logged_in(owner)
    url = f"/projects/{project.pk}/propose-keys/"

    answer = client.post(url, headers={"HX-Request": "true"}).content.decode()

    # The request only queues the solver; the answer asks again.
    assert "Proposing… the solver simulates and reviews" in answer
    poll = f"/projects/{project.pk}/propose-keys/proposals/?version=1"
    assert f'hx-get="{poll}"' in answer and 'hx-trigger="load delay:1s"' in answer
    assert "Proposal 1" not in answer
    # Asked again before a worker took it: still one question in the queue.
    client.post(url, headers={"HX-Request": "true"})
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    _work()
    answer = client.get(poll, headers={"HX-Request": "true"}).content.decode()
    assert "Proposal 1" in answer and "load delay:1s" not in answer

    def no_solver(*args, **kwargs):
        raise AssertionError("adopting ran the solver again")

    monkeypatch.setattr("modeler.jobs.proposals.propose", no_solver)
    adopted = client.post(f"{url}1/adopt/", {"version": 1})
    assert adopted.status_code == 302
    project.refresh_from_db()
    assert project.version == 2


def test_progress_is_stored_while_the_worker_runs(queued, owner, order_design):
    project = project_services.project_create(owner=owner, design=order_design)
    # The design as every process reads it (the views' `design_for`).
    design = design_from_project(project)
    job = jobs.simulation_job_for(project=project, design=design, user=owner)
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
    project = project_services.project_create(
        owner=owner, design=with_roots(order_design, 3)
    )
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
