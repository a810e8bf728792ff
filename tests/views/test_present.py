"""Presentation mode: a deck of slides, one access pattern each, of the
project's current design (from Simulation) or of the revision a review is
held on (from the review, and back to it). A slide shows the request, the
verdict and the item collection read, the items returned marked among the
few around them; showing it never starts a simulation (a POST does)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.test import Client

from modeler.design import model as d
from modeler.models import SimulationJob
from modeler.services import projects as project_services
from tests.views.conftest import (
    project_with_members,
    stored_design,
    with_roots,
)
from tests.views.test_review_sessions import _open

pytestmark = pytest.mark.django_db


def _slide(html: str, position: int) -> str:
    """The slide of `position` in a deck page."""
    return html.split(f'data-slide="{position}"')[1].split("</section>")[0]


def _many_orders(design: d.Design, count: int = 19) -> d.Design:
    """Three customers with `count` orders each: a customer's partition
    holds its orders, then its profile."""
    design = with_roots(design, 3)
    entities = tuple(
        dataclasses.replace(
            e, sample=dataclasses.replace(e.sample, count=d.Count("fixed", count))
        )
        if e.name == "Order"
        else e
        for e in design.entities
    )
    return dataclasses.replace(design, entities=entities)


def test_the_deck_steps_through_the_patterns(
    project, viewer_client: Client, outsider_client: Client
):
    count = len(stored_design(project).access_patterns)
    base = f"/projects/{project.pk}/present/"
    viewer_client.post(f"/projects/{project.pk}/simulation/start/")
    html = viewer_client.get(f"{base}0/").content.decode()
    first = _slide(html, 0)
    assert f"access pattern 1 of {count}" in first
    assert f'href="{base}1/" data-next' in first and "data-prev" not in first
    assert "<strong>Passes</strong>" in first
    assert "a month on demand at" in first
    # The request as DynamoDB receives it, one short line a member.
    assert "GetItem request" in first
    assert "&quot;SK&quot;: {&quot;S&quot;: &quot;PROFILE&quot;}" in first
    # The item collection read, the item returned marked (a GetItem: one).
    assert re.search(r"Partition <code>CUST#\w+</code> of the table: 1 returned", first)
    assert first.count("data-returned") == 1
    # Its neighbours are in the page, hidden, for the arrow keys.
    assert 'data-slide="1"' in html and f'data-slide="{count - 1}"' in html
    assert re.search(r'<section class="slide" data-slide="1"[^>]* hidden>', html)
    # The job has run (tests run jobs at once): the deck does not poll.
    assert 'hx-trigger="every 1s"' not in html and "hx-post" not in html
    # Leave goes back to Simulation.
    assert f'href="/projects/{project.pk}/simulation/" data-leave' in first
    last = _slide(viewer_client.get(f"{base}{count - 1}/").content.decode(), count - 1)
    assert "data-next" not in last and "data-prev" in last
    assert viewer_client.get(f"{base}{count}/").status_code == 404
    assert outsider_client.get(f"{base}0/").status_code == 404


def test_the_returned_item_stands_out_of_a_long_partition(
    owner, editor, viewer, order_design, viewer_client: Client
):
    project = project_with_members(
        _many_orders(order_design), owner=owner, editor=editor, viewer=viewer
    )
    viewer_client.post(f"/projects/{project.pk}/simulation/start/")
    html = viewer_client.get(f"/projects/{project.pk}/present/0/").content.decode()
    slide = _slide(html, 0)
    assert slide.index("GetItem request") < slide.index("Partition <code>")
    rows = re.findall(r"<tr( class=\"[^\"]+\")?[^>]*>(.*?)</tr>", slide, re.S)[1:]
    # Eighteen orders not returned are one row, then the order just before
    # the profile, then the profile, marked.
    assert "⋯ 18 items not returned" in rows[0][1]
    assert "ORDER#" in rows[1][1] and "data-returned" not in rows[1][0]
    assert rows[2][0] == ' class="is-returned"' and "PROFILE" in rows[2][1]
    assert "✓ returned" in rows[2][1]
    assert len(rows) == 3


def test_a_reviews_deck_is_of_its_revision_and_leads_back_to_it(
    project, editor, editor_client: Client, viewer_client: Client
):
    session = _open(editor_client, project)
    design = stored_design(project)
    first = design.access_patterns[0]
    renamed = dataclasses.replace(first, name="Profile of a customer")
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(
            design, access_patterns=(renamed, *design.access_patterns[1:])
        ),
        version=project.version,
        author=editor,
    )
    review = f"/projects/{project.pk}/reviews/{session.pk}/"
    page = viewer_client.get(review).content.decode()
    assert f'href="{review}present/0/">Present revision 1</a>' in page

    deck = f"{review}present/0/"
    SimulationJob.objects.all().delete()  # nothing has simulated revision 1
    html = viewer_client.get(deck).content.decode()
    # Showing starts nothing: the page asks for the simulation of its
    # revision by POST, as every page does, and asks again until it is done.
    assert not SimulationJob.objects.exists()
    start = f"/projects/{project.pk}/simulation/start/"
    assert f'hx-post="{start}" hx-trigger="load"' in html
    assert '<input type="hidden" name="revision" value="1">' in html
    assert f'hx-get="{deck}" hx-trigger="every 1s"' in html
    assert "Asking for the simulation of revision 1" in html

    answer = viewer_client.post(start, {"revision": "1"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    [job] = SimulationJob.objects.all()
    assert job.revision.number == 1 and job.state == "done"

    html = viewer_client.get(deck).content.decode()
    assert "data-simulation-start" not in html and "every 1s" not in html
    slide = _slide(html, 0)
    assert "<strong>Passes</strong>" in slide
    assert f">{first.name}</h1>" in slide  # the revision's name, not today's
    assert "Profile of a customer" not in html
    assert "Key design review" not in slide and "Design review · revision 1" in slide
    assert f'href="{review}" data-leave' in slide
    assert f'href="{review}present/1/" data-next' in slide
    viewer_client.post(f"/projects/{project.pk}/simulation/start/")
    current = viewer_client.get(f"/projects/{project.pk}/present/0/").content.decode()
    assert ">Profile of a customer</h1>" in current


def test_who_may_see_and_start_a_reviews_deck(
    project, editor_client: Client, viewer, outsider_client: Client
):
    session = _open(editor_client, project)
    deck = f"/projects/{project.pk}/reviews/{session.pk}/present/0/"
    assert outsider_client.get(deck).status_code == 404
    start = f"/projects/{project.pk}/simulation/start/"
    assert outsider_client.post(start, {"revision": "1"}).status_code == 404
    assert editor_client.get(start).status_code == 405
    assert editor_client.get(deck.replace("/0/", "/99/")).status_code == 404
    assert (
        editor_client.get(f"/projects/{project.pk}/reviews/999/present/0/").status_code
        == 404
    )
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(viewer)
    assert csrf.post(start, {"revision": "1"}).status_code == 403
    # A viewer may ask for the simulation (it changes nothing in the
    # design); without htmx, the answer is the slide's address.
    viewer_client = Client()
    viewer_client.force_login(viewer)
    response = viewer_client.post(start, {"revision": "1", "next": deck})
    assert response.status_code == 302 and response["Location"] == deck


def test_a_simulation_that_failed_is_run_again_from_the_deck(
    project, viewer_client: Client
):
    start = f"/projects/{project.pk}/simulation/start/"
    deck = f"/projects/{project.pk}/present/0/"
    viewer_client.post(start)
    [job] = SimulationJob.objects.all()
    job.results.all().delete()  # it stopped before its first pattern
    SimulationJob.objects.update(
        state=SimulationJob.State.FAILED, message="The worker stopped."
    )
    html = viewer_client.get(deck).content.decode()
    assert "The worker stopped" in html
    assert f'action="{start}" class="slide-again"' in html
    # Asked for as a page asks (not again) it stays failed: the deck's
    # button runs it again, and comes back to the slide.
    viewer_client.post(start, {"next": deck})
    assert SimulationJob.objects.count() == 1
    response = viewer_client.post(start, {"again": "1", "next": deck})
    assert response.status_code == 302 and response["Location"] == deck
    assert SimulationJob.objects.count() == 2
    slide = _slide(viewer_client.get(deck).content.decode(), 0)
    assert "<strong>Passes</strong>" in slide
