"""Review sessions: owners and editors open a review on a revision; every
member comments on the design's elements (comments follow renames and show
as outdated when the element changed since), replies, resolves; owners and
editors approve, and the Overview then says when the design changed since
the approved revision. Outsiders get 404, viewers cannot open or approve."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.test import Client

from modeler.design.edits import AccessPatternUpdate, EntityUpdate
from modeler.editor.services import design_edit
from modeler.history.elements import elements
from modeler.models import ReviewComment, ReviewSession, ShareLink
from tests.views.conftest import stored_design
from tests.views.starting import start_jobs
from tests.views.test_history_services import _describe, _rename

SCRIPT = "<script>alert(1)</script>"


def _open(client: Client, project, **data) -> ReviewSession:
    response = client.post(
        f"/projects/{project.pk}/reviews/",
        {"title": "Design review", "number": project.version, **data},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return ReviewSession.objects.latest("pk")


def _entity_id(project, name: str) -> str:
    found = elements(stored_design(project))
    return next(i for i, e in found.items() if e.kind == "entity" and e.name == name)


@pytest.mark.django_db
def test_open_a_review_comment_reply_and_resolve(
    project, editor, viewer, editor_client: Client, viewer_client: Client
):
    session = _open(editor_client, project, participants=[viewer.pk])
    assert session.revision.number == project.version
    assert list(session.participants.all()) == [viewer]
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    order = _entity_id(project, "Order")

    # A viewer comments on an entity; the editor replies.
    response = viewer_client.post(
        url + "comments/", {"element": order, "body": "Why ORDER# first?"}
    )
    assert response.status_code == 302
    comment = ReviewComment.objects.get(parent=None)
    assert response["Location"].endswith(f"#comment-{comment.pk}")
    assert comment.element_label == "entity Order"
    editor_client.post(url + "comments/", {"parent": comment.pk, "body": "Sorting."})
    html = viewer_client.get(url).content.decode()
    assert "<h3>Entity Order</h3>" in html
    assert "Why ORDER# first?" in html and "Sorting." in html

    # The author resolves it; the viewer cannot resolve someone else's.
    other = ReviewComment.objects.create(
        session=session, author=editor, body="x", written_at=1
    )
    forbidden = viewer_client.post(
        url + f"comments/{other.pk}/resolve/", {"resolved": "true"}
    )
    assert forbidden.status_code == 403
    viewer_client.post(url + f"comments/{comment.pk}/resolve/", {"resolved": "true"})
    comment.refresh_from_db()
    assert comment.resolved


@pytest.mark.django_db
def test_comments_follow_renames_and_show_when_outdated(
    project, editor, editor_client: Client
):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    customer = _entity_id(project, "Customer")
    order = _entity_id(project, "Order")
    editor_client.post(url + "comments/", {"element": customer, "body": "Fine."})
    editor_client.post(url + "comments/", {"element": order, "body": "Rename?"})
    html = editor_client.get(url).content.decode()
    assert "outdated" not in html

    _rename(project, editor, "Order", "Purchase")
    _describe(project, editor, "Customer", "changed since")

    html = editor_client.get(url).content.decode()
    # The page shows revision 1, where it was Order, and its name now.
    assert (
        '<h3>Entity Order <span class="muted small">now entity Purchase</span></h3>'
        in html
    )
    assert html.count("outdated: changed since") == 2
    assert "The design changed since revision 1" in html


@pytest.mark.django_db
def test_approval_and_changed_since_on_the_overview(
    project, owner, editor, owner_client: Client, viewer_client: Client
):
    session = _open(owner_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    assert (
        viewer_client.post(url + "status/", {"status": "approved"}).status_code == 403
    )
    owner_client.post(url + "status/", {"status": "approved"})
    session.refresh_from_db()
    assert (session.status, session.decided_by) == ("approved", owner)
    overview = f"/projects/{project.pk}/"
    assert (
        "data-changed-since-approval"
        not in viewer_client.get(overview).content.decode()
    )

    _describe(project, editor, "Customer", "after the approval")

    html = viewer_client.get(overview).content.decode()
    assert "Changed since the approved revision 1" in html
    assert "approved by owner" in html
    assert "?before=1&amp;after=2" in html


@pytest.mark.django_db
def test_bad_input_is_refused_and_escaped(project, editor_client: Client):
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/", {"title": "", "number": 99}
    )
    assert response.status_code == 422
    assert not ReviewSession.objects.exists()
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/", {"title": "R", "number": 99}
    )
    assert response.status_code == 422
    assert "The project has no revision 99." in response.content.decode()
    session = _open(editor_client, project, title=SCRIPT)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    response = editor_client.post(url + "comments/", {"element": "nope", "body": "x"})
    assert response.status_code == 422
    assert "The reviewed revision has no such element." in response.content.decode()
    editor_client.post(url + "comments/", {"body": SCRIPT})
    html = editor_client.get(url).content.decode()
    assert SCRIPT not in html
    assert html.count("&lt;script&gt;") >= 2
    whole = html.split('id="whole-review"')[1].split("</section>")[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in whole


@pytest.mark.django_db
def test_review_access_rules(
    project, editor_client: Client, viewer_client: Client, outsider_client: Client
):
    session = _open(editor_client, project)
    base = f"/projects/{project.pk}/reviews/"
    url = f"{base}{session.pk}/"
    assert viewer_client.get(base).status_code == 200
    assert "Open a review" not in viewer_client.get(base).content.decode()
    assert viewer_client.post(base, {"title": "x", "number": 1}).status_code == 403
    for path in (base, url):
        assert outsider_client.get(path).status_code == 404
        anonymous = Client().get(path)
        assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    for path in (url + "comments/", url + "status/"):
        assert outsider_client.post(path, {"body": "x"}).status_code == 404
    assert viewer_client.get(f"{base}999/").status_code == 404
    assert ReviewComment.objects.count() == 0


@pytest.mark.django_db
def test_review_posts_need_csrf(project, editor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    base = f"/projects/{project.pk}/reviews/"
    assert client.post(base, {"title": "x", "number": 1}).status_code == 403
    assert not ReviewSession.objects.exists()


@pytest.mark.django_db
def test_mentions_email_the_members_named(
    project, owner, editor, viewer, outsider, editor_client: Client, mailoutbox
):
    for user in (owner, viewer, outsider):
        user.email = f"{user.username}@example.com"
        user.save()
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    editor_client.post(
        url + "comments/",
        {
            "element": _entity_id(project, "Order"),
            "body": f"@viewer and @owner, see this. @{outsider.username} is no member.",
        },
    )
    assert sorted(m.to[0] for m in mailoutbox) == [
        "owner@example.com",
        "viewer@example.com",
    ]
    message = mailoutbox[0]
    assert message.subject == "editor mentioned you in the review “Design review”"
    assert "on entity Order" in message.body
    assert f"http://testserver{url}" in message.body


@pytest.mark.django_db
def test_unread_counts_follow_visits(
    project, editor_client: Client, viewer_client: Client
):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    editor_client.post(url + "comments/", {"body": "One."})
    editor_client.post(url + "comments/", {"body": "Two."})
    reviews = f"/projects/{project.pk}/reviews/"
    assert "2 unread" in viewer_client.get(reviews).content.decode()
    # The author's own comments are not unread for them.
    assert "data-unread" not in editor_client.get(reviews).content.decode()
    page = viewer_client.get(url)
    # Opening the page marks nothing; the POST it makes as it loads does.
    assert "2 unread" in viewer_client.get(reviews).content.decode()
    shown = page.context["shown"].isoformat()
    assert viewer_client.post(url + "seen/", {"shown": shown}).status_code == 204
    assert "data-unread" not in viewer_client.get(reviews).content.decode()
    editor_client.post(url + "comments/", {"body": "Three."})
    assert "1 unread" in viewer_client.get(reviews).content.decode()


# --- The review pack and share links -----------------------------------------------


def _share(client: Client, project, **data) -> str:
    from django.contrib.messages import get_messages

    response = client.post(
        f"/projects/{project.pk}/reviews/share-links/",
        {"number": 1, **data},
    )
    assert response.status_code == 302, response.content.decode()[:400]
    [message] = [str(m) for m in get_messages(response.wsgi_request)][-1:]
    return re.search(r"http://testserver(/share/[^ ]+/)", message)[1]


@pytest.mark.django_db
def test_the_review_pack_is_one_self_contained_page(
    project, editor, viewer_client: Client
):
    start_jobs(viewer_client, project)
    response = viewer_client.get(f"/projects/{project.pk}/reviews/pack/1/?download=1")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('-r1-review.html"')
    policy = response["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script" not in policy
    html = response.content.decode()
    assert "<script" not in html and "<link" not in html
    assert "<h2>Design overview</h2>" in html and "<svg" in html
    assert "Review pack of revision 1" in html
    assert "CUST#{customerId}" in html  # the key map
    assert "Orders of a customer, newest first" in html
    assert 'class="passes"' in html
    assert (
        viewer_client.get(f"/projects/{project.pk}/reviews/pack/9/").status_code == 404
    )


@pytest.mark.django_db
def test_a_share_link_shows_the_pack_without_an_account(
    project, owner, editor, owner_client: Client
):
    _describe(project, editor, "Customer", "After the link was made")
    address = _share(owner_client, project)
    anonymous = Client()
    # The pack's pending page asks to make it: a POST scoped to the token.
    assert "Make the review pack" in anonymous.get(address).content.decode()
    made = anonymous.post(address)
    assert made.status_code == 302 and made["Location"] == address
    response = anonymous.get(address)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Review pack of revision 1" in html and "share link (read-only)" in html
    assert "After the link was made" not in html  # revision 1, not the current
    link = ShareLink.objects.get()
    assert link.created_by == owner
    assert address.split("/")[2] not in str(ShareLink.objects.values_list())
    # It reaches nothing else: not the project, not its writes.
    assert anonymous.get(f"/projects/{project.pk}/").status_code == 302
    members_pack = f"/projects/{project.pk}/reviews/pack/1/"
    assert "/login/" in anonymous.post(members_pack)["Location"]
    listing = owner_client.get(f"/projects/{project.pk}/reviews/share-links/")
    assert f"<code>{link.prefix}…</code>" in listing.content.decode()


@pytest.mark.django_db
def test_revoked_expired_and_unknown_links_are_404(project, owner_client: Client):
    from datetime import timedelta

    from django.utils import timezone

    revoked = _share(owner_client, project)
    link = ShareLink.objects.get()
    owner_client.post(f"/projects/{project.pk}/reviews/share-links/{link.pk}/revoke/")
    assert Client().get(revoked).status_code == 404
    expiring = _share(owner_client, project, days=1)
    ShareLink.objects.filter(revoked=None).update(
        expires=timezone.now() - timedelta(seconds=1)
    )
    assert Client().get(expiring).status_code == 404
    assert Client().get("/share/not-a-token/").status_code == 404
    assert Client().get("/share/" + "x" * 200 + "/").status_code == 404


@pytest.mark.django_db
def test_only_owners_make_and_revoke_links(
    project, owner_client: Client, editor_client: Client, outsider_client: Client
):
    base = f"/projects/{project.pk}/reviews/share-links/"
    assert editor_client.get(base).status_code == 403
    assert editor_client.post(base, {"number": 1}).status_code == 403
    assert outsider_client.get(base).status_code == 404
    _share(owner_client, project)
    link = ShareLink.objects.get()
    assert editor_client.post(f"{base}{link.pk}/revoke/").status_code == 403
    link.refresh_from_db()
    assert link.revoked is None
    response = owner_client.post(base, {"number": 99})
    assert response.status_code == 422
    assert ShareLink.objects.count() == 1
    client = Client(enforce_csrf_checks=True)
    client.force_login(project.owner)
    assert client.post(base, {"number": 1}).status_code == 403


@pytest.mark.django_db
def test_comments_on_a_key_template_and_an_attribute(
    project, editor, editor_client: Client
):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    order = _entity_id(project, "Order")
    page = editor_client.get(url).content.decode()
    # A control in the key map's cell, and one beside the attribute.
    assert f'name="element" value="{order}/key/SK">' in page
    assert "Comment on key template SK of entity Order</label>" in page
    total = next(
        a
        for a in stored_design(project).entity("Order").attributes
        if a.name == "total"
    )
    editor_client.post(url + "comments/", {"element": f"{order}/key/SK", "body": "a"})
    editor_client.post(
        url + "comments/", {"element": f"{order}/attr/{total.uid}", "body": "b"}
    )

    # Only the key template changes: only its comment is outdated.
    project.refresh_from_db()
    entity = stored_design(project).entity("Order")
    keys = dict(entity.keys)
    keys["SK"] = dataclasses.replace(keys["SK"], template="ORDER#{orderId}")
    design_edit(
        project=project,
        version=project.version,
        author=editor,
        edit=EntityUpdate("Order", dataclasses.replace(entity, keys=keys)),
    )

    html = editor_client.get(url).content.decode()
    assert "<h3>Key template SK of entity Order</h3>" in html
    assert "<h4>Attribute Order.total</h4>" in html
    assert html.count("outdated: changed since") == 1
    sections = html.split("<h3>")
    [key_section] = [x for x in sections if x.startswith("Key template SK")]
    assert "outdated" in key_section


@pytest.mark.django_db
def test_comments_on_a_finding(project, editor_client: Client):
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    start_jobs(editor_client, project)
    page = editor_client.get(url).content.decode()
    # Each finding has its control; two findings of one kind are told
    # apart by where they are.
    labels = re.findall(r"Comment on (finding “[^<]+)</label>", page)
    assert len(labels) == len(set(labels)) >= 2
    pattern = next(
        p
        for p in stored_design(project).access_patterns
        if p.name == "All open orders, oldest first"
    )
    [(finding_id, label)] = re.findall(
        rf'value="(finding/fetch-back/{pattern.uid})">\s*'
        r'<label for="[^"]+">Comment on (finding [^<]+)</label>',
        page,
    )
    assert label.endswith("on access pattern All open orders, oldest first (advice)")
    response = editor_client.post(
        url + "comments/", {"element": finding_id, "body": "Accepted: KEYS_ONLY."}
    )
    assert response.status_code == 302
    start_jobs(editor_client, project)
    html = editor_client.get(url).content.decode()
    [section] = [
        part
        for part in html.split('<section class="reviewed-element finding')
        if "on pattern All open orders, oldest first" in part.split("</h3>")[0]
    ]
    assert "Accepted: KEYS_ONLY." in section
    assert "outdated" not in html and "removed since" not in html


@pytest.mark.django_db
def test_a_comment_on_a_finding_is_outdated_only_when_its_element_changed(
    project, editor, editor_client: Client
):
    # Its evidence's numbers move with any edit of the sample data: fewer
    # customers, fewer open orders to fetch back. The finding is the same.
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    pattern = next(
        p
        for p in stored_design(project).access_patterns
        if p.name == "All open orders, oldest first"
    )
    finding_id = f"finding/fetch-back/{pattern.uid}"
    start_jobs(editor_client, project)
    response = editor_client.post(
        url + "comments/", {"element": finding_id, "body": "Accepted: KEYS_ONLY."}
    )
    assert response.status_code == 302
    customer = stored_design(project).entity("Customer")
    fewer = dataclasses.replace(
        customer.sample, count=dataclasses.replace(customer.sample.count, value=50)
    )
    project.refresh_from_db()
    design_edit(
        project=project,
        version=project.version,
        author=editor,
        edit=EntityUpdate("Customer", dataclasses.replace(customer, sample=fewer)),
    )
    start_jobs(editor_client, project)
    html = editor_client.get(url).content.decode()
    assert "Accepted: KEYS_ONLY." in html
    assert "outdated" not in html and "gone since" not in html

    # The pattern itself changes: the comment is outdated.
    project.refresh_from_db()
    design_edit(
        project=project,
        version=project.version,
        author=editor,
        edit=AccessPatternUpdate(
            uid=pattern.uid, pattern=dataclasses.replace(pattern, limit=50)
        ),
    )
    start_jobs(editor_client, project)
    html = editor_client.get(url).content.decode()
    assert html.count("outdated: changed since") == 1


@pytest.mark.django_db
def test_a_comment_on_a_finding_written_by_name_before_is_still_on_it(
    project, editor, editor_client: Client
):
    # Comments written before findings were anchored to their element's id
    # named the element: they are read by the name it had then.
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    start_jobs(editor_client, project)  # the review of the revision, by its job
    ReviewComment.objects.create(
        session=session,
        author=editor,
        element="finding/fetch-back/pattern/All open orders, oldest first",
        element_label="finding “old label” (advice)",
        body="Written by name.",
        written_at=project.version,
    )
    html = editor_client.get(url).content.decode()
    assert "Written by name." in html
    assert "gone since" not in html and "outdated" not in html
    assert "old label" not in html  # the finding's label now


@pytest.mark.django_db
def test_a_review_made_while_the_page_is_read_is_not_told_as_no_findings(
    project, editor_client: Client, monkeypatch
):
    """The page reads the design review once: were it made between two
    looks (under load, once), the page said "finds nothing to change" and
    stopped asking, though it has findings."""
    from modeler.services import reviews

    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    start_jobs(editor_client, project)
    real = reviews.design_review_get
    looks: list[int] = []

    def made_meanwhile(**kwargs):
        found = real(**kwargs)
        looks.append(1)
        # The first look finds it still being made; the later ones made.
        return dataclasses.replace(found, review=None) if len(looks) == 1 else found

    monkeypatch.setattr(reviews, "design_review_get", made_meanwhile)

    first = editor_client.get(url).content.decode()
    again = editor_client.get(url).content.decode()

    assert "is being made with its simulation" in first
    assert "finds nothing to change" not in first
    assert '<section class="reviewed-element finding' in again
