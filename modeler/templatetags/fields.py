"""`{% field form.name %}`: one form field, its label above, then the input,
its errors and its help.

Written in Python rather than included from a template: the editor's forms
show a dozen such fields, and an include costs the template engine more
than the field itself."""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def field(bound: BoundField) -> SafeString:
    # An empty error list writes nothing; through its template (forms other
    # than the editor's) that nothing still costs 0.15 ms, on every field.
    errors = bound.errors or ""
    help_text = ""
    if bound.help_text:
        # Help texts are the code's own, and may hold markup.
        help_text = format_html(
            '<div class="helptext" id="{}_helptext">{}</div>',
            bound.auto_id,
            mark_safe(bound.help_text),  # noqa: S308 - the code's own text
        )
    return format_html(
        '\n<div class="field{}">\n  <label for="{}">{}</label>\n'
        "  {}\n  {}\n  {}\n</div>\n",
        " field-invalid" if errors else "",
        bound.id_for_label,
        bound.label,
        bound,
        errors,
        help_text,
    )
