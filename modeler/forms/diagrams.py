"""The query-string forms of the Key map, Item collections and Diagrams
sections: which index, which entity, which partitions. Each is bound to
the design, whose indexes and entities are the choices."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from modeler.design import model as d
from modeler.diagrams import index_infos

MAX_KEY_LENGTH = 2048  # a partition key value has at most 2048 bytes
MAX_PARTITIONS = 50
MAX_ITEMS = 50


def _index_choices(design: d.Design) -> list[tuple[str, str]]:
    choices = []
    for info in index_infos(design):
        if info.kind == "table":
            choices.append(("table", f"Table {design.table.name}"))
        else:
            kind = "GSI" if info.kind == "global" else "LSI"
            choices.append((info.name, f"{kind} {info.name}"))
    return choices


def _entity_choices(design: d.Design) -> list[tuple[str, str]]:
    return [("", "All entities")] + [(e.name, e.name) for e in design.entities]


class _DesignForm(forms.Form):
    """A GET form: missing fields take their defaults, so a bare URL works."""

    defaults: dict[str, Any] = {}

    def __init__(self, data: Mapping[str, Any], *, design: d.Design) -> None:
        values = dict(self.defaults)
        values.update({k: v for k, v in data.items() if v != ""})
        super().__init__(values)
        self.design = design
        if "index" in self.fields:
            self.fields["index"].choices = _index_choices(design)
        if "entity" in self.fields:
            self.fields["entity"].choices = _entity_choices(design)


class CollectionsForm(_DesignForm):
    defaults = {"index": "table", "page": 1}

    index = forms.ChoiceField(label="Table or index")
    entity = forms.ChoiceField(label="Entity", required=False)
    pk = forms.CharField(
        label="Partition key contains", required=False, max_length=MAX_KEY_LENGTH
    )
    page = forms.IntegerField(min_value=1, max_value=10**9)


class DiagramForm(_DesignForm):
    OVERVIEW = "overview"
    COLLECTIONS = "collections"
    defaults = {"kind": OVERVIEW, "index": "table", "partitions": 6, "items": 10}

    kind = forms.ChoiceField(
        label="Diagram",
        choices=[(OVERVIEW, "Design overview"), (COLLECTIONS, "Item collections")],
        widget=forms.RadioSelect,
    )
    index = forms.ChoiceField(label="Table or index")
    entity = forms.ChoiceField(label="Entity", required=False)
    pk = forms.CharField(
        label="Partition key contains", required=False, max_length=MAX_KEY_LENGTH
    )
    partitions = forms.IntegerField(
        label="Partitions", min_value=1, max_value=MAX_PARTITIONS
    )
    items = forms.IntegerField(
        label="Items per partition", min_value=1, max_value=MAX_ITEMS
    )

    def __init__(
        self,
        data: Mapping[str, Any],
        *,
        design: d.Design,
        keys: list[str] | None = None,
    ) -> None:
        super().__init__(data, design=design)
        self.keys = keys or []

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if len(self.keys) > MAX_PARTITIONS:
            raise forms.ValidationError(
                f"At most {MAX_PARTITIONS} partitions can be drawn; "
                f"{len(self.keys)} were chosen."
            )
        if any(len(k) > MAX_KEY_LENGTH for k in self.keys):
            raise forms.ValidationError(
                f"A partition key has at most {MAX_KEY_LENGTH} characters."
            )
        cleaned["keys"] = list(dict.fromkeys(self.keys))
        return cleaned
