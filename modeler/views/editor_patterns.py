"""The Access patterns section: the list in order, adding, editing (with the
exact request the pattern sends, updated as the user types), reordering and
deleting with a confirmation."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
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
from modeler.design.findings import Finding
from modeler.design_check import check_design
from modeler.editor.forms import PatternForm, pattern_draft
from modeler.editor.preview import pattern_preview as build_preview
from modeler.editor.preview import pattern_previews
from modeler.editor.services import Saved, part_problems
from modeler.forms.projects import VersionForm
from modeler.selectors import ProjectAccess
from modeler.services import projects as project_services
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
    pattern: d.AccessPattern | None = None,
) -> PatternForm:
    """The form of the pattern at `position` (or `pattern`: the one the page
    showed there, which someone moved or removed since)."""
    if pattern is None and position != NEW:
        pattern = design.access_patterns[position]
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
    problems: list[Finding] | None = None,
    removed: bool = False,
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
        deleting=deleting,
        form=form,
        preview=(
            (
                build_preview(design, pattern_draft(form))
                if removed
                else _preview(design, form, previews, editing)
            )
            if form is not None and editing is not None
            else None
        ),
        attribute_names=" ".join(
            dict.fromkeys(a.name for e in design.entities for a in e.attributes)
        ),
        notice=notice,
        # The form edits a pattern someone removed since: shown as typed
        # below the list, offering to save it as a new one.
        removed=removed,
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
    *,
    shown: d.AccessPattern | None = None,
) -> HttpResponse:
    """Save the form posted for `position`: a new pattern (NEW), or `shown`,
    the pattern the page showed there, followed by its uid wherever it is
    now; when someone removed it since, the input is kept and said so, and
    `as_new` saves it as a new pattern."""
    more_rows = "more_rows" in request.POST
    version = access.project.version
    now = _position_now(design, shown) if shown is not None else position
    removed = shown is not None and now is None
    form = _form(
        design, version, position, request.POST, more_rows=more_rows, pattern=shown
    )
    editing = position if removed or now is None else now
    if more_rows or "refresh_form" in request.POST:
        # Re-shown as typed: with more rows, or with the fields of the
        # chosen operation and index (the form without JavaScript).
        form.errors  # noqa: B018 - show what the form has, with its errors
        form = _at(form, editing, design, shown)
        context = _context(access, design, editing=editing, form=form, removed=removed)
        return _list_response(request, context)

    as_new = position == NEW or (removed and "as_new" in request.POST)
    result, status = None, INVALID
    if form.is_valid():
        pattern = form.to_pattern()
        if as_new:
            # A new element, added to the design as it is now.
            form.cleaned_data["version"] = version
            edit: DesignEdit = AccessPatternAdd(dataclasses.replace(pattern, uid=""))
        elif shown is not None and shown.uid:
            edit = AccessPatternUpdate(uid=shown.uid, pattern=pattern)
        else:
            edit = AccessPatternUpdate(position=position, pattern=pattern)
        result, status = form_edit(request, access, form, edit)
    if result:
        verb = "Added" if as_new else "Saved"
        name = form.cleaned_data["name"]
        if not as_new and shown is not None:
            # Under the name it has now: a teammate may have renamed it since.
            at = _position_now(result.design, shown)
            name = result.design.access_patterns[at].name if at is not None else name
        return edited(
            request,
            result,
            f"{verb} the access pattern '{name}'.",
            url=_section_url(access),
            respond=lambda saved: _saved_response(request, access, saved),
        )
    if form.conflict is not None and form.conflict.removed is None:
        form = _merged(form, design, editing, shown)
    else:
        form = _at(form, editing, design, shown)
    context = _context(access, design, editing=editing, form=form, removed=removed)
    return _list_response(request, context, status=status)


def _merged(
    form: PatternForm,
    design: d.Design,
    position: int,
    shown: d.AccessPattern | None,
) -> PatternForm:
    """After a conflict over fields of the pattern: the form holding the
    merge (their other changes, and mine in the fields both changed), so
    that Keep mine saves what it shows and loses nothing of theirs."""
    conflict = form.conflict
    merged = conflict.merged("pattern")
    if merged is None or position == NEW:
        return _at(form, position, design, shown)
    version = form.cleaned_data["version"]
    initial = PatternForm.initial_for(design, merged, version)
    initial["keep_mine_at"] = conflict.version
    prefix = f"p{position}"
    data = QueryDict(mutable=True)
    for key, value in initial.items():
        if key.startswith("_") or value is None or value is False:
            continue
        if isinstance(value, list | tuple):
            data.setlist(f"{prefix}-{key}", [str(v) for v in value])
        else:
            data[f"{prefix}-{key}"] = "on" if value is True else value
    rebuilt = PatternForm(
        data,
        initial=initial,
        design=design,
        pattern=design.access_patterns[position],
        prefix=prefix,
    )
    rebuilt.is_valid()
    for error in form.non_field_errors():
        rebuilt.add_error(None, error)
    rebuilt.conflict = conflict
    rebuilt.their_versions = form.their_versions
    return rebuilt


def _position_now(design: d.Design, pattern: d.AccessPattern) -> int | None:
    """Where the pattern the page showed stands now (None: removed)."""
    if not pattern.uid:
        return None
    return next(
        (i for i, p in enumerate(design.access_patterns) if p.uid == pattern.uid),
        None,
    )


def _at(
    form: PatternForm,
    position: int,
    design: d.Design,
    shown: d.AccessPattern | None,
) -> PatternForm:
    """The refused form, as typed, shown at the pattern's `position` now:
    someone moved it since, and the form's fields are named by position."""
    if position == NEW or form.prefix == f"p{position}":
        return form
    old = f"{form.prefix}-"
    data = {
        (f"p{position}-{key[len(old) :]}" if key.startswith(old) else key): value
        for key, value in form.data.lists()
    }
    moved = QueryDict(mutable=True)
    for key, values in data.items():
        moved.setlist(key, values)
    rebuilt = _form(design, form.initial["version"], position, moved, pattern=shown)
    rebuilt.is_valid()
    for error in form.non_field_errors():
        if error not in rebuilt.non_field_errors():
            rebuilt.add_error(None, error)
    rebuilt.conflict = form.conflict
    rebuilt.their_versions = form.their_versions
    return rebuilt


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
    shown = _page_pattern(access, request.POST, position) if write else None
    if shown is None and position >= len(design.access_patterns):
        return _missing(request, access, design)
    if not write:
        if not access.can_write:
            return render_section(request, TEMPLATE, _context(access, design))
        return _list_response(request, _context(access, design, editing=position))
    return _save(request, access, design, position, shown=shown)


def _page_pattern(
    access: ProjectAccess, data: Any, position: int
) -> d.AccessPattern | None:
    """The pattern the page that posted `data` showed at `position` (by the
    uid it posted, else by its version): the save follows it wherever
    others moved it since, or says who removed it."""
    uid = data.get("uid", "")
    form = VersionForm({"version": data.get(f"p{position}-version")})
    if not form.is_valid():
        return None
    try:
        page = project_services.project_revision_design(
            project=access.project, number=form.cleaned_data["version"]
        )
    except project_services.StaleVersionError:
        return None
    if uid:
        return next((p for p in page.access_patterns if p.uid == uid), None)
    if 0 <= position < len(page.access_patterns):
        return page.access_patterns[position]
    return None


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
