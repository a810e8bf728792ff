"""The Migration tab of History's compare (issue 34): what the live table
must go through to get from one revision to the other, the steps in
order with their costs, and the proof's verdict, made by a worker (a GET
looks it up, a POST asks for it); and the downloads: the migration script,
the table changes as Terraform or CloudFormation stages, and the plan as
text. A viewer may do all of it: nothing in the design changes. Where the
plan is not proven but one with an index rebuilt beside itself is
(`evolution.beside`), the page offers that next design: to download, and
to an editor to save as the next revision."""

from __future__ import annotations

import io
import zipfile

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from modeler import selectors
from modeler.design import model as d
from modeler.designfile import dump_design
from modeler.evolution import changes as c
from modeler.evolution.iac import FORMATS, iac_files, table_stages
from modeler.evolution.plan import Plan, duration_text, plan_migration, plan_text
from modeler.evolution.spec import PlanError
from modeler.jobs.migration_proofs import (
    migration_proof_find,
    migration_proof_request,
    migration_sides,
    migration_title,
)
from modeler.models import Project
from modeler.services import history as history_services
from modeler.services.projects import LimitError, StaleVersionError
from modeler.views.history import _compared as compared
from modeler.views.workspace import answer_started


def _outline(
    before: d.Design, after: d.Design, project: Project, first: int, second: int
) -> tuple[Plan | None, str]:
    """The plan without its proof (quick: no sample data), for the changes,
    the script and the stages; or None and why it cannot be planned at all
    (a revision whose entities have no table keys yet, never deployed)."""
    try:
        plan = plan_migration(
            before,
            after,
            proof=False,
            title=migration_title(project, first, second),
            sides=migration_sides(first, second),
        )
    except PlanError as exc:
        return None, str(exc)
    return plan, ""


def _file_stem(project_name: str, first: int, second: int) -> str:
    return f"{slugify(project_name) or 'design'}-r{first}-r{second}"


@login_required
@require_http_methods(["GET", "POST"])
def history_migration(request: HttpRequest, project_id: int) -> HttpResponse:
    """The Migration tab of the compare of `?before=N&after=M`; a POST (the
    page's start form, or its button without script) asks a worker for
    the proof, which the page then follows."""
    try:
        access, (first, second), (before, after) = compared(request, project_id)
    except Http404 as missing:
        # A project deleted meanwhile (or a member removed) is told as on
        # every page (ProjectGoneMiddleware: a notice, the polls stopped).
        if not request.htmx or getattr(missing, "project_gone", False):
            raise
        # The page polls while the proof runs, and htmx shows no 404: a
        # revision that is not there would leave the page polling for
        # ever. It reloads instead, into the 404 page.
        gone = HttpResponseNotFound("This revision does not exist.")
        gone["HX-Refresh"] = "true"
        return gone
    project = access.project
    found = dict(project=project, before=before, after=after)
    if request.method == "POST":
        migration_proof_request(
            **found, first=first, second=second, again=bool(request.POST.get("again"))
        )
        return answer_started(request)
    state = migration_proof_find(**found)
    outline, problem = _outline(before, after, project, first, second)
    plan = state.plan
    context = {
        "access": access,
        "project": project,
        "section": "history",
        "first": first,
        "second": second,
        "tab": "migration",
        "state": state,
        "plan": plan,
        "outline": outline,
        "problem": problem,
        # The changes by what they need of the live table, the costliest first.
        "groups": [
            (category, [ch for ch in outline.changes if ch.category == category])
            for category in c.CATEGORIES
            if outline is not None
            and any(ch.category == category for ch in outline.changes)
        ],
        "stages": table_stages(before, after) if outline is not None else [],
        "formats": sorted(FORMATS),
        "total_duration": duration_text(plan.seconds) if plan else "",
        "steps": [
            (step, duration_text(step.seconds)) for step in (plan.steps if plan else [])
        ],
        "counts": _counts(plan),
        "url": request.get_full_path(),
        "latest": project.version,
    }
    name = "modeler/history-migration.html"
    if request.htmx and not request.htmx.boosted:
        name += "#workspace"
    return render(request, name, context)


def _counts(plan: Plan | None) -> list[tuple[str, int, int]]:
    """Per entity of the second revision: the items the plan promises and
    the items the rehearsal left."""
    if plan is None or plan.proof is None:
        return []
    proof = plan.proof
    names = sorted(proof.counts_expected.keys() | proof.counts_after.keys())
    return [
        (n, proof.counts_expected.get(n, 0), proof.counts_after.get(n, 0))
        for n in names
    ]


def _attachment(text: bytes | str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def history_migration_script(request: HttpRequest, project_id: int) -> HttpResponse:
    """The migration script (boto3, runnable as it is) of the compare."""
    access, (first, second), (before, after) = compared(request, project_id)
    outline, _ = _outline(before, after, access.project, first, second)
    if outline is None:
        raise Http404("This migration cannot be planned")
    stem = _file_stem(access.project.name, first, second)
    return _attachment(
        outline.script, f"{stem}-migrate.py", "text/x-python; charset=utf-8"
    )


@login_required
@require_GET
def history_migration_iac(
    request: HttpRequest, project_id: int, fmt: str
) -> HttpResponse:
    """The table changes as a zip of numbered stage files, to apply in turn."""
    if fmt not in FORMATS:
        raise Http404("No such format")
    access, (first, second), (before, after) = compared(request, project_id)
    if _outline(before, after, access.project, first, second)[0] is None:
        raise Http404("This migration cannot be planned")
    files = iac_files(before, after, fmt)
    if not files:
        raise Http404("This migration changes nothing in the table")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files:
            archive.writestr(name, text)
    stem = _file_stem(access.project.name, first, second)
    return _attachment(buffer.getvalue(), f"{stem}-{fmt}.zip", "application/zip")


@login_required
@require_GET
def history_migration_plan(request: HttpRequest, project_id: int) -> HttpResponse:
    """The proven plan as text, once a worker has made it (404 before)."""
    access, (first, second), (before, after) = compared(request, project_id)
    state = migration_proof_find(project=access.project, before=before, after=after)
    if state.plan is None:
        raise Http404("The migration has not been planned yet")
    stem = _file_stem(access.project.name, first, second)
    return _attachment(
        plan_text(state.plan), f"{stem}-migration.txt", "text/plain; charset=utf-8"
    )


def _alternative(request: HttpRequest, project_id: int, *, write: bool = False):
    """The compare's project and revisions, and the proven alternative of
    its plan (404 when there is none, or the plan is not made yet)."""
    if write:  # a viewer is refused before anything is looked up
        selectors.project_get_for_user(
            user=request.user, project_id=project_id, write=True
        )
    access, numbers, (before, after) = compared(request, project_id)
    state = migration_proof_find(project=access.project, before=before, after=after)
    plan = state.plan
    if plan is None or plan.alternative is None:
        raise Http404("This migration has no proven alternative")
    return access, numbers, plan.alternative, plan.rebuilt


@login_required
@require_GET
def history_migration_alternative(
    request: HttpRequest, project_id: int
) -> HttpResponse:
    """The second revision with the indexes rebuilt beside themselves, as a
    design file."""
    access, (first, second), alternative, _ = _alternative(request, project_id)
    stem = _file_stem(access.project.name, first, second)
    return _attachment(
        dump_design(alternative.after),
        f"{stem}-alternative.yaml",
        "application/yaml; charset=utf-8",
    )


@login_required
@require_POST
def history_migration_alternative_save(
    request: HttpRequest, project_id: int
) -> HttpResponse:
    """Save the alternative as the revision after the second, which must
    still be the latest; then the compare of the first to it, whose proof
    the page starts."""
    access, (first, second), alternative, rebuilt_indexes = _alternative(
        request, project_id, write=True
    )
    page = reverse("history-migration", args=[project_id])
    rebuilt = "; ".join(
        f"{r.index} rebuilt beside itself as {r.name}" for r in rebuilt_indexes
    )
    try:
        saved = history_services.revision_save_next(
            project=access.project,
            user=request.user,
            number=second,
            design=alternative.after,
            summary=f"{rebuilt} (the proven migration from revision {first})",
        )
    except (history_services.HistoryError, StaleVersionError, LimitError) as exc:
        messages.error(request, f"The alternative was not saved: {exc}")
        return redirect(f"{page}?before={first}&after={second}")
    messages.success(
        request,
        f"Saved revision {saved.number}: revision {second} with {rebuilt}. Its "
        f"migration from revision {first} is proven below.",
    )
    return redirect(f"{page}?before={first}&after={saved.number}")
