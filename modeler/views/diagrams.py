"""The Key map, Item collections and Diagrams sections: what a team puts
on the screen in a design review. The work is done by `modeler.diagrams`;
these views check access, read the query string and render. What a worker
draws from the loaded sample data a GET only looks up; when nobody has
asked for it yet, the page's start form posts to the same address (as
the page loads, or by its button without script) to ask for it."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from modeler import diagrams
from modeler.design import model as d
from modeler.forms.diagrams import CollectionsForm, DiagramForm
from modeler.jobs import services as jobs
from modeler.jobs.collections import (
    CollectionsQuestion,
    DrawnPartitions,
    collections_answer,
    collections_find,
    collections_png_answer,
    collections_png_find,
    collections_source,
)
from modeler.jobs.files import file_open
from modeler.jobs.loaded_tables import TableAnswer
from modeler.selectors import ProjectAccess
from modeler.views.statuses import INVALID
from modeler.views.workspace import answer_started, design_for

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
    found = jobs.design_review_get(project=access.project, design=design)
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
        to_start=found.to_start,
    )
    template = _template(request, "modeler/keymap.html", "pattern-map")
    if not template.endswith("#pattern-map"):
        context["keymap"] = diagrams.key_map(design)
    return render(request, template, context)


# --- Item collections ----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def collections_page(request: HttpRequest, project_id: int) -> HttpResponse:
    """A page of the item collections a worker drew; a POST (the pending
    state's form) asks for it, and for the simulation job that loads the
    data first if need be. A viewer may: it changes nothing in the
    design."""
    access, design = design_for(request, project_id)
    form = CollectionsForm(request.GET, design=design)
    context = _context(access, design, "collections")
    context["form"] = form
    status = 200
    if not form.is_valid():
        if request.method == "POST":
            return answer_started(request)  # the page says what is wrong
        status = INVALID
    else:
        c = form.cleaned_data
        question = CollectionsQuestion(
            index=c["index"],
            entity=c["entity"],
            contains=c["pk"],
            page=c["page"],
            per_page=ITEMS_PER_PAGE,
        )
        if request.method == "POST":
            collections_answer(
                project=access.project,
                design=design,
                user=request.user,
                question=question,
            )
            return answer_started(request)
        answer = collections_find(
            project=access.project, design=design, question=question
        )
        context.update(_pending_context(request, answer))
        if answer.result is not None:
            page = answer.result
            context.update(
                page=page,
                entities=[(e.name, n % 10) for n, e in enumerate(design.entities)],
                page_links=_page_links(request, page.page, page.pages),
                diagram_url=reverse("diagrams-page", args=[project_id]),
            )
    template = _template(request, "modeler/collections.html", "collections-results")
    return render(request, template, context, status=status)


def _pending_context(request: HttpRequest, answer: TableAnswer) -> dict[str, Any]:
    """What the pending state (`_review-pending.html`) shows of an answer
    that is being made or has to be started by a POST to this page's
    address; the answer's problem, if it has one."""
    context: dict[str, Any] = {
        "problem": answer.problem,
        "job": answer.job,
        "reloading": answer.reloading,
    }
    if answer.pending or answer.to_start:
        context["pending_url"] = request.get_full_path()
    if answer.to_start:
        context.update(
            start_url=request.get_full_path(),
            # Nothing loads the sample data yet: the POST starts its job.
            to_start=not answer.loaded,
        )
    return context


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
    """A collections diagram waits for its partitions (`answer`), or for
    a POST to ask for them (`answer.to_start`)."""

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
    access: ProjectAccess, design: d.Design, form: DiagramForm
) -> DrawnPartitions:
    """The collections diagram a worker drew, looked up (nothing is asked:
    `_start` does). Raises RenderError when something prevents it,
    _Drawing while the worker draws it or nobody asked for it."""
    answer = collections_find(
        project=access.project, design=design, question=_question(form)
    )
    if answer.problem:
        raise diagrams.RenderError(answer.problem)
    if answer.result is None:
        raise _Drawing(answer)
    return answer.result


def _start(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    form: DiagramForm,
    *,
    png_scale: int = 0,
) -> HttpResponse:
    """What the pending diagram's form (or a download's) posts: asks a
    worker for the collections diagram (as a PNG file `png_scale` times
    the size, if given), and for the simulation job that loads the data
    first if need be. The overview needs nothing started."""
    if form.is_valid() and form.cleaned_data["kind"] == DiagramForm.COLLECTIONS:
        asked = dict(
            project=access.project,
            design=design,
            question=_question(form),
            user=request.user,
        )
        if png_scale:
            collections_png_answer(**asked, scale=png_scale)
        else:
            collections_answer(**asked)
    return answer_started(request)


def _rendered(
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
        drawn = _drawn(access, design, form)
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
@require_http_methods(["GET", "POST"])
def diagrams_page(request: HttpRequest, project_id: int) -> HttpResponse:
    """The diagram the query string asks for; a POST (the pending
    collections diagram's form) asks a worker to draw it."""
    access, design = design_for(request, project_id)
    form = _diagram_form(request, design)
    if request.method == "POST":
        return _start(request, access, design, form)
    context = _context(access, design, "diagrams")
    context["form"] = form
    status = 200
    if not form.is_valid():
        status = INVALID
    else:
        try:
            context["svg"] = _rendered(access, design, form, "svg")
        except diagrams.RenderError as exc:
            context["render_error"] = str(exc)
        except _Drawing as drawing:
            context.update(_pending_context(request, drawing.answer))
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
@require_http_methods(["GET", "POST"])
def diagram_download(request: HttpRequest, project_id: int, fmt: str) -> HttpResponse:
    """The diagram as a file; while a worker draws it, or before anyone
    asked it to, a page that says so (and asks, by a POST here)."""
    access, design = design_for(request, project_id)
    if fmt not in DOWNLOADS:
        raise Http404("No such format")
    form = _diagram_form(request, design)
    scale = request.GET.get("scale", "1")
    scale = int(scale) if scale.isdigit() and int(scale) in PNG_SCALES else 1
    if request.method == "POST":
        # Graphviz takes seconds on a large collections diagram: a worker
        # draws its PNG into a file.
        return _start(
            request, access, design, form, png_scale=scale if fmt == "png" else 0
        )
    back = reverse("diagrams-page", args=[project_id]) + "?" + request.GET.urlencode()
    if not form.is_valid():
        errors = "; ".join(e for errs in form.errors.values() for e in errs)
        messages.error(request, f"Nothing to download: {errors}")
        return redirect(back)
    name = slugify(access.project.name) or "design"
    kind = form.cleaned_data["kind"]
    if kind == DiagramForm.COLLECTIONS:
        kind += "-" + slugify(form.cleaned_data["index"])
    suffix = f"@{scale}x" if scale > 1 else ""
    filename = f"{name}-{kind}{suffix}.{fmt}"
    try:
        if fmt == "png" and form.cleaned_data["kind"] == DiagramForm.COLLECTIONS:
            return _png_file(access, design, form, scale, filename)
        content = _rendered(access, design, form, fmt, scale)
    except diagrams.RenderError as exc:
        messages.error(request, f"The diagram cannot be downloaded. {exc}")
        return redirect(back)
    except _Drawing as drawing:
        # A link followed before the diagram was drawn: this page asks
        # for it if nobody has, and again until the file comes.
        context = _context(access, design, "diagrams")
        context.update(
            answer=drawing.answer,
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
    access: ProjectAccess,
    design: d.Design,
    form: DiagramForm,
    scale: int,
    filename: str,
) -> HttpResponse:
    """The PNG file a worker drew. Raises RenderError, or _Drawing while
    it draws or until a POST asks for it."""
    answer = collections_png_find(
        project=access.project, design=design, question=_question(form), scale=scale
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
