from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory


def _render(user) -> str:
    request = RequestFactory().get("/")
    request.user = user
    return render_to_string("_base.html", request=request)


def test_anonymous_visitors_get_log_in_and_sign_up_links():
    html = _render(AnonymousUser())

    assert 'href="/login/"' in html
    assert 'href="/signup/"' in html
    assert 'action="/logout/"' not in html


def test_signed_in_users_see_their_name_to_their_account_and_a_logout_form(owner):
    html = _render(owner)

    assert '<a class="topbar-user" href="/account/"' in html
    assert ">owner</a>" in html
    assert '<form method="post" action="/logout/">' in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_htmx_requests_send_the_csrf_token_and_load_local_scripts():
    html = _render(AnonymousUser())

    assert """<body hx-headers='{"X-CSRFToken": \"""" in html
    assert '<script src="/static/django_htmx/htmx-2.min.js" defer>' in html
    assert '<script src="/static/js/workbench.js" defer>' in html
    assert '<div id="toasts" class="toasts" aria-live="polite">' in html
    assert "<script>" not in html
