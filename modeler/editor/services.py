"""The design editor's one write: `design_edit` applies an edit (a command of
`modeler.design.edits`) to the project's current design and saves it as a new
revision through `services.project_edit`. An edit made on a page that showed
an older revision is replayed on the current design when it changes other
elements than those changed since.

An edit is refused, and nothing is written, when:
- it changes an element someone else changed since the page was shown
  (services.EditConflict);
- it cannot apply (EditError: a name already used, a part someone removed);
- the part it changed has errors in its own fields (EditRefused: a template
  naming an unknown attribute, an LSI on a table without a sort key...).
Problems elsewhere in the design (an entity that has no key template yet, a
pattern naming a deleted entity) do not stop a save: a design under
construction has them, the editor shows them, and they never lose work.

The design is checked once per save: the problems of the edited design
decide the refusal, are stored with nothing checked again, and come back
in `Saved` for the page to show.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from modeler.design import model as d
from modeler.design.edits import DesignEdit
from modeler.design.problems import Problem
from modeler.design_check import check_design
from modeler.models import Project
from modeler.services import projects as project_services


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


def _blocking(problems: list[Problem], part: str) -> list[Problem]:
    """The errors in the fields of `part` that refuse the save; errors of
    the part as a whole (`entities.Order.keys`: an entity before its key
    templates) and of the indexes under the table do not."""
    return [
        p
        for p in problems
        if p.is_error
        and _within(p.path, part)
        and not p.path.endswith(".keys")
        and not (part == "table" and _within(p.path, "table.indexes"))
    ]


def design_edit(
    *,
    project: Project,
    version: int,
    author: AbstractBaseUser | None,
    edit: DesignEdit,
) -> Saved:
    """Apply `edit`, made on the page showing revision `version`, to the
    project's design and save it (merged with what others saved since, when
    they changed other elements). Errors in the fields of the part it wrote
    refuse it."""
    edit = edit.on_page(
        lambda: project_services.project_revision_design(
            project=project, number=version
        )
    )

    def check(current: d.Design, edited: d.Design) -> list[Problem]:
        problems = check_design(edited)
        part = edit.part(edited)
        blocking = _blocking(problems, part) if part is not None else []
        if blocking:
            raise EditRefused(blocking)
        return problems

    try:
        project, saved, problems = project_services.project_edit(
            project=project,
            version=version,
            edit=edit.apply,
            summary=edit.summary,
            author=author,
            check=check,
        )
    except project_services.LimitError as exc:
        # Refused whatever part was edited: raising a parent's count can
        # take a child's sample past the limit.
        raise EditRefused(exc.problems) from None
    return Saved(project, saved, problems)
