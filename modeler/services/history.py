"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from modeler.conversion import (
    design_from_revision,
)
from modeler.design import edits
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
    revision an undo takes back, and the undo a redo takes back."""

    undo: Revision | None
    redo: Revision | None

    @property
    def undo_label(self) -> str:
        return f"Undo: {self.undo.summary}" if self.undo else ""

    @property
    def redo_label(self) -> str:
        if self.redo is None:
            return ""
        return f"Redo: {self.redo.summary.removeprefix(_UNDID)}"


_UNDID = "undid: "


def undo_state(*, project: Project, user: AbstractBaseUser) -> UndoState:
    """The user's own changes form their undo stack (as in an editor): undo
    takes back their latest change that is not undone yet; redo takes back
    their latest undo, until they make a new change."""
    if not user.is_authenticated:
        return UndoState(None, None)
    rows = list(
        Revision.objects.filter(project=project, author=user)
        .only("id", "number", "kind", "summary", "reverts_id")
        .order_by("-number")[:UNDO_WINDOW]
    )
    done: list[Revision] = []
    undone: list[Revision] = []
    for revision in reversed(rows):
        if revision.kind in (Revision.Kind.EDIT, Revision.Kind.RESTORE):
            done.append(revision)
            undone.clear()
        elif revision.kind == Revision.Kind.UNDO:
            if done and done[-1].pk == revision.reverts_id:
                done.pop()
                undone.append(revision)
        elif revision.kind == Revision.Kind.REDO and (
            undone and undone[-1].pk == revision.reverts_id
        ):
            undone.pop()
            done.append(revision)
    return UndoState(done[-1] if done else None, undone[-1] if undone else None)


def revision_undo(*, project: Project, user: AbstractBaseUser, number: int) -> Revision:
    """Take back the user's latest change, revision `number` (the one the
    page offered), as a new revision; the elements it changed go back to how
    they were before it. EditConflict if someone changed them since;
    HistoryError if `number` is not the user's latest change any more."""
    state = undo_state(project=project, user=user)
    if state.undo is None or state.undo.number != number:
        raise HistoryError(
            f"Your latest change is now “{state.undo.summary}”; reload the page."
            if state.undo
            else "You have no change to undo in this project."
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
