"""What a page posts as it loads when its design has no simulation job
yet (a GET starts nothing): tests post it before they look at the page."""

from __future__ import annotations

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
