"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms

from modeler.models import Membership, Role


class InvitationForm(forms.Form):
    """Someone to invite, by the address their invitation goes to."""

    email = forms.EmailField(label="Email address", max_length=254)
    role = forms.ChoiceField(choices=[(Role.EDITOR, "Editor"), (Role.VIEWER, "Viewer")])


class MemberRoleForm(forms.Form):
    """Another role for one of the project's members (chosen from them, so
    it tells nothing about other accounts)."""

    member = forms.ChoiceField()
    role = forms.ChoiceField(choices=[(Role.EDITOR, "Editor"), (Role.VIEWER, "Viewer")])

    def __init__(
        self, *args: Any, memberships: Iterable[Membership] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.memberships = {str(m.pk): m for m in memberships}
        self.fields["member"].choices = [
            (pk, m.user.get_username()) for pk, m in self.memberships.items()
        ]

    def clean_member(self) -> Membership:
        return self.memberships[self.cleaned_data["member"]]
