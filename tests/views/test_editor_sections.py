"""The editor's sections (Overview, Table & indexes, Entities, Access
patterns): every role's view of them, full page and htmx partial, the query
counts that keep them fast, and the navigation between them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from modeler.models import Project
from modeler.services import projects as project_services
from tests.views.conftest import example_design

HTMX = {"HTTP_HX_REQUEST": "true"}

SECTIONS = [
    ("project-detail", "Design check"),
    ("editor-table", "Secondary indexes"),
    ("editor-entities", "Live preview"),
    ("editor-patterns", "Orders of a customer, newest first"),
]


def _url(name: str, project: Project, *args: object) -> str:
    return reverse(name, args=[project.pk, *args])


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "text"), SECTIONS)
@pytest.mark.parametrize("who", ["owner", "editor", "viewer"])
def test_members_see_every_section(
    request: pytest.FixtureRequest, project: Project, name: str, text: str, who: str
) -> None:
    client: Client = request.getfixturevalue(f"{who}_client")
    response = client.get(_url(name, project))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and 'class="tabs"' in html
    assert text in html or name == "project-detail"
    assert 'aria-current="page"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "text"), SECTIONS)
def test_htmx_gets_the_section_without_the_page(
    owner_client: Client, project: Project, name: str, text: str
) -> None:
    response = owner_client.get(_url(name, project), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert 'class="tabs"' in html  # the header and its tabs come along


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "text"), SECTIONS)
def test_outsiders_get_404(
    outsider_client: Client, project: Project, name: str, text: str
) -> None:
    assert outsider_client.get(_url(name, project)).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "text"), SECTIONS)
def test_anonymous_users_are_sent_to_log_in(
    project: Project, name: str, text: str
) -> None:
    response = Client().get(_url(name, project))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "text"), SECTIONS)
def test_sections_read_in_a_fixed_number_of_queries(
    owner: User, owner_client: Client, project: Project, name: str, text: str
) -> None:
    """Session, user, project with its design (prefetched), role: the same
    count for the order-management example as for the smaller social graph."""
    small = project_services.project_create(
        owner=owner, design=example_design("social-graph")
    )
    large = _queries(owner_client, _url(name, project))
    assert large == _queries(owner_client, _url(name, small))
    assert large <= 12


@pytest.mark.django_db
def test_viewers_see_forms_disabled_and_no_edit_buttons(
    viewer_client: Client, project: Project
) -> None:
    html = viewer_client.get(_url("editor-table", project)).content.decode()
    assert "disabled" in html
    assert "Save table" not in html and "Add an index" not in html
    html = viewer_client.get(_url("editor-patterns", project)).content.decode()
    assert "Add an access pattern" not in html and ">Edit<" not in html


@pytest.mark.django_db
def test_every_tab_links_to_its_section(owner_client: Client, project: Project) -> None:
    html = owner_client.get(_url("editor-table", project)).content.decode()
    for name in (
        "project-detail",
        "editor-table",
        "editor-entities",
        "editor-patterns",
        "simulation-page",
        "project-members",
    ):
        assert f'href="{_url(name, project)}"' in html
