"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.timesince import timesince

from modeler.conversion import (
    RevisionRecord,
    design_from_project,
    design_from_revision,
    design_from_revision_id,
    revision_write,
)
from modeler.design import model as d
from modeler.design.findings import Finding, has_errors
from modeler.design_check import check_design, check_storable
from modeler.design_check.limits import check_limits, new_excesses
from modeler.examples import Example
from modeler.history import elements, merge
from modeler.history.merge import Conflict, Edit
from modeler.importers.live import read_live_table, table_properties
from modeler.importers.sources import KIND_LABELS, SQL_SCHEMA, read_design_source
from modeler.importers.sql_defaults import DEFAULT_PEAK, DEFAULT_WINDOW
from modeler.importers.tables import TableChoice
from modeler.infra import dynamodb
from modeler.infra.mail import one_line
from modeler.models import Project, Revision

# A user's own items are read with the design on every simulation request and
# hashed into the simulation cache's key: they are for hand-made cases, the
# generated data gives the volume.
OWN_ITEMS_MAX = 1_000
# The history's line for a revision: as given, or made from the design
# before and after (empty: said from what changed).
Summary = str | Callable[[d.Design, d.Design], str]


class StaleVersionError(Exception):
    """The project changed since the caller read it."""


YOU = "you"


class EditConflict(Exception):
    """An edit made on an older revision changes elements that others
    changed since: `clashes` (each with the base, theirs and mine, and the
    fields both changed when the element was merged field by field), who
    made the other changes (`authors`, by element id) and when they last did
    (`times`). `version` is the project's version that holds their changes:
    an edit made again with `keep_mine_at` it keeps mine in the fields both
    changed."""

    def __init__(
        self,
        conflict: Conflict,
        authors: dict[str, list[str]],
        version: int,
        times: dict[str, datetime] | None = None,
    ) -> None:
        super().__init__(str(conflict))
        self.clashes = conflict.clashes
        self.authors = authors
        self.version = version
        self.times = times or {}

    @property
    def removed(self) -> merge.Clash | None:
        """The clash of an element someone removed that this edit changes."""
        return next(
            (c for c in self.clashes if c.theirs is None and c.mine is not None), None
        )

    def merged(self, kind: str) -> Any | None:
        """The value the field-by-field merge made of the element of `kind`
        (their other changes, and mine in the fields both changed), or None
        when it was not merged: what an editor's form shows after a clash."""
        return next(
            (
                c.merged.value
                for c in self.clashes
                if c.merged is not None and c.merged.kind == kind
            ),
            None,
        )

    def what_happened(self, clash: merge.Clash) -> str:
        """ "bob deleted entity Order 2 minutes ago", "bob renamed entity
        Order to Purchase and changed it", "ann changed entity Customer"."""
        who = " and ".join(self.authors.get(clash.id, [])) or "someone"
        where = " in another tab" if who == YOU else ""
        ago = _ago(self.times.get(clash.id))
        base, theirs = clash.base, clash.theirs
        if theirs is None and base is not None:
            return f"{who} deleted {base.label}{where}{ago}"
        if base is not None and theirs is not None and base.name != theirs.name:
            return f"{who} renamed {base.label} to {theirs.name}{where}{ago}"
        return f"{who} changed {clash.label}{where}"

    @property
    def message(self) -> str:
        text = "; ".join(self.what_happened(clash) for clash in self.clashes)
        if text.startswith(("you ", "someone ")):  # not a username: as typed
            text = text[:1].upper() + text[1:]
        if self.removed is not None:
            return (
                text + " since you opened this page, so your change was not "
                "saved. Your input is kept below: save it as a new element, "
                "or leave it."
            )
        fields = [f.label for clash in self.clashes for f in clash.fields]
        if fields:
            return (
                f"{text} since you opened this page. Their other changes are "
                "merged into your input below; you both changed "
                f"{', '.join(fields)}: choose for each, then save."
            )
        return (
            text + " since you opened this page, so your change was not saved. "
            "Your input is kept below."
        )


def _ago(when: datetime | None) -> str:
    if when is None:
        return ""
    if (timezone.now() - when).total_seconds() < 60:
        return " just now"
    return f" {timesince(when)} ago"


class LimitError(ValueError):
    """A save would take the design past a limit of the site that the design
    it replaces was within (an editor's count, another seed, an undo or a
    restore of a revision saved before the limit was lowered); `problems`
    are those limits' errors."""

    def __init__(self, problems: list[Finding]) -> None:
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
    problems: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    kind_label: str = "design YAML"

    @property
    def needs_keys(self) -> bool:
        """A design stated by needs alone (a SQL schema's): its next step is
        proposing keys."""
        return bool(self.projects) and self.kind_label == KIND_LABELS[SQL_SCHEMA]


def project_import(
    *,
    owner: AbstractBaseUser,
    source: str | bytes,
    name: str = "",
    filename: str = "",
    table: str = "",
    queries: bytes = b"",
    queries_filename: str = "",
    window: float = DEFAULT_WINDOW,
    peak: float = DEFAULT_PEAK,
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
        queries=queries,
        queries_filename=queries_filename,
        window=window,
        peak=peak,
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
    problems: list[Finding] | None = None,
) -> tuple[Project, list[Finding]]:
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
    check: Callable[[d.Design, d.Design], list[Finding]] | None = None,
    summary: Summary = "",
    kind: str = Revision.Kind.EDIT,
    reverts: Revision | None = None,
    keep_mine_at: int | None = None,
) -> tuple[Project, d.Design, list[Finding]]:
    """Apply `edit`, made on the page that showed revision `version`, to the
    project's current design and save it, errors allowed (the editor's
    saves). When others saved since, the edit is replayed on their design if
    it changes other elements or other fields than they did; otherwise
    EditConflict, whose version, given again as `keep_mine_at`, keeps the
    user's change in the fields both changed.
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
                edited = merge.rebase(
                    edit,
                    base=base,
                    current=current,
                    keep_mine=keep_mine_at == project.version,
                )
        except Conflict as conflict:
            since = reverts.number if reverts is not None else version
            authors, times = _authors_since(project, since, conflict, author)
            raise EditConflict(conflict, authors, project.version, times) from None
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
) -> tuple[dict[str, list[str]], dict[str, datetime]]:
    """Who changed each clashing element after revision `version` (YOU for
    the user who is saving, in another tab), and when they last did."""
    ids = {clash.id for clash in conflict.clashes}
    out: dict[str, list[str]] = {}
    times: dict[str, datetime] = {}
    revisions = Revision.objects.filter(project=project, number__gt=version)
    for changed, author_id, username, created in revisions.order_by(
        "number"
    ).values_list("changed", "author_id", "author__username", "created"):
        name = YOU if me is not None and author_id == me.pk else username
        for key in ids.intersection(changed):
            names = out.setdefault(key, [])
            times[key] = created
            if (name or "someone") not in names:
                names.append(name or "someone")
    return out, times


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


def project_delete(*, project: Project) -> None:
    project.delete()
