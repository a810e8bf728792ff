"""The Access patterns section: the list in order, adding, editing (with the
exact request the pattern sends, updated as the user types), reordering and
deleting with a confirmation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from modeler import presenters
from modeler.design import model as d
from modeler.design.edits import (
    AccessPatternAdd,
    AccessPatternMove,
    AccessPatternRemove,
    AccessPatternUpdate,
    DesignEdit,
)
from modeler.design.problems import Problem
from modeler.design_check import check_design
from modeler.editor.forms import PatternForm, pattern_draft
from modeler.editor.preview import pattern_preview as build_preview
from modeler.editor.preview import pattern_previews
from modeler.editor.services import Saved, part_problems
from modeler.selectors import ProjectAccess
from modeler.views.editor import (
    edited,
    form_edit,
    is_partial,
    load,
    render_section,
    section_context,
    section_url,
    version_edit,
)
from modeler.views.statuses import INVALID, gone

TEMPLATE = "modeler/editor-patterns.html"
NEW = -1  # the position of a pattern being added


def _form(
    design: d.Design,
    version: int,
    position: int,
    data: Any = None,
    *,
    more_rows: bool = False,
) -> PatternForm:
    pattern = design.access_patterns[position] if position != NEW else None
    return PatternForm(
        data,
        initial=PatternForm.initial_for(design, pattern, version),
        design=design,
        pattern=pattern,
        prefix="new" if position == NEW else f"p{position}",
        more_rows=more_rows,
    )


def _preview(
    design: d.Design, form: PatternForm, previews: tuple[Any, ...], position: int
) -> Any:
    """The request of the form's pattern: as typed, else as saved."""
    if form.is_bound:
        return build_preview(design, pattern_draft(form))
    if form.pattern is not None:
        return previews[position]
    return None


def _context(
    access: ProjectAccess,
    design: d.Design,
    *,
    editing: int | None = None,
    form: PatternForm | None = None,
    deleting: int | None = None,
    notice: str = "",
    problems: list[Problem] | None = None,
) -> dict[str, Any]:
    """The section's context; `problems` are the design's when a save has
    just checked it."""
    version = access.project.version
    if problems is None:
        problems = check_design(design)
    colours = {e.name: i % 10 for i, e in enumerate(design.entities)}
    previews = pattern_previews(design)
    rows = []
    for position, pattern in enumerate(design.access_patterns):
        rows.append(
            {
                "position": position,
                "pattern": pattern,
                "key": presenters.key_condition_text(pattern.key),
                "expects": presenters.expectation_text(pattern.expects),
                "actions": [(a, colours.get(a.entity, 0)) for a in pattern.actions],
                "problems": part_problems(problems, f"access_patterns[{position}]"),
                "deleting": position == deleting,
                "preview": previews[position],
            }
        )
    if editing is not None and form is None:
        form = _form(design, version, editing)
    return section_context(
        access,
        design,
        "patterns",
        rows=rows,
        editing=editing,
        form=form,
        preview=(
            _preview(design, form, previews, editing)
            if form is not None and editing is not None
            else None
        ),
        attribute_names=" ".join(
            dict.fromkeys(a.name for e in design.entities for a in e.attributes)
        ),
        notice=notice,
    )


def _list_response(
    request: HttpRequest, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """The pattern list (with the open form, if any), or the full page."""
    if not is_partial(request):
        return render(request, TEMPLATE, context, status=status)
    response = render(request, f"{TEMPLATE}#pattern-list", context, status=status)
    return reswap(retarget(response, "#pattern-list"), "outerHTML")


@login_required
@require_GET
def patterns_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = load(request, project_id)
    return render_section(request, TEMPLATE, _context(access, design))


def _save(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    position: int,
) -> HttpResponse:
    more_rows = "more_rows" in request.POST
    form = _form(
        design, access.project.version, position, request.POST, more_rows=more_rows
    )
    if more_rows or "refresh_form" in request.POST:
        # Re-shown as typed: with more rows, or with the fields of the
        # chosen operation and index (the form without JavaScript).
        form.errors  # noqa: B018 - show what the form has, with its errors
        context = _context(access, design, editing=position, form=form)
        return _list_response(request, context)

    result, status = None, INVALID
    if form.is_valid():
        pattern = form.to_pattern()
        edit: DesignEdit = (
            AccessPatternAdd(pattern)
            if position == NEW
            else AccessPatternUpdate(position=position, pattern=pattern)
        )
        result, status = form_edit(request, access, form, edit)
    if result:
        verb = "Added" if position == NEW else "Saved"
        return edited(
            request,
            result,
            f"{verb} the access pattern '{form.cleaned_data['name']}'.",
            url=_section_url(access),
            respond=lambda saved: _saved_response(request, access, saved),
        )
    context = _context(access, design, editing=position, form=form)
    return _list_response(request, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def pattern_create(request: HttpRequest, project_id: int) -> HttpResponse:
    write = request.method == "POST"
    access, design = load(request, project_id, write=True)
    if not write:
        return _list_response(request, _context(access, design, editing=NEW))
    return _save(request, access, design, NEW)


def _missing(
    request: HttpRequest, access: ProjectAccess, design: d.Design
) -> HttpResponse:
    context = _context(
        access,
        design,
        notice="That access pattern no longer exists; the list shows the "
        "patterns as they are now.",
    )
    return _list_response(request, context, status=gone(request))


@login_required
@require_http_methods(["GET", "POST"])
def pattern_edit(request: HttpRequest, project_id: int, position: int) -> HttpResponse:
    write = request.method == "POST"
    access, design = load(request, project_id, write=write)
    if position >= len(design.access_patterns):
        return _missing(request, access, design)
    if not write:
        if not access.can_write:
            return render_section(request, TEMPLATE, _context(access, design))
        return _list_response(request, _context(access, design, editing=position))
    return _save(request, access, design, position)


@login_required
@require_POST
def pattern_preview(request: HttpRequest, project_id: int) -> HttpResponse:
    """The request of the pattern as typed (and, when the operation or the
    index changed, the fields that depend on them). Saves nothing."""
    access, design = load(request, project_id)
    raw = request.POST.get("position", "")
    position = int(raw) if raw.lstrip("-").isdigit() else NEW
    if position >= len(design.access_patterns):
        position = NEW
    refresh = "refresh_keys" in request.POST
    form = _form(design, access.project.version, position, request.POST)
    context = _context(access, design, editing=position, form=form)
    partial = "pattern-operation" if refresh else "pattern-request"
    return render(request, f"{TEMPLATE}#{partial}", context)


@login_required
@require_POST
def pattern_move(request: HttpRequest, project_id: int, position: int) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    offset = -1 if request.POST.get("direction") == "up" else 1
    result, notice, status = version_edit(
        request, access, AccessPatternMove(position=position, offset=offset)
    )
    if not result:
        context = _context(access, design, notice=notice)
        return _list_response(request, context, status=status)
    name = design.access_patterns[position].name
    return edited(
        request,
        result,
        f"Moved '{name}' {'up' if offset < 0 else 'down'}.",
        url=_section_url(access),
        respond=lambda saved: _saved_response(request, access, saved),
    )


@login_required
@require_http_methods(["GET", "POST"])
def pattern_delete(
    request: HttpRequest, project_id: int, position: int
) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    if position >= len(design.access_patterns):
        return _missing(request, access, design)
    if request.method == "GET":
        return _list_response(request, _context(access, design, deleting=position))
    result, notice, status = version_edit(
        request, access, AccessPatternRemove(position=position)
    )
    if not result:
        context = _context(access, design, deleting=position, notice=notice)
        return _list_response(request, context, status=status)
    return edited(
        request,
        result,
        f"Deleted the access pattern '{design.access_patterns[position].name}'.",
        url=_section_url(access),
        respond=lambda saved: _saved_response(request, access, saved),
    )


def _saved_response(
    request: HttpRequest, access: ProjectAccess, saved: Saved
) -> HttpResponse:
    context = _context(access, saved.design, problems=saved.problems)
    return _list_response(request, context)


def _section_url(access: ProjectAccess) -> str:
    return section_url("editor-patterns", access.project.pk)
