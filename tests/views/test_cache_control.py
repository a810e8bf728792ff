"""No cache keeps what the application answers (Cache-Control: private,
no-store); static files keep WhiteNoise's own caching."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from tests.views.starting import start_pack


def _no_store(response) -> bool:
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    return {"private", "no-store"} <= directives


def test_a_project_page_and_its_partial(project, viewer_client):
    page = viewer_client.get(f"/projects/{project.pk}/")
    partial = viewer_client.get(
        f"/projects/{project.pk}/undo-bar/", headers={"HX-Request": "true"}
    )
    assert page.status_code == partial.status_code == 200
    assert _no_store(page) and _no_store(partial)


def test_a_download(project, viewer_client):
    response = viewer_client.get(f"/projects/{project.pk}/design.yaml")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert _no_store(response)


def test_a_shared_pack_opened_without_an_account(project, owner_client):
    made = owner_client.post(
        f"/projects/{project.pk}/reviews/share-links/", {"number": 1}
    )
    [message] = [str(m) for m in get_messages(made.wsgi_request)]
    address = re.search(r"http://testserver(/share/[^ ]+/)", message)[1]

    start_pack(address)
    response = Client().get(address)

    assert response.status_code == 200
    assert "Review pack of revision 1" in response.content.decode()
    assert _no_store(response)


@pytest.mark.django_db
def test_the_login_page_and_a_refusal(client):
    assert _no_store(client.get("/login/"))
    assert _no_store(client.get("/projects/1/"))  # a redirect to the login


def test_static_files_keep_their_own_caching(settings):
    # Served from the source folders as under `make run`: WhiteNoise reads
    # the setting when a new client builds the middleware.
    settings.WHITENOISE_USE_FINDERS = True
    response = Client().get("/static/css/workbench.css")
    assert response.status_code == 200
    assert "max-age=" in response["Cache-Control"]
    assert "no-store" not in response["Cache-Control"]
