"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from modeler import design as d
from modeler.conversion import design_write_rows
from modeler.design_check import check_design
from modeler.engine.types import item_from_wire, item_to_json_wire
from modeler.exporters.design_files import read_design_source
from modeler.models import Membership, Project, ReviewSettings, SampleItem
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


class StaleVersionError(Exception):
    """The project changed since the caller read it."""


class TooManyItemsError(ValueError):
    """An import that would leave the project with more than OWN_ITEMS_MAX
    items of the user's own."""


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
def project_create(*, owner: AbstractBaseUser, design: d.Design) -> Project:
    """A new project holding `design`. The caller has checked the design."""
    project = Project.objects.create(
        owner=owner, name=design.name, description=design.description
    )
    design_write_rows(project, design)
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
) -> ImportOutcome:
    """Create projects from a design file: its design (YAML), or a project
    per table of a NoSQL Workbench model. With any error nothing is written
    and the problems say why."""
    found = read_design_source(
        source, max_bytes=settings.DESIGN_FILE_MAX_BYTES, filename=filename
    )
    if not found.ok:
        return ImportOutcome((), found.problems, found.notes, found.kind_label)
    projects = project_import_designs(owner=owner, designs=found.designs, name=name)
    return ImportOutcome(tuple(projects), found.problems, found.notes, found.kind_label)


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


@transaction.atomic
def project_save_design(
    *, project: Project, design: d.Design, version: int, allow_errors: bool = False
) -> tuple[Project, list[Problem]]:
    """Replace the project's design if it is still at `version` and has no
    error. Returns the problems (warnings, or the errors that stopped it).

    The editor saves with `allow_errors`: a design being built has errors
    that later edits resolve (an entity before its key templates); it has
    already refused the errors in the part that was edited."""
    problems = check_design(design)
    if has_errors(problems) and not allow_errors:
        return project, problems
    updated = Project.objects.filter(pk=project.pk, version=version).update(
        version=version + 1
    )
    if not updated:
        raise StaleVersionError(
            "Someone saved this project since you opened it; reload to see "
            "their changes. Your input is kept below."
        )
    project.version = version + 1
    design_write_rows(project, design)
    return project, problems


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


# --- Sample data ----------------------------------------------------------------


def _project_update(*, project: Project, version: int, **fields: Any) -> None:
    """Set `fields` and advance the version, if the project is still at
    `version`; otherwise raise StaleVersionError and change nothing."""
    now = timezone.now()
    updated = Project.objects.filter(pk=project.pk, version=version).update(
        version=version + 1, updated=now, **fields
    )
    if not updated:
        raise StaleVersionError(
            "Someone changed this project since you opened this page; it now "
            "shows their changes. Submit again to apply yours."
        )
    for name, value in {"version": version + 1, "updated": now, **fields}.items():
        setattr(project, name, value)


@transaction.atomic
def sample_seed_set(*, project: Project, seed: int, version: int) -> None:
    """Generate the project's sample data from another seed."""
    _project_update(project=project, version=version, sample_seed=seed)


def sample_items_import(
    *,
    project: Project,
    design: d.Design,
    text: str,
    source: str,
    replace: bool,
    version: int,
) -> tuple[int, int]:
    """Store the items of a file (DynamoDB JSON lines, CSV or a NoSQL
    Workbench model) as the user's own sample items, replacing the stored
    ones or added to them. An item with the primary key of a stored one, or
    of an earlier line, replaces it, as a PutItem would.

    All or nothing: raises ItemsFileError (every problem, with its line),
    TooManyItemsError or StaleVersionError before anything is written.
    Returns the number of items read and the number stored now."""
    items = read_items(text, design=design, source=source)
    key_names = [k.name for k in design.table.key_attributes]
    merged: dict[tuple, dict[str, Any]] = {}
    if not replace:
        for stored in design.sample_data.items:
            wire = d.thaw(stored)
            merged[_primary_key(item_from_wire(wire), key_names)] = wire
    for item in items:
        merged[_primary_key(item, key_names)] = item_to_json_wire(item)
    if len(merged) > OWN_ITEMS_MAX:
        raise TooManyItemsError(
            f"That would make {len(merged):,} items of your own; a project keeps "
            f"at most {OWN_ITEMS_MAX:,} (the generated data has no such limit)."
        )
    with transaction.atomic():
        _project_update(project=project, version=version)
        SampleItem.objects.filter(project=project).delete()
        SampleItem.objects.bulk_create(
            SampleItem(project=project, position=i, item=item)
            for i, item in enumerate(merged.values())
        )
    return len(items), len(merged)


def _primary_key(item: dict[str, Any], key_names: list[str]) -> tuple:
    return tuple(item.get(name) for name in key_names)


@transaction.atomic
def sample_items_remove(*, project: Project, version: int) -> int:
    """Remove the user's own sample items; returns how many there were."""
    _project_update(project=project, version=version)
    removed, _ = SampleItem.objects.filter(project=project).delete()
    return removed


def project_cost_settings_set(
    *, project: Project, prices: Prices, stored_items: int | None
) -> None:
    """Keep a project's prices and item count for the cost estimate. Prices
    equal to the site's are not copied, so the project keeps following the
    site's prices when they are updated."""
    own = prices != Prices.from_mapping(settings.DYNAMODB_PRICES)
    values: dict[str, Any] = {"stored_items": stored_items}
    for name in PRICE_FIELDS:
        values[name] = getattr(prices, name) if own else None
    values["region"] = prices.region if own else ""
    ReviewSettings.objects.update_or_create(project=project, defaults=values)


def project_cost_settings_reset(*, project: Project) -> None:
    """Back to the site's prices; the item count stays."""
    ReviewSettings.objects.filter(project=project).update(
        region="", **dict.fromkeys(PRICE_FIELDS)
    )
