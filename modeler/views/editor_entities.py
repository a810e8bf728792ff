"""The Entities section: the list, one entity's editor (attributes and a key
template for every key attribute of the table and its indexes), its live
preview, and deleting with a confirmation that names what depends on it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url, reswap, retarget

from modeler.design import model as d
from modeler.design.edits import (
    DesignEdit,
    EditError,
    EntityAdd,
    EntityRemove,
    EntityUpdate,
    entity_dependants,
)
from modeler.design.findings import Finding
from modeler.design_check import GENERATOR_KINDS, check_design, generator_problems
from modeler.editor.forms import (
    EntityCreateForm,
    EntityForm,
    entity_draft,
    generator_text,
)
from modeler.editor.forms.entity import KEY_ABSENT, key_slots
from modeler.editor.forms.generator import (
    BY_NAME,
    FAKER_PROVIDERS,
    GeneratorPickerForm,
    current_generator,
)
from modeler.editor.preview import entity_preview as build_preview
from modeler.editor.preview import example_values, parent_key_refs, sample_values
from modeler.editor.services import Saved, part_problems
from modeler.forms.projects import VersionForm
from modeler.sampledata.values import default_generator
from modeler.selectors import ProjectAccess
from modeler.services import projects as project_services
from modeler.views.editor import (
    edited,
    form_edit,
    is_partial,
    load,
    render_section,
    section_context,
    version_edit,
)
from modeler.views.statuses import INVALID, gone

TEMPLATE = "modeler/editor-entities.html"


def _key_problems(problems: list[Finding], entity: str) -> dict[str, list[Finding]]:
    """An entity's problems by key attribute ('' for the entity's keys as a
    whole and for its other parts)."""
    out: dict[str, list[Finding]] = {}
    prefix = f"entities.{entity}.keys."
    for problem in part_problems(problems, f"entities.{entity}"):
        key = problem.path[len(prefix) :] if problem.path.startswith(prefix) else ""
        out.setdefault(key.split(".")[0], []).append(problem)
    return out


def _preview_context(
    design: d.Design,
    entity: d.Entity,
    examples: dict[str, str],
    form: EntityForm,
    problems: list[Finding] | None = None,
) -> dict[str, Any]:
    if problems is None:
        problems = check_design(design)
    by_key = _key_problems(problems, entity.name)
    preview = build_preview(design, entity, examples)
    rendered = {k.attribute: k for k in preview.keys}
    return {
        "preview": preview,
        "key_items": [
            {
                "row": row,
                "problems": by_key.get(row.slot.attribute.name, []),
                "preview": rendered.get(row.slot.attribute.name),
            }
            for row in form.key_rows
        ],
        "entity_problems": by_key.get("", []),
    }


def _context(
    access: ProjectAccess,
    design: d.Design,
    *,
    selected: str = "",
    form: EntityForm | None = None,
    create_form: EntityCreateForm | None = None,
    deleting: bool = False,
    notice: str = "",
    problems: list[Finding] | None = None,
    removed: d.Entity | None = None,
) -> dict[str, Any]:
    """The section's context; `problems` are the design's when a save has
    just checked it. `removed`: the entity the form edits, which someone
    removed since the page showed it (the form offers to add it again)."""
    version = access.project.version
    entity = removed or (design.entity(selected) if selected else None)
    if entity is None and not selected and design.entities:
        entity = design.entities[0]
    extra: dict[str, Any] = {}
    if entity is not None:
        if form is None:
            examples = example_values(design, entity)
            form = EntityForm(
                initial=EntityForm.initial_for(entity, version, examples),
                table=design.table,
                entity=entity,
                entity_names=[e.name for e in design.entities],
            )
            extra = _preview_context(design, entity, examples, form, problems)
        else:
            draft = entity_draft(form)
            try:
                candidate = EntityUpdate(entity.name, draft).apply(design)
            except EditError:
                candidate, draft = design, entity
            # A blank example takes one from the attribute's generator.
            typed = {k: v for k, v in form.examples().items() if v}
            examples = {**example_values(candidate, draft), **typed}
            extra = _preview_context(candidate, draft, examples, form)
    return section_context(
        access,
        design,
        "entities",
        entity=entity,
        entity_colour=(
            [e.name for e in design.entities].index(entity.name) % 10
            if entity is not None and design.entity(entity.name)
            else 0
        ),
        form=form,
        create_form=create_form
        or EntityCreateForm(initial={"version": version}, prefix="new"),
        dependants=entity_dependants(design, entity.name)
        if deleting and entity
        else None,
        notice=notice,
        removed=removed is not None,
        generator_kinds=GENERATOR_KINDS,
        parent_refs=parent_key_refs(design, entity.name) if entity else [],
        **extra,
    )


def _editor_response(
    request: HttpRequest, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """The entity editor, with the entity list refreshed out of band."""
    if not is_partial(request):
        return render(request, TEMPLATE, context, status=status)
    context["oob_list"] = True
    response = render(request, f"{TEMPLATE}#entity-editor", context, status=status)
    response.content += render(request, f"{TEMPLATE}#entity-list", context).content
    return reswap(retarget(response, "#entity-editor"), "outerHTML")


@login_required
@require_http_methods(["GET", "POST"])
def entities_page(request: HttpRequest, project_id: int) -> HttpResponse:
    """The Entities section; a POST adds an entity (to the collection's URL,
    so that an entity may be named `new`)."""
    if request.method == "POST":
        return _entity_create(request, project_id)
    access, design = load(request, project_id)
    return render_section(request, TEMPLATE, _context(access, design))


def _entity_create(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    form = EntityCreateForm(request.POST, prefix="new")
    result, status = (
        form_edit(request, access, form, EntityAdd(form.to_entity()))
        if form.is_valid()
        else (None, INVALID)
    )
    if result:
        name = form.cleaned_data["name"]
        url = reverse("editor-entity", args=[project_id, name])
        return edited(
            request,
            result,
            f"Added the entity {name}; now give it attributes and keys.",
            url=url,
            respond=lambda saved: push_url(
                _editor_response(
                    request,
                    _context(
                        access, saved.design, selected=name, problems=saved.problems
                    ),
                ),
                url,
            ),
        )
    context = _context(access, design, create_form=form)
    if not is_partial(request):
        return render(request, TEMPLATE, context, status=status)
    response = render(request, f"{TEMPLATE}#entity-create", context, status=status)
    return reswap(retarget(response, "#entity-create"), "outerHTML")


def _gone(
    request: HttpRequest, access: ProjectAccess, design: d.Design, name: str
) -> HttpResponse:
    """An entity someone removed: the section as it is now, saying so (for
    htmx, in the editor's place: not a second workspace inside it)."""
    context = _context(access, design, notice=f"The entity '{name}' no longer exists.")
    if not is_partial(request):
        return render(request, TEMPLATE, context, status=gone(request))
    return _editor_response(request, context, status=gone(request))


def _page_entity(access: ProjectAccess, data: Any, name: str) -> d.Entity | None:
    """The entity called `name` on the page that posted `data` (its
    version), when the current design has no entity of that name: someone
    renamed or removed it since."""
    form = VersionForm(data)
    if not form.is_valid():
        return None
    try:
        page = project_services.project_revision_design(
            project=access.project, number=form.cleaned_data["version"]
        )
    except project_services.StaleVersionError:
        return None
    return page.entity(name)


def _named_now(design: d.Design, uid: str, fallback: str) -> str:
    return next((e.name for e in design.entities if e.uid == uid), fallback)


@login_required
@require_http_methods(["GET", "POST"])
def entity_edit(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    write = request.method == "POST"
    access, design = load(request, project_id, write=write)
    entity = design.entity(name)
    if entity is None and write:
        # Renamed or removed since the page showed it: the save follows it
        # by identity, or says who removed it and keeps the input.
        entity = _page_entity(access, request.POST, name)
    if entity is None:
        return _gone(request, access, design, name)
    if not write:
        return _editor_response(request, _context(access, design, selected=name))
    removed = entity if design.entity(name) is None else None
    more_rows = "more_rows" in request.POST
    form = EntityForm(
        request.POST,
        table=design.table,
        entity=entity,
        entity_names=[e.name for e in design.entities],
        more_rows=more_rows,
    )
    if more_rows:
        form.errors  # noqa: B018 - validate, so the form shows what it has
        return _editor_response(
            request,
            _context(access, design, selected=name, form=form, removed=removed),
        )
    as_new = "as_new" in request.POST
    if form.is_valid():
        if as_new:
            # A new element: added to the design as it is now (the page's
            # still has the entity someone removed).
            form.cleaned_data["version"] = access.project.version
            edit: DesignEdit = EntityAdd(form.to_entity())
        else:
            edit = EntityUpdate(name, form.to_entity())
        result, status = form_edit(request, access, form, edit)
    else:
        result, status = None, INVALID
    if result:
        new_name = (
            form.cleaned_data["name"]
            if as_new
            else _named_now(result.design, entity.uid, form.cleaned_data["name"])
        )
        url = reverse("editor-entity", args=[project_id, new_name])

        def respond(saved: Saved) -> HttpResponse:
            context = _context(
                access, saved.design, selected=new_name, problems=saved.problems
            )
            response = _editor_response(request, context)
            return push_url(response, url) if new_name != name else response

        word = "Added" if as_new else "Saved"
        return edited(request, result, f"{word} {new_name}.", url=url, respond=respond)
    conflict = form.conflict
    if conflict is not None and conflict.removed is None:
        form = _merged_form(form, conflict, design, entity)
        selected = _named_now(design, entity.uid, name)
    else:
        selected = name
    gone_now = conflict is not None and conflict.removed is not None
    context = _context(
        access,
        design,
        selected=selected,
        form=form,
        removed=entity if (gone_now or (removed and as_new)) else None,
    )
    return _editor_response(request, context, status=status)


def _merged_form(
    form: EntityForm, conflict: Any, design: d.Design, entity: d.Entity
) -> EntityForm:
    """After a conflict over fields of the entity: the form holding the
    merge (their other changes, and mine in the fields both changed), so
    that Keep mine saves what it shows and loses nothing of theirs."""
    merged = conflict.merged("entity")
    if merged is None:
        return form
    current = next((e for e in design.entities if e.uid == entity.uid), entity)
    data = EntityForm.initial_for(merged, form.cleaned_data["version"], form.examples())
    data["keep_mine_at"] = conflict.version
    for slot in key_slots(design.table):
        # As the page posts an index key the entity is not in.
        data.setdefault(f"key-{slot.attribute.name}-mode", KEY_ABSENT)
    rebuilt = EntityForm(
        data,
        table=design.table,
        entity=current,
        entity_names=[e.name for e in design.entities],
    )
    rebuilt.is_valid()
    for error in form.non_field_errors():
        rebuilt.add_error(None, error)
    rebuilt.conflict = conflict
    rebuilt.their_versions = form.their_versions
    return rebuilt


@login_required
@require_POST
def entity_preview(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    """The live preview of the entity as typed: keys rendered from the
    example values, and the design check's findings for each key. Saves
    nothing, so anyone who can see the project can ask for it."""
    access, design = load(request, project_id)
    entity = design.entity(name) or _page_entity(access, request.POST, name)
    if entity is None:
        return HttpResponse(status=gone(request))
    removed = entity if design.entity(name) is None else None
    form = EntityForm(
        request.POST,
        table=design.table,
        entity=entity,
        entity_names=[e.name for e in design.entities],
    )
    context = _context(access, design, selected=name, form=form, removed=removed)
    context["oob_keys"] = True
    return render(request, f"{TEMPLATE}#entity-preview", context)


@login_required
@require_http_methods(["GET", "POST"])
def entity_delete(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    access, design = load(request, project_id, write=True)
    if design.entity(name) is None:
        return _gone(request, access, design, name)
    if request.method == "GET":
        return _editor_response(
            request, _context(access, design, selected=name, deleting=True)
        )
    result, notice, status = version_edit(request, access, EntityRemove(name))
    if not result:
        context = _context(access, design, selected=name, deleting=True, notice=notice)
        return _editor_response(request, context, status=status)
    url = reverse("editor-entities", args=[project_id])

    def respond(saved: Saved) -> HttpResponse:
        context = _context(access, saved.design, problems=saved.problems)
        workspace = render(request, f"{TEMPLATE}#workspace", context)
        return push_url(reswap(retarget(workspace, "#main"), "innerHTML"), url)

    return edited(
        request, result, f"Deleted the entity {name}.", url=url, respond=respond
    )


@login_required
@require_GET
def generator_picker(request: HttpRequest, project_id: int, name: str) -> HttpResponse:
    """The generator picker for one attribute row of the entity editor: the
    kind and its fields, the default that the attribute's name and type
    imply, five sample values, and the generator in the design file's
    syntax for the row's input. Saves nothing."""
    access, design = load(request, project_id)
    entity = design.entity(name) or d.Entity(name=name)
    attr_name = request.GET.get("attr_name", "").strip()[:255] or "value"
    attr_type = request.GET.get("attr_type", "S")
    if attr_type not in d.ATTRIBUTE_TYPES:
        attr_type = "S"
    default = default_generator(d.Attribute(attr_name, attr_type))
    kind = request.GET.get("kind")
    if kind and kind == request.GET.get("shown_kind"):
        form = GeneratorPickerForm(request.GET)
    else:
        # First opened (from the row's input, else the default), or a new
        # kind chosen (from its example).
        start = (
            current_generator(BY_NAME[kind].example)
            if kind in BY_NAME
            else current_generator(request.GET.get("current", "")) or default
        )
        form = GeneratorPickerForm(GeneratorPickerForm.for_generator(start).initial)
    generator = form.generator()
    samples: list[str] = []
    problems: list[str] = []
    preview_note = ""
    if generator is not None:
        attr = d.Attribute(attr_name, attr_type, generator=generator)
        problems = [p.message for p in generator_problems(design, entity, attr)]
        if not problems:
            try:
                samples = sample_values(design, entity, attr)
            except ValueError as exc:
                preview_note = f"No preview here: {exc}"
    chosen = BY_NAME.get(form["kind"].value())
    context = {
        "access": access,
        "project": access.project,
        "entity_name": name,
        "form": form,
        "kind": chosen,
        "attr_name": attr_name,
        "attr_type": attr_type,
        "row": request.GET.get("row", ""),
        "text": generator_text(generator) if generator else "",
        "default_text": generator_text(default),
        "samples": samples,
        "problems": problems,
        "preview_note": preview_note,
        "providers": FAKER_PROVIDERS,
        "sources": [
            f"{e.name}.{a.name}" for e in design.entities for a in e.attributes
        ],
    }
    return render(request, "modeler/_generator-picker.html", context)
