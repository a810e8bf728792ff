"""A review meeting the team can trust: comments written beside the part of
the revision they are about, unread counts in every project page's header,
a commenter told whom an @mention reached and whom it did not, "changed
since the approved revision" by content, and an owner's rule that the
author of a revision cannot approve it."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from modeler.models import ReviewComment, ReviewSession
from modeler.services import history as history_services
from modeler.services import reviews as sessions
from tests.views.conftest import stored_design
from tests.views.starting import start_jobs
from tests.views.test_history_services import _describe, _rename
from tests.views.test_review_sessions import _entity_id, _open

pytestmark = pytest.mark.django_db


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- Comments from the element itself ------------------------------------------------


def test_every_part_of_the_revision_has_its_comment_control(
    project, editor_client: Client
):
    session = _open(editor_client, project)
    start_jobs(editor_client, project)
    html = editor_client.get(f"/projects/{project.pk}/reviews/{session.pk}/").content
    html = html.decode()
    # No list of every element to choose from: a control beside each.
    assert "<select" not in html
    controls = re.findall(r'name="element" value="([^"]+)"', html)
    design = stored_design(project)
    order = _entity_id(project, "Order")
    assert "table" in controls
    assert {i.uid for i in design.table.indexes} <= set(controls)
    assert {e.uid for e in design.entities} <= set(controls)
    assert {p.uid for p in design.access_patterns} <= set(controls)
    assert {f"{order}/key/{name}" for name in design.entity("Order").keys} <= set(
        controls
    )
    assert sum(c.startswith("finding/") for c in controls) >= 2
    assert len(controls) == len(set(controls))
    # The key map's cell holds its control.
    cell = html.split(f'name="element" value="{order}/key/SK"')[0].rsplit("<td", 1)[1]
    assert 'class="keymap-cell"' in cell and "ORDER#{orderDate}#{orderId}" in cell


def test_a_comment_made_beside_a_pattern_lands_under_it(
    project, viewer_client: Client, editor_client: Client
):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    pattern = stored_design(project).access_patterns[2]
    response = viewer_client.post(
        url + "comments/", {"element": pattern.uid, "body": "Why Limit 20?"}
    )
    assert response.status_code == 302
    html = viewer_client.get(url).content.decode()
    [block] = [
        part
        for part in html.split('<section class="reviewed-element"')
        if f"<h3>{pattern.name}</h3>" in part
    ]
    assert "Why Limit 20?" in block
    comment = ReviewComment.objects.get()
    assert comment.element_label == f"access pattern {pattern.name}"


def test_a_refused_comment_comes_back_beside_its_element(
    project, editor_client: Client
):
    session = _open(editor_client, project)
    order = _entity_id(project, "Order")
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/comments/",
        {"element": order, "body": "x" * 5001},
    )
    assert response.status_code == 422
    html = response.content.decode()
    control = html.split(f'name="element" value="{order}"')[0].rsplit("<details", 1)[1]
    assert " open>" in control  # the control is open again
    after = html.split(f'name="element" value="{order}"')[1].split("</form>")[0]
    assert "x" * 5001 in after  # with the text as typed
    assert 'role="alert"' in after
    assert not ReviewComment.objects.exists()


# --- Unread counts in the header --------------------------------------------------


def test_the_project_header_counts_unread_comments_on_every_page(
    project, editor_client: Client, viewer_client: Client
):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    for body in ("One.", "Two.", "Three."):
        editor_client.post(url + "comments/", {"body": body})
    for page in ("", "entities/", "history/", "simulation/"):
        html = viewer_client.get(f"/projects/{project.pk}/{page}").content.decode()
        assert re.search(
            r"Reviews <span class=\"badge badge-unread\" data-header-unread>3"
            r"<span class=\"visually-hidden\"> unread comments</span>",
            html,
        ), page
    # Not one's own comments; none once read.
    assert (
        "data-header-unread"
        not in editor_client.get(f"/projects/{project.pk}/").content.decode()
    )
    # The review's own page counts none of the comments it shows as unread,
    # and the POST it makes as it loads marks them read.
    page = viewer_client.get(url)
    assert "data-header-unread" not in page.content.decode()
    shown = page.context["shown"].isoformat()
    assert viewer_client.post(url + "seen/", {"shown": shown}).status_code == 204
    assert (
        "data-header-unread"
        not in viewer_client.get(f"/projects/{project.pk}/").content.decode()
    )


def test_the_unread_count_is_one_query(project, viewer, editor_client: Client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    session = _open(editor_client, project)
    for n in range(5):
        other = _open(editor_client, project)
        editor_client.post(
            f"/projects/{project.pk}/reviews/{other.pk}/comments/", {"body": f"{n}"}
        )
    editor_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/comments/", {"body": "x"}
    )
    with CaptureQueriesContext(connection) as queries:
        assert sessions.unread_count(project=project, user=viewer) == 6
    assert len(queries) == 1


# --- Who an @mention reached ------------------------------------------------------


def test_the_commenter_is_told_who_was_notified_and_who_was_not(
    project, owner, editor, viewer, outsider, editor_client: Client, mailoutbox
):
    owner.email = "owner@example.com"
    owner.save()
    viewer.email = ""  # as the demo account: no address
    viewer.save()
    outsider.email = "outsider@example.com"
    outsider.save()
    session = _open(editor_client, project)
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/comments/",
        {"body": "@owner, @viewer, @nobody and @outsider: see this. @editor too."},
    )
    assert response.status_code == 302
    assert [m.to for m in mailoutbox] == [["owner@example.com"]]
    added, missed = _messages(response)[-2:]
    assert added == "Comment added. Emailed owner."
    # A non-member and a name nobody has read alike: the page does not say
    # which usernames exist. One's own name is no one to tell.
    assert missed == (
        "Not notified (@viewer: their account has no email address; @nobody: no "
        "member of this project has that username; @outsider: no member of this "
        "project has that username). Tell them another way if need be."
    )


def test_a_comment_mentioning_no_one_says_only_that_it_was_added(
    project, editor_client: Client
):
    session = _open(editor_client, project)
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/comments/",
        {"body": "Write to ann@example.com about it."},
    )
    assert _messages(response)[-1:] == ["Comment added."]


# --- Changed since, by content -------------------------------------------------------


def test_restoring_the_approved_revision_is_not_a_change(
    project, owner, editor, owner_client: Client, viewer_client: Client
):
    session = _open(owner_client, project)
    owner_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/status/", {"status": "approved"}
    )
    _describe(project, editor, "Customer", "after the approval")
    _rename(project, editor, "Order", "Purchase")
    overview = f"/projects/{project.pk}/"
    review = f"/projects/{project.pk}/reviews/{session.pk}/"
    assert "data-changed-since-approval" in viewer_client.get(overview).content.decode()
    assert "data-changed-since" in viewer_client.get(review).content.decode()

    history_services.revision_restore(project=project, user=editor, number=1)
    project.refresh_from_db()
    assert project.version == 4
    assert (
        "data-changed-since-approval"
        not in viewer_client.get(overview).content.decode()
    )
    assert "data-changed-since" not in viewer_client.get(review).content.decode()

    # Another edit is a change again.
    _describe(project, editor, "Customer", "again")
    assert (
        "Changed since the approved revision 1"
        in viewer_client.get(overview).content.decode()
    )


# --- Approval by someone other than the author -------------------------------------


def test_an_owner_can_require_an_approval_by_someone_other_than_the_author(
    project, owner, editor, owner_client: Client, editor_client: Client
):
    _describe(project, editor, "Customer", "the editor's change")
    project.refresh_from_db()
    session = _open(editor_client, project)
    assert session.revision.author == editor
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    rule = f"/projects/{project.pk}/reviews/approval-rule/"

    response = owner_client.post(rule, {"approval_by_other": "on"})
    assert response.status_code == 302
    project.refresh_from_db()
    assert project.approval_by_other

    page = editor_client.get(url).content.decode()
    assert "data-approval-refusal" in page
    assert re.search(r'value="approved" class="[^"]*" disabled', page)
    response = editor_client.post(url + "status/", {"status": "approved"})
    assert _messages(response)[-1].startswith(
        "You saved revision 2, and this project needs an approval by someone "
        "other than the revision's author"
    )
    session.refresh_from_db()
    assert session.status == "open" and session.decided_by is None
    # The author may still ask for changes; someone else approves.
    editor_client.post(url + "status/", {"status": "changes_requested"})
    owner_client.post(url + "status/", {"status": "approved"})
    session.refresh_from_db()
    assert (session.status, session.decided_by) == ("approved", owner)

    # Without the rule, the author approves their own revision.
    owner_client.post(rule, {})
    project.refresh_from_db()
    assert not project.approval_by_other
    editor_client.post(url + "status/", {"status": "open"})
    editor_client.post(url + "status/", {"status": "approved"})
    session.refresh_from_db()
    assert (session.status, session.decided_by) == ("approved", editor)


def test_only_the_owner_sets_the_approval_rule(
    project,
    editor_client: Client,
    viewer_client: Client,
    outsider_client: Client,
    owner,
):
    rule = f"/projects/{project.pk}/reviews/approval-rule/"
    assert editor_client.post(rule, {"approval_by_other": "on"}).status_code == 403
    assert viewer_client.post(rule, {"approval_by_other": "on"}).status_code == 403
    assert outsider_client.post(rule, {"approval_by_other": "on"}).status_code == 404
    assert viewer_client.get(rule).status_code == 405
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(owner)
    assert csrf.post(rule, {"approval_by_other": "on"}).status_code == 403
    project.refresh_from_db()
    assert not project.approval_by_other
    assert ReviewSession.objects.count() == 0


# --- The minutes of one review -------------------------------------------------------


def _minutes_ready(client: Client, url: str) -> str:
    """Asks for what the minutes need (jobs run at once in tests), then
    reads them."""
    assert client.get(url).status_code == 202  # nothing asked by a GET
    response = client.post(url + "prepare/", headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == url, response.content.decode()[:400]
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_minutes_are_of_one_review_as_it_was_held(
    project, owner, owner_client: Client, editor, editor_client: Client, viewer_client
):
    other = _open(editor_client, project, title="Another review")
    other_url = f"/projects/{project.pk}/reviews/{other.pk}/"
    editor_client.post(other_url + "comments/", {"body": "Not in these minutes."})
    session = _open(editor_client, project, title="Key design review")
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    order = _entity_id(project, "Order")
    editor_client.post(
        url + "comments/", {"element": order, "body": "Why the date first?"}
    )
    thread = ReviewComment.objects.latest("pk")
    viewer_client.post(
        url + "comments/", {"parent": thread.pk, "body": "To sort by date."}
    )
    owner_client.post(url + f"comments/{thread.pk}/resolve/", {"resolved": "true"})
    owner_client.post(url + "status/", {"status": "approved"})
    _rename(project, editor, "Order", "Purchase")

    html = _minutes_ready(viewer_client, url + "minutes/")
    assert "<h1>Key design review</h1>" in html
    assert re.search(r"data-minutes-status>.*Approved.*by owner", html)
    # Every thread with its replies, resolved ones too, named as at the
    # reviewed revision; nothing of the other review.
    assert "Why the date first?" in html and "To sort by date." in html
    assert "<h3>Entity Order</h3>" in html and "Purchase" not in html
    assert "Not in these minutes." not in html
    assert "The design has changed since revision 1." in html
    # The findings with their evidence, and the item collections drawn.
    assert '<ul aria-label="Evidence">' in html
    assert html.count("data-pack-collections") == 1 + len(
        stored_design(project).table.indexes
    )
    assert "<script" not in html

    download = viewer_client.get(url + "minutes/?download=1")
    assert download["Content-Disposition"].endswith('-r1-minutes.html"')
    assert "script" not in download["Content-Security-Policy"]


def test_who_may_read_and_prepare_the_minutes(
    project, editor_client: Client, viewer, viewer_client, outsider_client: Client
):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/minutes/"
    assert outsider_client.get(url).status_code == 404
    assert outsider_client.post(url + "prepare/").status_code == 404
    assert Client().get(url).status_code == 302  # to the login page
    assert (
        viewer_client.get(f"/projects/{project.pk}/reviews/999/minutes/").status_code
        == 404
    )
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(viewer)
    assert csrf.post(url + "prepare/").status_code == 403
    assert csrf.get(url).status_code == 202
    # Without script, the page's form asks, and leads to the minutes.
    assert "Prepare the minutes</button>" in viewer_client.get(url).content.decode()
    response = viewer_client.post(url + "prepare/")
    assert (response.status_code, response["Location"]) == (302, url)
    assert viewer_client.get(url).status_code == 200
