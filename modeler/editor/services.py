"""Writes of the design editor: one service per edit, each applying an edit
of `modeler.design_edits` to the project's current design and saving it as
a new revision through `services.project_edit`. An edit made on a page that
showed an older revision is replayed on the current design when it changes
other elements than those changed since.

An edit is refused, and nothing is written, when:
- it changes an element someone else changed since the page was shown
  (services.EditConflict);
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

from django.contrib.auth.models import AbstractBaseUser

from modeler import design as d
from modeler import design_edits as edits
from modeler import services
from modeler.design_check import check_design
from modeler.models import Project
from modeler.problems import Problem


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
    version: int,
    author: AbstractBaseUser | None,
    edit: Callable[[d.Design], d.Design],
    part: Callable[[d.Design], str] | None,
) -> Saved:
    """Apply `edit`, made on the page showing revision `version`, to the
    project's design and save it (merged with what others saved since, when
    they changed other elements). Errors in the fields of `part` (a path of
    the edited design) refuse it; errors of the part as a whole
    (`entities.Order.keys`) do not."""

    def refuse_part_errors(current: d.Design, edited: d.Design) -> None:
        blocking: list[Problem] = []
        if part is not None:
            where = part(edited)
            blocking = [
                p
                for p in check_design(edited)
                if p.is_error
                and _within(p.path, where)
                and not p.path.endswith(".keys")  # the entity's keys as a whole
                and not (where == "table" and _within(p.path, "table.indexes"))
            ]
        if blocking:
            raise EditRefused(blocking)

    try:
        project, saved, problems = services.project_edit(
            project=project,
            version=version,
            edit=edit,
            author=author,
            check=refuse_part_errors,
        )
    except services.LimitError as exc:
        # Refused whatever part was edited: raising a parent's count can
        # take a child's sample past the limit.
        raise EditRefused(exc.problems) from None
    return Saved(project, saved, problems)


# --- Table and indexes ----------------------------------------------------------


def table_update(
    *, project: Project, version: int, author: AbstractBaseUser | None, table: d.Table
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.table_replace(current, table),
        part=lambda _: "table",
    )


def _index_part(name: str) -> Callable[[d.Design], str]:
    return lambda edited: f"table.indexes[{edits.index_position(edited, name)}]"


def index_create(
    *, project: Project, version: int, author: AbstractBaseUser | None, index: d.Index
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.index_add(current, index),
        part=_index_part(index.name),
    )


def index_update(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    name: str,
    index: d.Index,
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.index_replace(current, name, index),
        part=_index_part(index.name),
    )


def index_move(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    name: str,
    offset: int,
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.index_move(current, name, offset),
        part=None,
    )


def index_delete(
    *, project: Project, version: int, author: AbstractBaseUser | None, name: str
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.index_remove(current, name),
        part=None,
    )


# --- Entities -------------------------------------------------------------------


def entity_create(
    *, project: Project, version: int, author: AbstractBaseUser | None, entity: d.Entity
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.entity_add(current, entity),
        part=lambda _: f"entities.{entity.name}",
    )


def entity_update(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    name: str,
    entity: d.Entity,
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.entity_replace(current, name, entity),
        part=lambda _: f"entities.{entity.name}",
    )


def entity_delete(
    *, project: Project, version: int, author: AbstractBaseUser | None, name: str
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.entity_remove(current, name),
        part=None,
    )


# --- Access patterns ------------------------------------------------------------


def access_pattern_create(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    pattern: d.AccessPattern,
) -> Saved:
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.access_pattern_add(current, pattern),
        part=lambda edited: f"access_patterns[{len(edited.access_patterns) - 1}]",
    )


def _pattern_uid(*, project: Project, version: int, position: int) -> str:
    """The uid of the access pattern at `position` on the page that showed
    revision `version`: the edit follows that pattern wherever it is now."""
    page = services.project_revision_design(project=project, number=version)
    if not 0 <= position < len(page.access_patterns):
        raise edits.EditError("That access pattern no longer exists; reload the page.")
    return page.access_patterns[position].uid


def access_pattern_update(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    position: int,
    pattern: d.AccessPattern,
) -> Saved:
    uid = _pattern_uid(project=project, version=version, position=position)
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.access_pattern_replace(
            current, edits.access_pattern_position(current, uid), pattern
        ),
        part=lambda edited: (
            f"access_patterns[{edits.access_pattern_position(edited, uid)}]"
        ),
    )


def access_pattern_move(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    position: int,
    offset: int,
) -> Saved:
    uid = _pattern_uid(project=project, version=version, position=position)
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.access_pattern_move(
            current, edits.access_pattern_position(current, uid), offset
        ),
        part=None,
    )


def access_pattern_delete(
    *, project: Project, version: int, author: AbstractBaseUser | None, position: int
) -> Saved:
    uid = _pattern_uid(project=project, version=version, position=position)
    return _save(
        project=project,
        version=version,
        author=author,
        edit=lambda current: edits.access_pattern_remove(
            current, edits.access_pattern_position(current, uid)
        ),
        part=None,
    )
