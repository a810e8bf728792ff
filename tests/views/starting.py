"""What a page posts as it loads when its design has no simulation job
yet, or nobody asked a worker for what it shows (a GET starts nothing):
tests post it before they look at the page, or open the page as a
browser does (`opened`)."""

from __future__ import annotations

import html
import re

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from modeler.models import Project


def start_jobs(client: Client, project: Project, *revisions: int) -> None:
    """Starts the simulation job of the project's current design, or of
    each revision named, as the pages' start form does (with the
    immediate task backend of most tests, it has run when this returns;
    with a queued one, it waits for a worker)."""
    url = reverse("simulation-start", args=[project.pk])
    for revision in revisions or (None,):
        data = {} if revision is None else {"revision": str(revision)}
        # As the button does without script: a redirect, which leaves the
        # messages of the last POST for the page (htmx would take them
        # into its own answer's toasts).
        response = client.post(url, data)
        assert response.status_code == 302, response


def start_pack(address: str) -> None:
    """Makes the pack a share link's `address` opens as the pending pack's
    button does (a pack has no script): a POST scoped to the link's token,
    by a visitor without an account."""
    response = Client().post(address)
    assert response.status_code == 302, response


START_FORM = re.compile(r'<form class="answer-start" method="post" action="([^"]*)"')


def opened(
    client: Client, url: str, headers: dict[str, str] | None = None
) -> HttpResponse:
    """`url` as a browser shows it once what it waits for is made: when the
    page (or the download's waiting page) carries the start form of an
    answer nobody asked a worker for (`_answer-start.html`), that form
    posted as htmx posts it as the page loads, then the page again (with
    the immediate task backend of most tests, made by then)."""
    response = client.get(url, headers=headers)
    for _ in range(2):  # the simulation job that loads the data, the task
        if response.streaming:  # a file
            break
        found = START_FORM.search(response.content.decode(errors="replace"))
        if found is None:
            break
        start = html.unescape(found.group(1))
        assert start == url, (start, url)
        posted = client.post(start, headers={"HX-Request": "true"})
        assert posted.status_code == 204, posted
        response = client.get(url, headers=headers)
    return response
