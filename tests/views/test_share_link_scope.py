"""What a share link shows: its revision, and review comments only when its
owner ticked "Include the review comments" as they made it; then the
comments open in that revision's reviews at that moment, with their
replies, and nothing written, replied, resolved or renamed after. The pack
members download for a revision holds that revision's reviews only."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from modeler.models import Role, ShareLink
from modeler.services import members as member_services
from modeler.services import projects as project_services
from modeler.services import reviews as sessions
from tests.views.conftest import logged_in, stored_design
from tests.views.starting import start_jobs, start_pack
from tests.views.test_history_services import _rename
from tests.views.test_review_sessions import _entity_id

pytestmark = pytest.mark.django_db


def _share(client: Client, project, **data) -> str:
    response = client.post(
        f"/projects/{project.pk}/reviews/share-links/", {"number": 1, **data}
    )
    assert response.status_code == 302, response.content.decode()[:400]
    message = [str(m) for m in get_messages(response.wsgi_request)][-1]
    return re.search(r"http://testserver(/share/[^ ]+/)", message)[1]


def _comment(session, user, body, **kwargs):
    return sessions.comment_add(session=session, author=user, body=body, **kwargs)


@pytest.fixture
def discussed(project, owner, editor, viewer):
    """Revision 1 under review: an open thread on entity Order with a
    reply, a comment on the review as a whole, and one resolved already."""
    review = sessions.session_open(
        project=project, author=editor, number=1, title="First look"
    )
    thread = _comment(
        review, viewer, "Why ORDER# first?", element=_entity_id(project, "Order")
    )
    _comment(review, editor, "For sorting.", parent=thread)
    _comment(review, owner, "Looks sound overall.")
    settled = _comment(review, viewer, "Settled before the link.")
    sessions.comment_resolve(comment=settled, resolved=True)
    return review, thread


def _later_discussion(project, review, thread, owner, editor, viewer) -> None:
    """Everything that happens after the link is made."""
    _comment(review, editor, "A reply after the link.", parent=thread)
    _comment(review, owner, "A comment after the link.")
    sessions.comment_resolve(comment=thread, resolved=True)
    reopened = review.comments.get(body="Settled before the link.")
    sessions.comment_resolve(comment=reopened, resolved=False)
    # A review of revision 1 opened later, by a reviewer who joined later.
    late = User.objects.create_user(username="latecomer")
    member_services.membership_set(project=project, user=late, role=Role.VIEWER)
    again = sessions.session_open(
        project=project, author=late, number=1, title="Second pass"
    )
    _comment(again, late, "Opened after the link.")
    # The design moves on: a renamed entity, a renamed project, and a
    # review of the new revision with comments on an element and a finding.
    _rename(project, editor, "Order", "Purchase")
    design = stored_design(project)
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(design, name="Renamed later"),
        version=project.version,
    )
    project.refresh_from_db()
    newer = sessions.session_open(
        project=project, author=late, number=project.version, title="Rev 3 review"
    )
    _comment(
        newer, late, "On the renamed entity.", element=_entity_id(project, "Purchase")
    )
    start_jobs(logged_in(late), project)  # as the review's page does
    finding = next(
        t
        for t in sessions.targets(stored_design(project), project)
        if t.startswith("finding/")
    )
    _comment(newer, late, "On a finding of revision 3.", element=finding)


LATER = (
    "A reply after the link.",
    "A comment after the link.",
    "Opened after the link.",
    "Second pass",
    "latecomer",
    "Purchase",
    "Renamed later",
    "Rev 3 review",
    "On the renamed entity.",
    "On a finding of revision 3.",
)


def test_a_link_with_comments_shows_them_as_they_were_when_it_was_made(
    project, discussed, owner, editor, viewer, owner_client: Client
):
    review, thread = discussed
    address = _share(owner_client, project, include_comments="on")
    _later_discussion(project, review, thread, owner, editor, viewer)

    start_pack(address)
    html = Client().get(address).content.decode()
    assert "<h1>Order management</h1>" in html
    # Open then, with its reply; resolved since, which the link ignores.
    assert "Why ORDER# first?" in html and "For sorting." in html
    assert "Looks sound overall." in html
    assert "Entity Order" in html and "“First look”" in html
    # Resolved when the link was made; reopened since: not shared.
    assert "Settled before the link." not in html
    for later in LATER:
        assert later not in html, later
    assert html.index("Why ORDER# first?") < html.index("For sorting.")


def test_a_link_without_comments_shows_none(project, discussed, owner_client: Client):
    address = _share(owner_client, project)
    start_pack(address)
    html = Client().get(address).content.decode()
    assert "This link does not share the review comments." in html
    for body in ("Why ORDER# first?", "For sorting.", "Looks sound overall."):
        assert body not in html
    assert "First look" not in html and "viewer" not in html


def test_the_members_pack_of_a_revision_holds_that_revisions_reviews(
    project, discussed, owner, editor, viewer, viewer_client: Client
):
    review, thread = discussed
    _later_discussion(project, review, thread, owner, editor, viewer)
    start_jobs(viewer_client, project, 1)
    html = viewer_client.get(f"/projects/{project.pk}/reviews/pack/1/").content
    html = html.decode()
    # Revision 1's reviews as they are now: open threads with their replies.
    assert "Looks sound overall." in html and "A comment after the link." in html
    assert "Opened after the link." in html and "Settled before the link." in html
    assert "Why ORDER# first?" not in html  # resolved since
    assert "A reply after the link." not in html  # a reply in a resolved thread
    # Nothing of revision 3's review, nor of the renames since.
    for later in ("Rev 3 review", "On the renamed entity.", "On a finding of"):
        assert later not in html
    assert "Purchase" not in html and "Renamed later" not in html


def test_the_form_says_what_a_link_shows_and_the_list_what_each_shares(
    project, discussed, owner_client: Client
):
    page = f"/projects/{project.pk}/reviews/share-links/"
    html = owner_client.get(page).content.decode()
    assert 'type="checkbox" name="include_comments"' in html
    assert "Include the review comments" in html
    assert "Without it, no comment at all." in html
    assert "anything written, replied or resolved after you make the link" in html

    response = owner_client.post(page, {"number": 1, "include_comments": "on"})
    message = [str(m) for m in get_messages(response.wsgi_request)][-1]
    # The open thread, its reply, the comment on the whole review.
    assert "with its reviews' open comments (3, replies included)" in message
    response = owner_client.post(page, {"number": 1})
    message = [str(m) for m in get_messages(response.wsgi_request)][-1]
    assert "Share link to revision 1, without comments:" in message

    listing = owner_client.get(page).content.decode()
    assert "3 open when made" in listing and "not shared" in listing
    with_comments, without = ShareLink.objects.order_by("pk")
    assert with_comments.include_comments and not without.include_comments
    assert not without.comments.exists()


def _migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_links_made_before_the_choice_existed_show_no_comments(
    project, discussed, owner_client: Client
):
    address = _share(owner_client, project, include_comments="on")
    start_pack(address)
    assert "Why ORDER# first?" in Client().get(address).content.decode()
    # The link as every link was before 0016: then migrated.
    _migrate([("modeler", "0015_design_json_in_order")])
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes("modeler"))
    link = ShareLink.objects.get()
    assert not link.include_comments and not link.comments.exists()
    start_pack(address)
    html = Client().get(address).content.decode()
    assert "This link does not share the review comments." in html
    assert "Why ORDER# first?" not in html
