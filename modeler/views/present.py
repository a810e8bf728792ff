"""Presentation mode: the access patterns one per screen, for a room
looking at a projector. Each slide fits one 16:9 screen (the request as
DynamoDB receives it, the verdict, the item collection read with the items
returned marked), and the deck is of one design: the project's current one
(from Simulation), or the revision a review is held on (from the review,
where Leave goes back). Moving between slides is instant: the slides near
the current one are in the page, and the arrow keys, Page Up and Page Down
(a presenter's remote) show them (static/js/workbench.js).

Showing never starts work: a slide of a design whose simulation has not
run asks for it with a POST to `simulation-start` when it loads (htmx), as
every page does, and the deck asks again every second until the results
are there."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from modeler import presenters, selectors
from modeler.conversion import design_from_revision
from modeler.design import model as d
from modeler.jobs import services as jobs
from modeler.jobs.recovery import job_is_lost
from modeler.models import PatternResult, ReviewSession, SimulationJob
from modeler.review.review import Review
from modeler.selectors import ProjectAccess
from modeler.views.workspace import design_for

State = SimulationJob.State
# The slides on either side of the current one that the page holds: the
# arrow keys show them at once; past them, the next page loads.
DECK_WINDOW = 10


@dataclass
class Slide:
    """One access pattern's slide."""

    position: int
    pattern: d.AccessPattern
    url: str
    previous: str = ""  # the addresses of the slides before and after
    next: str = ""
    stored: PatternResult | None = None
    run: dict[str, Any] = field(default_factory=dict)
    request: list[str] = field(default_factory=list)
    operation: str = ""
    more_requests: int = 0
    collection: dict[str, Any] | None = None
    rows: list[presenters.SlideRow] = field(default_factory=list)
    # For a read without a collection (a Scan, a batch): the key columns
    # and the keys of the first items returned.
    key_columns: list[str] = field(default_factory=list)
    keys: list[tuple[str | None, int | None, list[str]]] = field(default_factory=list)
    more_items: int = 0
    capacity: Any = None
    monthly: Any = None


@dataclass(frozen=True)
class Deck:
    """Where a deck's slides come from and go back to."""

    design: d.Design
    title: str  # what the bar says it presents
    leave_url: str
    leave_label: str
    route: str  # the name of a slide's URL, and its arguments before the position
    route_args: tuple[int, ...]
    session: ReviewSession | None = None

    def url(self, position: int) -> str:
        """A slide's address."""
        return reverse(self.route, args=[*self.route_args, position])


@login_required
@require_GET
def present(request: HttpRequest, project_id: int, position: int) -> HttpResponse:
    """The deck of the project's current design, from Simulation."""
    access, design = design_for(request, project_id)
    return _deck(request, access, _current(access, design), position)


@login_required
@require_GET
def review_present(
    request: HttpRequest, project_id: int, pk: int, position: int
) -> HttpResponse:
    """The deck of the revision a review is held on, from the review."""
    access, deck = _review_deck(request, project_id, pk)
    return _deck(request, access, deck, position)


def _current(access: ProjectAccess, design: d.Design) -> Deck:
    project_id = access.project.pk
    return Deck(
        design=design,
        title=f"{access.project.name} · version {access.project.version}",
        leave_url=reverse("simulation-page", args=[project_id]),
        leave_label="Back to Simulation",
        route="present",
        route_args=(project_id,),
    )


def _review_deck(request: HttpRequest, project_id: int, pk: int):
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    session = (
        ReviewSession.objects.filter(project=access.project, pk=pk)
        .select_related("revision")
        .first()
    )
    if session is None:
        raise Http404("No such review")
    revision = session.revision
    return access, Deck(
        design=design_from_revision(revision),
        title=f"{session.title} · revision {revision.number}",
        leave_url=reverse("review-session", args=[project_id, pk]),
        leave_label="Back to the review",
        route="review-present",
        route_args=(project_id, pk),
        session=session,
    )


def _deck(
    request: HttpRequest,
    access: ProjectAccess,
    deck: Deck,
    position: int,
) -> HttpResponse:
    design = deck.design
    count = len(design.access_patterns)
    if not count:
        raise Http404("No access patterns to present")
    if not 0 <= position < count:
        raise Http404("No such access pattern")
    project = access.project
    job = jobs.simulation_job_latest(project=project, design=design)
    review = jobs.design_review_stored(project=project, design=design)
    lost = job is not None and job_is_lost(job)
    ended = job is not None and job.state in (State.FAILED, State.CANCELLED)
    # Nothing has run this design yet (or what ran is gone): ask for it.
    missing = (
        job is None
        or lost
        or job.state == State.SUPERSEDED
        or (job.state == State.DONE and review is None)
    )
    first = max(0, position - DECK_WINDOW)
    last = min(count, position + DECK_WINDOW + 1)
    stored = {}
    if job is not None:
        stored = {
            r.position: r
            for r in job.results.filter(position__gte=first, position__lt=last)
        }
    prices = selectors.project_cost_settings(project=project).prices
    slides = [
        _slide(deck, design, p, stored.get(p), review, prices)
        for p in range(first, last)
    ]
    context = {
        "access": access,
        "project": project,
        "deck": deck,
        "slides": slides,
        "position": position,
        "count": count,
        "job": job,
        "problem": job.message if ended and job.message else "",
        "ended": ended,
        "pending": job is not None and job.is_active and not lost,
        "start": missing,
        "revision_number": deck.session.revision.number if deck.session else None,
    }
    name = "modeler/present.html"
    if request.htmx:
        name += "#deck"
    return render(request, name, context)


def _slide(
    deck: Deck,
    design: d.Design,
    position: int,
    stored: PatternResult | None,
    review: Review | None,
    prices: Any,
) -> Slide:
    slide = Slide(
        position=position,
        pattern=design.access_patterns[position],
        url=deck.url(position),
        previous=deck.url(position - 1) if position > 0 else "",
        next=deck.url(position + 1)
        if position + 1 < len(design.access_patterns)
        else "",
        stored=stored,
    )
    if review is not None:
        slide.capacity = next(
            (c for c in review.cost.patterns if c.position == position), None
        )
        if slide.capacity is not None:
            slide.monthly = slide.capacity.monthly_on_demand(prices)
    if stored is None:
        return slide
    result = stored.result
    slide.run = result["run"]
    collection = result.get("collection")
    if collection:
        partition = collection["partition"]
        slide.collection = collection
        slide.rows = presenters.collection_rows(
            collection["rows"],
            before=partition.get("start", 0),
            after=partition.get("more", 0),
            returned=slide.run.get("count"),
        )
    elif result.get("table", {}).get("rows"):
        table = result["table"]
        shown = presenters.SLIDE_ROWS - 1
        key_count = table["key_count"]
        slide.key_columns = table["columns"][:key_count]
        slide.keys = [
            (row["entity"], row["colour"], row["cells"][:key_count])
            for row in table["rows"][:shown]
        ]
        slide.more_items = len(table["rows"]) - len(slide.keys) + table["more"]
    calls = result.get("requests") or []
    if calls:
        slide.operation = calls[0]["operation"]
        request = json.loads(calls[0]["json"])
        # The same on every slide: the bar names the design.
        for noise in ("TableName", "ReturnConsumedCapacity"):
            request.pop(noise, None)
        # A failure's reasons take the room of a few lines; alone on its
        # slide (a write), the request has two columns of lines.
        lines = presenters.SLIDE_REQUEST_LINES
        if slide.run.get("verdict", {}).get("reasons") and not slide.run["passed"]:
            lines -= 4
        if not slide.rows and not slide.keys:
            lines *= 2
        slide.request = presenters.request_lines(request, max_lines=lines)
        slide.more_requests = len(calls) - 1
    return slide
