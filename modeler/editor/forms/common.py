"""What every editor form shares: the project version it was made on,
the widgets that write their HTML directly (a form of 200 attribute rows
renders in milliseconds), and the limits on what a field holds."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from modeler import design as d
from modeler.problems import Problem

ENTITY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,254}$")
BLANK_ROWS = 2
MAX_ROWS = 200
GENERATOR_MAX_CHARS = 2000
DESCRIPTION_MAX_CHARS = 2000


def _choices(values: Iterable[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


KEY_TYPE_CHOICES = _choices(d.KEY_TYPES)
ATTRIBUTE_TYPE_CHOICES = _choices(d.ATTRIBUTE_TYPES)


def _names(text: str) -> tuple[str, ...]:
    """`a, b c` -> ('a', 'b', 'c'), duplicates kept (the check reports them)."""
    return tuple(n for n in re.split(r"[\s,]+", text.strip()) if n)


# The editor's forms have many small fields (a row per attribute, a select
# of types in each): rendering each widget through its template is most of
# a section's server time, so these widgets write their HTML directly, with
# the same attributes and escaping.


class _FastInput(forms.widgets.Input):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["type"] = self.input_type
        final["name"] = name
        shown = self.format_value(value)
        if shown is not None:
            final["value"] = shown
        return format_html("<input{}>", flatatt(final))


class _FastTextInput(_FastInput, forms.TextInput):
    pass


class _FastNumberInput(_FastInput, forms.NumberInput):
    pass


class _FastHiddenInput(_FastInput, forms.HiddenInput):
    pass


class _FastCheckbox(forms.CheckboxInput):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final |= {"type": "checkbox", "name": name}
        if self.check_test(value):
            final["checked"] = True
        return format_html("<input{}>", flatatt(final))


_SELECTED = mark_safe(" selected")  # noqa: S308 - a constant


class _FastSelect(forms.Select):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        chosen = set(self.format_value(value))

        def options(choices: Iterable[tuple[Any, Any]]) -> SafeString:
            return format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                (
                    (v, _SELECTED if str(v) in chosen else "", label)
                    for v, label in choices
                ),
            )

        parts = []
        for group, choices in self.choices:
            if isinstance(choices, (list, tuple)):
                parts.append(
                    format_html(
                        '<optgroup label="{}">{}</optgroup>', group, options(choices)
                    )
                )
            else:
                parts.append(options([(group, choices)]))
        return format_html(
            "<select{}>{}</select>",
            flatatt(final),
            format_html_join("", "{}", ((part,) for part in parts)),
        )


_FAST = {
    forms.TextInput: _FastTextInput,
    forms.NumberInput: _FastNumberInput,
    forms.HiddenInput: _FastHiddenInput,
    forms.CheckboxInput: _FastCheckbox,
    forms.Select: _FastSelect,
}


class VersionedForm(forms.Form):
    """Every editor form carries the project version its page showed."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    # After an edit conflict: the other person's version of each clashing
    # element (presenters.TheirVersion), shown beside the input.
    their_versions: list = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fast_widgets()

    def keep_mine_at(self, version: int) -> None:
        """The form as typed, now at `version` (which holds someone else's
        change to the same element): saving it again keeps mine in place
        of theirs."""
        self.data = self.data.copy()
        self.data[self.add_prefix("version")] = str(version)

    def fast_widgets(self) -> None:
        """Swap the plain widgets for ones that write their HTML directly."""
        for field in self.fields.values():
            fast = _FAST.get(type(field.widget))
            if fast is not None:
                field.widget.__class__ = fast

    def raw(self, name: str) -> str:
        """A field's value as posted (before cleaning), '' if absent."""
        return self.data.get(self.add_prefix(name)) or ""

    def draft_data(self) -> dict[str, Any]:
        """The posted values by field name (the form's prefix removed): a
        list for a field of several choices, else one text. A field posted
        twice (a hidden copy kept as typed beside the shown one) gives its
        last value, as binding the form does."""
        multiple = {
            name
            for name, field in self.fields.items()
            if isinstance(field, forms.MultipleChoiceField)
        }
        out: dict[str, Any] = {}
        for key in self.data:
            name = key[len(self.prefix) + 1 :] if self.prefix else key
            if self.prefix and not key.startswith(f"{self.prefix}-"):
                continue
            values = (
                self.data.getlist(key)
                if hasattr(self.data, "getlist")
                else [self.data[key]]
            )
            out[name] = values if name in multiple else values[-1]
        return out

    # How a problem path of the design check maps to a field of this form;
    # a path no rule matches is shown above the form.
    def field_for(self, path: str) -> str | None:
        return None

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            field = self.field_for(problem.path)
            if field is not None and field not in self.fields:
                field = None
            message = problem.message
            if field is None and problem.path:
                message = f"{problem.path}: {message}"
            self.add_error(field, message)


def _filled_rows(data: Mapping[str, Any], prefix: str) -> int:
    """The rows up to the last one with something typed in it (a select's
    default, such as a parameter's type, does not count)."""
    count = 0
    for key in data:
        if key.startswith(prefix) and str(data.get(key) or "").strip():
            middle, _, part = key[len(prefix) :].partition("-")
            if middle.isdigit() and part not in ("type", "operator"):
                count = max(count, int(middle) + 1)
    return min(count, MAX_ROWS)


def _row_count(data: Mapping[str, Any], prefix: str, suffix: str) -> int:
    count = 0
    for key in data:
        if key.startswith(prefix) and key.endswith(suffix):
            middle = key[len(prefix) : -len(suffix)]
            if middle.isdigit():
                count = max(count, int(middle) + 1)
    return min(count, MAX_ROWS)
