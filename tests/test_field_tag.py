"""`{% field %}`: a form field as the project's forms show it."""

from __future__ import annotations

from django import forms
from django.template import engines


class _Form(forms.Form):
    name = forms.CharField(label="Name <b>&", help_text="Letters, <em>digits</em>")
    count = forms.IntegerField(required=False)


def _render(form: forms.Form, name: str) -> str:
    template = engines["django"].from_string(f"{{% field form.{name} %}}")
    return template.render({"form": form})


def test_a_field_with_its_label_input_and_help():
    assert _render(_Form(initial={"name": "a<b"}), "name") == (
        '\n<div class="field">\n  <label for="id_name">Name &lt;b&gt;&amp;</label>\n'
        '  <input type="text" name="name" value="a&lt;b" required '
        'aria-describedby="id_name_helptext" id="id_name">\n'
        "  \n"
        '  <div class="helptext" id="id_name_helptext">Letters, <em>digits</em>'
        "</div>\n</div>\n"
    )


def test_a_refused_field_is_marked_with_its_errors():
    html = _render(_Form({"name": "x", "count": "many"}), "count")
    assert html.startswith('\n<div class="field field-invalid">\n')
    assert '<ul class="errorlist" id="id_count_error"><li>Enter a whole number.' in html
    assert 'value="many"' in html
    assert "helptext" not in html
