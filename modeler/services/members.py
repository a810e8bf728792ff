"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from modeler.infra.mail import mail_send, one_line
from modeler.models import Invitation, Membership, Project


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
