"""A request that meets the database going away (a restart, a failover)
answers 503 and says what happened, never a bare 500: an editor save
comes back with the input as typed and "nothing was saved. Try again.";
a request that cannot even load the page keeps the browser's form as it
is (htmx) or sends the same input again (a plain form)."""

from __future__ import annotations

import json
import re

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test import Client

from modeler.models import Project
from modeler.services import projects as project_services
from tests.views.conftest import stored_design
from tests.views.test_editor_edits import HTMX, _url, table_data

UNREACHABLE = "The database could not be reached; nothing was saved. Try again."


def _dropped(*args, **kwargs):
    raise OperationalError("terminating connection due to administrator command")


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_save_that_meets_the_database_going_away_keeps_the_input(
    owner_client: Client, project: Project, monkeypatch, htmx
):
    monkeypatch.setattr(project_services, "project_edit", _dropped)
    data = table_data(project, ttl_attribute="expiresAt")

    response = owner_client.post(
        _url("editor-table-update", project), data, **(HTMX if htmx else {})
    )

    assert response.status_code == 503
    html = response.content.decode()
    assert UNREACHABLE in html
    assert 'value="expiresAt"' in html and 'data-unsaved="true"' in html
    assert ("<html" in html) is not htmx  # the form's partial, or the page
    assert stored_design(project).table.ttl_attribute == ""
    assert project.version == 1


@pytest.mark.django_db
def test_a_move_that_meets_the_database_going_away_says_so(
    editor_client: Client, project: Project, monkeypatch
):
    monkeypatch.setattr(project_services, "project_edit", _dropped)

    response = editor_client.post(
        _url("editor-index-move", project, "GSI2"),
        {"version": project.version, "direction": "up"},
        **HTMX,
    )

    assert response.status_code == 503
    assert UNREACHABLE in response.content.decode()
    assert [i.name for i in stored_design(project).table.indexes][:2] == [
        "GSI1",
        "GSI2",
    ]


@pytest.fixture
def unreachable(monkeypatch):
    """The database failing before the view has anything to show (its first
    query meets the server restarting)."""
    monkeypatch.setattr("modeler.views.editor.load", _dropped)


@pytest.mark.django_db
def test_an_htmx_request_the_database_fails_keeps_the_page_as_it_is(
    owner_client: Client, project: Project, unreachable
):
    response = owner_client.post(
        _url("editor-table-update", project), table_data(project), **HTMX
    )

    assert response.status_code == 503
    assert response["HX-Reswap"] == "none"  # the form stays as typed
    assert response["Retry-After"] == "5"
    toast = json.loads(response["HX-Trigger"])["showMessage"]["messages"]
    assert toast == [{"message": UNREACHABLE, "level": "error"}]


@pytest.mark.django_db
def test_a_plain_form_the_database_fails_can_be_sent_again(
    owner_client: Client, project: Project, monkeypatch
):
    url = _url("editor-table-update", project)
    data = table_data(project, ttl_attribute="expiresAt", tags='team=<"orders">')
    with monkeypatch.context() as down:
        down.setattr("modeler.views.editor.load", _dropped)
        response = owner_client.post(url, data)

    assert response.status_code == 503
    html = response.content.decode()
    assert UNREACHABLE in html
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', html, re.S)
    assert form and form[1] == url
    sent = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form[2]))
    assert sent["ttl_attribute"] == "expiresAt"
    assert sent["tags"] == "team=&lt;&quot;orders&quot;&gt;"  # escaped
    assert sent["version"] == "1" and sent["csrfmiddlewaretoken"]
    # Sent again once the database is back: saved.
    again = {k: v for k, v in data.items()}
    assert owner_client.post(url, again).status_code == 302
    assert stored_design(project).table.ttl_attribute == "expiresAt"


@pytest.mark.django_db
def test_a_page_the_database_fails_says_to_reload(
    owner_client: Client, project: Project, unreachable
):
    response = owner_client.get(_url("editor-table", project))

    assert response.status_code == 503
    html = response.content.decode()
    assert "The database could not be reached" in html
    assert f'href="{_url("editor-table", project)}">Reload the page' in html


@pytest.mark.django_db(transaction=True)
def test_a_save_whose_connection_the_server_ends_answers_with_the_form(
    owner_client: Client, project: Project, monkeypatch
):
    """What a PostgreSQL restart does to a request under way: its
    connection is ended by the server. The save fails, the answer opens a
    new connection to show the form again."""
    if connection.vendor != "postgresql":
        pytest.skip("ends the request's PostgreSQL connection from another one")
    database = connection.settings_dict
    other = psycopg.connect(
        host=database["HOST"],
        port=database["PORT"] or 5432,
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname=database["NAME"],
        autocommit=True,
    )
    real_edit = project_services.project_edit

    def after_a_restart(**kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
        other.execute("SELECT pg_terminate_backend(%s, 10000)", [pid])
        return real_edit(**kwargs)

    monkeypatch.setattr(project_services, "project_edit", after_a_restart)
    try:
        response = owner_client.post(
            _url("editor-table-update", project),
            table_data(project, ttl_attribute="expiresAt"),
            **HTMX,
        )
    finally:
        other.close()

    assert response.status_code == 503
    html = response.content.decode()
    assert UNREACHABLE in html and 'value="expiresAt"' in html
    assert stored_design(project).table.ttl_attribute == ""
