"""The Simulation section: the sample data (its seed and counts, the user's
own items, a download), and every access pattern run against it, each
result loaded by its own request so the page fills in as they finish."""

from __future__ import annotations

import base64
import json
import logging
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import retarget

from modeler import design as d
from modeler import diagrams, selectors, services
from modeler.diagrams.collections import shortened
from modeler.engine.types import item_from_wire, item_to_json_wire
from modeler.forms import SampleItemsImportForm, SampleSeedForm, VersionForm
from modeler.parameters import pattern_parameters
from modeler.review.cache import cached_review
from modeler.sampledata import FileProblem, ItemsFileError, write_jsonl
from modeler.selectors import ProjectAccess
from modeler.simulation import PatternRun, Simulation
from modeler.views.statuses import INVALID
from modeler.views.workspace import design_for, load_simulation

logger = logging.getLogger(__name__)

MAX_ITEMS_SHOWN = 25
LINES_PER_CHUNK = 500


@dataclass(frozen=True)
class EntityCount:
    name: str
    colour: int | None
    generated: int
    own: int


# --- The page and its forms -----------------------------------------------------


@login_required
@require_GET
def simulation_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    return _render_page(request, access, design)


def _render_page(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    *,
    seed_form: SampleSeedForm | None = None,
    import_form: SampleItemsImportForm | None = None,
    import_problems: Iterable[FileProblem] = (),
    status: int = 200,
    panel_only: bool = False,
) -> HttpResponse:
    """The page, or for htmx its content; with `panel_only`, for a form
    refused while the project stayed as it was, only the sample data panel,
    so that the pattern results stay in place."""
    project = access.project
    # Loaded here rather than by the first pattern, so that the pattern
    # requests, sent together, find it built instead of each building it.
    loaded = load_simulation(design)
    counts = _entity_counts(design, loaded.simulation)
    context = {
        "access": access,
        "project": project,
        "design": design,
        "section": "simulation",
        "problem": loaded.problem,
        "patterns": list(enumerate(design.access_patterns))
        if loaded.simulation
        else [],
        "counts": counts,
        "generated_total": sum(c.generated for c in counts),
        "own_total": len(design.sample_data.items),
        "seed_form": seed_form
        or SampleSeedForm(initial={"seed": design.sample_data.seed}),
        "import_form": import_form or SampleItemsImportForm(),
        "import_problems": list(import_problems),
    }
    if not request.htmx:
        return render(request, "modeler/simulation.html", context, status=status)
    if panel_only:
        response = render(
            request, "modeler/simulation.html#sample-data", context, status=status
        )
        return retarget(response, "#sample-data")
    return render(
        request, "modeler/simulation.html#simulation-content", context, status=status
    )


def _entity_counts(
    design: d.Design, simulation: Simulation | None
) -> list[EntityCount]:
    """Per entity, the generated items and the user's own in the simulated
    table (an own item replaces a generated one with the same key)."""
    if simulation is None:
        return []
    own_positions = {
        simulation.position[simulation.key_of(item_from_wire(d.thaw(wire)))]
        for wire in design.sample_data.items
    }
    own = Counter(simulation.entities[i] for i in own_positions)
    generated = Counter(simulation.entities) - own
    counts = [
        EntityCount(e.name, i % 10, generated[e.name], own[e.name])
        for i, e in enumerate(design.entities)
    ]
    if own[None]:
        counts.append(EntityCount("", None, 0, own[None]))
    return counts


@login_required
@require_POST
def simulation_seed(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id, write=True)
    form = SampleSeedForm(request.POST)
    stale = False
    if form.is_valid():
        seed = form.cleaned_data["seed"]
        try:
            services.sample_seed_set(
                project=access.project,
                seed=seed,
                version=form.cleaned_data["version"],
                author=request.user,
            )
        except services.EditConflict as exc:
            form.add_error(None, exc.message)
            stale = True
        except services.StaleVersionError as exc:
            form.add_error(None, str(exc))
            stale = True
        else:
            messages.success(request, f"The sample data now comes from seed {seed}.")
            return redirect("simulation-page", project_id=project_id)
    return _render_page(
        request, access, design, seed_form=form, status=INVALID, panel_only=not stale
    )


@login_required
@require_POST
def simulation_items_import(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id, write=True)
    form = SampleItemsImportForm(request.POST, request.FILES)
    problems: list[FileProblem] = []
    stale = False
    if form.is_valid():
        try:
            read, stored = services.sample_items_import(
                project=access.project,
                design=design,
                text=form.cleaned_data["file"],
                source=form.source_name,
                replace=form.cleaned_data["mode"] == SampleItemsImportForm.REPLACE,
                version=form.cleaned_data["version"],
                author=request.user,
            )
        except ItemsFileError as exc:
            problems = exc.problems
            count = len(problems)
            form.add_error(
                None,
                f"Nothing was imported: {form.source_name} has {count} "
                f"problem{'s' if count > 1 else ''}, listed below.",
            )
        except services.TooManyItemsError as exc:
            form.add_error(None, f"Nothing was imported. {exc}")
        except services.EditConflict as exc:
            form.add_error(None, f"Nothing was imported. {exc.message}")
            stale = True
        except services.StaleVersionError as exc:
            form.add_error(None, f"Nothing was imported. {exc}")
            stale = True
        else:
            messages.success(
                request,
                f"Imported {read:,} item{'s' if read != 1 else ''} from "
                f"{form.source_name}; you have {stored:,} of your own now.",
            )
            return redirect("simulation-page", project_id=project_id)
    return _render_page(
        request,
        access,
        design,
        import_form=form,
        import_problems=problems,
        status=INVALID,
        panel_only=not stale,
    )


@login_required
@require_POST
def simulation_items_remove(request: HttpRequest, project_id: int) -> HttpResponse:
    access, _ = design_for(request, project_id, write=True)
    form = VersionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was removed: reload the page and try again.")
        return redirect("simulation-page", project_id=project_id)
    try:
        removed = services.sample_items_remove(
            project=access.project,
            version=form.cleaned_data["version"],
            author=request.user,
        )
    except services.EditConflict as exc:
        messages.error(request, f"Nothing was removed. {exc.message}")
    except services.StaleVersionError as exc:
        messages.error(request, f"Nothing was removed. {exc}")
    else:
        messages.success(
            request, f"Removed {removed:,} item{'s' if removed != 1 else ''} of yours."
        )
    return redirect("simulation-page", project_id=project_id)


@login_required
@require_GET
def simulation_download(request: HttpRequest, project_id: int) -> HttpResponse:
    """The simulated table's items, generated and own, as DynamoDB JSON
    lines."""
    access, design = design_for(request, project_id)
    loaded = load_simulation(design)
    if loaded.simulation is None:
        messages.error(request, f"Nothing to download. {loaded.problem}")
        return redirect("simulation-page", project_id=project_id)
    response = StreamingHttpResponse(
        _chunks(write_jsonl(loaded.simulation.items)),
        content_type="application/x-ndjson; charset=utf-8",
    )
    name = slugify(access.project.name)
    filename = f"{name}-sample-data.jsonl" if name else "sample-data.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _chunks(lines: Iterable[str]) -> Iterator[bytes]:
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == LINES_PER_CHUNK:
            yield ("\n".join(batch) + "\n").encode()
            batch = []
    if batch:
        yield ("\n".join(batch) + "\n").encode()


# --- One pattern ----------------------------------------------------------------


@login_required
@require_GET
def simulation_pattern(
    request: HttpRequest, project_id: int, position: int
) -> HttpResponse:
    access, design = design_for(request, project_id)
    context = pattern_context(access, design, position)
    if request.htmx:
        return render(request, "modeler/simulation.html#pattern-result", context)
    context["section"] = "simulation"
    return render(request, "modeler/simulation-pattern.html", context)


def pattern_context(
    access: ProjectAccess, design: d.Design, position: int
) -> dict[str, Any]:
    """One access pattern run against the sample data, for its result: the
    verdict, the counts and capacity, the requests and the items."""
    if not 0 <= position < len(design.access_patterns):
        raise Http404("No such access pattern")
    pattern = design.access_patterns[position]
    loaded = load_simulation(design)
    context: dict[str, Any] = {
        "access": access,
        "project": access.project,
        "position": position,
        "pattern": pattern,
        "problem": loaded.problem,
    }
    if loaded.simulation is not None and loaded.lock is not None:
        run = _run(loaded.simulation, loaded.lock, pattern)
        context.update(
            run=run,
            # Lists rather than dicts: a template would read `.items` of a
            # dict with a parameter or index named "items" as that entry.
            # A write binds every attribute of its item; only the pattern's
            # own parameters are worth showing.
            parameters=[
                (p.name, run.parameters[p.name])
                for p in pattern_parameters(design, pattern)
                if p.name in run.parameters
            ],
            capacity_by_index=list(run.capacity.by_index.items()),
            table=_item_table(run, loaded.simulation.key_names, design),
            requests=[
                {
                    "operation": c.operation,
                    "json": json.dumps(c.request, indent=2, default=_json_default),
                    "cli": c.cli,
                }
                for c in run.calls
            ],
        )
    return context


@login_required
@require_GET
def present(request: HttpRequest, project_id: int, position: int) -> HttpResponse:
    """Presentation mode: one access pattern at a time, full screen, as
    DynamoDB receives it, with the items it returns, its verdict and its
    capacity; arrow keys (or the links) move on."""
    access, design = design_for(request, project_id)
    if not design.access_patterns:
        raise Http404("No access patterns to present")
    context = pattern_context(access, design, position)
    count = len(design.access_patterns)
    settings = selectors.project_cost_settings(project=access.project)
    review = cached_review(
        design, prices=settings.prices, stored_items=settings.stored_items
    )
    capacity = next((c for c in review.cost.patterns if c.position == position), None)
    context.update(
        collection=_returned_collection(design, position, context.get("run")),
        capacity=capacity,
        monthly=capacity.monthly_on_demand(settings.prices) if capacity else None,
        count=count,
        number=position + 1,
        previous=position - 1 if position > 0 else None,
        next=position + 1 if position + 1 < count else None,
    )
    return render(request, "modeler/present.html", context)


def _returned_collection(
    design: d.Design, position: int, run: PatternRun | None
) -> dict[str, Any] | None:
    """The item collection a GetItem or Query read from (the partition of
    its first item, in the table or index it used), each item marked when
    the pattern returned it; None for other operations or no items."""
    pattern = design.access_patterns[position]
    if run is None or not run.items or pattern.operation not in ("GetItem", "Query"):
        return None
    loaded = load_simulation(design)
    if loaded.simulation is None or loaded.lock is None:
        return None
    collections = diagrams.collections_for(loaded.simulation)
    info = collections.info(pattern.index)

    def key(item: dict[str, Any], names: tuple[str, ...]) -> str:
        values = tuple(item.get(name) for name in names)
        return diagrams.key_text(values[0] if len(values) == 1 else values)

    partition = key(run.items[0], info.partition_key)
    with loaded.lock:
        views, _ = collections.partitions(
            index=pattern.index, keys=[partition], max_partitions=1, max_items=60
        )
    if not views:
        return None
    returned = {key(item, info.sort_key) for item in run.items}
    return {
        "index": info,
        "partition": views[0],
        "rows": [
            (item, not info.sort_key or item.sort_key in returned)
            for item in views[0].items
        ],
    }


def _run(
    simulation: Simulation, lock: threading.Lock, pattern: d.AccessPattern
) -> PatternRun:
    try:
        with lock:
            # With its further draws, as the review and `simulate` judge it.
            return simulation.draw(simulation.run(pattern))
    except Exception as exc:
        # One pattern's simulator bug must not hide the others' results.
        logger.exception("Simulating the pattern %r failed", pattern.name)
        return PatternRun(
            pattern,
            error=f"the simulator failed on this pattern ({type(exc).__name__}: {exc})",
        )


def _json_default(value: object) -> object:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return str(value)


def _item_table(
    run: PatternRun, key_names: tuple[str, ...], design: d.Design
) -> dict[str, Any]:
    """The returned items as rows under key-first columns, with the entity
    colour of each row."""
    colours = {e.name: i % 10 for i, e in enumerate(design.entities)}
    index_keys = [
        a.name for a in design.table.all_key_attributes() if a.name not in key_names
    ]
    shown = run.items[:MAX_ITEMS_SHOWN]
    others: dict[str, None] = {}
    for item in shown:
        for name in item:
            if name not in key_names and name not in index_keys:
                others.setdefault(name, None)
    columns = (
        list(key_names)
        + [k for k in index_keys if any(k in i for i in shown)]
        + list(others)
    )
    rows = []
    for item, entity in zip(shown, run.item_entities, strict=False):
        wire = item_to_json_wire(item)
        rows.append(
            {
                "entity": entity,
                "colour": colours.get(entity or ""),
                "cells": [_cell(wire.get(c)) for c in columns],
            }
        )
    return {
        "columns": columns,
        "rows": rows,
        "more": len(run.items) - len(shown),
        "key_count": len(key_names),
    }


def _cell(wire: dict | None) -> str:
    if wire is None:
        return ""
    ((kind, value),) = wire.items()
    if kind in ("S", "N"):
        return shortened(str(value))
    if kind == "NULL":
        return "null"
    if kind == "BOOL":
        return "true" if value else "false"
    return shortened(json.dumps(value, separators=(",", ":")))
