"""The Simulation section: the sample data (its seed and counts, the user's
own items, a download), and every access pattern run against it by a
background job (`modeler.jobs`) whose progress and results the page polls,
each result shown as soon as the job stores it."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)
from django_htmx.http import retarget

from modeler import selectors
from modeler.conversion import design_from_revision
from modeler.design import model as d
from modeler.design.edits import TooManyItemsError
from modeler.forms.projects import VersionForm
from modeler.forms.simulation import SampleItemsImportForm, SampleSeedForm
from modeler.jobs import services as jobs
from modeler.jobs.files import file_open
from modeler.jobs.samplefiles import sample_file_answer, sample_file_find
from modeler.models import SimulationJob
from modeler.sampledata import (
    FileProblem,
    ItemsFileError,
)
from modeler.selectors import ProjectAccess
from modeler.services import projects as project_services
from modeler.services import sample_data as sample_services
from modeler.views.statuses import INVALID
from modeler.views.workspace import answer_started, design_for

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class EntityCount:
    """An entity's generated items and the user's own, as the job counted
    them (`modeler.jobs.results.entity_counts`)."""

    name: str
    colour: int | None
    generated: int
    own: int


# --- The page and its forms -----------------------------------------------------


@login_required
@require_GET
def simulation_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    return _render_page(request, access, design)


def _render_page(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    *,
    seed_form: SampleSeedForm | None = None,
    import_form: SampleItemsImportForm | None = None,
    import_problems: Iterable[FileProblem] = (),
    status: int = 200,
    panel_only: bool = False,
) -> HttpResponse:
    """The page, or for htmx its content; with `panel_only`, for a form
    refused while the project stayed as it was, only the sample data panel,
    so that the pattern results stay in place. The simulation itself runs
    in a background job: the page shows how far it is and the results
    stored so far, or, when the design has none, a form that starts it
    (posted by htmx as the page loads: a GET starts nothing)."""
    job = jobs.simulation_job_find(project=access.project, design=design)
    context = {
        **_job_context(access, job, design=design),
        "design": design,
        "section": "simulation",
        "own_total": len(design.sample_data.items),
        "seed_form": seed_form
        or SampleSeedForm(initial={"seed": design.sample_data.seed}),
        "import_form": import_form or SampleItemsImportForm(),
        "import_problems": list(import_problems),
    }
    if not request.htmx:
        return render(request, "modeler/simulation.html", context, status=status)
    if panel_only:
        response = render(
            request, "modeler/simulation.html#sample-data", context, status=status
        )
        return retarget(response, "#sample-data")
    return render(
        request, "modeler/simulation.html#simulation-content", context, status=status
    )


def _job_context(
    access: ProjectAccess,
    job: SimulationJob | None,
    *,
    design: d.Design | None = None,
    shown: int = 0,
) -> dict[str, Any]:
    """What the progress, the sample counts and the pattern results of a
    job need (None: not started); with `design`, every pattern with its
    result or none yet, else the results stored from position `shown` on."""
    stored = jobs.pattern_result_list(job=job, since=shown) if job else []
    context: dict[str, Any] = {
        "access": access,
        "project": access.project,
        "job": job,
        "problem": _problem(job),
        "counts": [EntityCount(**count) for count in job.counts] if job else [],
        "generated_total": sum(count["generated"] for count in job.counts)
        if job
        else 0,
        "shown": shown + len(stored),
        "new_results": stored,
        # Once it failed or was cancelled, the patterns it did not run.
        "unrun": range(shown + len(stored), job.patterns_total)
        if job and job.state in SimulationJob.ENDED_EARLY
        else (),
    }
    if design is not None:
        by_position = {r.position: r for r in stored}
        context["patterns"] = [
            (position, pattern, by_position.get(position))
            for position, pattern in enumerate(design.access_patterns)
        ]
    return context


def _problem(job: SimulationJob | None) -> str:
    return job.message if job and job.state == SimulationJob.State.FAILED else ""


@login_required
@require_GET
def simulation_progress(
    request: HttpRequest, project_id: int, job_id: int
) -> HttpResponse:
    """The job's progress, polled while it runs, with the results stored
    since the page was last told (`shown`: how many it has), the sample
    counts and the header's indicator, swapped in out of band."""
    access, design = design_for(request, project_id)
    job = jobs.simulation_job_get(project=access.project, job_id=job_id)
    if job is None:
        raise Http404("No such simulation job")
    try:
        shown = max(0, int(request.GET.get("shown", "0")))
    except ValueError:
        shown = 0
    return _progress(request, access, design, job, shown)


def _progress(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    job: SimulationJob,
    shown: int,
) -> HttpResponse:
    """The job's progress with what changed on the page since it showed
    `shown` results, out of band: the new results (or, once the job ended
    early, the patterns it did not run), the sample counts and the header's
    indicator (this job's percent while it runs, then the project's next
    running job, if any)."""
    context = _job_context(access, job, shown=shown)
    indicator = (
        job if job.is_active else jobs.simulation_job_running(project=access.project)
    )
    context.update(
        oob=True,
        design=design,
        own_total=len(design.sample_data.items),
        indicator=indicator,
    )
    return render(request, "modeler/simulation.html#job-progress", context)


@login_required
@require_POST
def simulation_cancel(
    request: HttpRequest, project_id: int, job_id: int
) -> HttpResponse:
    """Stops the job. Anyone who may see the project may: it changes
    nothing in the design."""
    access, design = design_for(request, project_id)
    job = jobs.simulation_job_cancel(project=access.project, job_id=job_id)
    if job is None:
        raise Http404("No such simulation job")
    if request.htmx:
        # A job cancelled before it started ends here, and the page polls
        # no more: its patterns say now that they did not run.
        return _progress(request, access, design, job, job.patterns_run)
    return redirect("simulation-page", project_id=project_id)


@login_required
@require_POST
def simulation_rerun(request: HttpRequest, project_id: int) -> HttpResponse:
    """Runs the design's simulation: the first time (the page, finding
    none, posts this as it loads) or again after it failed or was
    cancelled (a viewer may: it changes nothing in the design)."""
    access, design = design_for(request, project_id)
    jobs.simulation_job_rerun(project=access.project, design=design, user=request.user)
    return redirect("simulation-page", project_id=project_id)


@login_required
@require_POST
def simulation_start(request: HttpRequest, project_id: int) -> HttpResponse:
    """What a page that found no simulation job for the design it shows
    posts as it loads (a GET starts nothing): the job of the project's
    design, or of revision `revision`'s, started unless there is one, run
    again if it is done but its review is not at hand. The page asks again
    as it does while a job runs; without script, its button comes back
    here and returns to the page (`next`). With `again`, a simulation that
    failed or was cancelled is run again (the deck's button). A viewer
    may: a simulation changes nothing in the design."""
    access, design = design_for(request, project_id)
    revision = None
    if request.POST.get("revision"):
        try:
            number = int(request.POST["revision"])
        except ValueError:
            raise Http404("No such revision") from None
        revision = selectors.revision_get(project=access.project, number=number)
        if revision is None:
            raise Http404("No such revision")
        design = design_from_revision(revision)
    found = dict(
        project=access.project, design=design, user=request.user, revision=revision
    )
    if request.POST.get("again"):
        jobs.simulation_job_rerun(**found)
    else:
        jobs.design_review_get(**found, start=True)
    if request.htmx:
        return HttpResponse(status=HTTPStatus.NO_CONTENT)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("simulation-page", args=[project_id])
    return redirect(back)


@login_required
@require_GET
def simulation_indicator(request: HttpRequest, project_id: int) -> HttpResponse:
    """The header's "Simulating… N%" while one of the project's jobs runs;
    it asks again every few seconds until none does."""
    access, _ = design_for(request, project_id)
    job = jobs.simulation_job_running(project=access.project)
    return render(
        request,
        "modeler/_simulation-indicator.html",
        {"project": access.project, "job": job},
    )


@login_required
@require_POST
def simulation_seed(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id, write=True)
    form = SampleSeedForm(request.POST)
    stale = False
    if form.is_valid():
        seed = form.cleaned_data["seed"]
        try:
            sample_services.sample_seed_set(
                project=access.project,
                seed=seed,
                version=form.cleaned_data["version"],
                author=request.user,
            )
        except project_services.EditConflict as exc:
            form.add_error(None, exc.message)
            stale = True
        except project_services.StaleVersionError as exc:
            form.add_error(None, str(exc))
            stale = True
        except project_services.LimitError as exc:
            form.add_error(
                "seed",
                f"From seed {seed}, {exc}. Pick another seed, or lower a count "
                "in Entities.",
            )
        else:
            messages.success(request, f"The sample data now comes from seed {seed}.")
            return redirect("simulation-page", project_id=project_id)
    return _render_page(
        request, access, design, seed_form=form, status=INVALID, panel_only=not stale
    )


@login_required
@require_POST
def simulation_items_import(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id, write=True)
    form = SampleItemsImportForm(request.POST, request.FILES)
    problems: list[FileProblem] = []
    stale = False
    if form.is_valid():
        try:
            read, stored = sample_services.sample_items_import(
                project=access.project,
                design=design,
                text=form.cleaned_data["file"],
                source=form.source_name,
                replace=form.cleaned_data["mode"] == SampleItemsImportForm.REPLACE,
                version=form.cleaned_data["version"],
                author=request.user,
            )
        except ItemsFileError as exc:
            problems = exc.problems
            count = len(problems)
            form.add_error(
                None,
                f"Nothing was imported: {form.source_name} has {count} "
                f"problem{'s' if count > 1 else ''}, listed below.",
            )
        except TooManyItemsError as exc:
            form.add_error(None, f"Nothing was imported. {exc}")
        except project_services.EditConflict as exc:
            form.add_error(None, f"Nothing was imported. {exc.message}")
            stale = True
        except project_services.StaleVersionError as exc:
            form.add_error(None, f"Nothing was imported. {exc}")
            stale = True
        else:
            messages.success(
                request,
                f"Imported {read:,} item{'s' if read != 1 else ''} from "
                f"{form.source_name}; you have {stored:,} of your own now.",
            )
            return redirect("simulation-page", project_id=project_id)
    return _render_page(
        request,
        access,
        design,
        import_form=form,
        import_problems=problems,
        status=INVALID,
        panel_only=not stale,
    )


@login_required
@require_POST
def simulation_items_remove(request: HttpRequest, project_id: int) -> HttpResponse:
    access, _ = design_for(request, project_id, write=True)
    form = VersionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was removed: reload the page and try again.")
        return redirect("simulation-page", project_id=project_id)
    try:
        removed = sample_services.sample_items_remove(
            project=access.project,
            version=form.cleaned_data["version"],
            author=request.user,
        )
    except project_services.EditConflict as exc:
        messages.error(request, f"Nothing was removed. {exc.message}")
    except project_services.StaleVersionError as exc:
        messages.error(request, f"Nothing was removed. {exc}")
    else:
        messages.success(
            request, f"Removed {removed:,} item{'s' if removed != 1 else ''} of yours."
        )
    return redirect("simulation-page", project_id=project_id)


@login_required
@require_http_methods(["GET", "POST"])
def simulation_download(request: HttpRequest, project_id: int) -> HttpResponse:
    """The simulated table's items, generated and own, as DynamoDB JSON
    lines: the file a worker wrote from the loaded table. Asked for before
    it is written, a page that asks again until the download starts; a
    GET asks nothing: the page's form posts here to ask for the file (and
    for the simulation job that loads the data first if need be). A viewer
    may: it changes nothing in the design."""
    access, design = design_for(request, project_id)
    if request.method == "POST":
        sample_file_answer(project=access.project, design=design, user=request.user)
        return answer_started(request)
    answer = sample_file_find(project=access.project, design=design)
    if answer.problem:
        messages.error(request, f"Nothing to download. {answer.problem}")
        return redirect("simulation-page", project_id=project_id)
    if answer.result is None:
        context = {
            "access": access,
            "project": access.project,
            "design": design,
            "section": "simulation",
            "answer": answer,
            "what": "The sample data file",
            "back": reverse("simulation-page", args=[project_id]),
            "back_label": "Back to Simulation",
        }
        return render(
            request,
            "modeler/download-waiting.html",
            context,
            status=HTTPStatus.ACCEPTED,
        )
    name = slugify(access.project.name)
    return FileResponse(
        file_open(answer.result),
        as_attachment=True,
        filename=f"{name}-sample-data.jsonl" if name else "sample-data.jsonl",
        content_type="application/x-ndjson; charset=utf-8",
    )


# --- One pattern ----------------------------------------------------------------


@login_required
@require_GET
def simulation_pattern(
    request: HttpRequest, project_id: int, position: int
) -> HttpResponse:
    """One pattern's result as the design's simulation job stored it, or
    how far the job is while it has not."""
    access, design = design_for(request, project_id)
    if not 0 <= position < len(design.access_patterns):
        raise Http404("No such access pattern")
    job = jobs.simulation_job_find(project=access.project, design=design)
    context = {
        "access": access,
        "project": access.project,
        "job": job,
        "position": position,
        "pattern": design.access_patterns[position],
        "stored": jobs.pattern_result_get(job=job, position=position) if job else None,
        "problem": _problem(job),
    }
    if request.htmx:
        return render(request, "modeler/simulation.html#stored-result", context)
    context["section"] = "simulation"
    return render(request, "modeler/simulation-pattern.html", context)
