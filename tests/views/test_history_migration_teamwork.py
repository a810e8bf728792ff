"""Two people at once on a project's Migration tab: one deletes the project
(or names a revision) while the other has the tab open or its proof is
being made. The other gets a 404 the page shows (never a page polling for
ever), the worker ends without a traceback, and nothing stays pending."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from modeler.jobs import migration_proofs
from modeler.services import history as history_services
from modeler.services import projects as project_services
from modeler.services.projects import project_revision_design
from tests.evolution import revisions
from tests.views.conftest import project_at_two_revisions

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def migrated(owner, editor, viewer):
    project = project_at_two_revisions(
        revisions.smaller(revisions.original(), 3),
        revisions.smaller(revisions.gsi_added(), 3),
        owner=owner,
        editor=editor,
        viewer=viewer,
    )
    return project


def _url(project, tail: str = "") -> str:
    return f"/projects/{project.pk}/history/compare/migration/{tail}?before=1&after=2"


def _key(project) -> str:
    before = project_revision_design(project=project, number=1)
    after = project_revision_design(project=project, number=2)
    return migration_proofs._key(project, before, after)


@pytest.mark.django_db
def test_the_open_tab_of_a_deleted_project_is_told_it_is_gone(
    migrated, viewer_client: Client
):
    page = viewer_client.get(_url(migrated), **HTMX)
    assert 'hx-trigger="every 1s"' in page.content.decode()  # it polls
    url = _url(migrated)
    project_services.project_delete(project=migrated)

    # The poll: a 404 that says the project is gone (the page shows a
    # notice and stops polling, as every page does); a reload is the 404 page.
    poll = viewer_client.get(url, **HTMX)
    assert poll.status_code == 404
    assert poll["X-Project-Gone"] == "1" and "HX-Refresh" not in poll
    assert viewer_client.get(url).status_code == 404
    assert "X-Project-Gone" not in viewer_client.get(url)
    # Asking for the proof, or a download, meets the same 404.
    assert viewer_client.post(url, **HTMX).status_code == 404
    for tail in ("script.py", "terraform.zip", "plan.txt"):
        assert viewer_client.get(url.replace("/?", f"/{tail}?")).status_code == 404


@pytest.mark.django_db
def test_a_proof_queued_for_a_deleted_project_ends_quietly(migrated, caplog):
    project_id = migrated.pk
    project_services.project_delete(project=migrated)
    migration_proofs.migration_proof_run(project_id=project_id, first=1, second=2)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.django_db
def test_a_project_deleted_while_its_proof_runs(
    migrated, owner_client: Client, viewer_client: Client, monkeypatch, caplog
):
    key = _key(migrated)
    url = _url(migrated)
    real = migration_proofs.plan_migration

    def deleted_meanwhile(*args, **kwargs):
        # The owner deletes the project once the worker has read it.
        project_services.project_delete(project=migrated)
        return real(*args, **kwargs)

    monkeypatch.setattr(migration_proofs, "plan_migration", deleted_meanwhile)
    response = viewer_client.post(url, **HTMX)  # the task runs at once here
    assert response.status_code == 204
    # The worker finished without a traceback and left nothing pending.
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert cache.get(migration_proofs._pending(key)) is None
    poll = viewer_client.get(url, **HTMX)
    assert poll.status_code == 404 and poll["X-Project-Gone"] == "1"


@pytest.mark.django_db
def test_a_revision_named_while_the_tab_is_open_keeps_its_proof(
    migrated, viewer_client: Client
):
    viewer_client.post(_url(migrated))
    history_services.revision_label_set(project=migrated, number=1, label="launch")
    page = viewer_client.get(_url(migrated), **HTMX).content.decode()
    assert "<strong>Proven on the sample data</strong>" in page


@pytest.mark.django_db
def test_a_poll_for_a_revision_that_is_not_there_reloads_into_a_404(
    migrated, viewer_client: Client
):
    # htmx swaps no 404 and would poll for ever: it reloads instead.
    url = f"/projects/{migrated.pk}/history/compare/migration/?before=1&after=9"

    poll = viewer_client.get(url, **HTMX)

    assert poll.status_code == 404 and poll["HX-Refresh"] == "true"
    assert "X-Project-Gone" not in poll
