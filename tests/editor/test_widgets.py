"""The editor forms' widgets write their HTML directly: byte for byte what
Django's own widgets write (their attributes sorted as `flatatt` sorts
them, hidden copies and empty error lists as Django's templates write
them), whatever the values hold."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.forms.utils import ErrorList, flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy

from modeler.editor.forms.common import BLANK_ROWS, MAX_ROWS, VersionedForm
from modeler.editor.forms.rows import MOST_POSTED, RowForm, Rows, rows_formset

AWKWARD = [
    "",
    "plain",
    "a \"quoted\" <b>&amp;</b> 'x'",
    mark_safe("<i>safe</i>"),  # a test value
    format_lazy("{}&{}", "lazy", "<text>"),
    42,
    1.5,
]


class Fields(VersionedForm):
    text = forms.CharField(
        required=False,
        widget=forms.TextInput(attrs={"class": "code", "data-x": 'a"b'}),
    )
    number = forms.DecimalField(
        required=False, widget=forms.NumberInput(attrs={"step": "any"})
    )
    flag = forms.BooleanField(required=False)
    boxes = forms.MultipleChoiceField(
        required=False,
        choices=[("a&b", "A & B"), ("c", "C"), ("<d>", mark_safe("<b>D</b>"))],
        widget=forms.CheckboxSelectMultiple,
    )
    choice = forms.ChoiceField(
        required=False,
        choices=[
            ("", "—"),
            ("a&b", "A & B"),
            ("Group <1>", [("x", "X"), ("y\"'", mark_safe("<em>Y</em>"))]),
        ],
    )


def _flatatt_html(attrs: dict[str, Any]) -> str:
    return format_html("<input{}>", flatatt(attrs))


@pytest.mark.parametrize("value", AWKWARD)
def test_inputs_write_what_flatatt_writes(value: Any) -> None:
    form = Fields(initial={"text": value, "number": value, "version": 3})
    html = str(form["text"])
    expected = _flatatt_html(
        {
            "class": "code",
            "data-x": 'a"b',
            "id": "id_text",
            "type": "text",
            "name": "text",
            **({"value": str(value)} if str(value) != "" else {}),
        }
    )
    assert html == expected


@pytest.mark.parametrize("checked", [True, False])
def test_a_checkbox_writes_what_flatatt_writes(checked: bool) -> None:
    form = Fields(initial={"flag": checked})
    attrs = {"id": "id_flag", "type": "checkbox", "name": "flag"}
    if checked:
        attrs["checked"] = True
    assert str(form["flag"]) == _flatatt_html(attrs)


@pytest.mark.parametrize("value", ["", "a&b", "x", "y\"'", "missing"])
def test_a_select_writes_what_format_html_writes(value: str) -> None:
    form = Fields(initial={"choice": value})

    def options(choices: list[tuple[Any, Any]]) -> str:
        return format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (v, mark_safe(" selected") if v == value else "", label)
                for v, label in choices
            ),
        )

    expected = format_html(
        "<select{}>{}{}{}</select>",
        flatatt({"name": "choice", "id": "id_choice"}),
        options([("", "—")]),
        options([("a&b", "A & B")]),
        format_html(
            '<optgroup label="{}">{}</optgroup>',
            "Group <1>",
            options([("x", "X"), ("y\"'", mark_safe("<em>Y</em>"))]),
        ),
    )
    assert str(form["choice"]) == expected


@pytest.mark.parametrize("value", AWKWARD)
def test_hidden_copies_write_what_djangos_template_writes(value: Any) -> None:
    form = Fields(initial={"text": value, "flag": True})
    plain = forms.Form()
    plain.fields["text"] = forms.CharField(required=False)
    plain.fields["flag"] = forms.BooleanField(required=False)
    plain.initial = {"text": value, "flag": True}
    assert form["text"].as_hidden() == plain["text"].as_hidden()
    assert form["flag"].as_hidden() == plain["flag"].as_hidden()
    assert form["text"].as_hidden(attrs={"data-on": True, "data-off": False}) == (
        plain["text"].as_hidden(attrs={"data-on": True, "data-off": False})
    )


@pytest.mark.parametrize("errors", [[], ["Too <long> & odd"], ["one", "two"]])
def test_error_lists_write_what_djangos_template_writes(errors: list[str]) -> None:
    form = Fields(data={"version": "1"})
    assert form.error_class is not ErrorList
    mine = form.error_class(errors)
    theirs = ErrorList(errors)
    assert str(mine) == str(theirs)
    assert mine.as_ul() == theirs.as_ul()
    assert mine.as_text() == theirs.as_text()
    assert str(form["text"].errors) == ""


@pytest.mark.parametrize("chosen", [[], ["c"], ["a&b", "<d>"]])
def test_checkboxes_write_what_djangos_templates_write(chosen: list[str]) -> None:
    form = Fields(initial={"boxes": chosen})
    plain = forms.Form(initial={"boxes": chosen})
    plain.fields["boxes"] = forms.MultipleChoiceField(
        required=False,
        choices=form.fields["boxes"].choices,
        widget=forms.CheckboxSelectMultiple,
    )
    mine, theirs = list(form["boxes"]), list(plain["boxes"])
    assert [box.tag() for box in mine] == [box.tag() for box in theirs]
    assert [box.tag(wrap_label=True) for box in mine] == [
        box.tag(wrap_label=True) for box in theirs
    ]
    assert str(form["boxes"]) == str(plain["boxes"])


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"attr-TOTAL_FORMS": "3", "attr-INITIAL_FORMS": "1"},
        {"attr-TOTAL_FORMS": "3", "attr-INITIAL_FORMS": "1", "attr-MAX_NUM_FORMS": "x"},
        {"attr-TOTAL_FORMS": 'a "quoted" <b>&amp;</b>'},
        {},
    ],
)
def test_row_counts_write_what_djangos_templates_write(data: Any) -> None:
    """A formset's management form, unbound, bound, and bound with errors
    (which Django's template writes)."""
    django_rows = forms.formset_factory(
        forms.Form, extra=BLANK_ROWS, max_num=MAX_ROWS, absolute_max=MOST_POSTED
    )(data, prefix="attr")
    editor_rows = rows_formset(RowForm, Rows)(data, prefix="attr")
    assert str(editor_rows.management_form) == str(django_rows.management_form)
    assert editor_rows.management_form.__html__() == str(django_rows.management_form)
    assert f"{editor_rows.management_form}" == f"{django_rows.management_form}"
