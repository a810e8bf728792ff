"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.utils.html import escape

from modeler.design import model as d
from modeler.exporters.formats import ExportFormat, Option


class ExportOptionsForm(forms.Form):
    """An export format's options (a GET form: nothing is saved), with a
    field per option of the format (`modeler.exporters.formats`)."""

    def __init__(self, data: Any, *, chosen: ExportFormat, design: d.Design) -> None:
        super().__init__(data)
        self.chosen = chosen
        self.notes: dict[str, str] = {}
        for option in chosen.options:
            reason = option.unavailable(design) if option.unavailable else ""
            if reason:
                self.notes[option.name] = reason
                continue
            self.fields[option.name] = _option_field(option, design)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for option in self.chosen.options:
            if option.name in self.fields and data.get(option.name) in (None, ""):
                data[option.name] = option.default
        return data

    def query(self) -> str:
        """The options as a query string (`?region=...`), for the download
        link; empty when they are the defaults or invalid."""
        if not self.is_valid():
            return ""
        given = {
            o.name: "on"
            if self.cleaned_data[o.name] is True
            else self.cleaned_data[o.name]
            for o in self.chosen.options
            if o.name in self.fields and self.cleaned_data[o.name] != o.default
        }
        return f"?{urlencode(given)}" if given else ""


def _option_field(option: Option, design: d.Design) -> forms.Field:
    # `{% field %}` shows help as markup; this one may name the design's
    # attributes, so it is escaped here.
    help_text = escape(option.explain(design) if option.explain else option.help)
    if option.kind == "switch":
        return forms.BooleanField(
            required=False, label=option.label, help_text=help_text
        )
    if option.kind == "int":
        return forms.IntegerField(
            required=False,
            label=option.label,
            help_text=help_text,
            min_value=option.minimum,
            max_value=option.maximum,
        )
    return forms.RegexField(
        regex=rf"^({option.pattern})$",
        required=False,
        initial=option.default,
        label=option.label,
        help_text=help_text,
        max_length=100,
        error_messages={"invalid": option.invalid},
    )
