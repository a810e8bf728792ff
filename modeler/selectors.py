"""Reads. Every view gets its project through `project_get_for_user`, which
hides projects from outsiders (404) and refuses writes to viewers."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from modeler.conversion import design_from_project, project_design_queryset
from modeler.design import Design
from modeler.models import Membership, Project, Role


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
        .select_related("owner", "table")
    )


def project_role(*, project: Project, user: AbstractBaseUser | AnonymousUser) -> str:
    """The user's role in the project, or '' for an outsider."""
    if not user.is_authenticated:
        return ""
    if project.owner_id == user.pk:
        return Role.OWNER
    membership = Membership.objects.filter(project=project, user=user).first()
    return membership.role if membership else ""


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
        raise Http404("No such project")
    access = ProjectAccess(project, role)
    if owner_only and not access.is_owner:
        raise PermissionDenied("Only the project's owner can do this.")
    if write and not access.can_write:
        raise PermissionDenied("Viewers cannot change this project.")
    return access


def project_design(*, project: Project) -> Design:
    return design_from_project(project)
