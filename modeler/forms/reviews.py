"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from modeler.forms.fields import OneLineField


class ReviewOpenForm(forms.Form):
    """A review opened on a revision, with the members taking part."""

    title = OneLineField(max_length=200)
    number = forms.IntegerField(label="Revision", min_value=1)
    participants = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(
        self, *args: Any, members: QuerySet[Any] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if members is not None:
            self.fields["participants"].queryset = members


class ReviewCommentForm(forms.Form):
    element = forms.CharField(max_length=80, required=False)
    parent = forms.IntegerField(required=False, min_value=1)
    body = forms.CharField(max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))


class ReviewStatusForm(forms.Form):
    status = forms.ChoiceField(
        choices=[
            ("open", "Open"),
            ("changes_requested", "Changes requested"),
            ("approved", "Approved"),
        ]
    )
