"""The project's history: Undo and Redo of a user's own changes (the
buttons of the project header: with htmx, a partial update of the section
the user is on, as after a save; without, form posts that come back to the
page they were made on), and the History section (every revision; compare any
two; download, name or restore one)."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseLocation, reswap, trigger_client_event

from modeler import selectors
from modeler.design import model as d
from modeler.designfile import dump_design
from modeler.history.diff import consequences, design_diff, diff_text
from modeler.jobs import services as jobs
from modeler.models import Presence, Revision
from modeler.presenters import key_map_rows
from modeler.services import history as history_services
from modeler.services import projects as project_services
from modeler.services.history import HistoryError
from modeler.services.projects import EditConflict
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
        return _answer(request, project_id, done=False)
    run = history_services.revision_redo if redo else history_services.revision_undo
    word = "redone" if redo else "undone"
    try:
        revision = run(
            project=access.project,
            user=request.user,
            number=form.cleaned_data["number"],
        )
    except HistoryError as exc:
        messages.error(request, str(exc))
    except EditConflict as exc:
        # Someone saved between the page's offer and the click.
        told = "; ".join(exc.what_happened(clash) for clash in exc.clashes)
        messages.error(request, f"Not {word}: {told} since.")
    except project_services.LimitError as exc:
        messages.error(request, f"Not {word}: {exc}.")
    else:
        summary = revision.summary.removeprefix("undid: ")
        messages.success(request, f"{'Redid' if redo else 'Undid'}: {summary}.")
        response = _answer(request, project_id, done=True)
        return trigger_client_event(
            response, "designSaved", {"version": revision.number}
        )
    return _answer(request, project_id, done=False)


def _answer(request: HttpRequest, project_id: int, *, done: bool) -> HttpResponse:
    """Without htmx: back to the page the button was on. With htmx, a
    partial update as after a save: the section the user is on, loaded
    again into the page (its toast comes with it); nothing when nothing
    changed but the toast and the header's buttons."""
    if not request.htmx:
        return _back(request, project_id)
    if not done:
        return trigger_client_event(reswap(HttpResponse(), "none"), "historyChanged")
    referer = request.headers.get("referer", "")
    if url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        parts = urlsplit(referer)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
    else:
        path = reverse("project-detail", kwargs={"project_id": project_id})
    return HttpResponseLocation(path, target="#main", swap="innerHTML")


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


# --- The History section -----------------------------------------------------------

HISTORY_PAGE = 50


class _LabelForm(forms.Form):
    label = forms.CharField(max_length=200, required=False, strip=True)


class _CompareForm(forms.Form):
    before = forms.IntegerField(min_value=1)
    after = forms.IntegerField(min_value=1)


@login_required
@require_GET
def history_page(request: HttpRequest, project_id: int) -> HttpResponse:
    """Every revision, newest first (50 a page): who, when, what changed,
    its name; compare any two, download one, name or restore it."""
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    before = request.GET.get("before", "")
    revisions = selectors.revision_list(
        project=access.project,
        limit=HISTORY_PAGE,
        before=int(before) if before.isdigit() else None,
    )
    older = revisions[-1].number if len(revisions) == HISTORY_PAGE else None
    context = {
        "access": access,
        "project": access.project,
        "section": "history",
        "revisions": revisions,
        "older": older if older and older > 1 else None,
        "latest": access.project.version,
    }
    name = "modeler/history.html"
    if request.htmx and not request.htmx.boosted:
        name += "#workspace"
    return render(request, name, context)


def _revision_or_404(project, number: int) -> d.Design:
    design = selectors.revision_design(project=project, number=number)
    if design is None:
        raise Http404("No such revision")
    return design


@login_required
@require_GET
def revision_yaml(request: HttpRequest, project_id: int, number: int) -> HttpResponse:
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    text = dump_design(_revision_or_404(access.project, number))
    response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
    filename = f"{slugify(access.project.name) or 'design'}-r{number}.yaml"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
def revision_label(request: HttpRequest, project_id: int, number: int) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, write=True
    )
    form = _LabelForm(request.POST)
    if not form.is_valid():
        messages.error(request, "A revision's name is at most 200 characters.")
        return redirect("history-page", project_id=project_id)
    try:
        revision = history_services.revision_label_set(
            project=access.project, number=number, label=form.cleaned_data["label"]
        )
    except HistoryError as exc:
        raise Http404(str(exc)) from None
    if revision.label:
        messages.success(request, f"Named revision {number} “{revision.label}”.")
    else:
        messages.success(request, f"Revision {number} has no name now.")
    return redirect("history-page", project_id=project_id)


@login_required
@require_POST
def revision_restore(
    request: HttpRequest, project_id: int, number: int
) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, write=True
    )
    try:
        restored = history_services.revision_restore(
            project=access.project, user=request.user, number=number
        )
    except HistoryError as exc:
        raise Http404(str(exc)) from None
    except project_services.LimitError as exc:
        messages.error(request, f"Revision {number} was not restored: {exc}.")
        return redirect("history-page", project_id=project_id)
    messages.success(
        request,
        f"Restored revision {number} as revision {restored.number}; the "
        "revisions since stay in the history.",
    )
    return redirect("history-page", project_id=project_id)


def _compared(request: HttpRequest, project_id: int):
    """The project and the two revisions the query names (404 if either is
    not one of the project's)."""
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    form = _CompareForm(request.GET)
    if not form.is_valid():
        raise Http404("Name two revisions: ?before=N&after=M")
    numbers = form.cleaned_data["before"], form.cleaned_data["after"]
    designs = [_revision_or_404(access.project, n) for n in numbers]
    return access, numbers, designs


@login_required
@require_GET
def history_compare(request: HttpRequest, project_id: int) -> HttpResponse:
    """The semantic diff of two revisions: each changed element side by
    side, the key map's changed cells, and (loaded after) what the change
    does to verdicts, findings and cost. `?format=text` downloads it."""
    access, (first, second), (before, after) = _compared(request, project_id)
    if request.GET.get("format") == "text":
        title = f"{access.project.name}: revision {first} to revision {second}"
        found = _reviews(request, access.project, (first, second), (before, after))
        reviews = [f.review for f in found]
        outcome = None if None in reviews else consequences(*reviews)
        text = diff_text(before, after, title=title, outcome=outcome)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        filename = f"{slugify(access.project.name) or 'design'}-r{first}-r{second}.diff"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    diff = design_diff(before, after)
    key_attributes, key_rows = key_map_rows(after, diff.key_cells)
    context = {
        "access": access,
        "project": access.project,
        "section": "history",
        "first": first,
        "second": second,
        "diff": diff,
        "before_label": f"Revision {first}",
        "after_label": f"Revision {second}",
        "key_attributes": key_attributes,
        "key_rows": key_rows,
    }
    name = "modeler/history-compare.html"
    if request.htmx and not request.htmx.boosted:
        name += "#workspace"
    return render(request, name, context)


def _reviews(request, project, numbers, designs):
    """The reviews of two revisions, or the jobs making them."""
    return [
        jobs.design_review_get(
            project=project,
            design=design,
            revision=selectors.revision_get(project=project, number=number),
        )
        for number, design in zip(numbers, designs, strict=True)
    ]


@login_required
@require_GET
def history_consequences(request: HttpRequest, project_id: int) -> HttpResponse:
    """What the change between two revisions does to the review: loaded by
    the diff page after it shows, and asked for again while the simulation
    jobs make the two reviews."""
    access, numbers, designs = _compared(request, project_id)
    project = access.project
    found = _reviews(request, project, numbers, designs)
    reviews = [f.review for f in found]
    if reviews[0] is None or reviews[1] is None:
        # The simulation jobs make them: the page asks again.
        job = next((f.job for f in found if f.job and f.review is None), None)
        context = {
            "job": job,
            # The revisions with no job yet: the fragment posts to start them.
            "to_start": [n for n, f in zip(numbers, found, strict=True) if f.to_start],
            "url": request.get_full_path(),
            "project": project,
        }
        return render(request, "modeler/_history-consequences.html#pending", context)
    context = {"outcome": consequences(*reviews)}
    return render(request, "modeler/_history-consequences.html", context)


# --- Presence ----------------------------------------------------------------------

# Pages ask every 2 s, so that a teammate's save is told within 2 s; who is
# here is written at most every PRESENCE_REFRESH, as when pages asked every
# 20 s, and counts for three of those.
PRESENCE_REFRESH = timedelta(seconds=20)
PRESENCE_WINDOW = timedelta(seconds=60)


class _PresenceForm(forms.Form):
    version = forms.IntegerField(min_value=1, required=False)
    announced = forms.IntegerField(min_value=1, required=False)


@login_required
@require_POST
def presence(request: HttpRequest, project_id: int) -> HttpResponse:
    """Posted by every project page as it polls: the caller has the project
    open (a heartbeat it records, hence a POST), and the answer says who
    else has, and the changes others saved since the version the page shows
    (announced, rather than discovered at save): in the header, and each one
    once in a toast where the user is looking, naming who saved it and what.
    Any member may: it changes nothing in the design."""
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    project = access.project
    now = timezone.now()
    here = Presence.objects.filter(project=project, user=request.user)
    if not here.filter(seen__gte=now - PRESENCE_REFRESH).exists():
        Presence.objects.update_or_create(
            project=project, user=request.user, defaults={"seen": now}
        )
    others = (
        Presence.objects.filter(project=project, seen__gte=now - PRESENCE_WINDOW)
        .exclude(user=request.user)
        .select_related("user")
        .order_by("user__username")
    )
    form = _PresenceForm(request.POST)
    valid = form.is_valid()
    shown = form.cleaned_data["version"] if valid else None
    announced = (form.cleaned_data["announced"] if valid else None) or shown
    saved = []
    if shown is not None and project.version > shown:
        saved = list(
            Revision.objects.filter(project=project, number__gt=shown)
            .exclude(author=request.user)
            .select_related("author")
            .defer("document")
            .order_by("number")
        )
    context = {
        "project": project,
        "others": [p.user.get_username() for p in others],
        "saved": saved,
        "version": shown or project.version,
        "announced": project.version,
    }
    response = render(request, "modeler/_presence.html", context)
    news = [
        {
            "message": f"{r.author.get_username() if r.author else 'Someone'} "
            f"{r.summary}",
            "level": "info",
        }
        for r in saved
        if announced is not None and r.number > announced
    ]
    if news:
        trigger_client_event(response, "showMessage", {"messages": news})
    return response
