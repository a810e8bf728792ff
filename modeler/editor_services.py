"""Writes of the design editor: one service per edit, each applying an edit
of `modeler.design_edits` to the project's current design and saving the
whole design through the versioned `services.project_save_design`.

An edit is refused, and nothing is written, when:
- the page was showing an older version (StaleVersionError);
- it cannot apply (EditError: a name already used, a part someone removed);
- the part it changed has errors in its own fields (EditRefused: a template
  naming an unknown attribute, an LSI on a table without a sort key...).
Problems elsewhere in the design (an entity that has no key template yet, a
pattern naming a deleted entity) do not stop a save: a design under
construction has them, the editor shows them, and they never lose work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from modeler import design as d
from modeler import design_edits as edits
from modeler import services
from modeler.design_check import check_design
from modeler.models import Project
from modeler.problems import Problem
from modeler.services import StaleVersionError

STALE_MESSAGE = (
    "Someone saved this project since you opened this page (another tab or "
    "another person), so your change was not saved. Your input is kept: "
    "reload the page to see their changes, then apply yours again."
)


class EditRefused(Exception):
    """The edited part has errors; `problems` are those errors."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class Saved:
    project: Project
    design: d.Design
    problems: list[Problem]


def part_problems(problems: list[Problem], part: str) -> list[Problem]:
    """The problems inside a part of the design (`entities.Order`,
    `table.indexes[1]`, `access_patterns[0]`), the part itself included."""
    return [p for p in problems if _within(p.path, part, inclusive=True)]


def _within(path: str, part: str, *, inclusive: bool = False) -> bool:
    if path == part:
        return inclusive
    return path.startswith(part) and path[len(part)] in ".["


def _save(
    *,
    project: Project,
    design: d.Design,
    version: int,
    edit: Callable[[d.Design], d.Design],
    part: Callable[[d.Design], str] | None,
) -> Saved:
    """Apply `edit` to `design` (the project's current design) and save it.
    Errors in the fields of `part` (a path of the edited design) refuse it;
    errors of the part as a whole (`entities.Order.keys`) do not."""
    if project.version != version:
        raise StaleVersionError(STALE_MESSAGE)
    edited = edit(design)
    problems = check_design(edited)
    if part is not None:
        where = part(edited)
        blocking = [
            p
            for p in problems
            if p.is_error
            and _within(p.path, where)
            and not p.path.endswith(".keys")  # the entity's keys as a whole
            and not (where == "table" and _within(p.path, "table.indexes"))
        ]
        if blocking:
            raise EditRefused(blocking)
    try:
        project, problems = services.project_save_design(
            project=project, design=edited, version=version, allow_errors=True
        )
    except StaleVersionError:
        raise StaleVersionError(STALE_MESSAGE) from None
    return Saved(project, edited, problems)


# --- Table and indexes ----------------------------------------------------------


def table_update(
    *, project: Project, design: d.Design, version: int, table: d.Table
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.table_replace(current, table),
        part=lambda _: "table",
    )


def _index_part(name: str) -> Callable[[d.Design], str]:
    return lambda edited: f"table.indexes[{edits.index_position(edited, name)}]"


def index_create(
    *, project: Project, design: d.Design, version: int, index: d.Index
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.index_add(current, index),
        part=_index_part(index.name),
    )


def index_update(
    *, project: Project, design: d.Design, version: int, name: str, index: d.Index
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.index_replace(current, name, index),
        part=_index_part(index.name),
    )


def index_move(
    *, project: Project, design: d.Design, version: int, name: str, offset: int
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.index_move(current, name, offset),
        part=None,
    )


def index_delete(
    *, project: Project, design: d.Design, version: int, name: str
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.index_remove(current, name),
        part=None,
    )


# --- Entities -------------------------------------------------------------------


def entity_create(
    *, project: Project, design: d.Design, version: int, entity: d.Entity
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.entity_add(current, entity),
        part=lambda _: f"entities.{entity.name}",
    )


def entity_update(
    *, project: Project, design: d.Design, version: int, name: str, entity: d.Entity
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.entity_replace(current, name, entity),
        part=lambda _: f"entities.{entity.name}",
    )


def entity_delete(
    *, project: Project, design: d.Design, version: int, name: str
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.entity_remove(current, name),
        part=None,
    )


# --- Access patterns ------------------------------------------------------------


def access_pattern_create(
    *, project: Project, design: d.Design, version: int, pattern: d.AccessPattern
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.access_pattern_add(current, pattern),
        part=lambda edited: f"access_patterns[{len(edited.access_patterns) - 1}]",
    )


def access_pattern_update(
    *,
    project: Project,
    design: d.Design,
    version: int,
    position: int,
    pattern: d.AccessPattern,
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.access_pattern_replace(current, position, pattern),
        part=lambda _: f"access_patterns[{position}]",
    )


def access_pattern_move(
    *, project: Project, design: d.Design, version: int, position: int, offset: int
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.access_pattern_move(current, position, offset),
        part=None,
    )


def access_pattern_delete(
    *, project: Project, design: d.Design, version: int, position: int
) -> Saved:
    return _save(
        project=project,
        design=design,
        version=version,
        edit=lambda current: edits.access_pattern_remove(current, position),
        part=None,
    )
