"""A Content-Security-Policy with no inline script: every response carries
it, and no template holds what it would block (inline scripts, event handler
attributes, hx-on, style attributes, javascript: links). The browser tests
fail on any violation the browser reports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

TEMPLATES = Path(settings.BASE_DIR) / "templates"
BLOCKED = {
    "an inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "an event handler attribute": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "an hx-on attribute": re.compile(r"\b(data-)?hx-on", re.IGNORECASE),
    "a style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "a style element": re.compile(r"<style\b", re.IGNORECASE),
    "a javascript: link": re.compile(r"javascript:", re.IGNORECASE),
}


# The review pack is one self-contained file, downloaded or opened from a
# share link: its style is inline, and it is served with a policy of its
# own that allows that style and no script at all
# (tests/views/test_review_sessions.py checks it).
OWN_POLICY = {"review-pack.html": {"a style element"}}


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: p.name
)
def test_no_template_holds_what_the_policy_blocks(path):
    text = path.read_text(encoding="utf-8")
    found = [what for what, pattern in BLOCKED.items() if pattern.search(text)]
    assert set(found) <= OWN_POLICY.get(path.name, set()), found


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/login/", "/signup/", "/static/css/workbench.css"])
def test_every_response_carries_the_policy(url):
    response = Client().get(url)
    policy = response["Content-Security-Policy"]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split("; ")
    )
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy


def test_htmx_is_configured_for_the_policy():
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    html = render_to_string("_base.html", request=request)
    config = json.loads(
        re.search(r'<meta name="htmx-config" content=\'([^\']+)\'>', html)[1]
    )
    # htmx would otherwise insert its indicator style, settle style
    # attributes and evaluate hx-on/js: expressions.
    assert config == {
        "includeIndicatorStyles": False,
        "attributesToSettle": ["class", "width", "height"],
        "allowEval": False,
        "allowScriptTags": False,
    }


@pytest.mark.django_db
def test_debug_error_pages_are_sent_without_the_policy(settings):
    # Django's own 404 and 500 pages for developers style themselves inline.
    settings.DEBUG = True
    assert "Content-Security-Policy" not in Client().get("/no-such-page/")
    assert "Content-Security-Policy" in Client().get("/login/")
    settings.DEBUG = False
    assert "Content-Security-Policy" in Client().get("/no-such-page/")
