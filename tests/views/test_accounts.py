from __future__ import annotations

import json
import re

import pytest
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.test import Client
from django.urls import path
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

SIGNUP = {
    "username": "newcomer",
    "email": "newcomer@example.com",
    "password1": "correct-horse-battery",
    "password2": "correct-horse-battery",
}
SENT = b"We have sent a message to"


@pytest.mark.django_db
def test_signup_page_renders(client):
    response = client.get("/signup/")
    assert response.status_code == 200
    assert b"Create your account" in response.content
    assert b'name="email"' in response.content
    assert b'name="password2"' in response.content


def _page(response, email: str) -> str:
    """The page without what differs for any visitor: the address typed and
    the CSRF token."""
    text = response.content.decode().replace(email, "EMAIL")
    return re.sub(r'("X-CSRFToken": |value=)"[^"]+"', r'\1"TOKEN"', text)


def _link(message) -> str:
    return re.search(r"http://testserver(/\S+)", message.body)[1]


@pytest.mark.django_db
def test_signup_confirms_the_address_then_logs_in(client, mailoutbox):
    response = client.post("/signup/", SIGNUP)

    assert response.status_code == 200
    assert SENT in response.content
    user = User.objects.get(username="newcomer")
    assert not user.is_active
    assert user.check_password("correct-horse-battery")
    assert SESSION_KEY not in client.session
    [message] = mailoutbox
    assert message.to == ["newcomer@example.com"]
    assert message.subject == "Single-table workbench: Confirm your account"
    # Not active yet: the password alone does not log in.
    login = client.post(
        "/login/", {"username": "newcomer", "password": SIGNUP["password1"]}
    )
    assert login.status_code == 200 and SESSION_KEY not in client.session

    # Opening the link (a mail scanner may) asks; it activates nothing.
    page = client.get(_link(message))

    assert page.status_code == 200
    assert b"Confirm my account" in page.content
    assert not User.objects.get(pk=user.pk).is_active
    assert SESSION_KEY not in client.session

    response = client.post(_link(message))

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.session[SESSION_KEY] == str(user.pk)
    assert User.objects.get(pk=user.pk).is_active
    # The link is used: logging in changed what it was made from.
    client.post("/logout/")
    assert client.get(_link(message)).status_code == 404
    assert client.post(_link(message)).status_code == 404


@pytest.mark.django_db
def test_a_wrong_confirmation_link_says_so(client):
    for response in (
        client.get("/signup/confirm/MQ/wrong-token/"),
        client.post("/signup/confirm/MQ/wrong-token/"),
    ):
        assert response.status_code == 404
        assert b"This link does not work" in response.content


@pytest.mark.parametrize(
    ("changes", "subject", "says"),
    [
        ({"username": "owner"}, "Choose another username", "that username is taken"),
        (
            {"email": "OWNER@example.com"},
            "You already have an account",
            "already belongs to the account 'owner'",
        ),
    ],
)
def test_signup_with_a_taken_name_or_address_answers_alike(
    client, owner, mailoutbox, changes, subject, says
):
    owner.email = "owner@example.com"
    owner.save()
    fresh = client.post(
        "/signup/", {**SIGNUP, "username": "another", "email": "another@example.com"}
    )
    taken = client.post("/signup/", {**SIGNUP, **changes})

    # The visitor learns nothing: the same page, status and text.
    assert taken.status_code == fresh.status_code == 200
    assert _page(taken, changes.get("email", SIGNUP["email"])) == _page(
        fresh, "another@example.com"
    )
    # The address's owner learns what happened.
    message = mailoutbox[-1]
    assert message.subject == f"Single-table workbench: {subject}"
    assert says in message.body
    assert User.objects.filter(username__in=["owner", "newcomer"]).count() == 1


@pytest.mark.django_db
def test_signup_rejects_mismatched_passwords(client, mailoutbox):
    response = client.post("/signup/", {**SIGNUP, "password2": "something-else"})

    assert response.status_code == 400
    assert response.context["form"].errors == {
        "password2": ["The two passwords differ."]
    }
    assert b'value="newcomer"' in response.content
    assert not User.objects.exists()
    assert mailoutbox == []


@pytest.mark.django_db
def test_signup_refuses_a_weak_password_naming_why(client):
    response = client.post(
        "/signup/", {**SIGNUP, "password1": "newcomer1", "password2": "newcomer1"}
    )
    assert response.status_code == 400
    assert "password1" in response.context["form"].errors
    assert not User.objects.exists()


def test_signup_sends_a_logged_in_user_home(client, owner):
    client.force_login(owner)
    response = client.get("/signup/")
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_login_page_renders(client):
    response = client.get("/login/")
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password"' in response.content
    assert b'href="/signup/"' in response.content
    assert b'href="/password-reset/"' in response.content


def test_login(client, owner):
    response = client.post("/login/", {"username": "owner", "password": "pw-owner"})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.session[SESSION_KEY] == str(owner.pk)


def test_login_with_a_wrong_password_shows_an_error(client, owner):
    response = client.post("/login/", {"username": "owner", "password": "wrong"})

    assert response.status_code == 200
    assert b"errorlist nonfield" in response.content
    assert b'value="owner"' in response.content
    assert SESSION_KEY not in client.session


def test_logout_requires_post(client, owner):
    client.force_login(owner)

    assert client.get("/logout/").status_code == 405
    assert SESSION_KEY in client.session

    response = client.post("/logout/")
    assert response.status_code == 302
    assert response["Location"] == "/login/"
    assert SESSION_KEY not in client.session


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/signup/", SIGNUP),
        ("/login/", {"username": "owner", "password": "pw-owner"}),
    ],
)
def test_csrf_is_enforced(owner, url, data):
    client = Client(enforce_csrf_checks=True)

    assert client.post(url, data).status_code == 403

    client.get(url)
    token = client.cookies["csrftoken"].value
    response = client.post(url, {**data, "csrfmiddlewaretoken": token})
    assert response.status_code in (200, 302)


# HtmxMessagesMiddleware, through the real middleware stack and a tiny URLconf.


def _flash(request: HttpRequest) -> HttpResponse:
    messages.success(request, "Entity saved.")
    messages.warning(request, "Key <b>overlaps</b>.")
    match request.GET.get("then"):
        case "redirect":
            return redirect("/pending/")
        case "client-redirect":
            return HttpResponseClientRedirect("/pending/")
        case "trigger":
            return trigger_client_event(HttpResponse("fragment"), "designChanged")
    return HttpResponse("fragment")


def _pending(request: HttpRequest) -> HttpResponse:
    return HttpResponse("|".join(str(m) for m in messages.get_messages(request)))


def _quiet(request: HttpRequest) -> HttpResponse:
    return HttpResponse("fragment")


urlpatterns = [
    path("flash/", _flash),
    path("pending/", _pending),
    path("quiet/", _quiet),
]

htmx_messages = pytest.mark.urls(__name__)


@htmx_messages
def test_htmx_response_carries_messages_in_hx_trigger(client):
    response = client.get("/flash/", headers={"HX-Request": "true"})

    assert json.loads(response["HX-Trigger"]) == {
        "showMessage": {
            "messages": [
                {"message": "Entity saved.", "level": "success"},
                {"message": "Key <b>overlaps</b>.", "level": "warning"},
            ]
        }
    }
    # Shown once: not stored again for the next page.
    assert client.get("/pending/").content == b""


@htmx_messages
def test_htmx_messages_join_other_triggered_events(client):
    response = client.get("/flash/?then=trigger", headers={"HX-Request": "true"})

    events = json.loads(response["HX-Trigger"])
    assert set(events) == {"designChanged", "showMessage"}


@htmx_messages
def test_plain_requests_keep_messages_for_the_page(client):
    response = client.get("/flash/")

    assert "HX-Trigger" not in response
    assert client.get("/pending/").content == b"Entity saved.|Key <b>overlaps</b>."


@htmx_messages
@pytest.mark.parametrize("then", ["redirect", "client-redirect"])
def test_htmx_redirects_keep_messages_for_the_next_page(client, then):
    response = client.get(f"/flash/?then={then}", headers={"HX-Request": "true"})

    assert "HX-Trigger" not in response
    assert client.get("/pending/").content == b"Entity saved.|Key <b>overlaps</b>."


@htmx_messages
def test_htmx_response_without_messages_has_no_trigger(client):
    response = client.get("/quiet/", headers={"HX-Request": "true"})
    assert "HX-Trigger" not in response


# --- Login lockout and password reset ---------------------------------------------


def _login(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        "/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_repeated_wrong_passwords_lock_the_username_from_that_address(
    client, owner, outsider, caplog, settings
):
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert _login(client, "owner", "wrong").status_code == 200
    with caplog.at_level("WARNING"):
        locked = _login(client, "owner", "wrong")
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    # Logged, with the username and address masked.
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("axes")]
    assert any("login failure" in line for line in logged)
    assert any("Locking out" in line for line in logged)
    assert not any("owner" in line or "10.0.0.1" in line for line in logged)
    # Now even the right password is refused, from that address.
    assert _login(client, "owner", "pw-owner").status_code == 429
    assert SESSION_KEY not in client.session
    # Others are not locked out: another user, or the user from elsewhere.
    assert _login(Client(), "outsider", "pw-outsider").status_code == 302
    assert _login(Client(), "owner", "pw-owner", "10.0.0.2").status_code == 302


@pytest.mark.django_db
def test_a_username_with_no_account_locks_alike(client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = _login(client, "nobody-at-all", "wrong")
    assert response.status_code == 429
    assert b"Too many failed logins" in response.content


def test_a_successful_login_forgets_earlier_failures(client, owner, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "owner", "wrong")
    assert _login(client, "owner", "pw-owner").status_code == 302
    client.post("/logout/")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "owner", "wrong").status_code == 200


def test_a_password_is_reset_by_email(client, owner, mailoutbox):
    owner.email = "owner@example.com"
    owner.save()
    unknown = client.post("/password-reset/", {"email": "nobody@example.com"})
    known = client.post("/password-reset/", {"email": "owner@example.com"})

    # The same answer for any address; a mail only to an account's.
    assert unknown.status_code == known.status_code == 302
    assert unknown["Location"] == known["Location"] == "/password-reset/sent/"
    [message] = mailoutbox
    assert message.to == ["owner@example.com"]
    assert "account 'owner'" in message.body

    form = client.get(_link(message), follow=True)
    assert b"Choose a new password" in form.content
    done = client.post(
        form.redirect_chain[-1][0],
        {
            "new_password1": "another-horse-battery",
            "new_password2": "another-horse-battery",
        },
    )
    assert done.status_code == 302
    assert _login(Client(), "owner", "another-horse-battery").status_code == 302
    # The link is used up.
    assert b"This link does not work" in client.get(_link(message), follow=True).content
