"""The design review's findings beside what they concern in the editor's
sections (the table, each index, entity and pattern).

The review is made by the design's simulation job, which can take seconds
after an edit. So a section renders empty slots and one loader
(`hx-trigger="load"`, and a plain link to the Review section without
JavaScript); this view answers the loader with a summary line that replaces
it and fills the slots out of band, or, while the job runs, with a loader
that asks again a second later."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from modeler.design.findings import Severity
from modeler.views.editor import load
from modeler.views.review import FindingRow, review_findings_by_location

TEMPLATE = "modeler/_editor-findings.html"
SECTIONS = {
    "table": "the table",
    "indexes": "the indexes",
    "entities": "the entities",
    "patterns": "the access patterns",
}


def _slot(slot_id: str, rows: list[FindingRow], *, label: str) -> dict[str, Any]:
    counts = dict.fromkeys(Severity, 0)
    for row in rows:
        counts[row.finding.severity] += 1
    worst = next((s for s in Severity if counts[s]), "")
    summary = ", ".join(s.counted(n) for s, n in counts.items() if n)
    return {
        "summary": summary,
        "id": slot_id,
        "rows": rows,
        "label": label,
        "counts": counts,
        "worst": worst,
    }


@login_required
@require_GET
def editor_findings(
    request: HttpRequest, project_id: int, section: str
) -> HttpResponse:
    """The findings of one section's parts: `table`, `indexes`, `entities`
    (each entity; `?entity=` names the one open in the editor) or
    `patterns`."""
    if section not in SECTIONS:
        raise Http404("No such section.")
    access, design = load(request, project_id)
    found, job = review_findings_by_location(project=access.project, design=design)
    if found is None:
        # The simulation job makes the review: the loader asks again.
        context = {
            "project": access.project,
            "section": section,
            "job": job,
            "url": request.get_full_path(),
        }
        return render(request, f"{TEMPLATE}#pending", context)
    slots = []
    badges = []
    table = design.table
    if section == "table":
        slots.append(
            _slot("review-table", found.get(("table", table.name), []), label="table")
        )
    elif section == "indexes":
        for position, index in enumerate(table.indexes):
            slots.append(
                _slot(
                    f"review-index-{position}",
                    found.get(("index", index.name), []),
                    label=index.name,
                )
            )
    elif section == "entities":
        for entity in design.entities:
            badges.append(
                _slot(
                    f"review-entity-{entity.name}",
                    found.get(("entity", entity.name), []),
                    label=entity.name,
                )
            )
        selected = design.entity(request.GET.get("entity", ""))
        if selected is not None:
            slots.append(
                _slot(
                    "review-entity-detail",
                    found.get(("entity", selected.name), []),
                    label=selected.name,
                )
            )
    else:
        for position, pattern in enumerate(design.access_patterns):
            slots.append(
                _slot(
                    f"review-pattern-{position}",
                    found.get(("pattern", pattern.name), []),
                    label=pattern.name,
                )
            )
    every = slots if section != "entities" else badges
    total = {
        severity: sum(slot["counts"][severity] for slot in every)
        for severity in Severity
    }
    context = {
        "project": access.project,
        "section": section,
        "section_label": SECTIONS[section],
        "slots": slots,
        "badges": badges,
        "total": total,
        "any": any(total.values()),
    }
    return render(request, TEMPLATE, context)
