"""Undo and Redo in the project header: each user takes back their own
changes, labelled by what they did; viewers see no buttons and cannot post;
outsiders get 404."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from modeler import services
from tests.views.conftest import stored_design
from tests.views.test_history_services import _describe, _rename

HTMX = {"HTTP_HX_REQUEST": "true"}


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.django_db
def test_undo_and_redo_from_the_header(project, editor, editor_client: Client):
    _rename(project, editor, "Order", "Purchase")
    url = f"/projects/{project.pk}/entities/"
    page = editor_client.get(url).content.decode()
    assert "Undo: renamed entity Order to Purchase" in page
    number = services.undo_state(project=project, user=editor).undo.number

    response = editor_client.post(
        f"/projects/{project.pk}/undo/", {"number": number}, HTTP_REFERER=url
    )

    assert response.status_code == 302 and response["Location"] == url
    assert _messages(response) == [
        "Undid: renamed entity Order to Purchase and 7 more changes."
    ]
    assert stored_design(project).entity("Order") is not None
    page = editor_client.get(url).content.decode()
    assert "Redo: renamed entity Order to Purchase" in page
    redo = services.undo_state(project=project, user=editor).redo.number
    response = editor_client.post(f"/projects/{project.pk}/redo/", {"number": redo})
    assert response["Location"] == f"/projects/{project.pk}/"  # no referer
    assert stored_design(project).entity("Purchase") is not None


@pytest.mark.django_db
def test_a_stale_undo_button_changes_nothing(project, editor, editor_client: Client):
    _describe(project, editor, "Customer", "first")
    stale = services.undo_state(project=project, user=editor).undo.number
    _describe(project, editor, "Customer", "second")

    response = editor_client.post(f"/projects/{project.pk}/undo/", {"number": stale})

    assert _messages(response) == [
        "Your latest change is now “changed entity Customer (description)”; "
        "reload the page."
    ]
    assert stored_design(project).entity("Customer").description == "second"
    response = editor_client.post(f"/projects/{project.pk}/undo/", {})
    assert _messages(response)[-1] == (
        "The page sent no change to take back; reload it."
    )


@pytest.mark.django_db
def test_undo_of_what_someone_changed_since_is_refused(
    project, owner, editor, editor_client: Client
):
    _describe(project, editor, "Customer", "by the editor")
    number = services.undo_state(project=project, user=editor).undo.number
    _describe(project, owner, "Customer", "then by the owner")

    response = editor_client.post(f"/projects/{project.pk}/undo/", {"number": number})

    [message] = _messages(response)
    assert message.startswith("Not undone: owner changed entity Customer since")
    assert stored_design(project).entity("Customer").description == (
        "then by the owner"
    )


@pytest.mark.django_db
def test_the_undo_bar_follows_saves(project, editor, editor_client: Client):
    bar = f"/projects/{project.pk}/undo-bar/"
    assert "Nothing of yours to undo" in editor_client.get(bar, **HTMX).content.decode()
    _describe(project, editor, "Customer", "described")
    html = editor_client.get(bar, **HTMX).content.decode()
    assert "Undo: changed entity Customer (description)" in html
    assert 'hx-trigger="designSaved from:body"' in html


@pytest.mark.django_db
def test_viewers_and_outsiders_cannot_undo(
    project, editor, viewer_client: Client, outsider_client: Client
):
    _describe(project, editor, "Customer", "described")
    number = services.undo_state(project=project, user=editor).undo.number
    page = viewer_client.get(f"/projects/{project.pk}/").content.decode()
    assert "data-undo" not in page
    for client, status in ((viewer_client, 403), (outsider_client, 404)):
        for verb in ("undo", "redo"):
            response = client.post(
                f"/projects/{project.pk}/{verb}/", {"number": number}
            )
            assert response.status_code == status
    assert outsider_client.get(f"/projects/{project.pk}/undo-bar/").status_code == 404
    assert stored_design(project).entity("Customer").description == "described"


@pytest.mark.django_db
def test_undo_needs_csrf_and_post(project, editor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    _describe(project, editor, "Customer", "described")
    number = services.undo_state(project=project, user=editor).undo.number
    assert (
        client.post(f"/projects/{project.pk}/undo/", {"number": number}).status_code
        == 403
    )
    assert client.get(f"/projects/{project.pk}/undo/").status_code == 405
    assert stored_design(project).entity("Customer").description == "described"
