"""A revision's review pack shows the migration from the newest revision
approved before it (taken as the one deployed): the plan's steps, its
cost and the proof's verdict, made by a worker as the review is (the pack
waits for both). A share link shows its own revision alone."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from modeler.jobs.migration_proofs import migration_proof_find
from modeler.services import projects as project_services
from modeler.services import reviews as review_services
from modeler.services.projects import project_revision_design
from tests.evolution import revisions
from tests.views.conftest import project_at_two_revisions, project_with_members


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def approved_then_changed(owner, editor, viewer):
    """Revision 1 approved; revision 2 adds a GSI for a new pattern."""
    project = project_with_members(
        revisions.smaller(revisions.original(), 3),
        owner=owner,
        editor=editor,
        viewer=viewer,
    )
    session = review_services.session_open(
        project=project, author=owner, number=1, title="Launch"
    )
    review_services.session_decide(session=session, user=editor, status="approved")
    project_services.project_save_design(
        project=project,
        design=revisions.smaller(revisions.gsi_added(), 3),
        version=project.version,
        author=owner,
    )
    project.refresh_from_db()
    return project


def _pack(client: Client, project, number: int = 2, **kwargs):
    return client.get(f"/projects/{project.pk}/reviews/pack/{number}/", **kwargs)


@pytest.mark.django_db
def test_the_pack_shows_the_migration_from_the_approved_revision(
    approved_then_changed, viewer_client: Client
):
    project = approved_then_changed
    page = _text(_pack(viewer_client, project))
    # A GET asks nothing: the pack's button makes the review and the proof.
    assert "(being made)" in page and "Make the review pack" in page
    assert "The migration from revision 1, the one approved" in page
    response = viewer_client.post(f"/projects/{project.pk}/reviews/pack/2/")
    assert response.status_code == 302

    page = _text(_pack(viewer_client, project))
    assert "(being made)" not in page
    assert "<h2>Migration from revision 1</h2>" in page
    assert "<strong>Proven on the sample data.</strong>" in page
    assert "create GSI GSI4" in page
    cost = re.search(r"data-pack-migration-cost>\$([0-9.]+)<", page)
    assert cost is not None and float(cost.group(1)) > 0
    # The download carries it too.
    download = _text(_pack(viewer_client, project, data={"download": "1"}))
    assert "<h2>Migration from revision 1</h2>" in download


@pytest.mark.django_db
def test_no_migration_without_an_approved_revision_before(
    owner, editor, viewer, viewer_client: Client
):
    project = project_at_two_revisions(
        revisions.smaller(revisions.original(), 3),
        revisions.smaller(revisions.gsi_added(), 3),
        owner=owner,
        editor=editor,
        viewer=viewer,
    )
    viewer_client.post(f"/projects/{project.pk}/reviews/pack/2/")
    page = _text(_pack(viewer_client, project))
    assert "(being made)" not in page
    assert "Migration from revision" not in page
    # Revision 1's own pack, approved or not, has none either (nothing before).
    session = review_services.session_open(
        project=project, author=owner, number=1, title="Launch"
    )
    review_services.session_decide(session=session, user=editor, status="approved")
    viewer_client.post(f"/projects/{project.pk}/reviews/pack/1/")
    assert "Migration from revision" not in _text(_pack(viewer_client, project, 1))


@pytest.mark.django_db
def test_a_proof_that_could_not_be_made_is_said_in_the_pack(
    approved_then_changed, owner_client: Client, settings
):
    settings.SIMULATION_CPU_SECONDS = 0.001
    owner_client.post(f"/projects/{approved_then_changed.pk}/reviews/pack/2/")
    settings.SIMULATION_CPU_SECONDS = 120
    page = _text(_pack(owner_client, approved_then_changed))
    assert "<h2>Migration from revision 1</h2>" in page
    assert "The proof passed the 0 s CPU budget of a simulation" in page


@pytest.mark.django_db
def test_a_share_link_shows_its_revision_alone(approved_then_changed, owner):
    project = approved_then_changed
    _, token = review_services.share_link_create(
        project=project, author=owner, number=2, days=7, include_comments=False
    )
    client = Client()
    client.post(f"/share/{token}/")
    page = _text(client.get(f"/share/{token}/"))
    assert "(being made)" not in page
    assert "Migration from revision" not in page
    # Nothing was asked of a worker for it.
    state = migration_proof_find(
        project=project,
        before=project_revision_design(project=project, number=1),
        after=project_revision_design(project=project, number=2),
    )
    assert state.to_start
