"""The design editor's workspace: what every section shares, and the Table &
indexes section.

Each section is one template whose `workspace` partial (the project header
with its tabs, and the section) is the htmx answer to a tab click; smaller
partials answer the edits. A successful edit answers with the section's
parts that show the design, as saved (the part edited in its place, the
others out of band: the page may have been shown before a teammate's save),
a `designSaved` event carrying the new version (so the page's other forms
stay current) and a toast; without htmx it redirects back to the section.
A refused edit answers 422 (invalid input) or 409 (someone saved first),
and one that met the database restarting 503, with the form as typed and
the reason beside the field (see `modeler.views.statuses`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url, retarget, trigger_client_event

from modeler.design import model as d
from modeler.design.edits import (
    DesignEdit,
    EditError,
    IndexAdd,
    IndexMove,
    IndexRemove,
    IndexUpdate,
    TableUpdate,
    index_dependants,
)
from modeler.design.findings import Finding
from modeler.design_check import check_design
from modeler.editor.forms import IndexForm, TableForm, VersionedForm
from modeler.editor.services import EditRefused, Saved, design_edit, part_problems
from modeler.forms.projects import VersionForm
from modeler.infra.database import DATABASE_LOST, connections_drop
from modeler.presenters import their_versions
from modeler.selectors import ProjectAccess
from modeler.services import projects as project_services
from modeler.services.projects import EditConflict, StaleVersionError
from modeler.views.statuses import INVALID, STALE, UNAVAILABLE, gone
from modeler.views.workspace import design_for as load


def is_partial(request: HttpRequest) -> bool:
    return bool(request.htmx) and not request.htmx.boosted


def section_context(
    access: ProjectAccess, design: d.Design, section: str, **extra: Any
) -> dict[str, Any]:
    return {
        "access": access,
        "project": access.project,
        "design": design,
        "section": section,
        "colours": {e.name: i % 10 for i, e in enumerate(design.entities)},
        **extra,
    }


def render_section(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str = "workspace",
    status: int = 200,
) -> HttpResponse:
    """The full page, or for htmx the named partial of the same template."""
    name = f"{template}#{partial}" if is_partial(request) else template
    return render(request, name, context, status=status)


def saved(
    request: HttpRequest, response: HttpResponse, result: Saved, message: str
) -> HttpResponse:
    """A successful edit: the toast, and the new version for the page."""
    messages.success(request, message)
    return trigger_client_event(
        response, "designSaved", {"version": result.project.version}
    )


def refusal(form: VersionedForm, exc: Exception) -> int:
    """Put a refused edit's reason on the form; the response status."""
    if isinstance(exc, EditConflict):
        form.add_error(None, exc.message)
        form.keep_mine_over(exc.version)
        form.conflict = exc
        form.their_versions = their_versions(exc.clashes, exc.authors)
        return STALE
    if isinstance(exc, StaleVersionError):
        form.add_error(None, str(exc))
        return STALE
    if isinstance(exc, EditRefused):
        form.add_problems(exc.problems)
        return INVALID
    if isinstance(exc, EditError):
        field = exc.field if exc.field in form.fields else None
        form.add_error(field, str(exc))
        return INVALID
    raise exc


def form_edit(
    request: HttpRequest,
    access: ProjectAccess,
    form: VersionedForm,
    edit: DesignEdit,
) -> tuple[Saved | None, int]:
    """Save an edit made from a valid form, at the form's version. The saved
    result, or None and the status of the refusal (422 for invalid input,
    409 when someone saved first), its reason put on the form."""
    try:
        saved = _design_edit(
            request,
            access,
            form.cleaned_data["version"],
            edit,
            keep_mine_at=form.cleaned_data.get("keep_mine_at"),
        )
        return saved, 200
    except (StaleVersionError, EditConflict, EditRefused, EditError) as exc:
        return None, refusal(form, exc)
    except DATABASE_LOST:
        form.add_error(None, unreachable())
        return None, UNAVAILABLE


def version_edit(
    request: HttpRequest, access: ProjectAccess, edit: DesignEdit
) -> tuple[Saved | None, str, int]:
    """Save an edit without a form (move, delete) at the version the page
    sent: the saved result, or None with the reason and the status."""
    form = VersionForm(request.POST)
    if not form.is_valid():
        return None, "The page sent no version; reload it.", INVALID
    try:
        return (
            _design_edit(request, access, form.cleaned_data["version"], edit),
            "",
            200,
        )
    except EditConflict as exc:
        return None, exc.message, STALE
    except StaleVersionError as exc:
        return None, str(exc), STALE
    except EditError as exc:
        return None, str(exc), INVALID
    except DATABASE_LOST:
        return None, unreachable(), UNAVAILABLE


def unreachable() -> str:
    """A save that met the database going away (a restart): the page is
    answered with the input as typed (or as it was), saying so; the
    connection is opened again for that answer."""
    connections_drop()
    return "The database could not be reached; nothing was saved. Try again."


def _design_edit(
    request: HttpRequest,
    access: ProjectAccess,
    version: int,
    edit: DesignEdit,
    *,
    keep_mine_at: int | None = None,
) -> Saved:
    return design_edit(
        project=access.project,
        version=version,
        author=request.user,
        edit=edit,
        keep_mine_at=keep_mine_at,
    )


def edited(
    request: HttpRequest,
    result: Saved,
    message: str,
    *,
    url: str,
    respond: Callable[[Saved], HttpResponse],
) -> HttpResponse:
    """A successful edit. Without htmx: the toast, and back to `url`. With
    htmx: what changed (`respond` renders it from the saved design and its
    problems), the toast, and the new version for the page's other forms."""
    if not is_partial(request):
        messages.success(request, message)
        return redirect(url)
    return saved(request, respond(result), result, message)


def problems_by_part(problems: list[Finding], part: str) -> list[Finding]:
    return part_problems(problems, part)


# --- Table & indexes ------------------------------------------------------------

TABLE_TEMPLATE = "modeler/editor-table.html"


def _attribute_names(design: d.Design) -> list[str]:
    key_names = {a.name for a in design.table.all_key_attributes()}
    names: dict[str, None] = {}
    for entity in design.entities:
        for attr in entity.attributes:
            if attr.name not in key_names:
                names.setdefault(attr.name)
    return list(names)


def _index_form(
    design: d.Design, version: int, index: d.Index | None = None, data: Any = None
) -> IndexForm:
    return IndexForm(
        data,
        initial=IndexForm.initial_for(index, version),
        attribute_names=_attribute_names(design),
        prefix="index",
    )


def _table_context(
    access: ProjectAccess,
    design: d.Design,
    *,
    table_form: TableForm | None = None,
    index_form: IndexForm | None = None,
    editing: str = "",
    edit_form: IndexForm | None = None,
    deleting: str = "",
    notice: str = "",
    problems: list[Finding] | None = None,
    removed: d.Index | None = None,
) -> dict[str, Any]:
    """The section's context; `problems` are the design's when a save has
    just checked it. `removed`: the index `edit_form` edits, which someone
    removed since the page showed it (the form offers to add it again)."""
    version = access.project.version
    if problems is None:
        problems = check_design(design)
    indexes = []
    for position, index in enumerate(design.table.indexes):
        indexes.append(
            {
                "index": index,
                "position": position,
                "problems": problems_by_part(problems, f"table.indexes[{position}]"),
                "form": (
                    edit_form or _index_form(design, version, index)
                    if index.name == editing
                    else None
                ),
                "dependants": index_dependants(design, index.name)
                if index.name == deleting
                else None,
            }
        )
    return section_context(
        access,
        design,
        "table",
        table_form=table_form
        or TableForm(initial=TableForm.initial_for(design.table, version)),
        index_form=index_form or _index_form(design, version),
        indexes=indexes,
        table_problems=[
            p
            for p in problems_by_part(problems, "table")
            if not p.path.startswith("table.indexes")
        ],
        editing=editing,
        deleting=deleting,
        notice=notice,
        removed=removed,
        removed_form=edit_form if removed is not None else None,
        has_lsi=any(not i.is_global for i in design.table.indexes),
    )


@login_required
@require_GET
def table_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = load(request, project_id)
    return render_section(request, TABLE_TEMPLATE, _table_context(access, design))


@login_required
@require_POST
def table_update(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    form = TableForm(request.POST)
    result, status = (
        form_edit(request, access, form, TableUpdate(form.to_table()))
        if form.is_valid()
        else (None, INVALID)
    )
    if result:
        return edited(
            request,
            result,
            "Saved the table settings.",
            url=section_url("editor-table", project_id),
            respond=lambda saved: _table_saved(
                request, access, saved, "table-settings"
            ),
        )
    context = _table_context(access, design, table_form=form)
    return render_section(
        request, TABLE_TEMPLATE, context, partial="table-settings", status=status
    )


def _indexes_response(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    *,
    status: int = 200,
    **kwargs: Any,
) -> HttpResponse:
    context = _table_context(access, design, **kwargs)
    response = render_section(
        request, TABLE_TEMPLATE, context, partial="indexes", status=status
    )
    return retarget(response, "#indexes") if is_partial(request) else response


def _table_saved(
    request: HttpRequest, access: ProjectAccess, saved: Saved, part: str
) -> HttpResponse:
    """The htmx answer to a save on the Table & indexes page: the part
    saved (`table-settings` or `indexes`) in its place and the other part
    out of band, both from the design as saved. On a page shown before a
    teammate's save, the other part shows the design from before it (an
    index under its old name), and designSaved gives its forms the new
    version: saved, its form would put back what the teammate changed.
    editor.js keeps a part holding input not yet saved as typed, at the
    version it was typed on."""
    context = _table_context(access, saved.design, problems=saved.problems)
    other = "indexes" if part == "table-settings" else "table-settings"
    response = render(request, f"{TABLE_TEMPLATE}#{part}", context)
    context["oob"] = other
    response.content += render(request, f"{TABLE_TEMPLATE}#{other}", context).content
    return retarget(response, f"#{part}")


@login_required
@require_POST
def index_create(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    form = _index_form(design, access.project.version, data=request.POST)
    result, status = (
        form_edit(request, access, form, IndexAdd(form.to_index(design.table)))
        if form.is_valid()
        else (None, INVALID)
    )
    if result:
        return edited(
            request,
            result,
            f"Added the index {form.cleaned_data['name']}.",
            url=section_url("editor-table", project_id),
            respond=lambda saved: _table_saved(request, access, saved, "indexes"),
        )
    return _indexes_response(request, access, design, index_form=form, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def index_edit(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    write = request.method == "POST"
    access, design = load(request, project_id, write=write)
    index = design.table.index(name)
    if index is None and write:
        # Renamed or removed since the page showed it: the save follows it
        # by identity, or says who removed it and keeps the input.
        index = _page_index(access, request.POST, name)
    if index is None:
        return _gone(request, access, design, f"The index '{name}' no longer exists.")
    if not write:
        return _indexes_response(request, access, design, editing=name)
    now = next((i for i in design.table.indexes if i.uid == index.uid), None)
    if design.table.index(name) is not None:
        now = design.table.index(name)
    # The edit names the index as the page did: after a conflict the form
    # posts to its name now, while its version is still the page's.
    name = _index_name_on_page(access, request.POST, now or index, name)
    form = _index_form(design, access.project.version, now or index, data=request.POST)
    as_new = now is None and "as_new" in request.POST
    result, status = None, INVALID
    if form.is_valid():
        if as_new:
            # A new element, added to the design as it is now.
            form.cleaned_data["version"] = access.project.version
            edit: DesignEdit = IndexAdd(
                dataclasses.replace(form.to_index(design.table), uid="")
            )
        else:
            # Named by its identity too, so that its checks find it under
            # the name a teammate gave it since.
            edit = IndexUpdate(
                name, dataclasses.replace(form.to_index(design.table), uid=index.uid)
            )
        result, status = form_edit(request, access, form, edit)
    if result:
        saved_name = _index_named_now(result.design, index.uid, form)
        word = "Added" if as_new else "Saved"
        return edited(
            request,
            result,
            f"{word} the index {saved_name}.",
            url=section_url("editor-table", project_id),
            respond=lambda saved: _table_saved(request, access, saved, "indexes"),
        )
    if form.conflict is not None and form.conflict.removed is None:
        form = _merged_index_form(form, design)
    return _indexes_response(
        request,
        access,
        design,
        editing=now.name if now is not None else name,
        edit_form=form,
        removed=index if now is None else None,
        status=status,
    )


def _merged_index_form(form: IndexForm, design: d.Design) -> IndexForm:
    """After a conflict over fields of the index: the form holding the
    merge (their other changes, and mine in the fields both changed), so
    that Keep mine saves what it shows and loses nothing of theirs."""
    conflict = form.conflict
    merged = conflict.merged("index")
    if merged is None:
        return form
    initial = IndexForm.initial_for(merged, form.cleaned_data["version"])
    initial["keep_mine_at"] = conflict.version
    data = QueryDict(mutable=True)
    for key, value in initial.items():
        if value is None or value is False:
            continue
        if isinstance(value, list | tuple):
            data.setlist(f"index-{key}", [str(v) for v in value])
        else:
            data[f"index-{key}"] = "on" if value is True else value
    rebuilt = _index_form(design, form.cleaned_data["version"], merged, data=data)
    rebuilt.is_valid()
    for error in form.non_field_errors():
        rebuilt.add_error(None, error)
    rebuilt.conflict = conflict
    rebuilt.their_versions = form.their_versions
    return rebuilt


def _index_name_on_page(
    access: ProjectAccess, data: Any, index: d.Index, name: str
) -> str:
    """What the page that posted `data` called `index` (`name` when it is
    the current design's, or the page's cannot be read)."""
    form = VersionForm({"version": data.get("index-version")})
    if not index.uid or not form.is_valid():
        return name
    if form.cleaned_data["version"] == access.project.version:
        return name
    try:
        page = project_services.project_revision_design(
            project=access.project, number=form.cleaned_data["version"]
        )
    except project_services.StaleVersionError:
        return name
    return next((i.name for i in page.table.indexes if i.uid == index.uid), name)


def _page_index(access: ProjectAccess, data: Any, name: str) -> d.Index | None:
    """The index called `name` on the page that posted `data` (its
    version), when the current design has none of that name."""
    form = VersionForm({"version": data.get("index-version")})
    if not form.is_valid():
        return None
    try:
        page = project_services.project_revision_design(
            project=access.project, number=form.cleaned_data["version"]
        )
    except project_services.StaleVersionError:
        return None
    return page.table.index(name)


def _index_named_now(design: d.Design, uid: str, form: IndexForm) -> str:
    found = next((i.name for i in design.table.indexes if uid and i.uid == uid), "")
    return found or form.cleaned_data["name"]


def _gone(
    request: HttpRequest, access: ProjectAccess, design: d.Design, message: str
) -> HttpResponse:
    """A part someone else removed: the section as it is now, saying so."""
    return _indexes_response(
        request, access, design, notice=message, status=gone(request)
    )


@login_required
@require_POST
def index_move(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    offset = -1 if request.POST.get("direction") == "up" else 1
    result, notice, status = version_edit(request, access, IndexMove(name, offset))
    if not result:
        return _indexes_response(request, access, design, notice=notice, status=status)
    return edited(
        request,
        result,
        f"Moved {name} {'up' if offset < 0 else 'down'}.",
        url=section_url("editor-table", project_id),
        respond=lambda saved: _table_saved(request, access, saved, "indexes"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def index_delete(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    if design.table.index(name) is None:
        return _gone(request, access, design, f"The index '{name}' no longer exists.")
    if request.method == "GET":
        return _indexes_response(request, access, design, deleting=name)
    result, notice, status = version_edit(request, access, IndexRemove(name))
    if not result:
        return _indexes_response(
            request, access, design, deleting=name, notice=notice, status=status
        )
    return edited(
        request,
        result,
        f"Deleted the index {name}.",
        url=section_url("editor-table", project_id),
        respond=lambda saved: _table_saved(request, access, saved, "indexes"),
    )


def section_url(name: str, project_id: int) -> str:
    return reverse(name, kwargs={"project_id": project_id})


__all__ = [
    "is_partial",
    "load",
    "push_url",
    "render_section",
    "saved",
    "section_context",
]
