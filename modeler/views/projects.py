"""Project pages: the list (create, import, delete) and the read-only
design overview."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from modeler import presenters, selectors
from modeler.design_check import check_design
from modeler.designfile import dump_design
from modeler.examples import example, examples
from modeler.forms.projects import (
    DesignImportForm,
    LiveTableImportForm,
    ProjectCreateForm,
)
from modeler.infra.dynamodb import EndpointError, make_client
from modeler.services import projects as project_services
from modeler.services import reviews as review_sessions
from modeler.views.statuses import INVALID

# Projects a page of the list shows: an import of many tables, or years of
# work, would otherwise make one page of thousands of rows.
PROJECTS_PER_PAGE = 50


def _render_list(
    request: HttpRequest,
    *,
    create_form: ProjectCreateForm | None = None,
    import_form: DesignImportForm | None = None,
    import_problems: tuple = (),
    import_outcome: project_services.ImportOutcome | None = None,
    live_form: LiveTableImportForm | None = None,
    live_problems: tuple = (),
    status: int = 200,
) -> HttpResponse:
    context = {
        "import_outcome": import_outcome,
        "live_form": (live_form or LiveTableImportForm())
        if settings.LIVE_TABLE_IMPORT
        else None,
        "live_problems": live_problems,
        "live_endpoint": settings.DYNAMODB_ENDPOINT_URL,
        "live_region": settings.AWS_REGION or "us-east-1",
        "projects": Paginator(
            selectors.project_list(user=request.user), PROJECTS_PER_PAGE
        ).get_page(request.GET.get("page")),
        "create_form": create_form or ProjectCreateForm(),
        "import_form": import_form or DesignImportForm(),
        "import_problems": import_problems,
        "examples": examples(),
    }
    return render(request, "modeler/project-list.html", context, status=status)


@login_required
@require_GET
def project_list(request: HttpRequest) -> HttpResponse:
    return _render_list(request)


@login_required
@require_POST
def project_create(request: HttpRequest) -> HttpResponse:
    form = ProjectCreateForm(request.POST)
    if not form.is_valid():
        return _render_list(request, create_form=form, status=INVALID)
    design = project_services.new_design(
        name=form.cleaned_data["name"], description=form.cleaned_data["description"]
    )
    project = project_services.project_create(owner=request.user, design=design)
    messages.success(request, f"Created {project.name}.")
    return redirect("project-detail", project_id=project.pk)


@login_required
@require_POST
def project_from_example(request: HttpRequest, slug: str) -> HttpResponse:
    """A copy of an example design in the user's own projects."""
    chosen = example(slug)
    if chosen is None:
        raise Http404("No such example")
    project = project_services.project_from_example(owner=request.user, example=chosen)
    messages.success(request, f"Copied the example {project.name} into your projects.")
    return redirect("project-detail", project_id=project.pk)


@login_required
@require_POST
def project_import(request: HttpRequest) -> HttpResponse:
    form = DesignImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_list(request, import_form=form, status=INVALID)
    upload = request.FILES.get("file")
    outcome = project_services.project_import(
        owner=request.user,
        source=form.source,
        name=form.cleaned_data["name"],
        filename=upload.name if upload else "",
        table=form.cleaned_data["table"],
        queries=form.cleaned_data["queries"],
        queries_filename=form.queries_name,
        window=form.window_seconds,
        peak=form.peak_multiple,
    )
    if not outcome.projects:
        form.add_error(
            None,
            f"Nothing was imported: {form.source_name} has problems, listed below.",
        )
        return _render_list(
            request, import_form=form, import_problems=outcome.problems, status=INVALID
        )
    warnings = sum(not p.is_error for p in outcome.problems)
    names = ", ".join(p.name for p in outcome.projects)
    messages.success(
        request,
        f"Imported {names}"
        + (
            f" with {warnings} warning{'s' if warnings > 1 else ''}."
            if warnings
            else "."
        ),
    )
    if outcome.needs_keys:
        # A design from a SQL schema has entities and needs but no keys yet:
        # it opens where keys are proposed. What the import left out is in
        # its description.
        (project,) = outcome.projects
        if outcome.notes:
            messages.info(
                request,
                f"{len(outcome.notes)} notes on what the schema and query log "
                "held that the design does not (skipped statements, statements "
                "that became no access pattern) are in the project's description.",
            )
        return redirect("propose-keys", project_id=project.pk)
    if len(outcome.projects) > 1 or outcome.notes:
        # Several projects, or things the model could not carry over: the
        # list shows them instead of one project's page.
        return _render_list(request, import_outcome=outcome)
    return redirect("project-detail", project_id=outcome.projects[0].pk)


@login_required
@require_POST
def project_import_table(request: HttpRequest) -> HttpResponse:
    """A project from a live table on the endpoint the settings name, when
    the operator has turned LIVE_TABLE_IMPORT on; a 404 otherwise."""
    if not settings.LIVE_TABLE_IMPORT:
        raise Http404("Importing live tables is not enabled on this server")
    form = LiveTableImportForm(request.POST)
    if not form.is_valid():
        return _render_list(request, live_form=form, status=INVALID)
    table = form.cleaned_data["table"]
    where = {
        "endpoint_url": settings.DYNAMODB_ENDPOINT_URL,
        "region": settings.AWS_REGION,
    }
    try:
        outcome = project_services.project_import_live_table(
            owner=request.user,
            client=make_client(**where),
            scaling_client=make_client(**where, service="application-autoscaling"),
            table=table,
            sample=form.cleaned_data["sample"],
            name=form.cleaned_data["name"],
        )
    except EndpointError as exc:
        form.add_error(None, f"Nothing was imported: {table}: {exc}")
        return _render_list(request, live_form=form, status=INVALID)
    if not outcome.projects:
        form.add_error(
            None, f"Nothing was imported: {table} has problems, listed below."
        )
        return _render_list(
            request, live_form=form, live_problems=outcome.problems, status=INVALID
        )
    messages.success(request, f"Imported {outcome.projects[0].name}.")
    return _render_list(request, import_outcome=outcome)


@login_required
@require_GET
def project_detail(request: HttpRequest, project_id: int) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, with_design=True
    )
    design = selectors.project_design(project=access.project)
    colours = {e.name: i % 10 for i, e in enumerate(design.entities)}
    indexes = [("table", design.table.key_attributes)] + [
        (i.name, i.key_attributes) for i in design.table.indexes
    ]
    entities = [
        {
            "entity": e,
            "colour": colours[e.name],
            "keys": [
                (index_name, [(a.name, e.keys.get(a.name)) for a in attrs])
                for index_name, attrs in indexes
                if any(a.name in e.keys for a in attrs)
            ],
        }
        for e in design.entities
    ]
    patterns = [
        {
            "pattern": p,
            "key": presenters.key_condition_text(p.key),
            "expects": presenters.expectation_text(p.expects),
            "actions": [(a, colours.get(a.entity, 0)) for a in p.actions],
        }
        for p in design.access_patterns
    ]
    template = "modeler/project-detail.html"
    if request.htmx and not request.htmx.boosted:
        template += "#workspace"  # a section tab: the header and the overview
    return render(
        request,
        template,
        {
            "access": access,
            "project": access.project,
            "design": design,
            "table_keys": presenters.key_schema_text(design.table.key_attributes),
            "indexes": [
                (
                    i,
                    presenters.key_schema_text(i.partition_key),
                    presenters.key_schema_text(i.sort_key),
                )
                for i in design.table.indexes
            ],
            "entities": entities,
            "patterns": patterns,
            "problems": check_design(design),
            "section": "overview",
            "approved": review_sessions.approved_since(access.project),
        },
    )


@login_required
@require_GET
def project_export(request: HttpRequest, project_id: int) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, with_design=True
    )
    text = dump_design(selectors.project_design(project=access.project))
    response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
    filename = f"{slugify(access.project.name) or 'design'}.yaml"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def project_delete(request: HttpRequest, project_id: int) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=True
    )
    project = access.project
    if request.method == "POST":
        name = project.name
        project_services.project_delete(project=project)
        messages.success(request, f"Deleted {name}.")
        return redirect("project-list")
    design = selectors.project_design(project=project)
    return render(
        request,
        "modeler/project-delete.html",
        {
            "project": project,
            "entity_count": len(design.entities),
            "pattern_count": len(design.access_patterns),
            "member_count": project.memberships.count(),
        },
    )
