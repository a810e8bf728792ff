"""What every editor form shares: the project version it was made on,
the widgets that write their HTML directly (a form of 200 attribute rows
renders in milliseconds), and the limits on what a field holds."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.formsets import BaseFormSet
from django.forms.utils import ErrorList
from django.utils.choices import BaseChoiceIterator
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe

from modeler.design import model as d
from modeler.design.problems import Problem

ENTITY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,254}$")
BLANK_ROWS = 2
MAX_ROWS = 200
GENERATOR_MAX_CHARS = 2000
DESCRIPTION_MAX_CHARS = 2000


def _choices(values: Iterable[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


class Choices(BaseChoiceIterator):
    """Choices already as the (value, label) pairs Django keeps, which a
    field, its widget and their copies take as they are. A plain list is
    normalised again each time one of them is made (three times for each
    select of a row), a third of the time of building an editor form of a
    hundred fields. Immutable, so copies share it."""

    def __init__(self, pairs: Iterable[tuple[str, Any]]) -> None:
        self.pairs = tuple(pairs)

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self.pairs)

    def __copy__(self) -> Choices:
        return self

    def __deepcopy__(self, memo: dict) -> Choices:
        return self


KEY_TYPE_CHOICES = _choices(d.KEY_TYPES)
ATTRIBUTE_TYPE_CHOICES = _choices(d.ATTRIBUTE_TYPES)


def _names(text: str) -> tuple[str, ...]:
    """`a, b c` -> ('a', 'b', 'c'), duplicates kept (the check reports them)."""
    return tuple(n for n in re.split(r"[\s,]+", text.strip()) if n)


# The editor's forms have many small fields (a row per attribute, a select
# of types in each): rendering each widget through its template is most of
# a section's server time, so these widgets write their HTML directly, with
# the same attributes and escaping as `flatatt` and `format_html`.


def _escaped(value: Any) -> str:
    """`conditional_escape(value)`, without the lazy-string wrapper that
    costs more than the escaping in a form of a hundred fields."""
    if type(value) is str:
        return html.escape(value)
    if isinstance(value, Promise):
        value = str(value)
    markup = getattr(value, "__html__", None)
    return markup() if markup is not None else html.escape(str(value))


def _attributes(attrs: Mapping[str, Any]) -> str:
    """What `flatatt(attrs)` writes: ` name="value"` in name order, then the
    true booleans as bare names in name order."""
    pairs = sorted(
        (name, value)
        for name, value in attrs.items()
        if value is not None and not isinstance(value, bool)
    )
    flags = sorted(name for name, value in attrs.items() if value is True)
    return "".join(
        [f' {_escaped(name)}="{_escaped(value)}"' for name, value in pairs]
        + [f" {_escaped(name)}" for name in flags]
    )


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
        return mark_safe(f"<input{_attributes(final)}>")  # noqa: S308 - escaped


class _FastTextInput(_FastInput, forms.TextInput):
    pass


class _FastNumberInput(_FastInput, forms.NumberInput):
    pass


class _FastHiddenInput(_FastInput, forms.HiddenInput):
    pass


def _as_input_template_writes(
    input_type: str, name: str, value: Any, attrs: Mapping[str, Any]
) -> SafeString:
    """An input byte for byte as Django's `input.html` template writes it:
    type, name and value first, then the attributes in their order."""
    parts = [f'<input type="{_escaped(input_type)}" name="{_escaped(name)}"']
    if value is not None:
        parts.append(f' value="{_escaped(value)}"')
    parts.append(_attributes_as_template_writes(attrs))
    parts.append(">")
    return mark_safe("".join(parts))  # noqa: S308 - escaped


def _attributes_as_template_writes(attrs: Mapping[str, Any]) -> str:
    """What Django's `attrs.html` writes: the attributes in their order,
    a true one as its bare name, a false one left out."""
    parts = []
    for attr, attr_value in attrs.items():
        if attr_value is True:
            parts.append(f" {_escaped(attr)}")
        elif attr_value is not False:
            parts.append(f' {_escaped(attr)}="{_escaped(attr_value)}"')
    return "".join(parts)


class _FastHiddenCopy(forms.HiddenInput):
    """The hidden copy `BoundField.as_hidden` writes (a field kept as typed
    while the operation shown does not take it)."""

    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        return _as_input_template_writes(
            self.input_type,
            name,
            self.format_value(value),
            self.build_attrs(self.attrs, attrs),
        )


class _FastTextarea(forms.Textarea):
    """A textarea byte for byte as Django's `textarea.html` writes it."""

    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        attributes = _attributes_as_template_writes(self.build_attrs(self.attrs, attrs))
        text = self.format_value(value)
        return mark_safe(  # noqa: S308 - escaped
            f'<textarea name="{_escaped(name)}"{attributes}>\n'
            f"{_escaped(text) if text else ''}</textarea>"
        )


class _FastCheckboxes(forms.CheckboxSelectMultiple):
    """Checkboxes whose boxes a template writes one by one (`box.tag`)."""

    def _render(
        self, template_name: str, context: dict[str, Any], renderer: Any = None
    ) -> SafeString:
        box = context["widget"]
        if template_name != self.option_template_name or box["wrap_label"]:
            return super()._render(template_name, context, renderer)
        return _as_input_template_writes(
            box["type"], box["name"], box["value"], box["attrs"]
        )


class _FastCheckbox(forms.CheckboxInput):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final |= {"type": "checkbox", "name": name}
        if self.check_test(value):
            final["checked"] = True
        return mark_safe(f"<input{_attributes(final)}>")  # noqa: S308 - escaped


class _FastSelect(forms.Select):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        chosen = set(self.format_value(value))

        def options(choices: Iterable[tuple[Any, Any]]) -> str:
            return "".join(
                [
                    f'<option value="{_escaped(v)}"'
                    f"{' selected' if str(v) in chosen else ''}>"
                    f"{_escaped(label)}</option>"
                    for v, label in choices
                ]
            )

        parts = []
        for group, choices in self.choices:
            if isinstance(choices, (list, tuple)):
                parts.append(
                    f'<optgroup label="{_escaped(group)}">{options(choices)}</optgroup>'
                )
            else:
                parts.append(options([(group, choices)]))
        return mark_safe(f"<select{_attributes(final)}>{''.join(parts)}</select>")  # noqa: S308 - escaped


class _ErrorList(ErrorList):
    """An error list that writes nothing, without a template, when empty (as
    Django's template does): the editor shows every row's errors, and most
    are empty."""

    def render(
        self, template_name: Any = None, context: Any = None, renderer: Any = None
    ) -> SafeString:
        if not self.data:
            return SafeString()
        return super().render(template_name, context, renderer)

    __str__ = render
    __html__ = render


_FAST = {
    forms.TextInput: _FastTextInput,
    forms.NumberInput: _FastNumberInput,
    forms.Textarea: _FastTextarea,
    forms.HiddenInput: _FastHiddenInput,
    forms.CheckboxInput: _FastCheckbox,
    forms.Select: _FastSelect,
    forms.CheckboxSelectMultiple: _FastCheckboxes,
}


class EditorForm(forms.Form):
    """A form of the editor, whole or one of its rows: widgets that write
    their HTML directly, error lists that cost nothing while empty."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("error_class", _ErrorList)
        super().__init__(*args, **kwargs)
        self.fast_widgets()

    def fast_widgets(self) -> None:
        """Swap the plain widgets for ones that write their HTML directly."""
        for field in self.fields.values():
            fast = _FAST.get(type(field.widget))
            if fast is not None:
                field.widget.__class__ = fast
            if field.hidden_widget is forms.HiddenInput:
                field.hidden_widget = _FastHiddenCopy

    def raw(self, name: str) -> str:
        """A field's value as posted (before cleaning), '' if absent."""
        return self.data.get(self.add_prefix(name)) or ""

    def draft(self) -> dict[str, Any]:
        """The fields as typed so far, for a live preview: each one's
        cleaned value where it cleans on its own, else None; nothing is
        refused. A field posted twice (a hidden copy kept as typed beside
        the shown one) gives its last value, as binding the form does."""
        values: dict[str, Any] = {}
        for name, field in self.fields.items():
            posted = field.widget.value_from_datadict(
                self.data, self.files, self.add_prefix(name)
            )
            try:
                values[name] = field.clean(posted)
            except forms.ValidationError:
                values[name] = None
        return values


class VersionedForm(EditorForm):
    """Every editor form carries the project version its page showed. A
    form's repeated rows are formsets (`row_sets`): their errors refuse the
    form as its own fields' do, and a problem of the design check goes
    beside the row's field it concerns."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    # After an edit conflict: the other person's version of each clashing
    # element (presenters.TheirVersion), shown beside the input.
    their_versions: list = []

    def keep_mine_at(self, version: int) -> None:
        """The form as typed, now at `version` (which holds someone else's
        change to the same element): saving it again keeps mine in place
        of theirs."""
        self.data = self.data.copy()
        self.data[self.add_prefix("version")] = str(version)

    def row_sets(self) -> Sequence[BaseFormSet]:
        """The form's formsets of repeated rows."""
        return ()

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound:
            return
        for rows in self.row_sets():
            for error in rows.non_form_errors():
                self.add_error(None, error)
            for row in rows.forms:
                for field, errors in row.errors.items():
                    if field == NON_FIELD_ERRORS:
                        self.add_error(None, list(errors))
                    else:
                        self._errors[self.name_in_form(row, field)] = errors

    def name_in_form(self, row: forms.Form, field: str) -> str:
        """A row's field named as the form names its own (without the
        form's prefix): `attr-3-name`, `action-0-key-PK`."""
        name = row.add_prefix(field)
        return name[len(self.prefix) + 1 :] if self.prefix else name

    def _row_field(self, name: str) -> tuple[forms.Form, str] | None:
        for rows in self.row_sets():
            for row in rows.forms:
                for field in row.fields:
                    if self.name_in_form(row, field) == name:
                        return row, field
        return None

    # How a problem path of the design check maps to a field of this form
    # or of one of its rows; a path no rule matches is shown above the form.
    def field_for(self, path: str) -> str | None:
        return None

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            name = self.field_for(problem.path)
            if name is not None and self._add_error_at(name, problem.message):
                continue
            message = problem.message
            if problem.path:
                message = f"{problem.path}: {message}"
            self.add_error(None, message)

    def _add_error_at(self, name: str, message: str) -> bool:
        if name in self.fields:
            self.add_error(name, message)
            return True
        found = self._row_field(name)
        if found is None:
            return False
        row, field = found
        row.add_error(field, message)
        self._errors[name] = row.errors[field]
        return True
