"""The Review section: the design review's findings grouped by severity, the
capacity and monthly cost at the stated traffic, a summary for a review
meeting, and the prices the estimate uses (owners and editors change them).

`review_findings_by_location` is for the other sections: it gives the
findings about each entity, attribute, index and pattern, with links, to
show next to them (`templates/modeler/_review-findings.html`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from modeler import selectors
from modeler.design import model as d
from modeler.forms.prices import CostSettingsForm, money_text
from modeler.forms.projects import VersionForm
from modeler.jobs import services as jobs
from modeler.models import Project, SimulationJob
from modeler.review import SEVERITIES, Finding, Location, Review
from modeler.review.prices import BYTES_PER_GB, Prices
from modeler.selectors import ProjectAccess
from modeler.services import prices as price_services
from modeler.services.prices import SettingsChanged
from modeler.views.statuses import INVALID, STALE
from modeler.views.workspace import design_for

TEMPLATE = "modeler/review.html"
SEVERITY_HEADINGS = {"error": "Errors", "warning": "Warnings", "advice": "Advice"}


@dataclass(frozen=True)
class FindingRow:
    """A finding with the address of what it concerns."""

    finding: Finding
    url: str
    simulation_url: str = ""


def location_url(project_id: int, location: Location) -> str:
    """Where the part of the design a finding concerns is edited."""
    if location.kind in ("entity", "attribute"):
        entity = location.name.split(".", 1)[0]
        return reverse("editor-entity", args=[project_id, entity])
    if location.kind == "index" and location.position is not None:
        url = reverse("editor-table", args=[project_id])
        return f"{url}#index-{location.position}"
    if location.kind == "pattern" and location.position is not None:
        url = reverse("editor-patterns", args=[project_id])
        return f"{url}#pattern-{location.position}"
    return reverse("editor-table", args=[project_id])


def finding_row(project_id: int, finding: Finding) -> FindingRow:
    location = finding.location
    simulation = (
        reverse("simulation-pattern", args=[project_id, location.position])
        if location.kind == "pattern" and location.position is not None
        else ""
    )
    return FindingRow(finding, location_url(project_id, location), simulation)


def review_findings_by_location(
    *, project: Project, design: d.Design, user: Any = None
) -> tuple[dict[tuple[str, str], list[FindingRow]] | None, SimulationJob | None]:
    """Findings keyed by ("entity" | "attribute" | "index" | "pattern" |
    "table", name), errors first; an entity's include its attributes'.
    Render one list with
    `{% include "modeler/_review-findings.html" with rows=... %}`. None,
    with the job making it, while the review is not made yet."""
    found = jobs.design_review_get(project=project, design=design, user=user)
    if found.review is None:
        return None, found.job
    by_location = {
        key: [finding_row(project.pk, f) for f in findings]
        for key, findings in found.review.by_location.items()
    }
    return by_location, found.job


def _render(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    *,
    form: CostSettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    project = access.project
    settings = selectors.project_cost_settings(project=project)
    found = jobs.design_review_get(project=project, design=design, user=request.user)
    context: dict[str, Any] = {
        "access": access,
        "project": project,
        "design": design,
        "section": "review",
        "settings": settings,
        "site_prices": selectors.site_prices(),
        "form": form
        or CostSettingsForm.for_settings(
            settings.prices, settings.stored_items, settings.version
        ),
    }
    review = found.review
    if review is None:
        # The job makes it: the page asks again until it is there.
        context.update(
            pending=found.job,
            pending_url=request.get_full_path(),
            price_facts=_price_facts(settings.prices, settings.stored_items),
        )
    else:
        context.update(_review_context(project, review))
    if request.htmx and not request.htmx.boosted:
        return render(request, f"{TEMPLATE}#review-content", context, status=status)
    return render(request, TEMPLATE, context, status=status)


def _review_context(project: Project, review: Review) -> dict[str, Any]:
    grouped = review.by_severity
    return {
        "review": review,
        "groups": [
            {
                "severity": severity,
                "heading": SEVERITY_HEADINGS[severity],
                "count_label": _count_label(severity, len(grouped[severity])),
                "rows": [finding_row(project.pk, f) for f in grouped[severity]],
            }
            for severity in SEVERITIES
        ],
        "summary": review.summary(),
        "cost": review.cost,
        "pattern_rows": _pattern_rows(project.pk, review),
        "storage_rows": [
            {
                "name": copy.name,
                "entries": copy.entries,
                "average_size": copy.average_size,
                "gb": copy.bytes / BYTES_PER_GB,
                "monthly": Decimal(str(copy.bytes))
                / BYTES_PER_GB
                * review.cost.prices.storage_gb_month,
            }
            for copy in review.cost.storage
        ],
        "price_facts": _price_facts(review.cost.prices, review.cost.stored_items),
    }


def _count_label(severity: str, count: int) -> str:
    if severity == "advice":
        return f"{count} advice"
    return f"{count} {severity}{'s' * (count != 1)}"


def _price_facts(prices: Prices, stored_items: int | None) -> list[tuple[str, str]]:
    items = "the sample data's" if stored_items is None else f"{stored_items:,}"
    return [
        ("Region", prices.region),
        ("Prices taken on", prices.taken.isoformat()),
        (
            "On-demand reads",
            f"${money_text(prices.read_request_per_million)} per million RRU",
        ),
        (
            "On-demand writes",
            f"${money_text(prices.write_request_per_million)} per million WRU",
        ),
        ("Provisioned reads", f"${money_text(prices.rcu_hour)} per RCU-hour"),
        ("Provisioned writes", f"${money_text(prices.wcu_hour)} per WCU-hour"),
        ("Storage", f"${money_text(prices.storage_gb_month)} per GB-month"),
        ("Items in the table", items),
    ]


def _pattern_rows(project_id: int, review: Review) -> list[dict[str, Any]]:
    prices = review.cost.prices
    return [
        {
            "capacity": capacity,
            "url": reverse("editor-patterns", args=[project_id])
            + f"#pattern-{capacity.position}",
            "monthly": capacity.monthly_on_demand(prices),
            "unit": "RCU" if capacity.kind == "read" else "WCU",
        }
        for capacity in review.cost.patterns
    ]


@login_required
@require_GET
def review_page(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id)
    return _render(request, access, design)


@login_required
@require_POST
def review_prices(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id, write=True)
    form = CostSettingsForm(request.POST)
    if not form.is_valid():
        return _render(request, access, design, form=form, status=INVALID)
    try:
        price_services.project_cost_settings_set(
            project=access.project,
            prices=form.cleaned_data["prices"],
            stored_items=form.cleaned_data["stored_items"],
            version=form.cleaned_data["version"],
            author=request.user,
        )
    except SettingsChanged as exc:
        return _settings_changed(request, access, design, form, exc)
    messages.success(request, "The cost estimate uses the new settings.")
    return redirect("review-page", project_id=project_id)


def _settings_changed(
    request: HttpRequest,
    access: ProjectAccess,
    design: d.Design,
    form: CostSettingsForm,
    exc: SettingsChanged,
) -> HttpResponse:
    """The form as typed, now at the settings' version (saving again keeps
    mine), beside the estimate with theirs."""
    form.add_error(None, str(exc))
    form.theirs = True  # the template lists the values saved now
    form.data = form.data.copy()
    form.data["version"] = str(exc.version)
    return _render(request, access, design, form=form, status=STALE)


@login_required
@require_POST
def review_prices_reset(request: HttpRequest, project_id: int) -> HttpResponse:
    access, design = design_for(request, project_id, write=True)
    form = VersionForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else -1
    try:
        price_services.project_cost_settings_reset(
            project=access.project, version=version, author=request.user
        )
    except SettingsChanged as exc:
        messages.error(request, str(exc))
        return redirect("review-page", project_id=project_id)
    messages.success(request, "The cost estimate uses the site's prices again.")
    return redirect("review-page", project_id=project_id)
