"""Review sessions: the list of a project's reviews (owners and editors
open one on a revision), and a review's page: its comments by design
element, replies, resolve and reopen (any member may comment), and its
status (owners and editors approve or ask for changes)."""

from __future__ import annotations

from http import HTTPStatus

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify
from django.utils.timezone import is_aware
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from modeler import diagrams, presenters, selectors
from modeler.conversion import design_from_revision
from modeler.forms.reviews import ReviewCommentForm, ReviewOpenForm, ReviewStatusForm
from modeler.jobs import services as jobs
from modeler.jobs.collections import (
    CollectionsQuestion,
    collections_answer,
    collections_kept,
)
from modeler.jobs.loaded_tables import TableAnswer
from modeler.jobs.migration_proofs import migration_proof_find, migration_proof_request
from modeler.models import (
    ReviewComment,
    ReviewSession,
    Revision,
    ShareLink,
    SimulationJob,
)
from modeler.presenters import key_map_rows
from modeler.services import reviews as sessions
from modeler.views.statuses import INVALID

State = SimulationJob.State


def _members(project):
    return (
        get_user_model()
        .objects.filter(Q(pk=project.owner_id) | Q(memberships__project=project))
        .distinct()
        .order_by("username")
    )


@login_required
@require_http_methods(["GET", "POST"])
def reviews_page(request: HttpRequest, project_id: int) -> HttpResponse:
    write = request.method == "POST"
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, write=write
    )
    project = access.project
    members = _members(project)
    form = ReviewOpenForm(
        request.POST or None,
        members=members,
        initial={"number": project.version},
    )
    status = 200
    if write:
        if form.is_valid():
            try:
                session = sessions.session_open(
                    project=project,
                    author=request.user,
                    number=form.cleaned_data["number"],
                    title=form.cleaned_data["title"],
                    participants=form.cleaned_data["participants"],
                )
            except sessions.ReviewError as exc:
                form.add_error("number", str(exc))
            else:
                messages.success(request, f"Opened the review “{session.title}”.")
                return redirect("review-session", project_id=project_id, pk=session.pk)
        status = INVALID
    context = {
        "access": access,
        "project": project,
        "section": "reviews",
        "sessions": sessions.sessions_with_unread(project=project, user=request.user),
        "form": form,
    }
    name = "modeler/reviews.html"
    if request.htmx and not request.htmx.boosted:
        name += "#workspace"
    return render(request, name, context, status=status)


def _session(request: HttpRequest, project_id: int, pk: int, *, write: bool = False):
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, write=write
    )
    session = (
        ReviewSession.objects.filter(project=access.project, pk=pk)
        .select_related("revision", "created_by", "decided_by", "project")
        .first()
    )
    if session is None:
        raise Http404("No such review")
    return access, session


@login_required
@require_http_methods(["GET"])
def review_session(request: HttpRequest, project_id: int, pk: int) -> HttpResponse:
    access, session = _session(request, project_id, pk)
    return _render_session(request, access, session)


@login_required
@require_POST
def review_session_seen(request: HttpRequest, project_id: int, pk: int) -> HttpResponse:
    """What the review's page posts as it loads: its visitor has read the
    comments it showed (`shown`, when it was made), so the list of reviews
    counts only later ones as unread. A GET marks nothing read."""
    _, session = _session(request, project_id, pk)
    shown = parse_datetime(request.POST.get("shown", ""))
    sessions.session_seen(
        session=session,
        user=request.user,
        shown=shown if shown is not None and is_aware(shown) else None,
    )
    return HttpResponse(status=HTTPStatus.NO_CONTENT)


def _render_session(request, access, session, *, form=None, status=200):
    board = sessions.session_board(session)
    failed_element = form.data.get("element", "") if form else None
    if failed_element and failed_element not in board.ids:
        failed_element = ""  # said at the form of the review as a whole
    context = {
        "access": access,
        "project": access.project,
        "section": "reviews",
        "session": session,
        "participants": session.participants.order_by("username"),
        "board": board,
        "design": design_from_revision(session.revision),
        # A refused comment: shown again, with why, where it was written.
        "failed": form,
        "failed_element": failed_element,
        "failed_parent": form.data.get("parent", "") if form else None,
        "statuses": ReviewSession.Status.choices,
        "changed_since": sessions.design_changed_since(
            access.project, session.revision
        ),
        "approval_refusal": sessions.approval_refusal(
            session=session, user=request.user
        ),
        "shown": timezone.now(),
        # The reviews whose findings are comment targets, not made yet: the
        # page posts to start them (their findings show once they are).
        "to_start": _reviews_to_start(access.project, session.revision),
    }
    return render(request, "modeler/review-session.html", context, status=status)


def _reviews_to_start(project, revision) -> list[int | None]:
    """The design reviews whose findings the review's page offers to
    comment on (the reviewed revision's, the current design's: None) that
    no simulation job makes yet."""
    numbers: list[int | None] = []
    reviewed = design_from_revision(revision)
    if jobs.design_review_get(
        project=project, design=reviewed, revision=revision
    ).to_start:
        numbers.append(revision.number)
    current = selectors.project_design(project=project)
    if (
        revision.number != project.version
        and jobs.design_review_get(project=project, design=current).to_start
    ):
        numbers.append(None)
    return numbers


@login_required
@require_POST
def review_comment(request: HttpRequest, project_id: int, pk: int) -> HttpResponse:
    """A comment or a reply: every member may write one, viewers too."""
    access, session = _session(request, project_id, pk)
    form = ReviewCommentForm(request.POST)
    if form.is_valid():
        parent = None
        if form.cleaned_data["parent"]:
            parent = ReviewComment.objects.filter(
                session=session, pk=form.cleaned_data["parent"]
            ).first()
            if parent is None:
                raise Http404("No such comment")
        try:
            comment = sessions.comment_add(
                session=session,
                author=request.user,
                body=form.cleaned_data["body"],
                element=form.cleaned_data["element"] or sessions.WHOLE_REVIEW,
                parent=parent,
            )
        except sessions.ReviewError as exc:
            form.add_error(None, str(exc))
        else:
            mentions = sessions.comment_notify_mentioned(
                comment=comment,
                link=request.build_absolute_uri(
                    reverse("review-session", args=[project_id, pk])
                ),
            )
            _say_who_was_told(request, mentions)
            url = redirect("review-session", project_id=project_id, pk=pk)
            url["Location"] += f"#comment-{(parent or comment).pk}"
            return url
    return _render_session(request, access, session, form=form, status=INVALID)


def _names(names: list[str]) -> str:
    """a, b and c."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _say_who_was_told(request: HttpRequest, mentions: sessions.Mentions) -> None:
    """Tells the commenter whom the comment's @mentions emailed, and whom
    they did not reach and why."""
    emailed = f" Emailed {_names(list(mentions.emailed))}." if mentions.emailed else ""
    messages.success(request, f"Comment added.{emailed}")
    if mentions.not_notified:
        missed = "; ".join(f"@{n.username}: {n.reason}" for n in mentions.not_notified)
        messages.warning(
            request, f"Not notified ({missed}). Tell them another way if need be."
        )
    if mentions.unsent:
        names = ", ".join(n.username for n in mentions.unsent)
        messages.warning(
            request,
            f"The comment is saved, but the email telling {names} could "
            f"not be sent: {mentions.unsent[0].reason}. Tell them another way, or "
            "ask the site's operator to check its email settings.",
        )


@login_required
@require_POST
def review_comment_resolve(
    request: HttpRequest, project_id: int, pk: int, comment_id: int
) -> HttpResponse:
    """Resolve or reopen a thread: its author, owners and editors."""
    access, session = _session(request, project_id, pk)
    comment = ReviewComment.objects.filter(
        session=session, pk=comment_id, parent=None
    ).first()
    if comment is None:
        raise Http404("No such comment")
    if not access.can_write and comment.author_id != request.user.pk:
        raise PermissionDenied("Only its author, owners and editors resolve a comment.")
    resolved = request.POST.get("resolved") == "true"
    sessions.comment_resolve(comment=comment, resolved=resolved)
    messages.success(request, "Resolved." if resolved else "Reopened.")
    response = redirect("review-session", project_id=project_id, pk=pk)
    response["Location"] += f"#comment-{comment.pk}"
    return response


@login_required
@require_POST
def review_status(request: HttpRequest, project_id: int, pk: int) -> HttpResponse:
    """Approve, ask for changes or reopen: owners and editors."""
    access, session = _session(request, project_id, pk, write=True)
    form = ReviewStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose open, changes requested or approved.")
        return redirect("review-session", project_id=project_id, pk=pk)
    try:
        sessions.session_decide(
            session=session, user=request.user, status=form.cleaned_data["status"]
        )
    except sessions.ReviewError as exc:
        messages.error(request, str(exc))
        return redirect("review-session", project_id=project_id, pk=pk)
    label = ReviewSession.Status(session.status).label.lower()
    messages.success(
        request, f"The review of revision {session.revision.number} is {label}."
    )
    return redirect("review-session", project_id=project_id, pk=pk)


@login_required
@require_POST
def review_approval_rule(request: HttpRequest, project_id: int) -> HttpResponse:
    """The owner's rule: whether an approval must come from someone other
    than the author of the revision it approves."""
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=True
    )
    on = request.POST.get("approval_by_other") == "on"
    sessions.approval_rule_set(project=access.project, approval_by_other=on)
    messages.success(
        request,
        "Approvals now need someone other than the revision's author."
        if on
        else "Anyone who may edit the project can now approve a revision.",
    )
    return redirect("reviews-page", project_id=project_id)


# --- The review pack and share links -----------------------------------------------

# The pack is one self-contained page: its own style, no script at all.
PACK_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class ShareLinkForm(forms.Form):
    number = forms.IntegerField(label="Revision", min_value=1)
    days = forms.IntegerField(
        label="Valid for (days)",
        required=False,
        min_value=1,
        max_value=365,
        help_text="Empty: until revoked.",
    )
    # What the link shows is said beside the box (share-links.html).
    include_comments = forms.BooleanField(
        label="Include the review comments",
        required=False,
        widget=forms.CheckboxInput(attrs={"aria-describedby": "link-visible"}),
    )


def _pack(request: HttpRequest, project, revision, *, link=None) -> HttpResponse:
    """The review pack of one revision: design, key map, patterns with
    their verdicts, findings with their evidence, cost, the status of its
    reviews and their open comments, review by review; through a share
    `link`, only what it was made with."""
    shared = link is not None
    design = design_from_revision(revision)
    found = jobs.design_review_get(
        project=project,
        design=design,
        revision=revision,
        user=None if shared else request.user,
        start=request.method == "POST",
    )
    # Members' packs show the migration from the approved revision; a
    # share link shows its own revision alone.
    migration = None if shared else _pack_migration(project, revision, design)
    if request.method == "POST":
        if migration is not None:
            approved, before, _ = migration
            migration_proof_request(
                project=project,
                first=approved.number,
                second=revision.number,
                before=before,
                after=design,
            )
        # Its button (no script in a pack) started the job: back to the
        # pack, which reloads itself until it is ready.
        return redirect(request.get_full_path())
    review = found.review
    proving = migration is not None and migration[2].plan is None
    if proving and migration[2].problem:
        proving = False  # the pack says why there is no plan
    if review is None or proving:
        # The simulation job makes the review: a page without script that
        # reloads itself until the pack is ready (then the download too);
        # with no job yet, a button that posts here to start it.
        to_start = found.to_start or (proving and migration[2].to_start)
        context = {
            "design": design,
            "revision": revision,
            "pending": found.job,
            "reviewing": review is None,
            "to_start": to_start,
            "refresh": not to_start,
            "migration": migration,
        }
        response = render(request, "modeler/review-pack.html", context)
        response["Content-Security-Policy"] = (
            PACK_POLICY.replace("form-action 'none'", "form-action 'self'")
            if to_start
            else PACK_POLICY
        )
        response["X-Robots-Tag"] = "noindex"
        response["Cache-Control"] = "no-store"
        return response
    context = _pack_context(design, revision, review)
    context.update(
        migration=migration,
        link=link,
        threads=sessions.pack_threads(revision=revision, link=link),
        # Members see where the revision's reviews stand; a share link
        # shows what its form says it shows, and that is not.
        sessions=()
        if shared
        else ReviewSession.objects.filter(revision=revision).select_related(
            "decided_by"
        ),
    )
    return _pack_response(request, context, f"r{revision.number}-review")


def _pack_migration(project, revision, design):
    """(the approved revision, its design, the proof's state) of the
    migration from the newest revision approved before `revision` to it,
    as a GET finds it (nothing asked); None when there is none."""
    approved = sessions.approved_before(revision=revision)
    if approved is None:
        return None
    before = design_from_revision(approved)
    state = migration_proof_find(project=project, before=before, after=design)
    return approved, before, state


def _pack_context(design, revision, review) -> dict:
    """What every pack shows of a revision and its design review."""
    key_attributes, key_rows = key_map_rows(design)
    runs = dict(zip(design.access_patterns, review.runs, strict=True))
    return {
        "revision": revision,
        "design": design,
        "generated": timezone.now(),
        "key_attributes": key_attributes,
        "key_rows": key_rows,
        "patterns": [
            {
                "pattern": p,
                "key": presenters.key_condition_text(p.key),
                "expects": presenters.expectation_text(p.expects),
                "verdict": (
                    "not run"
                    if runs[p] is None
                    else ("passes" if runs[p].passed else "fails")
                ),
            }
            for p in design.access_patterns
        ],
        "review": review,
        "overview_svg": _overview_svg(design),
    }


def _pack_response(request: HttpRequest, context: dict, name: str) -> HttpResponse:
    response = render(request, "modeler/review-pack.html", context)
    response["Content-Security-Policy"] = PACK_POLICY
    response["X-Robots-Tag"] = "noindex"
    if request.GET.get("download"):
        design = context["design"]
        filename = f"{slugify(design.name) or 'design'}-{name}.html"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- The minutes of one review ------------------------------------------------------

# The item collections the minutes draw of each index: its first partitions.
MINUTES_PARTITIONS = 3
MINUTES_ITEMS = 8


def _minutes_questions(design) -> list[tuple[str, CollectionsQuestion]]:
    return [
        (
            "the table" if info.kind == "table" else f"{info.name}",
            CollectionsQuestion(
                index=info.name,
                max_partitions=MINUTES_PARTITIONS,
                max_items=MINUTES_ITEMS,
            ),
        )
        for info in diagrams.index_infos(design)
    ]


def _minutes_parts(project, session, design, *, ask: bool, user=None):
    """The review of the session's revision and its item collections
    drawn per index, each answer or None while it is made; with `ask`,
    what is missing is asked for (the simulation, the drawings)."""
    revision = session.revision
    job = jobs.simulation_job_latest(project=project, design=design)
    ended = job is not None and job.state in (State.FAILED, State.CANCELLED)
    if ask or ended:
        # A simulation that failed still gives the review of what the
        # design alone shows; nothing is started for it.
        found = jobs.design_review_get(
            project=project, design=design, user=user, revision=revision, start=ask
        )
        review, job = found.review, found.job or job
    else:
        review = jobs.design_review_stored(project=project, design=design)
    drawn = []
    for title, question in _minutes_questions(design):
        if ended:
            answer = TableAnswer(
                problem=f"The simulation did not run: {job.message or 'cancelled'}"
            )
        elif review is None:
            answer = None
        elif ask:
            answer = collections_answer(
                project=project,
                design=design,
                question=question,
                user=user,
                number=revision.number,
            )
            answer = None if answer.pending else answer
        else:
            answer = collections_kept(design=design, question=question)
        drawn.append((title, answer))
    return review, job, drawn


@login_required
@require_http_methods(["GET"])
def review_minutes(request: HttpRequest, project_id: int, pk: int) -> HttpResponse:
    """The minutes of one review, as one self-contained page: who took
    part, where it stands (who approved, when), every comment with its
    replies, named as at the reviewed revision, and the revision itself
    (design, key map, patterns and verdicts, findings with their evidence,
    cost, item collection diagrams). While they are being made, a page
    that asks for what they need."""
    access, session = _session(request, project_id, pk)
    design = design_from_revision(session.revision)
    review, job, drawn = _minutes_parts(access.project, session, design, ask=False)
    if review is None or any(answer is None for _, answer in drawn):
        context = {
            "access": access,
            "project": access.project,
            "section": "reviews",
            "session": session,
            "job": job,
        }
        return render(request, "modeler/minutes-waiting.html", context, status=202)
    board = sessions.session_board(session)
    context = _pack_context(design, session.revision, review)
    context.update(
        session=session,
        participants=session.participants.order_by("username"),
        changed_since=sessions.design_changed_since(access.project, session.revision),
        approval_by_other=access.project.approval_by_other,
        collections_partitions=MINUTES_PARTITIONS,
        discussed=sessions.board_discussed(board),
        collections=[
            (title, answer.result.svg if answer.result else "", answer.problem)
            for title, answer in drawn
        ],
    )
    return _pack_response(request, context, f"r{session.revision.number}-minutes")


@login_required
@require_POST
def review_minutes_prepare(
    request: HttpRequest, project_id: int, pk: int
) -> HttpResponse:
    """Asks for what the minutes need (the revision's simulation, then its
    item collections drawn); once all is there, sends the page to them.
    Any member may: it changes nothing in the design."""
    access, session = _session(request, project_id, pk)
    design = design_from_revision(session.revision)
    review, job, drawn = _minutes_parts(
        access.project, session, design, ask=True, user=request.user
    )
    minutes = reverse("review-minutes", args=[project_id, pk])
    if not request.htmx:
        # The form of a page without script: the minutes, or their
        # progress with the form again.
        return redirect(minutes)
    if review is not None and all(answer is not None for _, answer in drawn):
        return HttpResponseClientRedirect(minutes)
    context = {
        "access": access,
        "project": access.project,
        "session": session,
        "job": job,
        "asked": True,
        "drawn": sum(1 for _, answer in drawn if answer is not None),
        "drawings": len(drawn),
    }
    return render(request, "modeler/minutes-waiting.html#progress", context)


def _overview_svg(design) -> str:
    """The design overview diagram, inline (sanitised SVG: no script, no
    external reference), or '' when Graphviz cannot draw it."""
    try:
        return diagrams.cached(
            (diagrams.design_digest(design), "pack-overview"),
            lambda: diagrams.sanitise_svg(
                diagrams.render(diagrams.overview_dot(design), "svg")
            ),
        )
    except diagrams.RenderError:
        return ""


@login_required
@require_http_methods(["GET", "POST"])
def review_pack(request: HttpRequest, project_id: int, number: int) -> HttpResponse:
    """The review pack of revision `number`; a POST (the pending pack's
    button) starts the simulation job that makes its review."""
    access = selectors.project_get_for_user(user=request.user, project_id=project_id)
    revision = Revision.objects.filter(project=access.project, number=number).first()
    if revision is None:
        raise Http404("No such revision")
    return _pack(request, access.project, revision)


@require_http_methods(["GET", "POST"])
def shared_pack(request: HttpRequest, token: str) -> HttpResponse:
    """A share link, opened by anyone: the review pack of its revision, or
    404 when the link is unknown, revoked or expired; a POST (the pending
    pack's button, CSRF-checked) starts the job that makes its review."""
    link = selectors.share_link_find(token=token)
    if link is None:
        raise Http404("No such link")
    return _pack(request, link.project, link.revision, link=link)


@login_required
@require_http_methods(["GET", "POST"])
def share_links(request: HttpRequest, project_id: int) -> HttpResponse:
    """The owner's share links: make one (its address shown once), see who
    made each and until when it is open, revoke one."""
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=True
    )
    project = access.project
    form = ShareLinkForm(request.POST or None, initial={"number": project.version})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                link, token = sessions.share_link_create(
                    project=project,
                    author=request.user,
                    number=form.cleaned_data["number"],
                    days=form.cleaned_data["days"],
                    include_comments=form.cleaned_data["include_comments"],
                )
            except sessions.ReviewError as exc:
                form.add_error("number", str(exc))
            else:
                address = request.build_absolute_uri(
                    reverse("shared-pack", args=[token])
                )
                shows = (
                    "with its reviews' open comments "
                    f"({link.comments.count() or 'none now'}, replies included)"
                    if link.include_comments
                    else "without comments"
                )
                messages.success(
                    request,
                    f"Share link to revision {link.revision.number}, {shows}: "
                    f"{address} (copy it now: it is not shown again).",
                )
                return redirect("share-links", project_id=project_id)
        status = INVALID
    context = {
        "access": access,
        "project": project,
        "section": "reviews",
        "form": form,
        "links": ShareLink.objects.filter(project=project)
        .select_related("revision", "created_by")
        .annotate(comments_shown=Count("comments")),
        "now": timezone.now(),
    }
    return render(request, "modeler/share-links.html", context, status=status)


@login_required
@require_POST
def share_link_revoke(request: HttpRequest, project_id: int, pk: int) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=True
    )
    link = ShareLink.objects.filter(project=access.project, pk=pk).first()
    if link is None:
        raise Http404("No such link")
    sessions.share_link_revoke(link=link)
    messages.success(request, f"Revoked the link {link.prefix}….")
    return redirect("share-links", project_id=project_id)
