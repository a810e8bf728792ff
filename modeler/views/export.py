"""The Export section: every export format previewed with syntax
highlighting, copied or downloaded; cfn-lint's verdict beside the
CloudFormation; the code of each access pattern. Exports are reads: every
member of the project may make them."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from modeler.design import model as d
from modeler.endpoint.snippets import endpoint_snippets
from modeler.exporters.cfnlint import LintResult, lint_template
from modeler.exporters.formats import EXPORT_FORMATS, ExportError, ExportFormat
from modeler.exporters.highlight import highlight
from modeler.exporters.snippets import (
    PatternSnippet,
    pattern_snippets,
    python_module,
    shell_script,
)
from modeler.forms.export import ExportOptionsForm
from modeler.jobs import services as jobs
from modeler.models import Project, SimulationJob
from modeler.views.workspace import design_for

logger = logging.getLogger(__name__)

DEFAULT_FORMAT = "terraform"
CODE = "code"  # the per-pattern code, beside the file formats
ENDPOINT = "endpoint"  # how to serve the design as a DynamoDB endpoint
CODE_DOWNLOADS = {
    "patterns.py": ("python", "text/x-python"),
    "patterns.sh": ("shell", "text/x-shellscript"),
}


def _chosen(name: str) -> str:
    if name in (CODE, ENDPOINT) or name in EXPORT_FORMATS:
        return name
    raise Http404(f"no export format '{name}'")


def _render_format(
    chosen: ExportFormat, design: d.Design, options: ExportOptionsForm
) -> tuple[str, list[str], str]:
    """The export's text, notes for the reader, and a problem that stopped it."""
    if not options.is_valid():
        return "", [], "Fix the options below."
    try:
        made = chosen.export(design, **options.cleaned_data)
    except ExportError as exc:
        return "", [], str(exc)
    except Exception as exc:
        # A design saved with errors (the editor allows that while it is
        # being built) may lack what an export needs: say so, keep the page.
        logger.exception("The %s export of %r failed", chosen.name, design.name)
        return (
            "",
            [],
            f"This export cannot be made from the design as saved "
            f"({type(exc).__name__}: {exc}); fix the errors the editor lists.",
        )
    return made.text, list(made.notes), ""


def _options(
    request: HttpRequest, chosen: ExportFormat, design: d.Design
) -> ExportOptionsForm:
    return ExportOptionsForm(request.GET, chosen=chosen, design=design)


def _design_snippets(
    request: HttpRequest, project: Project, design: d.Design
) -> tuple[list[PatternSnippet] | None, SimulationJob | None]:
    """The snippets from the runs of the design's simulation job; None,
    with the job, while it runs."""
    found = jobs.design_review_get(project=project, design=design)
    review = found.review
    if review is None:
        return None, found.job
    return pattern_snippets(
        design, review.runs, problem=review.simulation_problem
    ), found.job


def _snippets(
    request: HttpRequest, project: Project, design: d.Design
) -> tuple[list[dict[str, Any]] | None, SimulationJob | None]:
    """The snippets, highlighted; None, with the job making them (None
    too when it has to be started), while the review is not made."""
    snippets, job = _design_snippets(request, project, design)
    if snippets is None:
        return None, job
    return [
        {
            "snippet": s,
            "python": highlight(s.python, "python") if s.python else "",
            "cli": highlight(s.cli, "shell") if s.cli else "",
        }
        for s in snippets
    ], None


@login_required
@require_GET
def export_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    name = _chosen(request.GET.get("format", DEFAULT_FORMAT))
    context: dict[str, Any] = {
        "access": access,
        "project": access.project,
        "design": design,
        "section": "export",
        "formats": list(EXPORT_FORMATS.values()),
        "chosen_name": name,
        "code_format": CODE,
        "endpoint_format": ENDPOINT,
    }
    if name == ENDPOINT:
        snippets = endpoint_snippets(design, project=str(access.project.pk))
        context["endpoint_rows"] = [
            (
                "Run it (from the workbench's directory)",
                "command",
                highlight(snippets.command, "shell"),
            ),
            ("Python (boto3)", "python", highlight(snippets.python, "python")),
            (
                "JavaScript (AWS SDK v3)",
                "javascript",
                highlight(snippets.javascript, "javascript"),
            ),
            ("AWS CLI", "cli", highlight(snippets.cli, "shell")),
        ]
    elif name == CODE:
        rows, pending = _snippets(request, access.project, design)
        context.update(
            snippets=rows,
            pending=pending,
            # No job yet: the section posts to start it.
            to_start=rows is None and pending is None,
            pending_url=request.get_full_path(),
        )
    else:
        chosen = EXPORT_FORMATS[name]
        options = _options(request, chosen, design)
        text, notes, problem = _render_format(chosen, design, options)
        context.update(
            options=options if chosen.options else None,
            chosen=chosen,
            filename=chosen.filename(design),
            text=text,
            highlighted=highlight(text, chosen.language) if text else "",
            notes=notes,
            problem=problem,
            lints=chosen.linted,
            # Without JavaScript the lint runs with the page (?lint=1).
            lint=_lint(chosen, text) if request.GET.get("lint") and text else None,
        )
    template = "modeler/export.html"
    if request.htmx and request.htmx.target == "export-preview":
        template += "#export-preview"
    elif request.htmx and not request.htmx.boosted:
        template += "#export-content"
    return render(request, template, context)


def _lint(chosen: ExportFormat, text: str) -> LintResult:
    suffix = ".json" if chosen.language == "json" else ".yaml"
    return lint_template(text, suffix=suffix)


@login_required
@require_GET
def export_lint(
    request: HttpRequest, project_id: int, format_name: str
) -> HttpResponse:
    """cfn-lint's findings on the CloudFormation export (loaded by the page
    after it shows the template: a lint takes a second or two)."""
    access, design = design_for(request, project_id)
    chosen = EXPORT_FORMATS.get(format_name)
    if chosen is None or not chosen.linted:
        raise Http404(f"cfn-lint checks CloudFormation, not '{format_name}'")
    text, _, problem = _render_format(chosen, design, _options(request, chosen, design))
    lint = _lint(chosen, text) if text else LintResult(problem=problem)
    return render(
        request,
        "modeler/export.html#export-lint",
        {"project": access.project, "chosen": chosen, "lint": lint, "lints": True},
    )


@login_required
@require_GET
def export_download(
    request: HttpRequest, project_id: int, format_name: str
) -> HttpResponse:
    access, design = design_for(request, project_id)
    if format_name in CODE_DOWNLOADS:
        snippets, job = _design_snippets(request, access.project, design)
        if snippets is None:
            response = HttpResponse(
                "The access patterns are being simulated "
                f"({job.percent}%): download the code again in a moment."
                if job is not None
                else "The access patterns have not been simulated yet: open the "
                "Export page's code, which runs the simulation, then download "
                "the code again.",
                status=409,
                content_type="text/plain; charset=utf-8",
            )
            response["Retry-After"] = "2"
            return response
        text = (python_module if format_name == "patterns.py" else shell_script)(
            design, snippets
        )
        media = CODE_DOWNLOADS[format_name][1]
        filename = format_name
    else:
        if format_name not in EXPORT_FORMATS:
            raise Http404(f"no export format '{format_name}'")
        chosen = EXPORT_FORMATS[format_name]
        options = _options(request, chosen, design)
        text, _, problem = _render_format(chosen, design, options)
        if problem:
            return HttpResponse(
                problem, status=400, content_type="text/plain; charset=utf-8"
            )
        media, filename = chosen.media_type, chosen.filename(design)
    response = HttpResponse(text, content_type=f"{media}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
