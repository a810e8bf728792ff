"""A review is shown for the revision asked, never for another: the pack
of an earlier revision shows that revision's design and findings while the
current design differs, and the Review page shows the current one."""

from __future__ import annotations

import dataclasses

import pytest
from django.test import Client

from modeler.design.edits import AccessPatternUpdate
from modeler.editor.services import design_edit
from tests.views.conftest import stored_design
from tests.views.starting import start_jobs

OLD = "All open orders, oldest first"
NEW = "Every order still open, oldest first"


@pytest.mark.django_db
def test_each_revision_shows_its_own_review(project, editor, editor_client: Client):
    pattern = next(p for p in stored_design(project).access_patterns if p.name == OLD)
    project.refresh_from_db()
    design_edit(
        project=project,
        version=project.version,
        author=editor,
        edit=AccessPatternUpdate(
            uid=pattern.uid, pattern=dataclasses.replace(pattern, name=NEW)
        ),
    )
    project.refresh_from_db()
    assert project.version == 2
    # The current design's review is made first: a page of revision 1 must
    # not take it.
    start_jobs(editor_client, project)
    start_jobs(editor_client, project, 1)

    first = editor_client.get(f"/projects/{project.pk}/reviews/pack/1/")
    html = first.content.decode()
    assert first.status_code == 200
    assert "Review pack of revision 1" in html
    # The finding about the pattern (its fetch-back advice) is revision 1's.
    assert OLD in html and NEW not in html

    second = editor_client.get(f"/projects/{project.pk}/reviews/pack/2/")
    html = second.content.decode()
    assert "Review pack of revision 2" in html
    assert NEW in html and OLD not in html

    current = editor_client.get(f"/projects/{project.pk}/review/").content.decode()
    assert NEW in current
    # The old name only in the Undo button that offers the rename back.
    assert current.count(OLD) == current.count(f"renamed access pattern {OLD}")
