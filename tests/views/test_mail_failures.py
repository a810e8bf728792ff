"""Names with line breaks, and mail servers that fail: an invitation is
kept only if its email left (else the form says why and nothing is saved);
a comment is kept whatever its mention emails do, and the page says who was
not told; names typed on one line stay on one line."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from modeler.models import Invitation, Project, ReviewComment, ReviewSession
from tests.mail_backends import BOUNCING_DOMAIN
from tests.views.test_review_sessions import _entity_id, _open

pytestmark = pytest.mark.django_db

UNREACHABLE = "tests.mail_backends.UnreachableBackend"
BOUNCING = "tests.mail_backends.BouncingBackend"


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _invite(client: Client, project, email: str = "new@example.com"):
    return client.post(
        f"/projects/{project.pk}/members/", {"email": email, "role": "viewer"}
    )


# --- Invitations ---------------------------------------------------------------------


def test_an_invitation_to_a_project_named_over_two_lines_is_mailed(
    project, owner_client: Client, mailoutbox
):
    # A row written before names were kept on one line.
    Project.objects.filter(pk=project.pk).update(name="Shop\r\nBcc: x@example.com")
    response = _invite(owner_client, project)
    assert response.status_code == 302
    [message] = mailoutbox
    assert message.subject == (
        "Single-table workbench: join the project Shop Bcc: x@example.com"
    )
    assert "Bcc" not in message.message()
    assert message.to == ["new@example.com"]
    assert Invitation.objects.get().email == "new@example.com"


def test_an_invitation_whose_email_fails_saves_nothing_and_says_why(
    project, owner_client: Client, settings
):
    settings.EMAIL_BACKEND = UNREACHABLE
    response = _invite(owner_client, project)
    assert response.status_code == 422
    html = response.content.decode()
    assert (
        "The invitation email could not be sent: ConnectionRefusedError: "
        "[Errno 111] Connection refused. Nothing was saved" in html
    )
    assert 'value="new@example.com"' in html  # the form keeps the input
    assert not Invitation.objects.exists()


def test_a_failed_new_invitation_leaves_the_earlier_one_working(
    project, owner_client: Client, outsider_client: Client, mailoutbox, settings
):
    _invite(owner_client, project)
    [first] = mailoutbox
    link = re.search(r"http://testserver(/invitations/\S+/)", first.body)[1]
    settings.EMAIL_BACKEND = UNREACHABLE
    assert _invite(owner_client, project).status_code == 422
    # The invitation sent before still works: the failed one replaced nothing.
    assert outsider_client.post(link).status_code == 302
    assert project.memberships.filter(user__username="outsider").exists()


def test_a_refused_address_is_not_kept_as_invited(
    project, owner_client: Client, settings
):
    settings.EMAIL_BACKEND = BOUNCING
    response = _invite(owner_client, project, f"nobody{BOUNCING_DOMAIN}")
    assert response.status_code == 422
    assert "SMTPRecipientsRefused" in response.content.decode()
    assert not Invitation.objects.exists()


# --- Mentions in review comments -----------------------------------------------------


def _members_with_email(*users, domain: str = "@example.com") -> None:
    for user in users:
        user.email = f"{user.username}{domain}"
        user.save()


def test_mentions_in_a_review_titled_over_two_lines_are_mailed(
    project, owner, viewer, editor_client: Client, mailoutbox
):
    _members_with_email(owner, viewer)
    session = _open(editor_client, project)
    ReviewSession.objects.filter(pk=session.pk).update(title="Design\nreview")
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/comments/",
        {"element": _entity_id(project, "Order"), "body": "@owner @viewer look"},
    )
    assert response.status_code == 302
    assert sorted(m.to[0] for m in mailoutbox) == [
        "owner@example.com",
        "viewer@example.com",
    ]
    assert mailoutbox[0].subject == "editor mentioned you in the review “Design review”"
    # Who was told, and no warning.
    assert _messages(response)[-1] == "Comment added. Emailed owner and viewer."


def test_a_comment_whose_mention_email_fails_is_kept_and_says_who(
    project, owner, viewer, editor_client: Client, mailoutbox, settings
):
    settings.EMAIL_BACKEND = BOUNCING
    _members_with_email(owner)
    _members_with_email(viewer, domain=BOUNCING_DOMAIN)
    session = _open(editor_client, project)
    response = editor_client.post(
        f"/projects/{project.pk}/reviews/{session.pk}/comments/",
        {"body": "@owner and @viewer, see this."},
    )
    assert response.status_code == 302
    assert ReviewComment.objects.get().body == "@owner and @viewer, see this."
    assert [m.to for m in mailoutbox] == [["owner@example.com"]]
    [added, warning] = _messages(response)[-2:]
    assert added == "Comment added. Emailed owner."
    assert warning.startswith(
        "The comment is saved, but the email telling viewer could not be sent: "
        "SMTPRecipientsRefused"
    )
    assert "owner" not in warning.split(":")[0]


def test_with_the_mail_server_down_a_comment_names_everyone_not_told(
    project, owner, viewer, editor_client: Client, settings
):
    settings.EMAIL_BACKEND = UNREACHABLE
    _members_with_email(owner, viewer)
    session = _open(editor_client, project)
    url = f"/projects/{project.pk}/reviews/{session.pk}/"
    response = editor_client.post(
        url + "comments/", {"body": "@viewer @owner ok?"}, follow=True
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "@viewer @owner ok?" in html  # on the page, kept
    assert (
        "the email telling viewer, owner could not be sent: ConnectionRefusedError"
        in html
    )


# --- Names typed on one line ---------------------------------------------------------


def test_a_project_name_sent_with_line_breaks_is_kept_on_one_line(
    owner_client: Client,
):
    response = owner_client.post(
        "/projects/new/", {"name": "Shop\r\nnew\tone", "description": "a\nb"}
    )
    assert response.status_code == 302
    project = Project.objects.get()
    assert project.name == "Shop new one"
    assert project.description == "a\nb"  # a description has lines
    refused = owner_client.post("/projects/new/", {"name": "\r\n\t"})
    assert refused.status_code == 422
    assert Project.objects.count() == 1


def test_a_design_file_named_over_two_lines_makes_a_one_line_project(
    owner_client: Client,
):
    from django.conf import settings

    text = (settings.BASE_DIR / "examples" / "order-management.yaml").read_text()
    text = text.replace("name: Order management", 'name: "Order\\nmanagement"', 1)
    response = owner_client.post("/projects/import/", {"text": text})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Project.objects.get().name == "Order management"


def test_a_review_title_sent_with_line_breaks_is_kept_on_one_line(
    project, editor_client: Client
):
    session = _open(editor_client, project, title="Design\r\nreview")
    assert session.title == "Design review"


# --- Sign-up -------------------------------------------------------------------------


def test_a_sign_up_whose_email_fails_keeps_no_account_and_says_why(settings, client):
    """An account nobody can confirm would hold its username and address;
    the form says the email failed and the same sign-up works later."""
    from django.contrib.auth.models import User

    settings.EMAIL_BACKEND = UNREACHABLE
    data = {
        "username": "newbie",
        "email": "newbie@example.com",
        "password1": "a long enough secret 1",
        "password2": "a long enough secret 1",
    }
    response = client.post("/signup/", data)
    assert response.status_code == 503
    html = response.content.decode()
    assert "The confirmation email could not be sent" in html
    assert 'value="newbie"' in html
    assert not User.objects.filter(username="newbie").exists()

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert client.post("/signup/", data).status_code == 200
    assert User.objects.get(username="newbie").is_active is False
