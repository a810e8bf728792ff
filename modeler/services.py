"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from modeler import design as d
from modeler import design_edits as edits
from modeler import dynamodb
from modeler.conversion import (
    RevisionRecord,
    design_from_project,
    design_from_revision,
    design_from_revision_id,
    revision_write,
)
from modeler.design_check import check_design, check_storable
from modeler.engine.types import item_to_json_wire
from modeler.examples import Example
from modeler.exporters.design_files import read_design_source
from modeler.exporters.live_import import read_live_table, table_properties
from modeler.exporters.tables_import import TableChoice
from modeler.history import elements, merge
from modeler.history.merge import Conflict, Edit
from modeler.limits import check_limits, new_excesses
from modeler.mail import mail_send, one_line
from modeler.models import Invitation, Membership, Project, ReviewSettings, Revision
from modeler.problems import Problem, has_errors
from modeler.review.prices import Prices
from modeler.sampledata import read_items

# A user's own items are read with the design on every simulation request and
# hashed into the simulation cache's key: they are for hand-made cases, the
# generated data gives the volume.
OWN_ITEMS_MAX = 1_000
PRICE_FIELDS = (
    "taken",
    "read_request_per_million",
    "write_request_per_million",
    "rcu_hour",
    "wcu_hour",
    "storage_gb_month",
)


# The history's line for a revision: as given, or made from the design
# before and after (empty: said from what changed).
Summary = str | Callable[[d.Design, d.Design], str]


class StaleVersionError(Exception):
    """The project changed since the caller read it."""


YOU = "you"


class EditConflict(Exception):
    """An edit made on an older revision changes elements that others
    changed since: `clashes` (each with the base, theirs and mine) and who
    made the other changes (`authors`, by element id). `version` is the
    project's version that holds their changes: an edit made again at it
    keeps mine in their place."""

    def __init__(
        self, conflict: Conflict, authors: dict[str, list[str]], version: int
    ) -> None:
        super().__init__(str(conflict))
        self.clashes = conflict.clashes
        self.authors = authors
        self.version = version

    @property
    def message(self) -> str:
        parts = []
        for clash in self.clashes:
            who = self.authors.get(clash.id, [])
            where = " in another tab" if who == [YOU] else ""
            parts.append(
                f"{' and '.join(who) or 'someone'} changed {clash.label}{where}"
            )
        text = "; ".join(parts)
        if text.startswith(("you ", "someone ")):  # not a username: as typed
            text = text[:1].upper() + text[1:]
        return (
            text + " since you opened this page, so your change was not saved. "
            "Your input is kept below."
        )


class LimitError(ValueError):
    """A save would take the design past a limit of the site that the design
    it replaces was within (an editor's count, another seed, an undo or a
    restore of a revision saved before the limit was lowered); `problems`
    are those limits' errors."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].message)
        self.problems = problems


def new_design(*, name: str, description: str = "") -> d.Design:
    """The starting point of a new project: one table with a generic
    partition and sort key, ready for overloading."""
    # DynamoDB table names are ASCII; str.isalnum() alone lets "é" through.
    table_name = "".join(
        c if (c.isascii() and c.isalnum()) or c in "-_." else "-" for c in name
    )
    return d.Design(
        name=name,
        description=description,
        table=d.Table(
            name=(table_name.strip("-").lower() or "app")[:255].ljust(3, "-"),
            partition_key=d.KeyAttribute("PK", "S"),
            sort_key=d.KeyAttribute("SK", "S"),
        ),
    )


@transaction.atomic
def project_create(
    *, owner: AbstractBaseUser, design: d.Design, summary: str = ""
) -> Project:
    """A new project holding `design`, its first revision. The caller has
    checked the design."""
    # A name heads pages and email subjects: one line, even when a design
    # file or a form brought line breaks.
    design = dataclasses.replace(design, name=one_line(design.name))
    project = Project.objects.create(
        owner=owner, name=design.name, description=design.description
    )
    revision_write(
        project=project,
        record=RevisionRecord(
            design=elements.with_uids(design),
            summary=summary or "created the design",
        ),
        number=1,
        author=owner,
        kind=Revision.Kind.CREATE,
    )
    return project


@dataclass(frozen=True)
class ImportOutcome:
    """The projects an import made (none on any error), the problems, and
    what a NoSQL Workbench model could not carry over."""

    projects: tuple[Project, ...]
    problems: tuple[Problem, ...]
    notes: tuple[str, ...] = ()
    kind_label: str = "design YAML"


def project_import(
    *,
    owner: AbstractBaseUser,
    source: str | bytes,
    name: str = "",
    filename: str = "",
    table: str = "",
) -> ImportOutcome:
    """Create projects from a design file: its design (YAML), or a project
    per table of a NoSQL Workbench model, a template or a configuration (at
    most IMPORT_MAX_TABLES), or of its one `table`. With any error nothing
    is written and the problems say why."""
    found = read_design_source(
        source,
        max_bytes=settings.DESIGN_FILE_MAX_BYTES,
        filename=filename,
        choice=TableChoice(
            table, settings.IMPORT_MAX_TABLES, naming="name one in Table"
        ),
    )
    if not found.ok:
        return ImportOutcome((), found.problems, found.notes, found.kind_label)
    # A NoSQL Workbench model is converted, not checked as a design file is:
    # what the database cannot store and the limits apply to every design an
    # import makes.
    refused = [
        p
        for design in found.designs
        for p in check_storable(design) + check_limits(design)
    ]
    if has_errors(refused):
        return ImportOutcome((), tuple(refused), found.notes, found.kind_label)
    projects = project_import_designs(owner=owner, designs=found.designs, name=name)
    return ImportOutcome(tuple(projects), found.problems, found.notes, found.kind_label)


def project_import_live_table(
    *,
    owner: AbstractBaseUser,
    client: Any,
    table: str,
    sample: int,
    segments: int = 4,
    name: str = "",
    live: dynamodb.LiveTable | None = None,
    scaling_client: Any = None,
) -> ImportOutcome:
    """A project from a live table: its description (`live`, when the
    caller has read it already) and a sample of its items read through
    `client`, the entities inferred from them. Raises dynamodb.EndpointError
    when the endpoint refuses or cannot be reached; with any problem that
    is an error nothing is written. `scaling_client`, an Application Auto
    Scaling client, reads the table's auto scaling."""
    live = live or dynamodb.describe_live_table(client, table, scaling_client)
    found = dynamodb.sample_items(client, table, sample=sample, segments=segments)
    cost = (
        f"{found.units:,.1f} read units"
        if found.reported
        else "the endpoint reported no consumed capacity"
    )
    result = read_live_table(
        table_properties(
            live.description, ttl=live.ttl, backups=live.backups, tags=live.tags
        ),
        found.items,
        keep=OWN_ITEMS_MAX,
        notes=[f"read {len(found.items):,} items in {found.pages} pages: {cost}"]
        + live.notes,
        replicas=live.replicas,
        scaling=live.scaling,
    )
    (imported,) = result.tables
    label = f"live table {table}"
    if not result.ok:
        return ImportOutcome((), imported.problems, imported.notes, label)
    refused = check_storable(result.designs[0]) + check_limits(result.designs[0])
    if has_errors(refused):
        return ImportOutcome((), tuple(refused), imported.notes, label)
    projects = project_import_designs(
        owner=owner, designs=tuple(result.designs), name=name
    )
    return ImportOutcome(tuple(projects), imported.problems, imported.notes, label)


@transaction.atomic
def project_import_designs(
    *, owner: AbstractBaseUser, designs: tuple[d.Design, ...], name: str = ""
) -> list[Project]:
    """A project per design, all or none. `name` names a single design's
    project; with several (the tables of one model) it prefixes their names."""
    projects = []
    for design in designs:
        if name and len(designs) == 1:
            design = dataclasses.replace(design, name=name)
        elif name:
            design = dataclasses.replace(
                design, name=f"{name} — {design.table.name}"[:200]
            )
        projects.append(project_create(owner=owner, design=design))
    return projects


def project_from_example(*, owner: AbstractBaseUser, example: Example) -> Project:
    """A copy of an example design in `owner`'s own projects."""
    return project_create(
        owner=owner,
        design=example.design,
        summary=f"copied from the example '{example.design.name}'",
    )


def project_save_design(
    *,
    project: Project,
    design: d.Design,
    version: int,
    allow_errors: bool = False,
    author: AbstractBaseUser | None = None,
    kind: str = Revision.Kind.EDIT,
    summary: Summary = "",
    reverts: Revision | None = None,
    problems: list[Problem] | None = None,
) -> tuple[Project, list[Problem]]:
    """Save `design` as the project's next revision if the project is still
    at `version` and the design has no error. Returns the problems (warnings,
    or the errors that stopped it). LimitError when it would take the design
    past a limit of the site.

    The editor saves with `allow_errors`: a design being built has errors
    that later edits resolve (an entity before its key templates); it has
    already refused the errors in the part that was edited. `problems` are
    the design's, when the caller has checked it already; `summary` is the
    history's line, or makes it from the design before and after."""
    if problems is None:
        problems = check_design(design)
    if has_errors(problems) and not allow_errors:
        return project, problems
    previous = (
        Revision.objects.filter(project=project, number=version)
        .only("id", "items_id")
        .first()
    )
    if previous is None:
        raise StaleVersionError(
            f"This page showed version {version}, which the project does not "
            "have; reload the page."
        )
    # Everything but the writes is done before the project's row is locked.
    before = design_from_revision_id(previous.pk)
    # Every save is held to the limits, whatever made it: a design may
    # shrink past one (the site may have lowered it), not grow past it.
    excesses = new_excesses(before, design)
    if excesses:
        raise LimitError(excesses)
    design = elements.with_uids(design, before)
    record = RevisionRecord(
        design=design,
        summary=(
            summary(before, design)
            if callable(summary)
            else summary or elements.summary(before, design)
        ),
        changed=elements.changed(before, design),
        previous=previous,
        previous_design=before,
    )
    with transaction.atomic():
        updated = Project.objects.filter(pk=project.pk, version=version).update(
            version=version + 1
        )
        if not updated:
            raise StaleVersionError(
                "Someone saved this project since you opened it; reload to see "
                "their changes. Your input is kept below."
            )
        revision_write(
            project=project,
            record=record,
            number=version + 1,
            author=author,
            kind=kind,
            reverts=reverts,
        )
    return project, problems


# Saves made from an older revision are merged; if someone saves between the
# merge and the save, the merge is done again, this many times at most.
_EDIT_ATTEMPTS = 3


def project_edit(
    *,
    project: Project,
    version: int,
    edit: Edit,
    author: AbstractBaseUser | None,
    check: Callable[[d.Design, d.Design], list[Problem]] | None = None,
    summary: Summary = "",
    kind: str = Revision.Kind.EDIT,
    reverts: Revision | None = None,
) -> tuple[Project, d.Design, list[Problem]]:
    """Apply `edit`, made on the page that showed revision `version`, to the
    project's current design and save it, errors allowed (the editor's
    saves). When others saved since, the edit is replayed on their design if
    it changes other elements than they did; otherwise EditConflict, whose
    version an edit made again at keeps the user's change over the other.
    `check`
    returns the edited design's problems (given after the design it was made
    from), or refuses it by raising. Returns the project, the saved design
    and its problems."""
    base: d.Design | None = None
    for attempt in range(_EDIT_ATTEMPTS):
        if attempt:
            project.refresh_from_db(fields=["version", "head"])
        current = design_from_project(project)
        try:
            if project.version == version:
                edited = edit(current)
            else:
                if base is None:
                    base = project_revision_design(project=project, number=version)
                edited = merge.rebase(edit, base=base, current=current)
        except Conflict as conflict:
            since = reverts.number if reverts is not None else version
            raise EditConflict(
                conflict,
                _authors_since(project, since, conflict, author),
                project.version,
            ) from None
        problems = check(current, edited) if check is not None else None
        if edited == current and not elements.changed(current, edited):
            # Nothing to keep: no revision that changes nothing.
            return (
                project,
                current,
                (problems if problems is not None else check_design(current)),
            )
        try:
            project, problems = project_save_design(
                project=project,
                design=edited,
                version=project.version,
                allow_errors=True,
                author=author,
                kind=kind,
                summary=summary,
                reverts=reverts,
                problems=problems,
            )
        except StaleVersionError:
            continue
        return project, design_from_project(project), problems
    raise StaleVersionError(
        "Others are saving this project right now; your change was not saved. "
        "Your input is kept: try again in a moment."
    )


def _authors_since(
    project: Project,
    version: int,
    conflict: Conflict,
    me: AbstractBaseUser | None,
) -> dict[str, list[str]]:
    """Who changed each clashing element after revision `version` (YOU for
    the user who is saving, in another tab)."""
    ids = {clash.id for clash in conflict.clashes}
    out: dict[str, list[str]] = {}
    revisions = Revision.objects.filter(project=project, number__gt=version)
    for changed, author_id, username in revisions.values_list(
        "changed", "author_id", "author__username"
    ):
        name = YOU if me is not None and author_id == me.pk else username
        for key in ids.intersection(changed):
            names = out.setdefault(key, [])
            if (name or "someone") not in names:
                names.append(name or "someone")
    return out


def project_revision_design(*, project: Project, number: int) -> d.Design:
    """The design as it was at revision `number`; StaleVersionError if the
    project has no such revision (a page from before a restore of the
    database, or a made-up version)."""
    if number == project.version and project.head_id is not None:
        # The current revision: kept decoded, without reading its document.
        return design_from_project(project)
    revision = Revision.objects.filter(project=project, number=number).first()
    if revision is None:
        raise StaleVersionError(
            f"This page showed version {number}, which the project does not "
            "have; reload the page."
        )
    return design_from_revision(revision)


# --- History: undo, redo, restore, names ---------------------------------------

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


def project_delete(*, project: Project) -> None:
    project.delete()


def membership_set(*, project: Project, user: AbstractBaseUser, role: str) -> None:
    """Give `user` a role in the project (editor or viewer)."""
    if user.pk == project.owner_id:
        raise ValueError("The owner already has every right on the project.")
    Membership.objects.update_or_create(
        project=project, user=user, defaults={"role": role}
    )


def membership_remove(*, project: Project, membership_id: int) -> str:
    """Remove a member from the project; returns their username, or '' if
    the project has no such membership."""
    membership = (
        Membership.objects.filter(project=project, pk=membership_id)
        .select_related("user")
        .first()
    )
    if membership is None:
        return ""
    membership.delete()
    return membership.user.get_username()


# An invitation's link works for this long.
INVITATION_DAYS = 14


def invitation_send(
    *,
    project: Project,
    email: str,
    role: str,
    invited_by: AbstractBaseUser,
    link: Callable[[str], str],
) -> None:
    """Email `email` a link that makes whoever opens it, logged in, a member
    of the project with `role`. The same for any address, with an account
    or not: the owner learns nothing about who has one. Inviting the same
    address again replaces the earlier invitation (and its link).

    The invitation is stored only once its email has left: MailError, and
    nothing saved (an earlier invitation to the address still works), when
    it cannot be sent. Its link is for the invitee's mailbox alone, so it is
    never shown to the owner instead. The email goes first, before the
    write, so that no database lock waits on the mail server."""
    token = secrets.token_urlsafe(32)
    name = one_line(project.name)
    mail_send(
        to=email,
        subject=f"Single-table workbench: join the project {name}",
        body=(
            f"{invited_by.get_username()} invites you to the project "
            f"'{name}' on the single-table workbench, as {role}.\n\n"
            f"Join it: {link(reverse('invitation-accept', args=[token]))}\n\n"
            "Log in first, or sign up if you have no account. The link works "
            f"for {INVITATION_DAYS} days, once."
        ),
    )
    Invitation.objects.update_or_create(
        project=project,
        email=email.lower(),
        defaults={
            "role": role,
            "token_hash": _token_hash(token),
            "invited_by": invited_by,
            "created": timezone.now(),
        },
    )


def invitation_get(*, token: str) -> Invitation | None:
    """The invitation a link names, if it is still valid."""
    fresh = timezone.now() - dt.timedelta(days=INVITATION_DAYS)
    return (
        Invitation.objects.filter(token_hash=_token_hash(token), created__gte=fresh)
        .select_related("project", "project__owner")
        .first()
    )


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Project:
    """Make `user` a member with the invitation's role (the owner stays
    owner; a member takes the invited role) and use the invitation up."""
    project = invitation.project
    if user.pk != project.owner_id:
        membership_set(project=project, user=user, role=invitation.role)
    invitation.delete()
    return project


def invitation_cancel(*, project: Project, invitation_id: int) -> str:
    """Withdraw an invitation; returns its address, or '' if the project
    has no such invitation."""
    invitation = Invitation.objects.filter(project=project, pk=invitation_id).first()
    if invitation is None:
        return ""
    invitation.delete()
    return invitation.email


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- Sample data ----------------------------------------------------------------


def _sample_data_save(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    edit: edits.DesignEdit,
) -> d.Design:
    project, saved, _ = project_edit(
        project=project,
        version=version,
        edit=edit.apply,
        summary=edit.summary,
        author=author,
    )
    return saved


def sample_seed_set(
    *, project: Project, seed: int, version: int, author: AbstractBaseUser | None
) -> None:
    """Generate the project's sample data from another seed. Counts drawn
    from a distribution depend on the seed, so another seed may make more
    items than the site allows: LimitError, and nothing is saved."""
    _sample_data_save(
        project=project,
        version=version,
        author=author,
        edit=edits.SampleSeedSet(seed),
    )


def sample_items_import(
    *,
    project: Project,
    design: d.Design,
    text: str,
    source: str,
    replace: bool,
    version: int,
    author: AbstractBaseUser | None,
) -> tuple[int, int]:
    """Store the items of a file (DynamoDB JSON lines, CSV or a NoSQL
    Workbench model) as the user's own sample items, replacing the stored
    ones or added to them. An item with the primary key of a stored one, or
    of an earlier line, replaces it, as a PutItem would.

    All or nothing: raises ItemsFileError (every problem, with its line),
    TooManyItemsError, StaleVersionError or EditConflict before anything is
    written. Returns the number of items read and the number stored now."""
    items = read_items(text, design=design, source=source)
    edit = edits.SampleItemsPut(
        items=tuple(item_to_json_wire(item) for item in items),
        limit=OWN_ITEMS_MAX,
        replace=replace,
    )
    saved = _sample_data_save(
        project=project, version=version, author=author, edit=edit
    )
    return len(items), len(saved.sample_data.items)


def sample_items_remove(
    *, project: Project, version: int, author: AbstractBaseUser | None
) -> int:
    """Remove the user's own sample items; returns how many there were."""
    page = project_revision_design(project=project, number=version)
    _sample_data_save(
        project=project,
        version=version,
        author=author,
        edit=edits.SampleItemsClear(),
    )
    return len(page.sample_data.items)


class SettingsChanged(Exception):
    """Someone saved the cost settings since the page showed them."""

    def __init__(self, who: str, version: int) -> None:
        super().__init__(
            f"{who or 'someone'} changed the prices and items since you opened "
            "this page, so yours were not saved. The estimate and the values "
            "below are theirs; your input is kept: save again to keep yours."
        )
        self.version = version


def _settings_for_update(
    project: Project, version: int, author: AbstractBaseUser | None
) -> ReviewSettings:
    """The project's settings row, locked, if it is still at `version`."""
    row, _ = ReviewSettings.objects.select_for_update().get_or_create(project=project)
    if row.version != version:
        who = ""
        if row.updated_by_id is not None:
            mine = author is not None and row.updated_by_id == author.pk
            who = "you (in another tab)" if mine else row.updated_by.get_username()
        raise SettingsChanged(who, row.version)
    return row


@transaction.atomic
def project_cost_settings_set(
    *,
    project: Project,
    prices: Prices,
    stored_items: int | None,
    version: int = 0,
    author: AbstractBaseUser | None = None,
) -> None:
    """Keep a project's prices and item count for the cost estimate, if the
    settings are still at `version` (SettingsChanged otherwise). Prices
    equal to the site's are not copied, so the project keeps following the
    site's prices when they are updated."""
    row = _settings_for_update(project, version, author)
    own = prices != Prices.from_mapping(settings.DYNAMODB_PRICES)
    row.stored_items = stored_items
    for name in PRICE_FIELDS:
        setattr(row, name, getattr(prices, name) if own else None)
    row.region = prices.region if own else ""
    row.version += 1
    row.updated_by = author
    row.save()


@transaction.atomic
def project_cost_settings_reset(
    *, project: Project, version: int = 0, author: AbstractBaseUser | None = None
) -> None:
    """Back to the site's prices, if the settings are still at `version`;
    the item count stays."""
    row = _settings_for_update(project, version, author)
    row.region = ""
    for name in PRICE_FIELDS:
        setattr(row, name, None)
    row.version += 1
    row.updated_by = author
    row.save()
