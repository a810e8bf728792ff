"""The compare of a rename, as the app makes it: each entity of each example
renamed through the entity form (the editor's save), then the History's
compare of the first and last revisions. Nothing but the names changes: the
cost, the verdicts and the findings are the same, the key map marks no cell,
and the downloaded diff says so too (issue 39 item 1)."""

from __future__ import annotations

import pytest
from django.test import Client

from modeler import examples as shipped
from modeler.models import Role
from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.starting import start_jobs
from tests.views.test_editor_edits import HTMX, _design, _url, entity_data


@pytest.mark.django_db
@pytest.mark.parametrize("slug", [e.slug for e in shipped.examples()])
def test_renaming_each_entity_in_the_editor_changes_no_figure_of_the_compare(
    slug: str, owner, viewer, owner_client: Client, viewer_client: Client
):
    project = project_services.project_from_example(
        owner=owner, example=shipped.example(slug)
    )
    member_services.membership_set(project=project, user=viewer, role=Role.VIEWER)
    names = [e.name for e in _design(project).entities]
    for name in names:
        data = entity_data(project, name, name=f"{name}Renamed")
        response = owner_client.post(_url("editor-entity", project, name), data, **HTMX)
        assert response.status_code == 200, response.content.decode()[:500]
    project.refresh_from_db()
    last = project.version
    assert [e.name for e in _design(project).entities] == [f"{n}Renamed" for n in names]

    start_jobs(viewer_client, project, 1, last)
    base = f"/projects/{project.pk}/history/compare/"
    query = f"?before=1&after={last}"
    outcome = viewer_client.get(base + "consequences/" + query, **HTMX)
    html = outcome.content.decode()
    assert "This change costs the same on demand." in html
    assert "verdict changed" not in html
    assert "Findings gone" not in html
    assert "New findings" not in html

    page = viewer_client.get(base + query).content.decode()
    for name in names:
        assert f"</span> entity {name}Renamed <span" in page
    assert "diff-keys-heading" not in page  # no template changed: none marked
    text = viewer_client.get(base + query + "&format=text").content.decode()
    assert "Consequences: This change costs the same on demand." in text
