"""The design editor's workspace: what every section shares, and the Table &
indexes section.

Each section is one template whose `workspace` partial (the project header
with its tabs, and the section) is the htmx answer to a tab click; smaller
partials answer the edits. A successful edit answers with the parts it
changed, a `designSaved` event carrying the new version (so the page's other
forms stay current) and a toast; without htmx it redirects back to the
section. A refused edit answers 400 (invalid input) or 409 (someone saved
first) with the form as typed and the reason beside the field.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url, retarget, trigger_client_event

from modeler import design as d
from modeler import editor_services as edit
from modeler import selectors
from modeler.design_check import check_design
from modeler.design_edits import EditError, index_dependants
from modeler.editor_forms import IndexForm, TableForm, VersionedForm
from modeler.editor_services import EditRefused, Saved
from modeler.forms import VersionForm
from modeler.problems import Problem
from modeler.selectors import ProjectAccess
from modeler.services import StaleVersionError

STALE = 409


def load(
    request: HttpRequest, project_id: int, *, write: bool = False
) -> tuple[ProjectAccess, d.Design]:
    """The project (access-checked: 404 for outsiders, 403 for a viewer who
    writes) and its design, in a fixed number of queries."""
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, with_design=True, write=write
    )
    return access, selectors.project_design(project=access.project)


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
    if isinstance(exc, StaleVersionError):
        form.add_error(None, str(exc))
        return STALE
    if isinstance(exc, EditRefused):
        form.add_problems(exc.problems)
        return 400
    if isinstance(exc, EditError):
        field = exc.field if exc.field in form.fields else None
        form.add_error(field, str(exc))
        return 400
    raise exc


def version_refusal(request: HttpRequest, exc: Exception) -> tuple[str, int]:
    """For actions without a form (move, delete): the message and status."""
    if isinstance(exc, StaleVersionError):
        return str(exc), STALE
    return str(exc), 400


def problems_by_part(problems: list[Problem], part: str) -> list[Problem]:
    return edit.part_problems(problems, part)


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
) -> dict[str, Any]:
    version = access.project.version
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
    status = 400
    if form.is_valid():
        try:
            result = edit.table_update(
                project=access.project,
                design=design,
                version=form.cleaned_data["version"],
                table=form.to_table(),
            )
        except (StaleVersionError, EditRefused, EditError) as exc:
            status = refusal(form, exc)
        else:
            if not is_partial(request):
                messages.success(request, "Saved the table settings.")
                return redirect("editor-table", project_id=project_id)
            context = _table_context(access, result.design)
            response = render(request, f"{TABLE_TEMPLATE}#table-settings", context)
            return saved(request, response, result, "Saved the table settings.")
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


@login_required
@require_POST
def index_create(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    form = _index_form(design, access.project.version, data=request.POST)
    status = 400
    if form.is_valid():
        try:
            result = edit.index_create(
                project=access.project,
                design=design,
                version=form.cleaned_data["version"],
                index=form.to_index(design.table),
            )
        except (StaleVersionError, EditRefused, EditError) as exc:
            status = refusal(form, exc)
        else:
            message = f"Added the index {form.cleaned_data['name']}."
            if not is_partial(request):
                messages.success(request, message)
                return redirect("editor-table", project_id=project_id)
            response = _indexes_response(request, access, result.design)
            return saved(request, response, result, message)
    return _indexes_response(request, access, design, index_form=form, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def index_edit(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    write = request.method == "POST"
    access, design = load(request, project_id, write=write)
    index = design.table.index(name)
    if index is None:
        return _gone(request, access, design, f"The index '{name}' no longer exists.")
    if not write:
        return _indexes_response(request, access, design, editing=name)
    form = _index_form(design, access.project.version, index, data=request.POST)
    status = 400
    if form.is_valid():
        try:
            result = edit.index_update(
                project=access.project,
                design=design,
                version=form.cleaned_data["version"],
                name=name,
                index=form.to_index(design.table),
            )
        except (StaleVersionError, EditRefused, EditError) as exc:
            status = refusal(form, exc)
        else:
            message = f"Saved the index {form.cleaned_data['name']}."
            if not is_partial(request):
                messages.success(request, message)
                return redirect("editor-table", project_id=project_id)
            response = _indexes_response(request, access, result.design)
            return saved(request, response, result, message)
    return _indexes_response(
        request, access, design, editing=name, edit_form=form, status=status
    )


def _gone(
    request: HttpRequest, access: ProjectAccess, design: d.Design, message: str
) -> HttpResponse:
    """A part someone else removed: the section as it is now, saying so."""
    return _indexes_response(request, access, design, notice=message, status=404)


@login_required
@require_POST
def index_move(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    form = VersionForm(request.POST)
    offset = -1 if request.POST.get("direction") == "up" else 1
    if not form.is_valid():
        return _indexes_response(
            request, access, design, notice="The page sent no version.", status=400
        )
    try:
        result = edit.index_move(
            project=access.project,
            design=design,
            version=form.cleaned_data["version"],
            name=name,
            offset=offset,
        )
    except (StaleVersionError, EditError) as exc:
        message, status = version_refusal(request, exc)
        return _indexes_response(request, access, design, notice=message, status=status)
    if not is_partial(request):
        return redirect("editor-table", project_id=project_id)
    response = _indexes_response(request, access, result.design)
    return saved(
        request, response, result, f"Moved {name} {'up' if offset < 0 else 'down'}."
    )


@login_required
@require_http_methods(["GET", "POST"])
def index_delete(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    write = request.method == "POST"
    access, design = load(request, project_id, write=True)
    if design.table.index(name) is None:
        return _gone(request, access, design, f"The index '{name}' no longer exists.")
    if not write:
        return _indexes_response(request, access, design, deleting=name)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _indexes_response(
            request,
            access,
            design,
            deleting=name,
            notice="The page sent no version.",
            status=400,
        )
    try:
        result = edit.index_delete(
            project=access.project,
            design=design,
            version=form.cleaned_data["version"],
            name=name,
        )
    except (StaleVersionError, EditError) as exc:
        message, status = version_refusal(request, exc)
        return _indexes_response(
            request, access, design, deleting=name, notice=message, status=status
        )
    message = f"Deleted the index {name}."
    if not is_partial(request):
        messages.success(request, message)
        return redirect("editor-table", project_id=project_id)
    response = _indexes_response(request, access, result.design)
    return saved(request, response, result, message)


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
