"""A page that needs the design's simulation job looks it up; when there
is none it shows a pending state that starts it by a POST as it loads
(a GET writes nothing: a mail scanner, a prefetch, a crawler start no
job). The POST is a read of the design: viewers may, outsiders get 404,
and it is CSRF-checked."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from modeler import selectors
from modeler.models import Project, ReviewVisit, SimulationJob
from modeler.services import projects as project_services
from modeler.services import reviews as review_services
from tests.views.conftest import logged_in
from tests.views.starting import start_jobs

pytestmark = pytest.mark.django_db


def _start(client: Client, project: Project, **data: str) -> HttpResponse:
    return client.post(
        reverse("simulation-start", args=[project.pk]),
        data,
        headers={"HX-Request": "true"},
    )


def _save_second_revision(project: Project) -> None:
    """A second revision, so that revision 1 is a past one."""
    design = selectors.project_design(project=project)
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(design, description="Second"),
        version=project.version,
        author=project.owner,
    )


def test_the_pages_show_a_start_form_and_start_nothing(owner_client, project):
    pages = {
        "simulation": reverse("simulation-page", args=[project.pk]),
        "review": reverse("review-page", args=[project.pk]),
        "findings": reverse("editor-findings", args=[project.pk, "patterns"]),
        "verdicts": reverse("keymap-verdicts", args=[project.pk]),
        "pattern": reverse("simulation-pattern", args=[project.pk, 0]),
    }
    for name, url in pages.items():
        # The fragments as the pages load them, the pages as opened.
        fragment = name in ("findings", "verdicts")
        headers = {"HX-Request": "true"} if fragment else {}
        page = owner_client.get(url, headers=headers).content.decode()
        assert "data-simulation-start" in page, name
        assert 'hx-trigger="load' in page, name
    # The deck posts to the same start as every page, then asks again.
    deck_url = reverse("present", args=[project.pk, 0])
    deck = owner_client.get(deck_url).content.decode()
    start = reverse("simulation-start", args=[project.pk])
    assert f'hx-post="{start}" hx-trigger="load"' in deck
    assert f'hx-get="{deck_url}" hx-trigger="every 1s"' in deck
    assert not SimulationJob.objects.exists()

    start_jobs(owner_client, project)

    [job] = SimulationJob.objects.all()
    assert job.state == "done" and job.requested_by.username == "owner"
    review = owner_client.get(pages["review"]).content.decode()
    assert "Summary for the review meeting" in review
    assert "data-simulation-start" not in review
    # Started once: a second post (another tab) finds it.
    start_jobs(owner_client, project)
    assert SimulationJob.objects.count() == 1


def test_a_viewer_may_start_it_an_outsider_may_not(viewer, outsider, client, project):
    assert _start(logged_in(outsider), project).status_code == 404
    anonymous = _start(client, project)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert not SimulationJob.objects.exists()

    assert _start(logged_in(viewer), project).status_code == 204
    assert SimulationJob.objects.get().requested_by == viewer


def test_starting_is_csrf_checked(owner, project):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert _start(client, project).status_code == 403
    assert not SimulationJob.objects.exists()


def test_a_past_revision_is_started_for_its_own_design(owner_client, project):
    _save_second_revision(project)

    assert _start(owner_client, project, revision="1").status_code == 204
    assert _start(owner_client, project, revision="9").status_code == 404
    assert _start(owner_client, project, revision="x").status_code == 404

    [job] = SimulationJob.objects.all()
    assert job.revision.number == 1


def test_without_script_the_button_returns_to_the_page(owner_client, project):
    review = reverse("review-page", args=[project.pk])
    response = owner_client.post(
        reverse("simulation-start", args=[project.pk]), {"next": review}
    )
    assert response.status_code == 302 and response["Location"] == review
    elsewhere = owner_client.post(
        reverse("simulation-start", args=[project.pk]),
        {"next": "https://elsewhere.example/"},
    )
    assert elsewhere["Location"] == reverse("simulation-page", args=[project.pk])


def test_the_pack_asks_to_be_made_then_reloads_until_it_is(owner_client, project):
    url = reverse("review-pack", args=[project.pk, 1])
    pending = owner_client.get(url)
    body = pending.content.decode()
    assert (
        "Make the review pack" in body
        and "form-action 'self'" in pending["Content-Security-Policy"]
    )
    assert '<meta http-equiv="refresh"' not in body
    assert not SimulationJob.objects.exists()

    made = owner_client.post(url)

    assert made.status_code == 302 and made["Location"] == url
    assert SimulationJob.objects.get().state == "done"
    pack = owner_client.get(url)
    assert "Make the review pack" not in pack.content.decode()
    assert "form-action 'none'" in pack["Content-Security-Policy"]


def test_a_share_link_starts_its_pack_by_post_scoped_to_its_token(
    owner, client, project
):
    _, token = review_services.share_link_create(
        project=project, author=owner, number=1, days=None
    )
    url = reverse("shared-pack", args=[token])
    assert "Make the review pack" in client.get(url).content.decode()
    assert client.post(reverse("shared-pack", args=["wrong"])).status_code == 404
    assert not SimulationJob.objects.exists()

    assert client.post(url).status_code == 302

    job = SimulationJob.objects.get()
    assert job.requested_by is None and job.revision.number == 1


def test_a_review_is_marked_read_by_the_post_its_page_makes(
    owner, viewer, outsider, project
):
    session = review_services.session_open(
        project=project, author=owner, number=1, title="Keys"
    )
    review_services.comment_add(session=session, author=owner, body="Look")
    client = logged_in(viewer)
    reviews = reverse("reviews-page", args=[project.pk])
    url = reverse("review-session", args=[project.pk, session.pk])

    page = client.get(url).content.decode()

    assert "data-review-seen" in page
    assert not ReviewVisit.objects.exists()
    assert "1 unread" in client.get(reviews).content.decode()

    shown = timezone.now()
    seen = reverse("review-session-seen", args=[project.pk, session.pk])
    assert client.post(seen, {"shown": shown.isoformat()}).status_code == 204
    assert ReviewVisit.objects.get(user=viewer).seen == shown
    assert "1 unread" not in client.get(reviews).content.decode()
    # A time to come is taken as now; an outsider's post finds no review.
    later = (timezone.now() + timedelta(days=1)).isoformat()
    client.post(seen, {"shown": later})
    assert ReviewVisit.objects.get(user=viewer).seen <= timezone.now()
    assert logged_in(outsider).post(seen).status_code == 404
    assert not ReviewVisit.objects.filter(user=outsider).exists()


# --- What a worker draws from the loaded data ---------------------------------------

# The pages and downloads a worker makes from the data the simulation job
# loads: a GET looks the answer up, and their start form posts to the same
# address to ask for it.
DRAWN = [
    "collections/?entity=Customer",
    "diagrams/?kind=collections",
    "diagrams/diagram.svg?kind=collections",
    "diagrams/diagram.png?kind=collections&scale=2",
    "simulation/sample-data.jsonl",
]


def _drawn_url(project: Project, rest: str) -> str:
    return f"/projects/{project.pk}/{rest}"


@pytest.fixture
def queued(settings):
    """Tasks wait in the database for a worker: what a GET asks shows."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.mark.parametrize("rest", DRAWN)
def test_a_drawing_is_asked_for_by_the_post_of_its_page(queued, viewer, project, rest):
    client = logged_in(viewer)
    url = _drawn_url(project, rest)

    page = client.get(url)

    # Not a file, not an error: a page that says it is to be made, with
    # the form that asks for it (as it loads; a button without script).
    assert page.status_code in (200, 202) and not page.streaming
    assert "Content-Disposition" not in page
    body = page.content.decode()
    assert "data-answer-start" in body and 'hx-trigger="load"' in body
    assert f'action="{url.replace("&", "&amp;")}"' in body
    assert not SimulationJob.objects.exists() and not DBTaskResult.objects.exists()

    # A viewer may ask: it changes nothing in the design.
    assert client.post(url, headers={"HX-Request": "true"}).status_code == 204
    job = SimulationJob.objects.get()
    assert job.requested_by == viewer and job.state == "queued"
    waiting = client.get(url).content.decode()
    assert "data-answer-start" not in waiting
    assert "waiting for a worker to start it" in waiting


@pytest.mark.parametrize("rest", DRAWN)
def test_asking_is_refused_to_outsiders_and_checks_csrf(
    queued, owner, outsider, client, project, rest
):
    url = _drawn_url(project, rest)
    assert logged_in(outsider).post(url).status_code == 404
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(owner)
    assert forged.post(url).status_code == 403
    assert not SimulationJob.objects.exists()


def test_without_script_the_button_asks_and_returns_to_the_page(owner_client, project):
    url = _drawn_url(project, "collections/?entity=Customer")
    response = owner_client.post(url)
    assert response.status_code == 302 and response["Location"] == url
    # The immediate backend of the tests has run the job and the drawing.
    assert 'class="partition-key">CUST#' in owner_client.get(url).content.decode()
