"""The Key map, Item collections and Diagrams sections: what a team puts
on the screen in a design review. The work is done by `modeler.diagrams`;
these views check access, read the query string and render."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from modeler import diagrams
from modeler.design import model as d
from modeler.forms.diagrams import CollectionsForm, DiagramForm
from modeler.jobs import services as jobs
from modeler.jobs.collections import (
    CollectionsQuestion,
    DrawnPartitions,
    collections_answer,
    collections_png_answer,
    collections_source,
)
from modeler.jobs.files import file_open
from modeler.jobs.loaded_tables import TableAnswer
from modeler.selectors import ProjectAccess
from modeler.views.statuses import INVALID
from modeler.views.workspace import design_for

ITEMS_PER_PAGE = 50
PNG_SCALES = (1, 2, 3, 4)  # a PNG this many times the size
DOWNLOADS = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "dot": "text/vnd.graphviz; charset=utf-8",
}


def _template(request: HttpRequest, page: str, region: str) -> str:
    """The whole page; for htmx, the region it asked for, or the page's
    content when a section tab swaps the page in."""
    if not request.htmx:
        return page
    if request.htmx.target == region:
        return f"{page}#{region}"
    return f"{page}#page-content"


def _context(access: ProjectAccess, design: d.Design, section: str) -> dict[str, Any]:
    return {
        "access": access,
        "project": access.project,
        "design": design,
        "section": section,
    }


# --- Key map -----------------------------------------------------------------


@login_required
@require_GET
def keymap_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    context = _context(access, design, "keymap")
    context.update(
        keymap=diagrams.key_map(design), patterns=diagrams.pattern_map(design)
    )
    return render(request, _template(request, "modeler/keymap.html", ""), context)


@login_required
@require_GET
def keymap_verdicts(request: HttpRequest, project_id: int) -> HttpResponse:
    """The access-pattern map with each pattern's simulation verdict, as the
    design's simulation job judged it (with its further draws)."""
    access, design = design_for(request, project_id)
    patterns = diagrams.pattern_map(design)
    found = jobs.design_review_get(
        project=access.project, design=design, user=request.user
    )
    review = found.review
    verdicts: list = []
    problem = ""
    if review is not None and review.simulation_problem:
        problem = review.simulation_problem
    elif review is not None:
        verdicts = diagrams.run_verdicts(review.runs)
    context = _context(access, design, "keymap")
    context.update(
        patterns=list(zip(patterns, verdicts, strict=True)) if verdicts else patterns,
        with_verdicts=bool(verdicts),
        problem=problem,
        # While the job makes the review, the map asks again a second later.
        pending=found.job if review is None else None,
    )
    template = _template(request, "modeler/keymap.html", "pattern-map")
    if not template.endswith("#pattern-map"):
        context["keymap"] = diagrams.key_map(design)
    return render(request, template, context)


# --- Item collections ----------------------------------------------------------


@login_required
@require_GET
def collections_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    form = CollectionsForm(request.GET, design=design)
    context = _context(access, design, "collections")
    context["form"] = form
    status = 200
    if not form.is_valid():
        status = INVALID
    else:
        c = form.cleaned_data
        answer = collections_answer(
            project=access.project,
            design=design,
            user=request.user,
            question=CollectionsQuestion(
                index=c["index"],
                entity=c["entity"],
                contains=c["pk"],
                page=c["page"],
                per_page=ITEMS_PER_PAGE,
            ),
        )
        context.update(
            problem=answer.problem, job=answer.job, reloading=answer.reloading
        )
        if answer.pending:
            context["pending_url"] = request.get_full_path()
        elif answer.result is not None:
            page = answer.result
            context.update(
                page=page,
                entities=[(e.name, n % 10) for n, e in enumerate(design.entities)],
                page_links=_page_links(request, page.page, page.pages),
                diagram_url=reverse("diagrams-page", args=[project_id]),
            )
    template = _template(request, "modeler/collections.html", "collections-results")
    return render(request, template, context, status=status)


def _page_links(request: HttpRequest, page: int, pages: int) -> dict[str, str]:
    def link(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number)
        return "?" + query.urlencode()

    links = {}
    if page > 1:
        links["first"] = link(1)
        links["previous"] = link(page - 1)
    if page < pages:
        links["next"] = link(page + 1)
        links["last"] = link(pages)
    return links


# --- Diagrams ------------------------------------------------------------------


def _diagram_form(request: HttpRequest, design: d.Design) -> DiagramForm:
    data = {k: v for k, v in request.GET.items() if k != "key"}
    return DiagramForm(data, design=design, keys=request.GET.getlist("key"))


class _Drawing(Exception):
    """A collections diagram waits for its partitions (`answer`)."""

    def __init__(self, answer: TableAnswer) -> None:
        super().__init__("the diagram's partitions are being drawn")
        self.answer = answer


def _question(form: DiagramForm) -> CollectionsQuestion:
    c = form.cleaned_data
    return CollectionsQuestion(
        index=c["index"],
        entity=c["entity"],
        contains=c["pk"],
        keys=tuple(c["keys"]),
        max_partitions=c["partitions"],
        max_items=c["items"],
    )


def _drawn(
    request: HttpRequest, access: ProjectAccess, design: d.Design, form: DiagramForm
) -> DrawnPartitions:
    """The collections diagram a worker drew. Raises RenderError when
    something prevents it, _Drawing while the worker draws it."""
    answer = collections_answer(
        project=access.project,
        design=design,
        user=request.user,
        question=_question(form),
    )
    if answer.problem:
        raise diagrams.RenderError(answer.problem)
    if answer.result is None:
        raise _Drawing(answer)
    return answer.result


def _rendered(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    form: DiagramForm,
    fmt: str,
    scale: int = 1,
) -> bytes | str:
    """The diagram as DOT text, SVG text (sanitised) or, for the overview,
    PNG bytes: the overview drawn here and kept by the design's content, a
    collections diagram as the worker drew it. Raises RenderError, or
    _Drawing (neither is kept: the next request asks again)."""
    if form.cleaned_data["kind"] == DiagramForm.COLLECTIONS:
        drawn = _drawn(request, access, design, form)
        if fmt == "svg":
            return drawn.svg
        partitions = (list(drawn.partitions), drawn.more)
        return collections_source(design, _question(form), partitions)
    digest = diagrams.design_digest(design)
    source = diagrams.cached((digest, "dot"), lambda: diagrams.overview_dot(design))
    if fmt == "dot":
        return source
    if fmt == "svg":
        return diagrams.cached(
            (digest, "svg"),
            lambda: diagrams.sanitise_svg(diagrams.render(source, "svg")),
        )
    return diagrams.cached(
        (digest, "png", scale),
        lambda: diagrams.render(source, "png", scale=scale),
    )


@login_required
@require_GET
def diagrams_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    form = _diagram_form(request, design)
    context = _context(access, design, "diagrams")
    context["form"] = form
    status = 200
    if not form.is_valid():
        status = INVALID
    else:
        try:
            context["svg"] = _rendered(request, access, design, form, "svg")
        except diagrams.RenderError as exc:
            context["render_error"] = str(exc)
        except _Drawing as drawing:
            context.update(
                job=drawing.answer.job,
                reloading=drawing.answer.reloading,
                pending_url=request.get_full_path(),
            )
        query = request.GET.copy()
        context["downloads"] = [
            (
                fmt.upper(),
                reverse("diagram-download", args=[project_id, fmt])
                + "?"
                + query.urlencode(),
            )
            for fmt in DOWNLOADS
        ]
        context["downloads"] += [
            (
                f"PNG {scale}x",
                reverse("diagram-download", args=[project_id, "png"])
                + "?"
                + query.urlencode()
                + f"&scale={scale}",
            )
            for scale in PNG_SCALES[1:]
        ]
    template = _template(request, "modeler/diagrams.html", "diagram-results")
    return render(request, template, context, status=status)


@login_required
@require_GET
def diagram_download(request: HttpRequest, project_id: int, fmt: str) -> HttpResponse:
    access, design = design_for(request, project_id)
    if fmt not in DOWNLOADS:
        raise Http404("No such format")
    form = _diagram_form(request, design)
    back = reverse("diagrams-page", args=[project_id]) + "?" + request.GET.urlencode()
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        messages.error(request, f"Nothing to download: {errors}")
        return redirect(back)
    scale = request.GET.get("scale", "1")
    scale = int(scale) if scale.isdigit() and int(scale) in PNG_SCALES else 1
    name = slugify(access.project.name) or "design"
    kind = form.cleaned_data["kind"]
    if kind == DiagramForm.COLLECTIONS:
        kind += "-" + slugify(form.cleaned_data["index"])
    suffix = f"@{scale}x" if scale > 1 else ""
    filename = f"{name}-{kind}{suffix}.{fmt}"
    try:
        if fmt == "png" and form.cleaned_data["kind"] == DiagramForm.COLLECTIONS:
            # Graphviz takes seconds on a large collections diagram: a
            # worker draws it into a file.
            return _png_file(request, access, design, form, scale, filename)
        content = _rendered(request, access, design, form, fmt, scale)
    except diagrams.RenderError as exc:
        messages.error(request, f"The diagram cannot be downloaded. {exc}")
        return redirect(back)
    except _Drawing as drawing:
        # A link followed before the diagram was drawn: this page asks
        # again until the file comes.
        context = _context(access, design, "diagrams")
        context.update(
            job=drawing.answer.job,
            reloading=drawing.answer.reloading,
            what="The diagram",
            back=back,
            back_label="Back to Diagrams",
        )
        return render(
            request,
            "modeler/download-waiting.html",
            context,
            status=HTTPStatus.ACCEPTED,
        )
    response = HttpResponse(
        content.encode() if isinstance(content, str) else content,
        content_type=DOWNLOADS[fmt],
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _png_file(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    form: DiagramForm,
    scale: int,
    filename: str,
) -> HttpResponse:
    """The PNG file a worker drew. Raises RenderError, or _Drawing while
    it draws."""
    answer = collections_png_answer(
        project=access.project,
        design=design,
        question=_question(form),
        scale=scale,
        user=request.user,
    )
    if answer.problem:
        raise diagrams.RenderError(answer.problem)
    if answer.result is None:
        raise _Drawing(answer)
    response = FileResponse(
        file_open(answer.result),
        as_attachment=True,
        filename=filename,
        content_type=DOWNLOADS["png"],
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response
