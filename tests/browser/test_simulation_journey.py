"""A designer checks a design against its sample data: log in, open an
example project's Simulation tab, read the verdicts and a request, then try
another seed and import items of their own; the simulation runs in a job
worker (the database backend's), its progress and results polled."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connections
from playwright.sync_api import expect

from modeler.designfile import read_design
from modeler.jobs import runner
from modeler.jobs.worker import Worker
from modeler.models import SimulationJob
from modeler.services import projects as project_services
from tests.views.conftest import stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Generating the sample data and running every pattern takes a few seconds.
RESULTS_TIMEOUT_MS = 60_000


def _log_in(page, username: str, password: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/$"))


def _wait_for_every_verdict(page, count: int) -> None:
    expect(page.locator(".sim-pattern [data-verdict]")).to_have_count(
        count, timeout=RESULTS_TIMEOUT_MS
    )


def test_every_pattern_of_an_example_passes_and_shows_its_request(
    worker, page, screenshot
):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    patterns = len(design.access_patterns)

    _log_in(page, "ada", "correct-horse-battery")
    page.click("text=Order management")
    page.click("nav.tabs >> text=Simulation")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/simulation/$"))

    _wait_for_every_verdict(page, patterns)
    verdicts = page.locator(".sim-pattern [data-verdict]").evaluate_all(
        "results => results.map(result => result.dataset.verdict)"
    )
    assert verdicts == ["pass"] * patterns
    expect(page.locator("[data-simulation-summary]")).to_have_text(
        f"{patterns} of {patterns} patterns pass"
    )
    panel = page.locator(".sample-data")
    expect(panel.locator(".stats")).to_contain_text("42")
    expect(panel.locator(".sample-counts tbody tr")).to_have_count(3)

    card = page.locator(".sim-pattern", has_text="Orders of a customer, newest first")
    card.locator("summary", has_text="Query request").click()
    request = card.locator(".request-grid pre").first
    expect(request).to_be_visible()
    expect(request).to_contain_text('"KeyConditionExpression"')
    expect(card.locator(".request-grid pre").nth(1)).to_contain_text(
        "aws dynamodb query"
    )
    expect(card.locator("table.items tbody tr")).to_have_count(20)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot("10-simulation")
    card.evaluate("card => card.scrollIntoView()")
    screenshot("11-simulation-request", full_page=False)


def test_another_seed_and_own_items_rerun_the_patterns(worker, page, screenshot):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "social-graph.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    patterns = len(design.access_patterns)
    _log_in(page, "ada", "correct-horse-battery")
    page.goto(f"/projects/{project.pk}/simulation/")
    _wait_for_every_verdict(page, patterns)

    # A new seed: the section is swapped in place and the patterns run again.
    page.fill("#id_seed", "7")
    page.click("button:text('Regenerate')")
    expect(page.locator(".toast", has_text="seed 7")).to_be_visible()
    _wait_for_every_verdict(page, patterns)
    expect(page.locator("[data-simulation-summary]")).to_have_text(
        f"{patterns} of {patterns} patterns pass"
    )
    assert stored_design(project).sample_data.seed == 7

    # A broken file is refused with every problem, and nothing is kept.
    download = page.locator("a", has_text="Download .jsonl")
    # A worker writes the file: a page says so and asks again until the
    # download starts.
    with page.expect_download(timeout=RESULTS_TIMEOUT_MS) as info:
        download.click()
        expect(page.locator(".card[role=status]")).to_contain_text(
            "The sample data file is made in the background"
        )
    lines = Path(info.value.path()).read_text().splitlines()
    assert len(lines) == sum(
        count["generated"] for count in SimulationJob.objects.latest("pk").counts
    )
    page.click("text=Back to Simulation")
    broken = "\n".join([lines[0], "{not json", lines[1], '{"PK": {"S": "x"}}'])
    page.set_input_files(
        "#id_file",
        files=[
            {
                "name": "mine.jsonl",
                "mimeType": "application/x-ndjson",
                "buffer": broken.encode(),
            }
        ],
    )
    page.click("button:text('Import items')")
    problems = page.locator(".file-problems .problem")
    expect(problems).to_have_count(2)
    expect(problems.first).to_contain_text("mine.jsonl:2")
    expect(problems.nth(1)).to_contain_text("mine.jsonl:4")
    assert not stored_design(project).sample_data.items
    screenshot("12-simulation-import-problems")

    # Two good lines are imported and counted as the user's own.
    page.set_input_files(
        "#id_file",
        files=[
            {
                "name": "mine.jsonl",
                "mimeType": "application/x-ndjson",
                "buffer": "\n".join(lines[:2]).encode(),
            }
        ],
    )
    page.click("button:text('Import items')")
    expect(page.locator(".toast", has_text="Imported 2 items")).to_be_visible()
    expect(
        page.locator(".stats div", has_text="Your items").locator("dd")
    ).to_have_text("2")
    _wait_for_every_verdict(page, patterns)
    assert len(stored_design(project).sample_data.items) == 2


# --- In the background, as `make run` and production run it -------------------


class _Worker:
    """The workbench's worker (`manage.py db_worker`'s loop, without
    its signal handlers, which only the main thread may set) in a thread,
    and a gate that holds each job before the pattern at `hold_at` until
    the test opens it."""

    def __init__(self, monkeypatch, hold_at: int | None, *, batch: bool = True) -> None:
        self.batch = batch
        self.gate = threading.Event()
        self.errors: list[BaseException] = []
        run_pattern = runner._run
        count = {"n": 0}

        def held(simulation, pattern):
            if count["n"] == hold_at:
                assert self.gate.wait(RESULTS_TIMEOUT_MS / 1000)
            count["n"] += 1
            return run_pattern(simulation, pattern)

        monkeypatch.setattr(runner, "_run", held)

    def run(self) -> None:
        """Starts it: in a batch, it takes the jobs queued and stops; else it
        waits for more until `join`."""
        self.worker = Worker(
            queue_names=["default"],
            interval=0 if self.batch else 0.1,
            batch=self.batch,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id="browser-test",
            excluded_queue_names=[],
        )
        self.thread = threading.Thread(target=self._work)
        self.thread.start()

    def _work(self) -> None:
        try:
            self.worker.run()
        except BaseException as exc:
            self.errors.append(exc)
        finally:
            connections.close_all()

    def join(self) -> None:
        self.gate.set()
        self.worker.running = self.batch
        self.thread.join(RESULTS_TIMEOUT_MS / 1000)
        assert not self.thread.is_alive() and not self.errors


@pytest.fixture
def database_jobs(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def worker(database_jobs, monkeypatch):
    """A worker that takes each job as it is queued, as `make run`'s does."""
    worker = _Worker(monkeypatch, hold_at=None, batch=False)
    worker.run()
    yield worker
    worker.join()


def test_the_simulation_runs_in_the_background_with_its_progress(
    database_jobs, page, screenshot, monkeypatch
):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    patterns = len(design.access_patterns)
    _log_in(page, "ada", "correct-horse-battery")

    page.goto(f"/projects/{project.pk}/simulation/")
    # No worker yet: the job waits, and every page of the project says so.
    progress = page.locator("#job-progress")
    expect(progress).to_contain_text("Waiting for a worker")
    expect(page.locator(".job-indicator")).to_have_text("Simulating… 0%")
    expect(page.locator(".sim-pattern .running")).to_have_count(patterns)

    # A worker takes it; it is held before the fourth pattern.
    worker = _Worker(monkeypatch, hold_at=3)
    worker.run()
    expect(page.locator(".sim-pattern [data-verdict]")).to_have_count(
        3, timeout=RESULTS_TIMEOUT_MS
    )
    expect(progress).to_contain_text("Running the access patterns")
    expect(progress).to_contain_text("3 of 8 patterns run")
    expect(page.locator(".sim-pattern .running")).to_have_count(patterns - 3)
    expect(page.locator("[data-simulation-summary]")).to_have_text(
        f"Running… 3 of {patterns} done"
    )
    assert int(progress.locator("progress").get_attribute("value")) >= 60
    screenshot("13-simulation-in-progress")
    page.click("nav.tabs >> text=Key map")
    expect(page.locator(".job-indicator a")).to_contain_text("Simulating…")
    page.click(".job-indicator a")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/simulation/$"))

    # Let it finish: the rest of the results arrive and the polling stops.
    worker.join()
    _wait_for_every_verdict(page, patterns)
    expect(page.locator("[data-simulation-summary]")).to_have_text(
        f"{patterns} of {patterns} patterns pass"
    )
    expect(progress).to_contain_text(f"{patterns} patterns run")
    expect(page.locator(".sample-counts tbody tr")).to_have_count(3)
    expect(page.locator("#job-progress[hx-trigger]")).to_have_count(0)


def test_a_simulation_is_cancelled_and_run_again(
    database_jobs, page, screenshot, monkeypatch
):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "social-graph.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    patterns = len(design.access_patterns)
    _log_in(page, "ada", "correct-horse-battery")
    page.goto(f"/projects/{project.pk}/simulation/")
    # The page posts to start the job as it loads: queued, for the worker.
    expect(page.locator("#job-progress")).to_contain_text("Waiting for a worker")
    worker = _Worker(monkeypatch, hold_at=1)
    worker.run()
    expect(page.locator(".sim-pattern [data-verdict]")).to_have_count(
        1, timeout=RESULTS_TIMEOUT_MS
    )

    page.click("#job-progress button:text('Cancel')")
    expect(page.locator("#job-progress button")).to_have_text("Cancelling…")
    worker.join()
    alert = page.locator("#job-progress .alert-error")
    expect(alert).to_have_text(
        "The simulation was cancelled. "
        f"Cancelled after 2 of {patterns} patterns had run."
    )
    expect(
        page.locator(".sim-result", has_text="the simulation was cancelled")
    ).to_have_count(patterns - 2)
    # The patterns it never reached are counted as such, not as errors.
    passed = page.locator(".sim-pattern [data-verdict=pass]").count()
    summary = page.locator("[data-simulation-summary]")
    expect(summary).to_contain_text(
        f"{passed} of {patterns} patterns pass, {patterns - 2} not run"
    )
    expect(summary).not_to_contain_text("error")
    screenshot("14-simulation-cancelled")

    page.click("button:text('Run again')")
    expect(page.locator("#job-progress")).to_contain_text("Waiting for a worker")
    worker = _Worker(monkeypatch, hold_at=None)
    worker.run()
    worker.join()
    _wait_for_every_verdict(page, patterns)
    expect(page.locator(".sim-pattern .verdict-pass")).to_have_count(patterns)


def test_the_review_sections_fill_in_when_the_job_has_reviewed(
    database_jobs, page, screenshot, monkeypatch
):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    _log_in(page, "ada", "correct-horse-battery")

    # No request reviews: the Review page shows the job's progress and asks
    # again every second, its prices form already there.
    page.goto(f"/projects/{project.pk}/review/")
    pending = page.locator(".review-pending")
    expect(pending).to_contain_text("waiting for a worker to start it")
    expect(page.locator("#cost-settings")).to_be_visible()
    # The page posts to start the job as it loads; once it is queued, the
    # region it polls has no start form: a worker may take it.
    expect(pending.locator("[data-simulation-start]")).to_have_count(0)
    worker = _Worker(monkeypatch, hold_at=3)
    worker.run()
    expect(pending).to_contain_text(
        "running the access patterns", timeout=RESULTS_TIMEOUT_MS
    )
    screenshot("14-review-being-made")
    worker.join()
    # Done: the review takes the place of the progress, no reload.
    expect(page.locator("#summary-heading")).to_be_visible(timeout=RESULTS_TIMEOUT_MS)
    expect(pending).to_have_count(0)
    expect(page.locator("#findings-advice")).to_contain_text(
        "Needs a second request for unprojected attributes"
    )

    # The other sections read the same review at once.
    page.goto(f"/projects/{project.pk}/key-map/")
    expect(page.locator(".pattern-map .verdict-pass")).to_have_count(
        len(design.access_patterns)
    )
    page.goto(f"/projects/{project.pk}/present/5/")
    slide = page.locator("[data-slide]:not([hidden])")
    expect(slide.locator(".slide-items")).to_contain_text("returned")
    expect(slide.locator("[data-returned]").first).to_be_visible()
    # The deck has what it shows: it neither starts nor polls.
    expect(page.locator("[data-deck][hx-trigger]")).to_have_count(0)


def test_item_collections_and_their_diagram_come_from_the_worker(
    database_jobs, page, monkeypatch
):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    _log_in(page, "ada", "correct-horse-battery")

    page.goto(f"/projects/{project.pk}/collections/")
    results = page.locator("#collections-results")
    expect(results).to_contain_text("The item collections come with the simulation")
    expect(results.locator("progress")).to_be_visible()
    worker = _Worker(monkeypatch, hold_at=None, batch=False)
    worker.run()
    # The job loads the data, a worker draws the page: it replaces the
    # progress by itself, and the filters ask the worker again.
    expect(page.locator(".partition-key").first).to_contain_text(
        "CUST#", timeout=RESULTS_TIMEOUT_MS
    )
    expect(page.locator(".review-pending")).to_have_count(0)
    page.select_option("#id_entity", "LineItem")
    expect(page.locator(".entity-chip").first).to_have_text(
        "LineItem", timeout=RESULTS_TIMEOUT_MS
    )
    expect(page.locator(".entity-chip", has_text="Customer")).to_have_count(0)
    page.locator(".partition-header a", has_text="Diagram").first.click()
    expect(page.locator("#diagram-results svg").first).to_be_visible(
        timeout=RESULTS_TIMEOUT_MS
    )
    worker.join()
