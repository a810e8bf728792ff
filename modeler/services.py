"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from modeler import design as d
from modeler.conversion import design_write_rows
from modeler.design_check import check_design
from modeler.designfile import ReadResult, read_design
from modeler.models import Membership, Project
from modeler.problems import Problem, has_errors


class StaleVersionError(Exception):
    """The project changed since the caller read it."""


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
    *, owner: AbstractBaseUser, design: d.Design
) -> Project:
    """A new project holding `design`. The caller has checked the design."""
    project = Project.objects.create(
        owner=owner, name=design.name, description=design.description
    )
    design_write_rows(project, design)
    return project


def project_import(
    *,
    owner: AbstractBaseUser,
    source: str | bytes,
    name: str = "",
) -> tuple[Project | None, tuple[Problem, ...]]:
    """Create a project from a design file. With any error nothing is
    written and the problems say why."""
    result: ReadResult = read_design(
        source, max_bytes=settings.DESIGN_FILE_MAX_BYTES
    )
    if result.design is None:
        return None, result.problems
    design = result.design
    if name:
        design = d.Design(**{**design.__dict__, "name": name})
    return project_create(owner=owner, design=design), result.problems


@transaction.atomic
def project_save_design(
    *, project: Project, design: d.Design, version: int
) -> tuple[Project, list[Problem]]:
    """Replace the project's design if it is still at `version` and has no
    error. Returns the problems (warnings, or the errors that stopped it)."""
    problems = check_design(design)
    if has_errors(problems):
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
