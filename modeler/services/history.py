"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from modeler.conversion import (
    design_from_revision,
)
from modeler.design import edits
from modeler.design import model as d
from modeler.history import elements
from modeler.history.merge import same_element
from modeler.models import Project, Revision
from modeler.services.projects import (
    project_edit,
    project_revision_design,
    project_save_design,
)

# How far back a user's undo reaches, in revisions of the project; undo
# itself goes back as many of the user's changes as lie in them.
UNDO_WINDOW = 200


class HistoryError(Exception):
    """An undo, redo, restore or name that cannot be done: nothing to undo,
    not the change the page offered, no such revision. The message says so."""


@dataclass(frozen=True)
class UndoState:
    """What an undo and a redo would do for one user in one project: the
    revision an undo takes back, and the undo a redo takes back. `skipped`
    are the user's newer changes that cannot be undone any more, because
    someone changed the same elements since (newest first), with who did."""

    undo: Revision | None
    redo: Revision | None
    skipped: tuple[Skipped, ...] = ()

    @property
    def undo_label(self) -> str:
        return f"Undo: {self.undo.summary}" if self.undo else ""

    @property
    def redo_label(self) -> str:
        if self.redo is None:
            return ""
        return f"Redo: {self.redo.summary.removeprefix(_UNDID)}"

    @property
    def skipped_note(self) -> str:
        """The changes Undo passes over, in words."""
        if not self.skipped:
            return ""
        parts = [
            f"“{s.revision.summary}” ({s.who} changed it since)" for s in self.skipped
        ]
        return "Cannot be undone any more: " + "; ".join(parts) + "."


@dataclass(frozen=True)
class Skipped:
    revision: Revision
    who: str


_UNDID = "undid: "


def undo_state(*, project: Project, user: AbstractBaseUser) -> UndoState:
    """The user's own changes form their undo stack (as in an editor): undo
    takes back their latest change that is not undone yet and that nobody
    changed since; a newer one that someone else changed since (its
    elements no longer hold what it made) is passed over and named, so
    that the older ones can still be undone. Redo takes back their latest
    undo, until they make a new change."""
    if not user.is_authenticated:
        return UndoState(None, None)
    rows = list(
        Revision.objects.filter(project=project, author=user)
        .only("id", "number", "kind", "summary", "reverts_id", "changed")
        .order_by("-number")[:UNDO_WINDOW]
    )
    done: list[Revision] = []
    undone: list[Revision] = []
    for revision in reversed(rows):
        if revision.kind in (Revision.Kind.EDIT, Revision.Kind.RESTORE):
            done.append(revision)
            undone.clear()
        elif revision.kind == Revision.Kind.UNDO:
            # Not always the top of the stack: an undo may have passed over
            # changes that could not be undone.
            taken = _taken_out(done, revision.reverts_id)
            if taken is not None:
                undone.append(revision)
        elif revision.kind == Revision.Kind.REDO and (
            undone and undone[-1].pk == revision.reverts_id
        ):
            undone.pop()
            done.append(revision)
    skipped: list[Skipped] = []
    undo = None
    for candidate in reversed(done):
        who = _changed_since_by_others(project, user, candidate)
        if who is None:
            undo = candidate
            break
        skipped.append(Skipped(candidate, who))
    return UndoState(undo, undone[-1] if undone else None, tuple(skipped))


def _taken_out(done: list[Revision], pk: int | None) -> Revision | None:
    for position in range(len(done) - 1, -1, -1):
        if done[position].pk == pk:
            return done.pop(position)
    return None


def _changed_since_by_others(
    project: Project, user: AbstractBaseUser, revision: Revision
) -> str | None:
    """Who changed, since `revision`, an element it changed so that it no
    longer holds what the revision made (an undo of it would clash); None
    when it can be undone. Decided from the revisions' lists of changed
    elements, and only when one touched them, from the designs."""
    if revision.number >= project.version:
        return None  # nothing came after the latest revision: no query
    ids = set(revision.changed or ())
    later = [
        (author_id, username)
        for changed, author_id, username in Revision.objects.filter(
            project=project, number__gt=revision.number
        ).values_list("changed", "author_id", "author__username")
        if ids.intersection(changed or ())
    ]
    if not later:
        return None
    after = elements.elements(
        project_revision_design(project=project, number=revision.number)
    )
    now = elements.elements(
        project_revision_design(project=project, number=project.version)
    )
    if all(same_element(now.get(key), after.get(key)) for key in ids):
        return None
    others = [name or "someone" for author_id, name in later if author_id != user.pk]
    return " and ".join(dict.fromkeys(others)) or "you"


def revision_undo(*, project: Project, user: AbstractBaseUser, number: int) -> Revision:
    """Take back the user's latest change that can be undone, revision
    `number` (the one the page offered), as a new revision; the elements it
    changed go back to how they were before it. EditConflict if someone
    changed them in the meantime; HistoryError if `number` is not the change
    to undo any more."""
    state = undo_state(project=project, user=user)
    if state.undo is None or state.undo.number != number:
        if state.undo is not None:
            raise HistoryError(
                f"The change to undo is now “{state.undo.summary}”; the "
                "button shows it now."
            )
        raise HistoryError(
            state.skipped_note or "You have no change to undo in this project."
        )
    return _revision_revert(
        project=project,
        user=user,
        target=state.undo,
        kind=Revision.Kind.UNDO,
        summary=f"{_UNDID}{state.undo.summary}",
    )


def revision_redo(*, project: Project, user: AbstractBaseUser, number: int) -> Revision:
    """Make again the change that the user's latest undo, revision `number`,
    took back."""
    state = undo_state(project=project, user=user)
    if state.redo is None or state.redo.number != number:
        raise HistoryError("There is no undone change of yours to redo; reload.")
    return _revision_revert(
        project=project,
        user=user,
        target=state.redo,
        kind=Revision.Kind.REDO,
        summary=state.redo.summary.removeprefix(_UNDID),
    )


def _revision_revert(
    *,
    project: Project,
    user: AbstractBaseUser,
    target: Revision,
    kind: str,
    summary: str,
) -> Revision:
    before = project_revision_design(project=project, number=target.number - 1)
    after = project_revision_design(project=project, number=target.number)
    project.refresh_from_db(fields=["version", "head"])
    edit = edits.Revert(before=before, after=after, line=summary)
    project_edit(
        project=project,
        version=project.version,
        edit=edit.apply,
        author=user,
        kind=kind,
        summary=edit.summary,
        reverts=target,
    )
    return Revision.objects.get(pk=project.head_id)


def revision_restore(
    *, project: Project, user: AbstractBaseUser, number: int
) -> Revision:
    """Bring back the whole design of revision `number` as a new revision;
    the revisions since stay in the history."""
    old = Revision.objects.filter(project=project, number=number).first()
    if old is None:
        raise HistoryError(f"The project has no revision {number}.")
    named = f" ({old.label})" if old.label else ""
    project.refresh_from_db(fields=["version", "head"])
    project_save_design(
        project=project,
        design=design_from_revision(old),
        version=project.version,
        allow_errors=True,
        author=user,
        kind=Revision.Kind.RESTORE,
        summary=f"restored revision {number}{named}",
        reverts=old,
    )
    return Revision.objects.get(pk=project.head_id)


def revision_label_set(*, project: Project, number: int, label: str) -> Revision:
    """Name a revision ("reviewed 2026-11-30"), or take its name away."""
    revision = Revision.objects.filter(project=project, number=number).first()
    if revision is None:
        raise HistoryError(f"The project has no revision {number}.")
    revision.label = label.strip()[:200]
    revision.save(update_fields=["label"])
    return revision


def revision_save_next(
    *,
    project: Project,
    user: AbstractBaseUser,
    number: int,
    design: d.Design,
    summary: str,
) -> Revision:
    """Save `design` as the revision after `number`, which must be the
    latest: it was made from that revision (a migration's alternative), and
    saved over a later one it would undo the changes made since."""
    project.refresh_from_db(fields=["version", "head"])
    if project.version != number:
        raise HistoryError(
            f"revision {number} is no longer the latest (revision "
            f"{project.version} is): compare revision {project.version} to "
            "plan its migration"
        )
    project_save_design(
        project=project,
        design=design,
        version=number,
        allow_errors=True,
        author=user,
        summary=summary,
    )
    return Revision.objects.get(pk=project.head_id)
