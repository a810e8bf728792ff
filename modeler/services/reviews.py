"""Review sessions: a review opened on one revision, comments on the
design's elements (kept on the element across renames, marked outdated when
the element changed after they were written), replies, resolve and reopen,
and a status that owners and editors set (approving records who approved
which revision). Reads and writes, with the caller's access checked by the
views."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from modeler.conversion import design_from_revision
from modeler.design import model as d
from modeler.history.elements import element_identities, elements
from modeler.infra.mail import Mail, mails_send, one_line
from modeler.jobs.services import design_review_get
from modeler.models import (
    Project,
    ReviewComment,
    ReviewSession,
    ReviewVisit,
    Revision,
    ShareLink,
)
from modeler.review.review import Review
from modeler.selectors import project_design

WHOLE_REVIEW = ""  # the element of a comment on the review as a whole
BODY_MAX_CHARS = 5000


class ReviewError(Exception):
    """A review action that cannot be done; the message says why."""


def session_open(
    *,
    project: Project,
    author: AbstractBaseUser,
    number: int,
    title: str,
    participants: Iterable[AbstractBaseUser] = (),
) -> ReviewSession:
    revision = Revision.objects.filter(project=project, number=number).first()
    if revision is None:
        raise ReviewError(f"The project has no revision {number}.")
    with transaction.atomic():
        session = ReviewSession.objects.create(
            project=project, revision=revision, title=title, created_by=author
        )
        session.participants.set(participants)
    return session


def session_decide(
    *, session: ReviewSession, user: AbstractBaseUser, status: str
) -> ReviewSession:
    if status not in ReviewSession.Status.values:
        raise ReviewError(f"'{status}' is not a review status.")
    session.status = status
    session.decided_by = user
    session.decided = timezone.now()
    session.save(update_fields=["status", "decided_by", "decided"])
    return session


def comment_add(
    *,
    session: ReviewSession,
    author: AbstractBaseUser,
    body: str,
    element: str = WHOLE_REVIEW,
    parent: ReviewComment | None = None,
) -> ReviewComment:
    """A comment on `element` (an id of the reviewed revision's elements),
    or a reply to `parent` (on the parent's element). The members it names
    are told by `comment_notify_mentioned`, after: the comment is kept
    whatever the mail does."""
    body = body.strip()
    if not body:
        raise ReviewError("Write something first.")
    if len(body) > BODY_MAX_CHARS:
        raise ReviewError(f"A comment is at most {BODY_MAX_CHARS} characters.")
    if parent is not None:
        if parent.session_id != session.pk:
            raise ReviewError("That comment is in another review.")
        element, label = parent.element, parent.element_label
    else:
        label = ""
        if element != WHOLE_REVIEW:
            found = targets(
                _reviewed_design(session), session.project, session.revision
            ).get(element)
            if (
                found is None
                and element.startswith("finding/")
                and findings_pending(session)
            ):
                raise ReviewError(
                    "The design review is still being made: comment on its "
                    "findings when it is done."
                )
            if found is None:
                raise ReviewError("The reviewed revision has no such element.")
            label = found.label
    return ReviewComment.objects.create(
        session=session,
        author=author,
        element=element,
        element_label=label,
        parent=parent,
        body=body,
        written_at=session.project.version,
    )


MENTION = re.compile(r"(?<![\w.])@([\w.@+-]+)")


def mentioned(session: ReviewSession, body: str) -> list[AbstractBaseUser]:
    """The project's members named as @username in `body`."""
    names = {name.rstrip(".") for name in MENTION.findall(body)}
    if not names:
        return []
    project = session.project
    return list(
        get_user_model()
        .objects.filter(username__in=names)
        .filter(Q(pk=project.owner_id) | Q(memberships__project=project))
        .distinct()
    )


@dataclass(frozen=True)
class NotNotified:
    """A member a comment named whose email could not be sent, and why."""

    username: str
    reason: str


def comment_notify_mentioned(*, comment: ReviewComment, link: str) -> list[NotNotified]:
    """Email each member the comment names as @username (not its author),
    with `link` (the review's address); returns those whose email could
    not be sent, for the page to say so."""
    session = comment.session
    author = comment.author.get_username() if comment.author else "Someone"
    title, project = one_line(session.title), one_line(session.project.name)
    on = f", on {comment.element_label}" if comment.element_label else ""
    to = {
        user.email: user.get_username()
        for user in mentioned(session, comment.body)
        if user.pk != comment.author_id and user.email
    }
    failures = mails_send(
        [
            Mail(
                to=email,
                subject=f"{author} mentioned you in the review “{title}”",
                body=(
                    f"{author} mentioned you in the review “{title}” of the "
                    f"project {project}{on}:\n\n{comment.body}\n\n"
                    f"Open the review: {link}\n"
                ),
            )
            for email in to
        ]
    )
    return [NotNotified(to[f.mail.to], f.reason) for f in failures]


def comment_resolve(*, comment: ReviewComment, resolved: bool) -> ReviewComment:
    comment.resolved = resolved
    comment.save(update_fields=["resolved"])
    return comment


def _reviewed_design(session: ReviewSession) -> d.Design:
    return design_from_revision(session.revision)


@dataclass(frozen=True)
class Target:
    """Something a comment can be about: an element of the design, or a
    part of an entity (a key template: a cell of the key map; an
    attribute)."""

    label: str
    value: object  # compared to tell whether it changed since


def targets(
    design: d.Design,
    project: Project | None = None,
    revision: Revision | None = None,
) -> dict[str, Target]:
    """What comments can be about, by id: the design's elements (ids that
    follow renames), then each entity's key templates (`<entity>/key/PK`)
    and attributes (`<entity>/attr/<attribute id>`), then the design
    review's findings (`finding/<code>/<id of its element>`, with
    `project`: at its prices)."""
    found: dict[str, Target] = {}
    # The id of each element a finding can be about, by the finding's
    # location (kind, name).
    located: dict[tuple[str, str], str] = {}
    for element_id, element in elements(design).items():
        found[element_id] = Target(element.label, element.value)
        if element.kind in ("table", "index", "entity", "pattern"):
            located[(element.kind, element.name)] = element_id
        if element.kind != "entity":
            continue
        entity = element.value
        for name, template in entity.keys.items():
            found[f"{element_id}/key/{name}"] = Target(
                f"key template {name} of entity {entity.name}", template
            )
        for attr in entity.attributes:
            attr_id = f"{element_id}/attr/{attr.uid or attr.name}"
            found[attr_id] = Target(f"attribute {entity.name}.{attr.name}", attr)
            located[("attribute", f"{entity.name}.{attr.name}")] = attr_id
    review = _review(design, project, revision) if project is not None else None
    if review is not None:
        for finding in review.findings:
            where = finding.location
            element_id = located.get((where.kind, where.name))
            if element_id is None:
                continue
            found[f"finding/{finding.code}/{element_id}"] = Target(
                f"finding “{finding.title}” ({finding.severity})",
                # A finding is about its kind on its element: it is the same
                # while that element is, whatever its evidence's numbers
                # (they move with any edit of the sample data).
                found[element_id].value,
            )
    return found


def _legacy_finding(element_id: str, design: d.Design) -> str:
    """The id of a comment on a finding written before findings were
    anchored to their element's id (`finding/<code>/<kind>/<name>`, the name
    as it was in `design`), else `element_id` unchanged."""
    parts = element_id.split("/", 3)
    if len(parts) != 4 or parts[0] != "finding":
        return element_id
    _, code, kind, name = parts
    identity = element_identities(design).get((kind, name))
    if identity is None:
        return element_id
    if kind == "attribute":
        entity_id, _, attr_id = identity.partition(".")
        identity = f"{entity_id}/attr/{attr_id}"
    return f"finding/{code}/{identity}"


def _review(
    design: d.Design, project: Project, revision: Revision | None = None
) -> Review | None:
    """The design review of `design` (the project's current one, or
    `revision`'s) at the project's prices, made by its simulation job;
    None while the job makes it."""
    found = design_review_get(project=project, design=design, revision=revision)
    return found.review


def findings_pending(session: ReviewSession) -> bool:
    """Whether the reviewed revision's review is still being made (its
    findings cannot be commented on until it is)."""
    revision = session.revision
    design = design_from_revision(revision)
    found = design_review_get(project=session.project, design=design, revision=revision)
    return found.review is None


# --- Reads ------------------------------------------------------------------------


@dataclass
class Thread:
    """A comment with its replies, on an element as it is now."""

    comment: ReviewComment
    replies: list[ReviewComment] = field(default_factory=list)
    label: str = ""  # the element's label now (renames followed)
    outdated: bool = False  # the element changed after the comment
    removed: bool = False  # the element is no longer in the design


@dataclass
class ElementThreads:
    element: str  # id, or "" for the review as a whole
    label: str
    threads: list[Thread]


def session_threads(session: ReviewSession) -> list[ElementThreads]:
    """The review's comments by element, in the order of the design's
    elements (the review as a whole first); each thread says whether its
    element changed since the comment was written."""
    project = session.project
    current = targets(project_design(project=project), project)
    comments = list(session.comments.select_related("author"))
    written = {c.written_at for c in comments if c.parent_id is None}
    # A finding's earlier version costs a review of that revision: only
    # when a comment is about one.
    on_findings = any(c.element.startswith("finding/") for c in comments)
    designs = {
        revision.number: (revision, design_from_revision(revision))
        for revision in Revision.objects.filter(project=project, number__in=written)
    }
    then: dict[int, dict[str, Target]] = {
        number: targets(design, project if on_findings else None, revision)
        for number, (revision, design) in designs.items()
    }
    # While the current review is made, its findings are not known: a
    # comment on one is shown as written, neither removed nor changed.
    unknown = on_findings and _review(project_design(project=project), project) is None
    threads: dict[int, Thread] = {}
    for comment in comments:
        if comment.parent_id is None:
            if comment.written_at in designs and comment.element.startswith("finding/"):
                comment.element = _legacy_finding(
                    comment.element, designs[comment.written_at][1]
                )
            now = current.get(comment.element) if comment.element else None
            was = then.get(comment.written_at, {}).get(comment.element)
            if now is None and unknown and comment.element.startswith("finding/"):
                threads[comment.pk] = Thread(comment, label=comment.element_label)
                continue
            threads[comment.pk] = Thread(
                comment=comment,
                label=now.label if now else comment.element_label,
                removed=bool(comment.element) and now is None,
                outdated=bool(comment.element)
                and now is not None
                and (was is None or was.value != now.value),
            )
    for comment in comments:
        if comment.parent_id is not None and comment.parent_id in threads:
            threads[comment.parent_id].replies.append(comment)
    order = {element_id: i for i, element_id in enumerate(current)}
    grouped: dict[str, ElementThreads] = {}
    for thread in threads.values():
        key = thread.comment.element
        if key not in grouped:
            label = "The review as a whole" if key == WHOLE_REVIEW else thread.label
            grouped[key] = ElementThreads(key, label, [])
        grouped[key].threads.append(thread)
    return sorted(
        grouped.values(),
        key=lambda g: (g.element != WHOLE_REVIEW, order.get(g.element, len(order))),
    )


def element_choices(session: ReviewSession) -> list[tuple[str, str]]:
    """What a comment can be about: the review as a whole, then every
    element of the reviewed revision, with each entity's key templates and
    attributes after it."""
    found = targets(_reviewed_design(session), session.project, session.revision)
    return [(WHOLE_REVIEW, "The review as a whole")] + [
        (target_id, target.label[:1].upper() + target.label[1:])
        for target_id, target in found.items()
    ]


def approved_since(project: Project) -> ReviewSession | None:
    """The latest approved review when the design changed after the
    revision it approved (the Overview says so), else None."""
    latest = (
        ReviewSession.objects.filter(
            project=project, status=ReviewSession.Status.APPROVED
        )
        .select_related("revision", "decided_by")
        .order_by("-decided", "-pk")
        .first()
    )
    if latest is None or latest.revision.number >= project.version:
        return None
    return latest


def session_seen(*, session: ReviewSession, user: AbstractBaseUser) -> None:
    """`user` has read the review's comments up to now."""
    ReviewVisit.objects.update_or_create(
        session=session, user=user, defaults={"seen": timezone.now()}
    )


def sessions_with_unread(
    *, project: Project, user: AbstractBaseUser
) -> list[ReviewSession]:
    """The project's reviews, each with `unread`: the comments others wrote
    since `user` last opened it (all of them if never)."""
    visits = dict(
        ReviewVisit.objects.filter(session__project=project, user=user).values_list(
            "session_id", "seen"
        )
    )
    found = list(
        ReviewSession.objects.filter(project=project).select_related(
            "revision", "created_by", "decided_by"
        )
    )
    unread = dict.fromkeys((session.pk for session in found), 0)
    others = (
        ReviewComment.objects.filter(session__project=project)
        .exclude(author=user)
        .values_list("session_id", "created")
    )
    for session_id, created in others:
        seen = visits.get(session_id)
        if seen is None or created > seen:
            unread[session_id] += 1
    for session in found:
        session.unread = unread[session.pk]
    return found


# --- Share links and the review pack -----------------------------------------------

SHARE_TOKEN_BYTES = 24


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def share_link_create(
    *,
    project: Project,
    author: AbstractBaseUser,
    number: int,
    days: int | None,
    include_comments: bool = False,
) -> tuple[ShareLink, str]:
    """A new share link to revision `number`, valid `days` (None: until
    revoked). With `include_comments` it shows the comments still open in
    that revision's reviews now, with their replies, and never any written,
    replied or resolved after. Returns it and its token, which is not
    stored."""
    revision = Revision.objects.filter(project=project, number=number).first()
    if revision is None:
        raise ReviewError(f"The project has no revision {number}.")
    token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
    with transaction.atomic():
        link = ShareLink.objects.create(
            project=project,
            revision=revision,
            token_hash=_token_hash(token),
            prefix=token[:6],
            created_by=author,
            expires=timezone.now() + timedelta(days=days) if days else None,
            include_comments=include_comments,
        )
        if include_comments:
            link.comments.set(_open_threads(revision))
    return link, token


def share_link_revoke(*, link: ShareLink) -> None:
    if link.revoked is None:
        link.revoked = timezone.now()
        link.save(update_fields=["revoked"])


def share_link_open(token: str) -> ShareLink | None:
    """The live link with this token (not revoked, not expired), its use
    recorded; None otherwise."""
    if not token or len(token) > 100:
        return None
    link = (
        ShareLink.objects.filter(token_hash=_token_hash(token), revoked=None)
        .select_related("project", "revision")
        .first()
    )
    now = timezone.now()
    if link is None or (link.expires is not None and link.expires <= now):
        return None
    ShareLink.objects.filter(pk=link.pk).update(last_used=now)
    return link


def _open_threads(revision: Revision) -> QuerySet[ReviewComment]:
    """The unresolved comments of the reviews held on `revision`, with
    their replies."""
    return ReviewComment.objects.filter(session__revision=revision).filter(
        Q(parent=None, resolved=False) | Q(parent__parent=None, parent__resolved=False)
    )


@dataclass
class PackThread:
    comment: ReviewComment
    replies: list[ReviewComment] = field(default_factory=list)


def pack_threads(
    *, revision: Revision, link: ShareLink | None = None
) -> list[PackThread]:
    """The comments a review pack of `revision` shows, oldest first: for
    members, the open threads of the reviews held on that revision, with
    their replies; through a share link, the ones it was made with (none
    unless its owner chose to include them)."""
    if link is None:
        found = _open_threads(revision)
    elif link.include_comments:
        found = link.comments.all()
    else:
        return []
    comments = list(found.select_related("author", "session").order_by("created", "pk"))
    threads = {c.pk: PackThread(c) for c in comments if c.parent_id is None}
    for comment in comments:
        if comment.parent_id in threads:
            threads[comment.parent_id].replies.append(comment)
    return list(threads.values())
