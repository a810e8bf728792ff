"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from modeler.infra.uploads import upload_size_error
from modeler.services.projects import OWN_ITEMS_MAX


class SampleSeedForm(forms.Form):
    seed = forms.IntegerField(min_value=0, max_value=2**63 - 1)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class SampleItemsImportForm(forms.Form):
    """A file of the user's own items: DynamoDB JSON lines, CSV with a
    header row, or a NoSQL Workbench model with TableData."""

    REPLACE, ADD = "replace", "add"

    file = forms.FileField(
        label="Your items",
        help_text="DynamoDB JSON lines, CSV with a header row, or a NoSQL "
        "Workbench model with TableData. Nothing is kept unless every item is "
        "valid.",
        widget=forms.FileInput(attrs={"accept": ".jsonl,.ndjson,.json,.csv,.txt"}),
    )
    mode = forms.ChoiceField(
        choices=[(REPLACE, "Replace them"), (ADD, "Keep them and add these")],
        initial=REPLACE,
        widget=forms.RadioSelect,
    )
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The limits, said before a file is refused for passing one.
        self.fields["file"].help_text += (
            f" At most {OWN_ITEMS_MAX:,} items in a file of at most "
            f"{settings.DESIGN_FILE_MAX_BYTES:,} bytes."
        )

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        too_large = upload_size_error(upload, "item files")
        if too_large:
            raise forms.ValidationError(too_large)
        data = upload.read()
        try:
            # utf-8-sig: spreadsheets often start a CSV file with a BOM.
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(
                f"{upload.name} is not UTF-8 text (byte {exc.start}); save it as "
                "UTF-8 and upload it again."
            ) from None

    @property
    def source_name(self) -> str:
        return self.files["file"].name
