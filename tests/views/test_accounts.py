from __future__ import annotations

import json

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
    "password1": "correct-horse-battery",
    "password2": "correct-horse-battery",
}


@pytest.mark.django_db
def test_signup_page_renders(client):
    response = client.get("/signup/")
    assert response.status_code == 200
    assert b"Create your account" in response.content
    assert b'name="password2"' in response.content


@pytest.mark.django_db
def test_signup_creates_the_user_and_logs_in(client):
    response = client.post("/signup/", SIGNUP)

    assert response.status_code == 302
    assert response["Location"] == "/"
    user = User.objects.get(username="newcomer")
    assert user.check_password("correct-horse-battery")
    assert client.session[SESSION_KEY] == str(user.pk)


def test_signup_rejects_a_taken_username(client, owner):
    response = client.post("/signup/", {**SIGNUP, "username": "Owner"})

    assert response.status_code == 200
    assert b"A user with that username already exists." in response.content
    assert b'value="Owner"' in response.content
    assert User.objects.filter(username__iexact="owner").count() == 1
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_signup_rejects_mismatched_passwords(client):
    response = client.post("/signup/", {**SIGNUP, "password2": "something-else"})

    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert b'class="errorlist"' in response.content
    assert b'value="newcomer"' in response.content
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
    assert response.status_code == 302


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
