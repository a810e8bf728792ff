"""Middleware of the project (as opposed to the modeler app)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django_htmx.http import reswap, trigger_client_event

from modeler.infra.database import DATABASE_LOST, connections_drop
from modeler.selectors import ProjectNotFound, project_open_to

logger = logging.getLogger(__name__)

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
        if response.status_code >= 500:
            # The messages stay for the next page: reading them may need
            # the database that just failed (the session).
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


UNREACHABLE = "The database could not be reached"
UNAVAILABLE = 503
# Enough for a database restart: the browser is told when to try again.
RETRY_SECONDS = 5


class DatabaseUnreachableMiddleware:
    """Answers a request that met the database going away (a restart, a
    failover: `modeler.infra.database.DATABASE_LOST`) with 503 and what to do,
    not a bare 500: nothing was saved, the input is kept, try again.

    htmx requests keep the page as it is (the form as typed) and get a
    toast; a form posted without htmx gets a page that sends the same input
    again; a page load gets a page that says to reload. None of them reads
    the database (nor the session, which lives there)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_LOST):
            return None
        logger.warning(
            "%s: %s %s answered 503 (%s)",
            UNREACHABLE,
            request.method,
            request.path,
            str(exception).strip() or type(exception).__name__,
        )
        connections_drop()
        posted = request.method == "POST"
        advice = "nothing was saved. Try again." if posted else "try again in a moment."
        if request.htmx:
            response = reswap(HttpResponse(status=UNAVAILABLE), "none")
            message = {"message": f"{UNREACHABLE}; {advice}", "level": "error"}
            trigger_client_event(response, "showMessage", {"messages": [message]})
        else:
            fields = [
                (name, value)
                for name, values in request.POST.lists()
                if name != "csrfmiddlewaretoken"
                for value in values
            ]
            context = {
                "posted": posted,
                "fields": fields,
                # What the user typed, without the page's own bookkeeping.
                "typed": [(n, v) for n, v in fields if not n.endswith("version")],
                "files": bool(request.FILES),
            }
            response = render(request, "unavailable.html", context, status=UNAVAILABLE)
        response["Retry-After"] = str(RETRY_SECONDS)
        return response


class ProjectGoneMiddleware:
    """An htmx request of a page whose project the caller can no longer see
    (a poll, a save: someone deleted the project, or took the caller off
    its members, while the page was open) answers 404 with X-Project-Gone,
    which the page's script turns into a notice, keeping what is typed and
    stopping the polls, rather than an answer nothing shows."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        # modeler.selectors.ProjectNotFound, by its mark.
        gone = getattr(exception, "project_gone", False)
        if not gone and isinstance(exception, IntegrityError):
            # A write that passed the view's check as the project was being
            # deleted: its row's foreign key fails at commit. That is the
            # same news, not a server error (and not for a project still
            # open to the caller, whose fault is a real one).
            gone = _project_lost(request)
            if gone and not request.htmx:
                raise ProjectNotFound("No such project") from exception
        if not (request.htmx and gone):
            return None
        response = HttpResponse(
            "This project is no longer open to you.",
            status=404,
            content_type="text/plain; charset=utf-8",
        )
        response["X-Project-Gone"] = "1"
        return response


def _project_lost(request: HttpRequest) -> bool:
    """Whether the request was for a project's page (its URL names the
    project) that the caller can no longer see."""
    match = request.resolver_match
    project_id = match.kwargs.get("project_id") if match else None
    if project_id is None:
        return False
    return not project_open_to(user=request.user, project_id=project_id)
