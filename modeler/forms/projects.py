"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any

from django import forms

from modeler.design import model as d
from modeler.forms.fields import OneLineField
from modeler.importers.sql_defaults import DEFAULT_PEAK, DEFAULT_WINDOW
from modeler.infra.uploads import upload_size_error


class ProjectCreateForm(forms.Form):
    name = OneLineField(max_length=200)
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class _OwnIds(forms.Form):
    """A form that shares its page with others: its fields' ids (and so the
    labels' `for`) start with its own prefix, not Django's `id_`, which the
    project list's forms would share (its three name fields were all
    `id_name`, and the import form's label named the create form's field)."""

    id_prefix = "id"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)


class DesignImportForm(_OwnIds):
    """A design file, uploaded or pasted."""

    id_prefix = "import"

    file = forms.FileField(
        required=False,
        label="Design file (YAML, a NoSQL Workbench model, a OneTable schema, "
        "a DynamoDB MCP server dynamodb_data_model.json, an ElectroDB or "
        "DynamoDB-Toolbox module (.js, .mjs), a CloudFormation "
        "template, a Terraform file, or a SQL schema: pg_dump --schema-only, "
        "mysqldump --no-data)",
    )
    queries = forms.FileField(
        required=False,
        label="Query log, with a SQL schema",
        help_text="pg_stat_statements or events_statements_summary_by_digest "
        "exported as CSV or JSON, or SQL with a '-- calls/s: N' comment before "
        "each statement: its statements become the access patterns.",
    )
    window = forms.FloatField(
        required=False,
        min_value=1,
        label="Seconds the query log's counts cover",
        help_text="How long its calls were counted (pg_stat_statements: since "
        "its last reset); each pattern's traffic is its calls over this. "
        f"Default {DEFAULT_WINDOW:g}. A '-- calls/s' comment states its own rate.",
    )
    peak = forms.FloatField(
        required=False,
        min_value=1,
        max_value=1000,
        label="Peak traffic, as a multiple of the average",
        help_text=f"Default {DEFAULT_PEAK:g}.",
    )
    # Not stripped: the problems' line numbers must match the text the user
    # sees in the textarea, and YAML indentation is meaningful.
    text = forms.CharField(
        required=False,
        strip=False,
        label="…or paste its text",
        widget=forms.Textarea(
            attrs={"rows": 8, "spellcheck": "false", "class": "code-input"}
        ),
    )
    name = OneLineField(
        required=False,
        max_length=200,
        label="Project name",
        help_text="Leave empty to use the name in the file.",
    )
    table = forms.CharField(
        required=False,
        max_length=255,
        label="Table",
        help_text="Of a file with several tables, import only this one "
        "(its name, or its resource's name in a template or Terraform file). "
        "Leave empty for a project per table.",
    )

    def clean_file(self) -> bytes | None:
        upload = self.cleaned_data.get("file")
        if upload is None:
            return None
        too_large = upload_size_error(upload, "design files")
        if too_large:
            raise forms.ValidationError(too_large)
        return upload.read()

    def clean_queries(self) -> bytes:
        upload = self.cleaned_data.get("queries")
        if upload is None:
            return b""
        too_large = upload_size_error(upload, "query logs")
        if too_large:
            raise forms.ValidationError(too_large)
        return upload.read()

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        has_text = bool(data.get("text", "").strip())
        if not data.get("file") and not has_text:
            raise forms.ValidationError("Choose a design file or paste its text.")
        if data.get("file") and has_text:
            raise forms.ValidationError(
                "Choose a design file or paste its text, not both."
            )
        return data

    @property
    def source(self) -> bytes | str:
        return self.cleaned_data.get("file") or self.cleaned_data["text"]

    @property
    def source_name(self) -> str:
        upload = self.files.get("file")
        return upload.name if upload else "the pasted text"

    @property
    def window_seconds(self) -> float:
        return self.cleaned_data.get("window") or DEFAULT_WINDOW

    @property
    def peak_multiple(self) -> float:
        return self.cleaned_data.get("peak") or DEFAULT_PEAK

    @property
    def queries_name(self) -> str:
        upload = self.files.get("queries")
        return upload.name if upload else ""


class LiveTableImportForm(_OwnIds):
    """A live table to import, read from the endpoint the settings name."""

    id_prefix = "live"

    table = forms.RegexField(
        regex=r"^[A-Za-z0-9_.-]{3,255}$",
        max_length=255,
        label="Table name",
        error_messages={
            "invalid": "A table name has 3 to 255 letters, digits, _ . and -."
        },
    )
    sample = forms.IntegerField(
        min_value=1,
        max_value=1_000,
        initial=500,
        label="Items to sample",
        help_text="At most 1,000, read by an eventually consistent parallel Scan; "
        "they become the project's own items.",
    )
    name = OneLineField(
        required=False,
        max_length=200,
        label="Project name",
        help_text="Leave empty to use the table's name.",
    )


class VersionForm(forms.Form):
    """The project version a page was showing, for actions without input."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class ProposeKeysForm(forms.Form):
    """The entities whose table keys a key proposal keeps as they are."""

    keep = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Keep the table keys of",
    )

    def __init__(self, *args: Any, design: d.Design, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["keep"].choices = [
            (e.name, e.name) for e in design.entities if design.has_table_keys(e)
        ]
