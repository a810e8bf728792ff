"""The Simulation section's background job as the pages show it: started
once per design and reused, its progress polled, each result shown as it
is stored, Cancel and Run again, budgets and failures, the header's
indicator; who may do what."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from django.test import Client
from django.utils.html import escape

from modeler import selectors
from modeler.jobs import budget as budget_module
from modeler.jobs import services as jobs
from modeler.models import Project, SimulationJob
from modeler.services import projects as project_services
from modeler.simulation import Simulation
from modeler.simulation.cache import forget_simulations
from tests.views.conftest import project_with_members

SCRIPT = "<script>alert(1)</script>"
HTMX = {"HX-Request": "true"}


@pytest.fixture
def project(owner, editor, viewer, small_design) -> Project:
    return project_with_members(small_design, owner=owner, editor=editor, viewer=viewer)


@pytest.fixture
def queued(settings):
    """Jobs wait in the database for a worker (none runs in these tests)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(autouse=True)
def _each_test_builds_its_simulation():
    # The worker keeps loaded tables between jobs; these tests watch builds.
    forget_simulations()


def _url(project: Project, rest: str = "") -> str:
    return f"/projects/{project.pk}/simulation/{rest}"


def _html(response) -> str:
    return response.content.decode()


def _job(project: Project) -> SimulationJob:
    return SimulationJob.objects.filter(project=project).latest("created", "pk")


# --- Started once, reused ------------------------------------------------------


def test_a_design_is_simulated_once_whoever_asks(project, owner_client, viewer_client):
    owner_client.get(_url(project))
    viewer_client.get(_url(project))
    owner_client.get(_url(project, "3/"), headers=HTMX)

    job = SimulationJob.objects.get(project=project)
    assert job.state == "done" and job.requested_by.username == "owner"
    assert job.results.count() == 8


def test_a_changed_design_gets_a_job_of_its_own_and_the_old_one_is_kept(
    project, owner_client
):
    owner_client.get(_url(project))
    owner_client.post(_url(project, "seed/"), {"seed": 7, "version": 1})
    owner_client.get(_url(project))

    first, second = SimulationJob.objects.filter(project=project).order_by("pk")
    assert first.design_digest != second.design_digest
    assert first.data_digest != second.data_digest
    assert (first.state, second.state) == ("done", "done")


def test_a_traffic_edit_runs_the_patterns_on_the_table_already_loaded(
    project, owner, owner_client, monkeypatch
):
    owner_client.get(_url(project))
    builds = []
    real_init = Simulation.__init__

    def counted(self, design, **kwargs):
        builds.append(design.name)
        real_init(self, design, **kwargs)

    monkeypatch.setattr(Simulation, "__init__", counted)
    design = selectors.project_design(project=project)
    first = design.access_patterns[0]
    edited = dataclasses.replace(
        design,
        access_patterns=(
            dataclasses.replace(
                first,
                traffic=dataclasses.replace(first.traffic, rps=first.traffic.rps + 7),
            ),
            *design.access_patterns[1:],
        ),
    )
    project.refresh_from_db()
    project_services.project_save_design(
        project=project, design=edited, version=project.version, author=owner
    )

    owner_client.get(_url(project))

    old, new = SimulationJob.objects.filter(project=project).order_by("pk")
    assert old.design_digest != new.design_digest and old.data_digest == new.data_digest
    assert new.state == "done" and new.results.count() == 8
    assert builds == []
    assert list(new.results.values_list("verdict", flat=True)) == list(
        old.results.values_list("verdict", flat=True)
    )


# --- Progress and results as they come -----------------------------------------


def test_a_queued_job_shows_its_progress_and_a_cancel_button(
    queued, project, viewer_client
):
    html = _html(viewer_client.get(_url(project)))

    job = _job(project)
    progress = _url(project, f"jobs/{job.pk}/")
    assert f'hx-get="{progress}?shown=0" hx-trigger="every 1s"' in html
    assert '<progress max="100" value="0"' in html
    assert "Waiting for a worker to start the simulation" in html
    assert f'action="{_url(project, f"jobs/{job.pk}/cancel/")}"' in html
    assert html.count("Waiting for its turn") == 8
    assert "The counts appear once the sample data is made." in html


def test_progress_tells_the_phase_and_the_counts(queued, project, owner_client):
    owner_client.get(_url(project))
    job = _job(project)
    SimulationJob.objects.filter(pk=job.pk).update(
        state="running",
        phase="loading",
        items_made=200,
        items_loaded=50,
        items_total=200,
        patterns_total=8,
    )

    html = _html(owner_client.get(_url(project, f"jobs/{job.pk}/"), headers=HTMX))

    assert html.lstrip().startswith('<div class="job-progress" id="job-progress"')
    assert 'data-job-state="running"' in html
    assert '<progress max="100" value="45"' in html
    assert "Loading it into the engine:" in html
    assert "200 of 200 items made,\n          50 loaded,\n          0 of 8" in html
    assert 'hx-trigger="every 1s"' in html


def test_a_job_just_taken_says_its_phase_before_it_counts(
    queued, project, owner_client
):
    """Before the worker knows how many items it will make, no '0 of 0'."""
    owner_client.get(_url(project))
    job = _job(project)
    SimulationJob.objects.filter(pk=job.pk).update(state="running", phase="generating")

    html = _html(owner_client.get(_url(project, f"jobs/{job.pk}/"), headers=HTMX))

    assert "Making the sample data…" in html
    assert "0 of 0" not in html


def test_results_stored_since_the_last_poll_come_out_of_band(project, owner_client):
    owner_client.get(_url(project))
    job = _job(project)

    html = _html(
        owner_client.get(_url(project, f"jobs/{job.pk}/?shown=5"), headers=HTMX)
    )

    for position in range(8):
        slot = f'id="pattern-{position}-result" hx-swap-oob="true"'
        assert (slot in html) == (position >= 5)
    assert '<div id="sample-counts" hx-swap-oob="true">' in html
    assert 'data-job-state="done"' in html and "every 1s" not in html
    assert "Simulated on 200 items; 8 patterns run." in html


def test_a_pattern_result_page_waits_for_its_job(queued, project, owner_client):
    html = _html(owner_client.get(_url(project, "2/"), headers=HTMX))

    assert "Waiting for its turn…" in html
    assert f'<a href="{_url(project, "2/")}">open the result</a>' in html


# --- Cancel ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["owner", "viewer"])
def test_cancel_stops_a_queued_job(queued, project, role, request):
    client = request.getfixturevalue(f"{role}_client")
    client.get(_url(project))
    job = _job(project)

    response = client.post(_url(project, f"jobs/{job.pk}/cancel/"), headers=HTMX)

    assert response.status_code == 200
    html = _html(response)
    assert 'data-job-state="cancelled"' in html
    assert "The simulation was cancelled. Cancelled before it started." in html
    assert f'action="{_url(project, "run/")}"' in html
    job.refresh_from_db()
    assert job.state == "cancelled" and job.cancel_requested


def test_cancel_without_javascript_goes_back_to_the_page(queued, project, owner_client):
    owner_client.get(_url(project))
    job = _job(project)

    response = owner_client.post(_url(project, f"jobs/{job.pk}/cancel/"))

    assert response.status_code == 302 and response["Location"] == _url(project)
    html = _html(owner_client.get(_url(project)))
    assert html.count("<strong>Not run:</strong> the simulation was cancelled.") == 8
    assert "Run again" in html


def test_cancel_while_running_stops_between_patterns(
    project, owner_client, monkeypatch
):
    real_run = Simulation.run

    def run_then_cancel(self, pattern):
        job = SimulationJob.objects.get(project=project)
        jobs.simulation_job_cancel(project=project, job_id=job.pk)
        return real_run(self, pattern)

    monkeypatch.setattr(Simulation, "run", run_then_cancel)

    html = _html(owner_client.get(_url(project)))

    job = _job(project)
    assert job.state == "cancelled"
    assert job.message == "Cancelled after 1 of 8 patterns had run."
    assert list(job.results.values_list("position", flat=True)) == [0]
    assert 'id="pattern-0-result">' in html
    assert html.count("<strong>Not run:</strong> the simulation was cancelled.") == 7

    # Run again: a new job, which runs every pattern.
    monkeypatch.setattr(Simulation, "run", real_run)
    response = owner_client.post(_url(project, "run/"))
    assert response.status_code == 302
    assert _job(project).state == "done" and _job(project).results.count() == 8


# --- Budgets and failures ------------------------------------------------------


def test_a_job_past_its_time_budget_says_what_to_lower(project, owner_client, settings):
    settings.SIMULATION_CPU_SECONDS = 0

    html = _html(owner_client.get(_url(project)))

    message = (
        "LineItem&#x27;s 152 items (of 200 in all) pass the 0 s CPU budget of a "
        "simulation (SIMULATION_CPU_SECONDS): lower LineItem&#x27;s count in "
        "Sample data."
    )
    assert f'<p class="alert alert-error" role="alert">{message}</p>' in html
    assert _job(project).state == "failed"
    assert "Run again" in html


def test_a_job_past_its_memory_budget_says_what_to_lower(
    project, owner_client, settings, monkeypatch
):
    settings.SIMULATION_MEMORY_MB = 100
    start = budget_module.resident_mb()
    monkeypatch.setattr(budget_module, "resident_mb", lambda: start + 150)

    html = _html(owner_client.get(_url(project)))

    assert (
        "LineItem&#x27;s 152 items (of 200 in all) need more than the 100 MB "
        "memory budget of a simulation (SIMULATION_MEMORY_MB): lower "
        "LineItem&#x27;s count in Sample data." in html
    )


def test_a_job_that_fails_says_why_escaped(project, owner_client, caplog, monkeypatch):
    def broken(self, design, **kwargs):
        raise RuntimeError(SCRIPT)

    monkeypatch.setattr(Simulation, "__init__", broken)

    html = _html(owner_client.get(_url(project)))

    assert SCRIPT not in html
    assert (
        "The simulator could not load this design "
        f"(RuntimeError: {escape(SCRIPT)})." in html
    )
    assert "The patterns cannot run until the sample data can be made." in html
    assert "Simulation job" in caplog.text and "failed" in caplog.text


def test_pattern_names_are_escaped_in_results_polled(owner, owner_client, small_design):
    patterns = (
        dataclasses.replace(small_design.access_patterns[0], name=SCRIPT),
    ) + small_design.access_patterns[1:]
    project = project_services.project_create(
        owner=owner, design=dataclasses.replace(small_design, access_patterns=patterns)
    )
    owner_client.get(_url(project))

    for response in (
        owner_client.get(_url(project)),
        owner_client.get(_url(project, f"jobs/{_job(project).pk}/"), headers=HTMX),
        owner_client.get(_url(project, "0/")),
    ):
        assert SCRIPT not in _html(response)
    assert escape(SCRIPT) in _html(owner_client.get(_url(project)))


# --- The header's indicator ----------------------------------------------------


def test_every_project_page_asks_for_the_indicator(project, viewer_client):
    html = _html(viewer_client.get(f"/projects/{project.pk}/"))

    assert (
        f'<span id="job-indicator" hx-get="{_url(project, "indicator/")}" '
        'hx-trigger="load"' in html
    )


def test_the_indicator_shows_a_running_job_until_it_ends(
    queued, project, viewer_client
):
    empty = _html(viewer_client.get(_url(project, "indicator/"), headers=HTMX))
    assert empty.strip() == '<span id="job-indicator"></span>'

    viewer_client.get(_url(project))
    html = _html(viewer_client.get(_url(project, "indicator/"), headers=HTMX))
    assert 'hx-trigger="every 2s"' in html
    assert f'<a href="{_url(project)}"' in html and "Simulating… 0%" in html

    jobs.simulation_job_cancel(project=project, job_id=_job(project).pk)
    html = _html(viewer_client.get(_url(project, "indicator/"), headers=HTMX))
    assert html.strip() == '<span id="job-indicator"></span>'


def test_the_progress_brings_the_header_indicator_along(queued, project, viewer_client):
    """The section and the header say the same: the header does not still
    say "Simulating…" once the section shows the job ended."""
    viewer_client.get(_url(project))
    job = _job(project)
    progress = _url(project, f"jobs/{job.pk}/")

    html = _html(viewer_client.get(progress, headers=HTMX))
    assert '<span class="job-indicator" id="job-indicator" hx-swap-oob="true"' in html
    assert "Simulating… 0%" in html

    jobs.simulation_job_cancel(project=project, job_id=job.pk)
    html = _html(viewer_client.get(progress, headers=HTMX))
    assert "The simulation was cancelled." in html
    assert '<span id="job-indicator" hx-swap-oob="true"></span>' in html


def test_cancelling_a_job_before_it_starts_says_at_once_that_nothing_ran(
    queued, project, owner_client
):
    """Cancelled before a worker took it, the job has ended: the page polls
    no more, so the answer to Cancel brings the patterns' "Not run" and the
    empty indicator with it."""
    owner_client.get(_url(project))
    job = _job(project)

    html = _html(
        owner_client.post(_url(project, f"jobs/{job.pk}/cancel/"), headers=HTMX)
    )

    assert "The simulation was cancelled. Cancelled before it started." in html
    assert html.count('data-verdict="not-run"') == 8
    assert '<span id="job-indicator" hx-swap-oob="true"></span>' in html
    assert 'hx-trigger="every 1s"' not in html


def test_a_job_no_worker_takes_says_why_it_waits(queued, project, owner_client):
    """No worker runs in these tests: after half a minute the pages that
    wait on the job say that it is the workers, not the design."""
    owner_client.get(_url(project))
    job = _job(project)
    progress = _url(project, f"jobs/{job.pk}/")
    note = "No worker has started it in "

    assert note not in _html(owner_client.get(progress, headers=HTMX))

    SimulationJob.objects.filter(pk=job.pk).update(
        created=job.created - dt.timedelta(seconds=95)
    )
    for url in (progress, f"/projects/{project.pk}/review/"):
        html = _html(owner_client.get(url, headers=HTMX))
        # 95 s, or a little more on a slow machine.
        assert re.search(
            r"No worker has started it in 9\d s: the site's job workers are busy", html
        )
        assert "<code>manage.py db_worker</code>" in html


def test_the_progress_of_a_job_whose_worker_died_says_so(queued, project, owner_client):
    """The open page polls the job's progress: it learns that the worker
    stopped without a reload."""
    owner_client.get(_url(project))
    job = _job(project)
    SimulationJob.objects.filter(pk=job.pk).update(
        state="running", heartbeat="2026-01-01T00:00:00Z"
    )

    html = _html(owner_client.get(_url(project, f"jobs/{job.pk}/"), headers=HTMX))

    assert "The worker running this simulation stopped before it finished" in html
    assert 'hx-trigger="every 1s"' not in html  # the polling stops
    assert _job(project).state == "failed"


def test_a_job_whose_worker_died_is_failed_and_can_run_again(
    queued, project, owner_client
):
    owner_client.get(_url(project))
    job = _job(project)
    SimulationJob.objects.filter(pk=job.pk).update(
        state="running", heartbeat="2026-01-01T00:00:00Z"
    )

    html = _html(owner_client.get(_url(project)))

    assert "The worker running this simulation stopped before it finished" in html
    assert _job(project).state == "failed"


# --- Access --------------------------------------------------------------------


def _endpoints(project: Project, job: SimulationJob) -> list[tuple[str, str]]:
    return [
        ("get", _url(project, f"jobs/{job.pk}/")),
        ("post", _url(project, f"jobs/{job.pk}/cancel/")),
        ("post", _url(project, "run/")),
        ("get", _url(project, "indicator/")),
    ]


def test_outsiders_get_404_and_change_nothing(
    queued, project, owner_client, outsider_client
):
    owner_client.get(_url(project))
    job = _job(project)

    for method, url in _endpoints(project, job):
        assert getattr(outsider_client, method)(url).status_code == 404
    job.refresh_from_db()
    assert job.state == "queued" and not job.cancel_requested
    assert SimulationJob.objects.count() == 1


def test_anonymous_visitors_are_sent_to_log_in(queued, project, owner_client):
    owner_client.get(_url(project))
    for method, url in _endpoints(project, _job(project)):
        response = getattr(Client(), method)(url)
        assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_job_of_another_project_is_404(queued, project, owner, owner_client):
    other = project_services.project_create(
        owner=owner, design=project_services.new_design(name="B")
    )
    owner_client.get(_url(project))
    job = _job(project)

    assert owner_client.get(_url(other, f"jobs/{job.pk}/")).status_code == 404
    assert owner_client.post(_url(other, f"jobs/{job.pk}/cancel/")).status_code == 404
    job.refresh_from_db()
    assert not job.cancel_requested


def test_cancel_and_run_again_need_the_csrf_token(queued, project, viewer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(viewer)
    client.get(_url(project))
    job = _job(project)

    assert client.post(_url(project, f"jobs/{job.pk}/cancel/")).status_code == 403
    assert client.post(_url(project, "run/")).status_code == 403
    job.refresh_from_db()
    assert job.state == "queued" and not job.cancel_requested
    assert SimulationJob.objects.count() == 1


def test_progress_and_indicator_refuse_posts_and_cancel_refuses_gets(
    queued, project, owner_client
):
    owner_client.get(_url(project))
    job = _job(project)
    assert owner_client.post(_url(project, f"jobs/{job.pk}/")).status_code == 405
    assert owner_client.post(_url(project, "indicator/")).status_code == 405
    assert owner_client.get(_url(project, f"jobs/{job.pk}/cancel/")).status_code == 405
    assert owner_client.get(_url(project, "run/")).status_code == 405


# --- Jobs kept, one at a time ----------------------------------------------------


def test_two_requests_at_once_start_one_job_for_a_design(project, queued, owner):
    """The race itself cannot be timed in a test: both requests found no
    job and start one; the table's constraint lets one through, and the
    other gets that job."""
    design = selectors.project_design(project=project)
    digest = jobs.design_digest(design)
    first = jobs._start(
        project=project, design=design, user=owner, digest=digest, revision=None
    )
    second = jobs._start(
        project=project, design=design, user=owner, digest=digest, revision=None
    )
    assert second.pk == first.pk
    assert SimulationJob.objects.filter(project=project).count() == 1


def test_a_project_keeps_its_last_jobs(project, queued, owner):
    design = selectors.project_design(project=project)
    old = [
        SimulationJob.objects.create(
            project=project,
            revision_id=project.head_id,
            design_digest=f"old-{n}",
            data_digest="data",
            state=SimulationJob.State.DONE,
        )
        for n in range(jobs.KEPT_JOBS + 3)
    ]

    job = jobs.simulation_job_for(project=project, design=design, user=owner)

    kept = set(SimulationJob.objects.values_list("pk", flat=True))
    assert job.pk in kept
    # The newest finished ones stay; the three oldest are gone.
    assert kept - {job.pk} == {j.pk for j in old[3:]}
