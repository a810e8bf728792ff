"""A project's members: invitations by email, roles, removal; and the page an
invitation's link opens.

Members are invited by the address the invitation goes to, never looked up
by username: the Members form answers the same for any address, so it tells
the owner nothing about who has an account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from modeler import selectors
from modeler.forms.members import InvitationForm, MemberRoleForm
from modeler.infra.mail import MailError
from modeler.models import Membership
from modeler.services import members as member_services
from modeler.views.statuses import INVALID


@login_required
@require_http_methods(["GET", "POST"])
def project_members(request: HttpRequest, project_id: int) -> HttpResponse:
    write = request.method == "POST"
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=write
    )
    project = access.project
    memberships = list(
        Membership.objects.filter(project=project)
        .select_related("user")
        .order_by("user__username")
    )
    posted = request.POST if write else None
    inviting = write and "email" in request.POST
    invite = InvitationForm(posted if inviting else None)
    role = MemberRoleForm(
        posted if write and not inviting else None, memberships=memberships
    )
    if inviting and invite.is_valid():
        email, chosen = invite.cleaned_data["email"], invite.cleaned_data["role"]
        try:
            member_services.invitation_send(
                project=project,
                email=email,
                role=chosen,
                invited_by=request.user,
                link=request.build_absolute_uri,
            )
        except MailError as exc:
            invite.add_error(
                None,
                f"The invitation email could not be sent: {exc}. Nothing was "
                "saved: try again later, or ask the site's operator to check its "
                "email settings (EMAIL_HOST and the others in the README).",
            )
        else:
            messages.success(
                request,
                f"Invitation sent to {email}: whoever opens its link, logged in, "
                f"becomes a {chosen}.",
            )
            return redirect("project-members", project_id=project_id)
    if write and not inviting and role.is_valid():
        member, chosen = role.cleaned_data["member"], role.cleaned_data["role"]
        member_services.membership_set(project=project, user=member.user, role=chosen)
        messages.success(request, f"{member.user.get_username()} is now a {chosen}.")
        return redirect("project-members", project_id=project_id)
    return render(
        request,
        "modeler/project-members.html",
        {
            "access": access,
            "project": project,
            "invite_form": invite,
            "role_form": role,
            "memberships": memberships,
            "invitations": project.invitations.order_by("email")
            if access.is_owner
            else (),
            "invitation_days": member_services.INVITATION_DAYS,
            "section": "members",
        },
        status=INVALID if write else 200,
    )


@login_required
@require_POST
def project_member_remove(
    request: HttpRequest, project_id: int, membership_id: int
) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=True
    )
    username = member_services.membership_remove(
        project=access.project, membership_id=membership_id
    )
    if username:
        messages.success(request, f"Removed {username}.")
    return redirect("project-members", project_id=project_id)


@login_required
@require_POST
def project_invitation_cancel(
    request: HttpRequest, project_id: int, invitation_id: int
) -> HttpResponse:
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, owner_only=True
    )
    email = member_services.invitation_cancel(
        project=access.project, invitation_id=invitation_id
    )
    if email:
        messages.success(request, f"Withdrew the invitation to {email}.")
    return redirect("project-members", project_id=project_id)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    invitation = member_services.invitation_get(token=token)
    if invitation is None:
        return render(request, "modeler/invitation-invalid.html", status=404)
    if request.method == "POST":
        project = member_services.invitation_accept(
            invitation=invitation, user=request.user
        )
        messages.success(request, f"You joined {project.name}.")
        return redirect("project-detail", project_id=project.pk)
    return render(request, "modeler/invitation.html", {"invitation": invitation})
