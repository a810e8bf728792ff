"""Reads. Every view gets its project through `project_get_for_user`, which
hides projects from outsiders (404) and refuses writes to viewers."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from modeler.conversion import (
    design_from_project,
    design_from_revision,
    project_design_queryset,
)
from modeler.design.model import Design
from modeler.models import (
    Membership,
    Project,
    ReviewSettings,
    Revision,
    Role,
    ShareLink,
)
from modeler.review.prices import Prices


@dataclass(frozen=True)
class ProjectAccess:
    project: Project
    role: str

    @property
    def can_write(self) -> bool:
        return self.role in (Role.OWNER, Role.EDITOR)

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER


def project_list(*, user: AbstractBaseUser) -> QuerySet[Project]:
    """The projects the user owns or is a member of."""
    return (
        Project.objects.filter(Q(owner=user) | Q(memberships__user=user))
        .distinct()
        .select_related("owner")
    )


def project_role(*, project: Project, user: AbstractBaseUser | AnonymousUser) -> str:
    """The user's role in the project, or '' for an outsider."""
    if not user.is_authenticated:
        return ""
    if project.owner_id == user.pk:
        return Role.OWNER
    membership = Membership.objects.filter(project=project, user=user).first()
    return membership.role if membership else ""


class ProjectNotFound(Http404):
    """No project of that id for the caller: never theirs, deleted, or
    their membership removed (while one of its pages is open, as its polls
    and saves find; workbench.middleware.ProjectGoneMiddleware)."""

    project_gone = True


def project_get_for_user(
    *,
    user: AbstractBaseUser | AnonymousUser,
    project_id: int,
    write: bool = False,
    owner_only: bool = False,
    with_design: bool = False,
) -> ProjectAccess:
    """The project and the caller's role. Raises Http404 for anyone without
    a role (so outsiders cannot tell a project exists) and PermissionDenied
    when a viewer asks to write or a non-owner asks for an owner's action."""
    queryset = project_design_queryset() if with_design else Project.objects.all()
    project = queryset.filter(pk=project_id).first()
    role = project_role(project=project, user=user) if project else ""
    if not role:
        raise ProjectNotFound("No such project")
    access = ProjectAccess(project, role)
    if owner_only and not access.is_owner:
        raise PermissionDenied("Only the project's owner can do this.")
    if write and not access.can_write:
        raise PermissionDenied("Viewers cannot change this project.")
    return access


def project_open_to(*, user: AbstractBaseUser | AnonymousUser, project_id: int) -> bool:
    """Whether the project exists and the user has a role in it."""
    project = Project.objects.filter(pk=project_id).first()
    return bool(project and project_role(project=project, user=user))


def project_design(*, project: Project) -> Design:
    """The project's design at its current revision (as the object was
    loaded: refresh a project kept across saves)."""
    return design_from_project(project)


def revision_list(
    *, project: Project, limit: int = 50, before: int | None = None
) -> list[Revision]:
    """The project's revisions, newest first, with their authors; `before`
    a number pages back through older ones."""
    revisions = Revision.objects.filter(project=project)
    if before is not None:
        revisions = revisions.filter(number__lt=before)
    return list(
        revisions.select_related("author").defer("document").order_by("-number")[:limit]
    )


def revision_get(*, project: Project, number: int) -> Revision | None:
    return Revision.objects.filter(project=project, number=number).first()


def revision_design(*, project: Project, number: int) -> Design | None:
    """The design as it was at revision `number`, or None if there is none."""
    revision = revision_get(project=project, number=number)
    return design_from_revision(revision) if revision else None


@dataclass(frozen=True)
class CostSettings:
    """The prices a project's cost estimate uses and the table's item count
    for storage (None: as many as the sample data)."""

    prices: Prices
    own_prices: bool
    stored_items: int | None
    version: int = 0  # of the saved settings (0: never saved)
    updated_by: str = ""  # who saved them last


def site_prices() -> Prices:
    """The site's default prices, `settings.DYNAMODB_PRICES`."""
    return Prices.from_mapping(settings.DYNAMODB_PRICES)


def project_cost_settings(*, project: Project) -> CostSettings:
    row = (
        ReviewSettings.objects.filter(project=project)
        .select_related("updated_by")
        .first()
    )
    if row is None:
        return CostSettings(site_prices(), own_prices=False, stored_items=None)
    saved = {
        "version": row.version,
        "updated_by": row.updated_by.get_username() if row.updated_by else "",
    }
    if row.taken is None:
        return CostSettings(site_prices(), False, row.stored_items, **saved)
    prices = Prices(
        read_request_per_million=row.read_request_per_million,
        write_request_per_million=row.write_request_per_million,
        rcu_hour=row.rcu_hour,
        wcu_hour=row.wcu_hour,
        storage_gb_month=row.storage_gb_month,
        taken=row.taken,
        region=row.region or "us-east-1",
    )
    return CostSettings(prices, own_prices=True, stored_items=row.stored_items, **saved)


def share_link_find(*, token: str) -> ShareLink | None:
    """The live share link with this token (not revoked, not expired), or
    None. Opening a link records nothing: a chat's preview or a mail
    scanner opens it as a reader does, so a "last used" it wrote would
    tell its owner nothing true."""
    if not token or len(token) > 100:
        return None
    link = (
        ShareLink.objects.filter(
            token_hash=hashlib.sha256(token.encode()).hexdigest(), revoked=None
        )
        .select_related("project", "revision")
        .first()
    )
    if link is None or (link.expires is not None and link.expires <= timezone.now()):
        return None
    return link
