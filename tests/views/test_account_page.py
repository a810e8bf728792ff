"""The account page: changing the password (the session stays) and the
address (confirmed by a link mailed to the new one, which never tells
whether another account has it)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from tests.views.conftest import logged_in

NEW_PASSWORD = "another-horse-battery"


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _link(message) -> str:
    return re.search(r"http://testserver(/\S+)", message.body)[1]


@pytest.fixture
def owner_with_email(owner) -> User:
    owner.email = "owner@example.com"
    owner.save()
    return owner


def test_the_page_is_reached_from_the_header(owner_with_email, owner_client):
    home = owner_client.get("/").content.decode()
    assert '<a class="topbar-user" href="/account/"' in home

    response = owner_client.get("/account/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Your account" in html and "owner@example.com" in html
    for name in ("old_password", "new_password1", "new_password2", "email"):
        assert f'name="{name}"' in html


@pytest.mark.django_db
def test_it_needs_a_login(client):
    for url in ("/account/", "/account/password/", "/account/email/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/login/?next=")


def test_posts_only_and_csrf(owner):
    client = logged_in(owner, enforce_csrf_checks=True)
    assert client.get("/account/password/").status_code == 405
    assert client.get("/account/email/").status_code == 405
    assert (
        client.post(
            "/account/password/",
            {
                "old_password": "pw-owner",
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD,
            },
        ).status_code
        == 403
    )
    assert client.post("/account/email/", {"email": "x@example.com"}).status_code == 403


# --- Password ----------------------------------------------------------------------


def test_a_password_change_keeps_this_session_and_ends_the_others(owner):
    elsewhere = logged_in(owner)
    client = logged_in(owner)

    response = client.post(
        "/account/password/",
        {
            "old_password": "pw-owner",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )

    assert response.status_code == 302 and response["Location"] == "/account/"
    assert _messages(response) == [
        "Your password is changed. Other browsers logged in as you are logged out."
    ]
    assert client.get("/account/").status_code == 200
    assert elsewhere.get("/account/").status_code == 302
    fresh = Client()
    fresh.post("/login/", {"username": "owner", "password": NEW_PASSWORD})
    assert SESSION_KEY in fresh.session


@pytest.mark.parametrize(
    ("data", "field", "error"),
    [
        (
            {"old_password": "wrong"},
            "old_password",
            "That is not your current password.",
        ),
        (
            {"new_password2": "something-else-entirely"},
            "new_password2",
            "The two password fields didn’t match.",
        ),
        (
            {"new_password1": "password123", "new_password2": "password123"},
            "new_password2",
            "This password is too common.",
        ),
    ],
)
def test_a_refused_password_change_says_why(owner, owner_client, data, field, error):
    response = owner_client.post(
        "/account/password/",
        {
            "old_password": "pw-owner",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
            **data,
        },
    )
    assert response.status_code == 422
    assert error in response.context["password_form"].errors[field]
    owner.refresh_from_db()
    assert owner.check_password("pw-owner")


def test_wrong_current_passwords_count_as_failed_logins(owner, settings):
    client = logged_in(owner)
    data = {
        "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD,
        "old_password": "wrong",
    }
    statuses = [
        client.post("/account/password/", data, REMOTE_ADDR="198.51.100.7").status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses == [422] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    # Now refused even with the right one, from that address.
    right = client.post(
        "/account/password/",
        {**data, "old_password": "pw-owner"},
        REMOTE_ADDR="198.51.100.7",
    )
    assert right.status_code == 429
    owner.refresh_from_db()
    assert owner.check_password("pw-owner")


# --- Address -----------------------------------------------------------------------


def _change_email(client: Client, email: str):
    return client.post("/account/email/", {"email": email, "password": "pw-owner"})


def test_a_new_address_takes_effect_when_its_link_is_confirmed(
    owner_with_email, owner_client, mailoutbox
):
    response = _change_email(owner_client, "new@example.com")

    assert response.status_code == 302 and response["Location"] == "/account/"
    assert _messages(response) == [
        "We have sent a link to new@example.com: your address changes when you open it."
    ]
    [message] = mailoutbox
    assert message.to == ["new@example.com"]
    assert message.subject == "Single-table workbench: Confirm your new address"
    owner_with_email.refresh_from_db()
    assert owner_with_email.email == "owner@example.com"

    # Opening the link changes nothing (mail scanners open links)...
    page = owner_client.get(_link(message))
    assert page.status_code == 200
    assert "Make <strong>new@example.com</strong> the address" in page.content.decode()
    owner_with_email.refresh_from_db()
    assert owner_with_email.email == "owner@example.com"
    # ...its button does.
    done = owner_client.post(_link(message))
    assert done.status_code == 302
    assert _messages(done) == ["Your address is now new@example.com."]
    owner_with_email.refresh_from_db()
    assert owner_with_email.email == "new@example.com"
    # The old address is told.
    notice = mailoutbox[-1]
    assert notice.to == ["owner@example.com"]
    assert "is now new@example.com" in notice.body
    # The link is used up.
    assert owner_client.get(_link(message)).status_code == 404


def test_an_address_of_another_account_is_answered_alike(
    owner_with_email, owner_client, mailoutbox
):
    User.objects.create_user(username="other", email="Taken@example.com")
    free = _change_email(owner_client, "free@example.com")
    taken = _change_email(owner_client, "taken@example.com")

    assert taken.status_code == free.status_code == 302
    assert _messages(taken)[0].replace("taken", "free") == _messages(free)[0]
    # The address's owner learns, with no link that would change anything.
    message = mailoutbox[-1]
    assert message.to == ["taken@example.com"]
    assert "belongs to your account 'other'" in message.body
    assert "/account/email/confirm/" not in message.body
    owner_with_email.refresh_from_db()
    assert owner_with_email.email == "owner@example.com"


@pytest.mark.parametrize(
    ("data", "field", "error"),
    [
        ({"password": "wrong"}, "password", "That is not your current password."),
        ({"email": "OWNER@example.com"}, "email", "That is already your address."),
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
    ],
)
def test_a_refused_address_change_says_why_and_keeps_the_input(
    owner_with_email, owner_client, mailoutbox, data, field, error
):
    response = owner_client.post(
        "/account/email/", {"email": "new@example.com", "password": "pw-owner", **data}
    )
    assert response.status_code == 422
    assert response.context["email_form"].errors[field] == [error]
    assert f'value="{data.get("email", "new@example.com")}"' in (
        response.content.decode()
    )
    assert mailoutbox == []


def test_an_account_without_an_address_gets_one(owner, owner_client, mailoutbox):
    assert "None yet" in owner_client.get("/account/").content.decode()
    _change_email(owner_client, "first@example.com")
    owner_client.post(_link(mailoutbox[0]))
    owner.refresh_from_db()
    assert owner.email == "first@example.com"
    assert len(mailoutbox) == 1  # no old address to tell


def test_the_link_works_logged_out(owner_with_email, owner_client, mailoutbox):
    _change_email(owner_client, "new@example.com")
    phone = Client()
    response = phone.post(_link(mailoutbox[0]))
    assert response.status_code == 302
    owner_with_email.refresh_from_db()
    assert owner_with_email.email == "new@example.com"


@pytest.mark.parametrize("case", ["tampered", "expired", "superseded", "taken-since"])
def test_a_link_that_no_longer_holds_changes_nothing(
    owner_with_email, owner_client, mailoutbox, settings, case
):
    _change_email(owner_client, "new@example.com")
    link = _link(mailoutbox[0])
    if case == "tampered":
        link = link.replace("/confirm/", "/confirm/x")
    elif case == "expired":
        settings.PASSWORD_RESET_TIMEOUT = -1
    elif case == "superseded":
        _change_email(owner_client, "newer@example.com")
        owner_client.post(_link(mailoutbox[-1]))
    else:
        User.objects.create_user(username="quick", email="NEW@example.com")

    if case == "taken-since":
        response = owner_client.post(link)
        assert _messages(response)[-1] == (
            "new@example.com belongs to another account now: nothing changed."
        )
    else:
        response = owner_client.get(link)
        assert response.status_code == 404
        assert "This link does not work" in response.content.decode()
        assert owner_client.post(link).status_code == 404
    owner_with_email.refresh_from_db()
    assert owner_with_email.email != "new@example.com"


def test_address_changes_are_held_to_the_email_limits(
    owner_with_email, owner_client, mailoutbox, settings
):
    for _ in range(settings.ACCOUNT_EMAILS_PER_RECIPIENT + 2):
        assert _change_email(owner_client, "new@example.com").status_code == 302
    assert len(mailoutbox) == settings.ACCOUNT_EMAILS_PER_RECIPIENT
