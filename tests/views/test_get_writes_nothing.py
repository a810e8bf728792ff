"""A GET changes nothing: every page and fragment the app answers to a GET,
opened by each kind of visitor (owner, editor, viewer, outsider, a share
link's reader, an anonymous one), writes no row. A link a mail scanner or
a prefetching browser follows, a page left open that polls, a reload: none
may start a job, record a visit or change an account. What a page needs
done (a simulation to run, a review marked read, a presence announced) a
POST asks for."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from modeler import selectors
from modeler.design import model as d
from modeler.examples import examples
from modeler.exporters.formats import EXPORT_FORMATS
from modeler.jobs import services as jobs
from modeler.models import Project, Revision
from modeler.services import accounts as account_services
from modeler.services import members as member_services
from modeler.services import projects as project_services
from modeler.services import reviews as review_services
from modeler.views.editor_findings import SECTIONS
from tests.views.conftest import logged_in, project_with_members

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")

# The GETs that still write, by URL name, and what they write: each is
# work left (issue 31 step 5), and leaves this list once it writes no more
# (the test fails while a name here writes nothing, so the list only
# shrinks). A GET not named here must write nothing.
STILL_WRITING = {
    # Django's own view: it keeps the token in the session and redirects,
    # so that the token leaves the address bar (and the Referer).
    "password_reset_confirm": "keeps the reset token in the session",
}

# Pages whose answer depends on their query string as much as on their path.
QUERIES = {
    "diagrams-page": ["", "?kind=collections", "?kind=overview"],
    "diagram-download": ["", "?kind=collections"],
    "collections-page": ["", "?index=", "?pk=x"],
    "history-compare": ["", "?before=1&after=2"],
    "history-consequences": ["", "?before=1&after=2"],
    "simulation-progress": ["", "?shown=0"],
}


def _names(
    patterns: list[URLPattern | URLResolver], prefix: str = ""
) -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _names(pattern.url_patterns, prefix + str(pattern.pattern))
        elif pattern.name:
            yield pattern.name, prefix + str(pattern.pattern)


@pytest.fixture
def visited(
    owner: User, editor: User, viewer: User, small_design: d.Design, settings
) -> dict:
    """A project with a second revision, a review with a comment, a share
    link, an invitation and a finished simulation job; and every value a
    URL of the app takes, for it."""
    project = project_with_members(
        small_design, owner=owner, editor=editor, viewer=viewer
    )
    _second_revision(project)
    session = review_services.session_open(
        project=project, author=owner, number=1, title="Keys"
    )
    comment = review_services.comment_add(session=session, author=editor, body="Why?")
    _, token = review_services.share_link_create(
        project=project, author=owner, number=1, days=None
    )
    mailed: list[str] = []
    member_services.invitation_send(
        project=project,
        email="new@example.com",
        role="viewer",
        invited_by=owner,
        link=lambda path: mailed.append(path) or path,
    )
    invitation = project.invitations.get()
    account_services.account_email_change_request(
        user=viewer,
        email="moved@example.com",
        link=lambda path: mailed.append(path) or path,
    )
    invitation_path, email_path = mailed
    job = jobs.simulation_job_rerun(
        project=project,
        design=small_design,
        user=owner,
        revision=Revision.objects.get(project=project, number=1),
    )
    waiting = User.objects.create_user("waiting", "w@example.com", is_active=False)
    uid = urlsafe_base64_encode(force_bytes(viewer.pk))
    # Queued, not run: a view that queues a task would write its row.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    return {
        "project": project,
        "values": {
            "project_id": project.pk,
            "position": 0,
            # Revision 1 has its simulation job, revision 2 none yet.
            "number": [1, 2],
            "job_id": job.pk,
            "pk": session.pk,
            "comment_id": comment.pk,
            "membership_id": project.memberships.first().pk,
            "invitation_id": invitation.pk,
            "name": small_design.entities[0].name,
            "slug": examples()[0].slug,
            "token": token,
        },
        # The links the app mails: each with its own token.
        "mailed": {
            "invitation-accept": invitation_path,
            "account-email-confirm": email_path,
            "signup-confirm": account_services.confirmation_path(waiting),
            "password_reset_confirm": reverse(
                "password_reset_confirm",
                args=[uid, default_token_generator.make_token(viewer)],
            ),
        },
    }


def _second_revision(project: Project) -> None:
    design = selectors.project_design(project=project)
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(
            design,
            sample_data=dataclasses.replace(design.sample_data, seed=7),
        ),
        version=project.version,
        author=project.owner,
    )


def _paths(values: dict, mailed: dict) -> Iterator[tuple[str, str]]:
    """Every URL of the app, filled in with `values` (several for the
    parameters that pick a kind of page), the mailed links as mailed."""
    for name, route in _names(get_resolver().url_patterns):
        if name in mailed:
            yield name, mailed[name]
            continue
        choices: dict[str, list[str]] = {}
        for part in route.split("<")[1:]:
            key = part.split(">")[0].split(":")[-1]
            if key == "section":
                choices[key] = list(SECTIONS)
            elif key == "format_name":
                choices[key] = list(EXPORT_FORMATS)
            elif key == "fmt":
                choices[key] = ["svg", "dot", "png"]
            elif key in values:
                given = values[key]
                choices[key] = (
                    [str(v) for v in given] if isinstance(given, list) else [str(given)]
                )
            else:
                raise AssertionError(f"No value for <{key}> of the URL {name}")
        yield from _filled(name, route, choices)


def _filled(
    name: str, route: str, choices: dict[str, list[str]]
) -> Iterator[tuple[str, str]]:
    paths = ["/" + route]
    for key, options in choices.items():
        paths = [_put(path, key, option) for path in paths for option in options]
    for path in paths:
        for query in QUERIES.get(name, [""]):
            yield name, path + query


def _put(path: str, key: str, value: str) -> str:
    start = path.index("<")
    while path[start:].split(">")[0].split(":")[-1] != key:
        start = path.index("<", start + 1)
    end = path.index(">", start)
    return path[:start] + value + path[end + 1 :]


def _writes(user: User | None, path: str, **headers: str) -> list[str]:
    """What a GET of `path` by `user` (None: anonymous) writes; rolled
    back after, so that each GET is seen on the same data."""
    with transaction.atomic():
        client = Client() if user is None else logged_in(user)
        with CaptureQueriesContext(connection) as queries:
            client.get(path, headers=headers)
        transaction.set_rollback(True)
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(WRITES)
    ]


@pytest.mark.django_db
def test_no_get_writes(
    visited: dict, owner: User, editor: User, viewer: User, outsider: User
) -> None:
    users = {
        "owner": owner,
        "editor": editor,
        "viewer": viewer,
        "outsider": outsider,
        "anonymous": None,
    }
    found: dict[str, list[str]] = {}
    for name, path in _paths(visited["values"], visited["mailed"]):
        for role, user in users.items():
            for headers in ({}, {"HX-Request": "true"}):
                for sql in _writes(user, path, **headers):
                    found.setdefault(name, []).append(
                        f"{role} GET {path} {headers or ''}: {sql[:120]}"
                    )
    new = {name: writes for name, writes in found.items() if name not in STILL_WRITING}
    assert not new, "\n".join(w for writes in new.values() for w in writes)
    # A GET that writes no more leaves the list.
    assert set(STILL_WRITING) - set(found) == set()
