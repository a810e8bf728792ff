"""The Migration tab of a revision that re-sorts an index the deployed
revision reads: the plan as asked is not proven, and the tab offers the
proven way instead (the index rebuilt beside itself), to download, and to
an editor to save as the next revision, after which the tab plans the
migration to it. Outsiders get 404, viewers may download but not save, a
save over changes made since is refused."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.test import Client

from modeler.designfile import read_design
from modeler.jobs import migration_proofs
from modeler.services import projects as project_services
from modeler.services.projects import project_revision_design
from tests.evolution import revisions
from tests.views.conftest import (
    logged_in,
    project_at_two_revisions,
)


def _from_the_example(second, owner, editor, viewer):
    """Revision 1, the example (small); revision 2 the example edited as
    `second` makes it (small)."""
    return project_at_two_revisions(
        revisions.smaller(revisions.original(), 3),
        revisions.smaller(second(), 3),
        owner=owner,
        editor=editor,
        viewer=viewer,
    )


@pytest.fixture
def resorted(owner, editor, viewer):
    """Revision 2 sorts a customer's orders in a status by order id on GSI1,
    which revision 1 reads by date."""
    return _from_the_example(revisions.index_resorted, owner, editor, viewer)


def _url(project, tail: str = "", before: int = 1, after: int = 2) -> str:
    return (
        f"/projects/{project.pk}/history/compare/migration/{tail}"
        f"?before={before}&after={after}"
    )


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _proven(client: Client, project, before: int = 1, after: int = 2) -> str:
    """The tab once the worker has made the plan (tasks run at once here)."""
    client.post(_url(project, before=before, after=after))
    return _text(client.get(_url(project, before=before, after=after)))


@pytest.mark.django_db
def test_the_tab_offers_the_proven_way_and_an_editor_saves_it(
    resorted, editor_client: Client
):
    page = _proven(editor_client, resorted)
    assert "Not proven: patterns of the deployed design failing" in page
    assert "A proven way instead" in page
    assert "GSI GSI1 rebuilt beside itself as GSI4 (GSI1PK -&gt; GSI4PK" in page
    assert "UpdateTable: delete GSI GSI1 (no version reads it any more; before" in page
    assert "Save it as revision 3" in page

    download = editor_client.get(_url(resorted, "alternative.yaml"))
    assert download.status_code == 200
    assert "-r1-r2-alternative.yaml" in download["Content-Disposition"]
    design = read_design(download.content).design
    assert design is not None
    assert [i.name for i in design.table.indexes] == ["GSI4", "GSI2", "GSI3"]

    response = editor_client.post(_url(resorted, "alternative/save/"))
    assert response.status_code == 302
    assert response["Location"] == _url(resorted, after=3)
    resorted.refresh_from_db()
    assert resorted.version == 3
    saved = project_revision_design(project=resorted, number=3)
    assert saved.table.index("GSI4") is not None and saved.table.index("GSI1") is None
    assert saved.entity("Order").keys["GSI4SK"].template == "ORDER#{orderId}"
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert message.startswith("Saved revision 3: revision 2 with GSI1 rebuilt")
    # The compare of revision 1 to it plans the migration, proven.
    page = _proven(editor_client, resorted, after=3)
    assert "<strong>Proven on the sample data</strong>." in page
    assert "A proven way instead" not in page
    history = _text(editor_client.get(f"/projects/{resorted.pk}/history/"))
    assert (
        "GSI1 rebuilt beside itself as GSI4 (the proven migration from revision 1)"
        in history
    )


@pytest.mark.django_db
def test_a_viewer_may_download_it_but_not_save_it(resorted, viewer_client: Client):
    page = _proven(viewer_client, resorted)
    assert "A proven way instead" in page and "Download that design" in page
    assert "Save it as revision" not in page
    assert viewer_client.get(_url(resorted, "alternative.yaml")).status_code == 200
    assert viewer_client.post(_url(resorted, "alternative/save/")).status_code == 403
    resorted.refresh_from_db()
    assert resorted.version == 2


@pytest.mark.django_db
def test_outsiders_get_404_and_the_save_needs_csrf(
    resorted, outsider_client: Client, owner_client: Client, editor
):
    _proven(owner_client, resorted)
    assert outsider_client.get(_url(resorted, "alternative.yaml")).status_code == 404
    assert outsider_client.post(_url(resorted, "alternative/save/")).status_code == 404
    client = logged_in(editor, enforce_csrf_checks=True)
    assert client.post(_url(resorted, "alternative/save/")).status_code == 403
    resorted.refresh_from_db()
    assert resorted.version == 2


@pytest.mark.django_db
def test_a_save_over_changes_made_since_is_refused(
    resorted, owner, editor_client: Client
):
    page = _proven(editor_client, resorted)
    assert "Save it as revision 3" in page
    # The owner saves revision 3 while the editor looks at the tab.
    project_services.project_save_design(
        project=resorted,
        design=revisions.smaller(revisions.index_resorted(), 4),
        version=2,
        author=owner,
    )
    response = editor_client.post(_url(resorted, "alternative/save/"))
    assert response.status_code == 302
    assert response["Location"] == _url(resorted)
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert message == (
        "The alternative was not saved: revision 2 is no longer the latest "
        "(revision 3 is): compare revision 3 to plan its migration"
    )
    resorted.refresh_from_db()
    assert resorted.version == 3
    page = _text(editor_client.get(_url(resorted)))
    assert "Save it as revision" not in page
    assert "Revision 2 is not the latest (revision 3 is)" in page


@pytest.mark.django_db
def test_a_plan_proven_as_asked_offers_nothing_else(
    owner, editor, viewer, editor_client: Client
):
    project = _from_the_example(revisions.gsi_added, owner, editor, viewer)
    page = _proven(editor_client, project)
    assert "<strong>Proven on the sample data</strong>." in page
    assert "A proven way instead" not in page
    assert editor_client.get(_url(project, "alternative.yaml")).status_code == 404
    assert editor_client.post(_url(project, "alternative/save/")).status_code == 404


@pytest.mark.django_db
def test_a_proven_plan_with_an_outage_offers_the_way_without_it(
    owner, editor, viewer, editor_client: Client
):
    project = _from_the_example(revisions.index_reprojected, owner, editor, viewer)
    page = _proven(editor_client, project)
    assert "<strong>Proven on the sample data</strong>." in page
    assert "the deployed version&#x27;s queries of it fail: All open orders" in page
    assert "A way without the outage" in page
    assert (
        "GSI GSI2 rebuilt beside itself as GSI4: made again under its own name" in page
    )
    editor_client.post(_url(project, "alternative/save/"))
    saved = project_revision_design(project=project, number=3)
    assert saved.table.index("GSI4").projection.type == "ALL"
    assert saved.table.index("GSI2") is None


@pytest.mark.django_db
def test_while_the_alternative_is_proven_the_tab_says_so(
    resorted, owner_client: Client
):
    before = project_revision_design(project=resorted, number=1)
    after = project_revision_design(project=resorted, number=2)
    key = migration_proofs._key(resorted, before, after)
    cache.set(migration_proofs._pending(key), ("beside:rewriting", 40, 160), 60)
    page = _text(owner_client.get(_url(resorted)))
    assert (
        "proving the way with the index rebuilt beside itself: running the "
        "migration script on it, 40 of 160"
    ) in page
