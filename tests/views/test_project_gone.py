"""A project deleted, or a member taken off it, while one of its pages is
open in someone's browser: the page's polls and saves learn it from a 404
that says so (X-Project-Gone), which the page turns into a notice keeping
what was typed (tests/browser/test_teamwork_journey.py shows it)."""

from __future__ import annotations

import pytest
from django.test import Client

from modeler.models import Project
from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.test_editor_edits import HTMX, _design, _url, entity_data


@pytest.fixture
def open_page(project: Project, editor_client: Client) -> dict[str, str]:
    """What the editor's LineItem page holds as it was loaded."""
    return entity_data(project, "LineItem", description="Typed meanwhile")


def _presence(client: Client, url: str, **headers: str):
    return client.post(url, {"version": 1}, **headers)


def test_the_polls_and_saves_of_a_deleted_projects_page_say_it_is_gone(
    project, editor_client, open_page
):
    pk, presence = project.pk, _url("presence", project)
    entity = _url("editor-entity", project, "LineItem")
    project_services.project_delete(project=project)

    poll = _presence(editor_client, presence, **HTMX)
    save = editor_client.post(entity, open_page, **HTMX)

    for answer in (poll, save):
        assert answer.status_code == 404
        assert answer["X-Project-Gone"] == "1"
    assert not Project.objects.filter(pk=pk).exists()


def test_a_member_taken_off_the_project_is_told_the_same(
    project, editor, editor_client, open_page
):
    membership = project.memberships.get(user=editor)
    member_services.membership_remove(project=project, membership_id=membership.pk)

    save = editor_client.post(
        _url("editor-entity", project, "LineItem"), open_page, **HTMX
    )

    assert save.status_code == 404 and save["X-Project-Gone"] == "1"
    assert _design(project).entity("LineItem").description != "Typed meanwhile"


def test_a_page_opened_without_htmx_is_the_404_page(project, editor_client):
    entity = _url("editor-entity", project, "LineItem")
    project_services.project_delete(project=project)

    page = editor_client.get(entity)

    assert page.status_code == 404
    assert "X-Project-Gone" not in page
    assert "<html" in page.content.decode()


def test_an_outsider_learns_nothing_more_than_from_a_missing_id(
    project, outsider_client
):
    theirs = _presence(outsider_client, _url("presence", project), **HTMX)
    missing = outsider_client.post("/projects/999999/presence/", {}, **HTMX)

    assert (theirs.status_code, theirs.content, theirs["X-Project-Gone"]) == (
        missing.status_code,
        missing.content,
        missing["X-Project-Gone"],
    )


def test_a_simulation_started_as_the_project_is_deleted_answers_it_is_gone(
    project, editor_client, monkeypatch
):
    # The page asks for the simulation as it loads; the owner deletes the
    # project (and its jobs) between the job's row and its queueing.
    from modeler.jobs import services as job_services

    queue = job_services.simulate_design

    class DeletedMeanwhile:
        def enqueue(self, *args):
            result = queue.enqueue(*args)
            project_services.project_delete(project=Project.objects.get())
            return result

    monkeypatch.setattr(job_services, "simulate_design", DeletedMeanwhile())
    url = _url("simulation-start", project)

    answer = editor_client.post(url, {}, **HTMX)

    assert answer.status_code == 404 and answer["X-Project-Gone"] == "1"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "page"])
def test_a_poll_that_writes_as_the_project_is_deleted_answers_it_is_gone(
    project, editor_client, monkeypatch, headers
):
    # The poll passed its check; the owner deletes the project before its
    # presence row is written, whose foreign key then fails at commit.
    from modeler.views import history

    check = history.selectors.project_get_for_user

    def deleted_meanwhile(**kwargs):
        access = check(**kwargs)
        project_services.project_delete(project=Project.objects.get())
        return access

    monkeypatch.setattr(history.selectors, "project_get_for_user", deleted_meanwhile)

    answer = _presence(editor_client, _url("presence", project), **headers)

    assert answer.status_code == 404
    assert answer.get("X-Project-Gone") == ("1" if headers else None)
