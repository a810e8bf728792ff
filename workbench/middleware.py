"""Middleware of the project (as opposed to the modeler app)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django_htmx.http import trigger_client_event

# Headers with which htmx leaves the page for a full load; that page will
# render the stored messages itself.
_NAVIGATION_HEADERS = ("HX-Redirect", "HX-Refresh", "HX-Location")


class HtmxMessagesMiddleware:
    """Moves pending Django messages into a `showMessage` HX-Trigger event
    on htmx responses, since a swapped fragment carries no toast region.

    The event detail is `{"messages": [{"message": ..., "level": ...}]}`,
    `level` being the message's level tag (success, error...). htmx passes an
    object as the event's detail as is, but would wrap a bare list.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.htmx or response.status_code in range(300, 400):
            return response
        if any(header in response for header in _NAVIGATION_HEADERS):
            return response
        storage = messages.get_messages(request)
        if storage.used:
            # The response already rendered them (a boosted full page).
            return response
        pending = [
            {"message": str(message), "level": message.level_tag} for message in storage
        ]
        if pending:
            trigger_client_event(response, "showMessage", {"messages": pending})
        return response


class ContentSecurityPolicyMiddleware:
    """Sends settings.CONTENT_SECURITY_POLICY with every response that has
    none: scripts and styles from our own origin only, no inline script,
    style attribute or eval, so injected markup cannot run."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Django's debug pages for errors (DEBUG on) style themselves inline.
        debug_page = settings.DEBUG and response.status_code in (404, 500)
        if self.policy and not debug_page and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response


class NoStoreMiddleware:
    """Marks every response of the application `Cache-Control: private,
    no-store`: its pages, downloads and shared review packs show a project
    to those allowed to see it (a share link's page to whoever holds the
    link), so neither a shared cache nor the browser's disk may keep them.
    Static files never reach it: WhiteNoise, before it, answers them with
    their own long cache."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_cache_control(response, private=True, no_store=True)
        return response
