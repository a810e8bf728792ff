"""The editor's repeated rows as Django formsets: each kind of row (an
attribute, a parameter, a predicate, an action, a key template) is a small
form with its own checks, and its formset keeps the rows in order; the
form they belong to checks what spans rows and assembles the design value.

Numbered rows (`attr-0-name`, `attr-1-name`...) carry their management
form (`attr-TOTAL_FORMS`, `attr-INITIAL_FORMS`): the page shows the
existing rows and some blank ones, a blank row is ignored, and "More
rows" raises the total, so everything works without JavaScript. Rows
named by a key attribute (`key-SK-template`) are the table's, not the
page's: there is one per key attribute, and no management form.

A form's initial values are what its page posts untouched (`rows_posted`
writes the rows so), so a test or a benchmark posts them as they are; an
unbound formset reads its rows back from them (`rows_initial`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.forms.formsets import (
    INITIAL_FORM_COUNT,
    TOTAL_FORM_COUNT,
    ManagementForm,
)
from django.forms.utils import ErrorDict
from django.utils.functional import cached_property
from django.utils.safestring import SafeString, mark_safe

from modeler.editor.forms.common import (
    BLANK_ROWS,
    MAX_ROWS,
    EditorForm,
    _ErrorList,
    _FastHiddenCopy,
)

# The most rows of one kind a post may make the server build (DoS guard);
# "More rows" stops at MAX_ROWS, an entity's existing rows are all shown.
MOST_POSTED = 1_000


class RowForm(EditorForm):
    """One row. Rows are not required (a blank one is ignored); a kept row
    (typed for another operation, carried hidden so switching back loses
    nothing) is not checked."""

    kept = False

    def full_clean(self) -> None:
        if self.kept:
            self._errors, self.cleaned_data = ErrorDict(), {}
            return
        super().full_clean()

    def values(self, *, draft: bool = False) -> Mapping[str, Any]:
        """The row's cleaned values, or (a draft) as typed so far."""
        return self.draft() if draft else self.cleaned_data


class _ManagementForm(ManagementForm):
    """A formset's counts as Django writes them (its hidden inputs, one
    after the other), without the form's template and an input template
    each: 1.5 ms a formset, three formsets in a pattern's form (a quarter of
    the pattern editor's CPU). With errors (a post that lost its counts),
    Django's template writes them."""

    def render(
        self, template_name: Any = None, context: Any = None, renderer: Any = None
    ) -> SafeString:
        if template_name is not None or context is not None or self.errors:
            return super().render(template_name, context, renderer)
        return mark_safe("".join(str(bound) for bound in self))  # noqa: S308 - escaped

    __str__ = render
    __html__ = render


class Rows(forms.BaseFormSet):
    """Numbered rows of one kind. `blank` rows follow the existing ones on
    a new page; "More rows" adds `more`."""

    what: ClassVar[str] = "row"  # in messages: "attribute rows"
    more: ClassVar[int] = BLANK_ROWS

    def __init__(
        self,
        data: Any = None,
        *,
        prefix: str,
        initial: Sequence[Mapping[str, Any]] = (),
        blank: int = BLANK_ROWS,
        form_kwargs: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            data,
            prefix=prefix,
            initial=list(initial),
            error_class=_ErrorList,
            form_kwargs=form_kwargs,
            error_messages={
                "missing_management_form": (
                    f"The {self.what} rows came without their count "
                    "(%(field_names)s): reload the page and type them again."
                ),
                "too_many_forms": (
                    f"At most {MOST_POSTED:,} {self.what} rows can be sent at once."
                ),
            },
        )
        self.extra = blank

    @cached_property
    def management_form(self) -> ManagementForm:
        form = super().management_form
        form.__class__ = _ManagementForm
        for field in form.fields.values():
            field.widget.__class__ = _FastHiddenCopy
        return form

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        # Every row is checked, blank or not (a formset skips an unchanged
        # extra one): a blank row passes its checks, and a single write's
        # one row must name its entity even if nothing else was typed.
        return {**super().get_form_kwargs(index), "empty_permitted": False}

    @classmethod
    def with_more(cls, data: Any, prefix: str) -> Any:
        """`data` with `more` rows of this kind, up to MAX_ROWS (an element
        that already has more keeps them all)."""
        key = f"{prefix}-{TOTAL_FORM_COUNT}"
        try:
            total = int(data.get(key) or 0)
        except ValueError:
            return data
        grown = data.copy()
        grown[key] = str(max(total, min(total + cls.more, MAX_ROWS)))
        return grown


def rows_formset(form: type[RowForm], rows: type[Rows]) -> type[Rows]:
    """The formset of `form`'s rows (Django's formset_factory, with the
    editor's limits)."""
    return forms.formset_factory(
        form,
        formset=rows,
        max_num=MAX_ROWS,
        absolute_max=MOST_POSTED,
    )


class KeyedRows(Rows):
    """Rows named by key attribute (`key-SK-template`), one per `names`;
    `per_row` gives each row's own form arguments (its key slot)."""

    def __init__(
        self,
        data: Any = None,
        *,
        prefix: str,
        names: Sequence[str],
        per_row: Sequence[Mapping[str, Any]] = (),
        initial: Sequence[Mapping[str, Any]] = (),
        form_kwargs: dict[str, Any] | None = None,
    ) -> None:
        self.names = list(names)
        self.per_row = list(per_row) or [{} for _ in self.names]
        super().__init__(
            data, prefix=prefix, initial=initial, blank=0, form_kwargs=form_kwargs
        )

    def add_prefix(self, index: Any) -> str:
        if isinstance(index, int):
            return f"{self.prefix}-{self.names[index]}"
        return super().add_prefix(index)

    def total_form_count(self) -> int:
        return len(self.names)

    def initial_form_count(self) -> int:
        return len(self.names)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        kwargs = super().get_form_kwargs(index)
        if index is not None:
            kwargs.update(self.per_row[index])
        return kwargs

    @cached_property
    def management_form(self) -> ManagementForm:
        """The count the rows always have (the page sends none)."""
        counts = {
            TOTAL_FORM_COUNT: len(self.names),
            INITIAL_FORM_COUNT: len(self.names),
        }
        form = ManagementForm(
            {f"{self.prefix}-{key}": value for key, value in counts.items()},
            prefix=self.prefix,
        )
        form.full_clean()
        return form

    @classmethod
    def row_initial(
        cls, initial: Mapping[str, Any], kind: str, name: str
    ) -> dict[str, Any]:
        """Row `name`'s initial values out of its form's: `key-SK-template`
        -> {"template": ...}."""
        head = f"{kind}-{name}-"
        return {k[len(head) :]: v for k, v in initial.items() if k.startswith(head)}


def rows_posted(
    kind: str, rows: Sequence[Mapping[str, Any]], blank: int = BLANK_ROWS
) -> dict[str, Any]:
    """Rows as their page posts them untouched: `attr-0-name`..., and the
    management form's counts (the rows, then `blank` blank ones)."""
    posted: dict[str, Any] = {
        f"{kind}-{TOTAL_FORM_COUNT}": max(len(rows), min(len(rows) + blank, MAX_ROWS)),
        f"{kind}-{INITIAL_FORM_COUNT}": len(rows),
    }
    for i, row in enumerate(rows):
        posted |= {f"{kind}-{i}-{field}": value for field, value in row.items()}
    return posted


def rows_initial(
    initial: Mapping[str, Any], kind: str
) -> tuple[list[dict[str, Any]], int]:
    """The rows `rows_posted` wrote into a form's initial values, and how
    many blank ones follow them."""
    count = int(initial.get(f"{kind}-{INITIAL_FORM_COUNT}") or 0)
    total = int(initial.get(f"{kind}-{TOTAL_FORM_COUNT}") or count + BLANK_ROWS)
    rows: list[dict[str, Any]] = [{} for _ in range(count)]
    head = f"{kind}-"
    for key, value in initial.items():
        index, _, field = key[len(head) :].partition("-")
        if key.startswith(head) and index.isdigit() and int(index) < count:
            rows[int(index)][field] = value
    return rows, total - count


def bind_rows(
    form: forms.Form, rows: type[Rows], kind: str, *, more: bool = False, **kwargs: Any
) -> Rows:
    """`form`'s rows of `kind`: as posted (with `more` rows: the page's
    "More rows"), or, unbound, from the form's initial values."""
    prefix = form.add_prefix(kind)
    if form.is_bound:
        data = rows.with_more(form.data, prefix) if more else form.data
        return rows(data, prefix=prefix, **kwargs)
    initial, blank = rows_initial(form.initial, kind)
    return rows(prefix=prefix, initial=initial, blank=blank, **kwargs)


def bind_keyed_rows(
    form: forms.Form,
    rows: type[KeyedRows],
    kind: str,
    names: Sequence[str],
    **kwargs: Any,
) -> KeyedRows:
    """`form`'s rows of `kind`, one per key attribute in `names`."""
    prefix = form.add_prefix(kind)
    if form.is_bound:
        return rows(form.data, prefix=prefix, names=names, **kwargs)
    initial = [rows.row_initial(form.initial, kind, name) for name in names]
    return rows(prefix=prefix, names=names, initial=initial, **kwargs)
