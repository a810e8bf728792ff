"""Undo and redo of a user's own changes to a project (the buttons of the
project header). Both are plain form posts that come back to the page they
were made on, which then shows the design as it is now."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from modeler import selectors, services
from modeler.services import EditConflict, HistoryError
from modeler.templatetags.history import undo_bar as undo_bar_context


class _RevisionForm(forms.Form):
    number = forms.IntegerField(min_value=1)


def _back(request: HttpRequest, project_id: int) -> HttpResponse:
    """To the page the button was on (a page of this site), else the
    project's overview."""
    referer = request.headers.get("referer", "")
    if url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(referer)
    return redirect("project-detail", project_id=project_id)


def _revert(request: HttpRequest, project_id: int, *, redo: bool) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, write=True
    )
    form = _RevisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The page sent no change to take back; reload it.")
        return _back(request, project_id)
    run = services.revision_redo if redo else services.revision_undo
    try:
        revision = run(
            project=access.project,
            user=request.user,
            number=form.cleaned_data["number"],
        )
    except HistoryError as exc:
        messages.error(request, str(exc))
    except EditConflict as exc:
        messages.error(request, f"Not {'redone' if redo else 'undone'}: {exc.message}")
    else:
        word = "Redid" if redo else "Undid"
        summary = revision.summary.removeprefix("undid: ")
        messages.success(request, f"{word}: {summary}.")
    return _back(request, project_id)


@login_required
@require_POST
def undo(request: HttpRequest, project_id: int) -> HttpResponse:
    return _revert(request, project_id, redo=False)


@login_required
@require_POST
def redo(request: HttpRequest, project_id: int) -> HttpResponse:
    return _revert(request, project_id, redo=True)


@login_required
@require_GET
def undo_bar(request: HttpRequest, project_id: int) -> HttpResponse:
    """The header's Undo and Redo buttons as they are now (after a save)."""
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    context = undo_bar_context({"access": access, "user": request.user})
    return render(request, "modeler/_undo-bar.html", context)
