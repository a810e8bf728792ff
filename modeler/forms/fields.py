"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any

from django import forms

from modeler.infra.mail import one_line


class OneLineField(forms.CharField):
    """A name, which is one line by nature: line breaks, tabs and other
    control characters (pasted, or sent by hand) become single spaces, so
    the name heads pages and email subjects as it reads."""

    def to_python(self, value: Any) -> str:
        return one_line(super().to_python(value))
