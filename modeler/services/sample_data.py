"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from modeler.design import edits
from modeler.design import model as d
from modeler.engine.types import item_to_json_wire
from modeler.models import Project
from modeler.sampledata import read_items
from modeler.services.projects import (
    OWN_ITEMS_MAX,
    project_edit,
    project_revision_design,
)


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
