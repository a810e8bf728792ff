"""One secondary index: kind, name, keys (up to 4 partition and 4 sort key
attributes for a GSI), projection and capacity."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms

from modeler.design import model as d
from modeler.editor.forms.common import (
    KEY_TYPE_CHOICES,
    VersionedForm,
    _choices,
    _names,
)
from modeler.editor.forms.scaling import ScalingFields

# --- Indexes --------------------------------------------------------------------

KEY_SLOTS = 4  # a GSI key has up to 4 partition and 4 sort key attributes


class IndexForm(VersionedForm, ScalingFields):
    kind = forms.ChoiceField(
        choices=[
            ("global", "Global secondary index (GSI)"),
            ("local", "Local secondary index (LSI)"),
        ],
        label="Kind",
    )
    name = forms.CharField(
        max_length=255,
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    projection_type = forms.ChoiceField(
        choices=[
            ("KEYS_ONLY", "KEYS_ONLY · the keys"),
            ("INCLUDE", "INCLUDE · the keys and chosen attributes"),
            ("ALL", "ALL · every attribute"),
        ],
        label="Projection",
    )
    projection_attributes = forms.MultipleChoiceField(
        required=False,
        label="Projected attributes (INCLUDE)",
        widget=forms.CheckboxSelectMultiple,
    )
    projection_other = forms.CharField(
        required=False,
        label="Other attributes to project",
        help_text="Names that no entity declares, separated by commas.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    read_capacity = forms.IntegerField(
        required=False, min_value=1, max_value=40_000, label="Read capacity (RCU)"
    )
    write_capacity = forms.IntegerField(
        required=False, min_value=1, max_value=40_000, label="Write capacity (WCU)"
    )

    def __init__(
        self, *args: Any, attribute_names: Iterable[str] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for part in ("pk", "sk"):
            for slot in range(KEY_SLOTS):
                self.fields[f"{part}_name_{slot}"] = forms.CharField(
                    max_length=255,
                    required=False,
                    label=f"{'Partition' if part == 'pk' else 'Sort'} key "
                    f"attribute {slot + 1}",
                    widget=forms.TextInput(
                        attrs={"class": "code", "spellcheck": "false"}
                    ),
                )
                self.fields[f"{part}_type_{slot}"] = forms.ChoiceField(
                    choices=KEY_TYPE_CHOICES, label="Type", initial="S", required=False
                )
        names = dict.fromkeys(attribute_names)
        initial = self.initial.get("projection_attributes") or ()
        names.update(dict.fromkeys(initial))
        self.fields["projection_attributes"].choices = _choices(names)
        self.fast_widgets()

    @classmethod
    def initial_for(cls, index: d.Index | None, version: int) -> dict[str, Any]:
        if index is None:
            return {"version": version, "kind": "global", "projection_type": "ALL"}
        data: dict[str, Any] = {
            "version": version,
            "kind": index.kind,
            "name": index.name,
            "projection_type": index.projection.type,
            "projection_attributes": list(index.projection.attributes),
            "read_capacity": index.capacity.read if index.capacity else None,
            "write_capacity": index.capacity.write if index.capacity else None,
            **cls.scaling_initial(index.capacity),
        }
        for part, attrs in (("pk", index.partition_key), ("sk", index.sort_key)):
            for slot, attr in enumerate(attrs[:KEY_SLOTS]):
                data[f"{part}_name_{slot}"] = attr.name
                data[f"{part}_type_{slot}"] = attr.type
        return data

    def key_rows(self, part: str) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"{part}_name_{slot}"], self[f"{part}_type_{slot}"])
            for slot in range(KEY_SLOTS)
        ]

    @property
    def partition_rows(self) -> list:
        return self.key_rows("pk")

    @property
    def sort_rows(self) -> list:
        return self.key_rows("sk")

    def _keys(self, part: str) -> tuple[d.KeyAttribute, ...]:
        data = self.cleaned_data
        return tuple(
            d.KeyAttribute(
                data[f"{part}_name_{slot}"], data.get(f"{part}_type_{slot}") or "S"
            )
            for slot in range(KEY_SLOTS)
            if data.get(f"{part}_name_{slot}")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        self.clean_scaling(data)
        if data["kind"] == "global" and not self._keys("pk"):
            self.add_error("pk_name_0", "A GSI needs a partition key attribute.")
        if data["kind"] == "local" and len(self._keys("sk")) != 1:
            self.add_error("sk_name_0", "An LSI has exactly one sort key attribute.")
        if data["projection_type"] == "INCLUDE" and not (
            data["projection_attributes"] or _names(data["projection_other"])
        ):
            self.add_error(
                "projection_attributes", "INCLUDE needs the attributes to project."
            )
        return data

    def to_index(self, table: d.Table) -> d.Index:
        data = self.cleaned_data
        is_global = data["kind"] == "global"
        projected: tuple[str, ...] = ()
        if data["projection_type"] == "INCLUDE":
            projected = tuple(
                dict.fromkeys(
                    [*data["projection_attributes"], *_names(data["projection_other"])]
                )
            )
        capacity = None
        if is_global and table.billing_mode == "PROVISIONED":
            read, write = data.get("read_capacity"), data.get("write_capacity")
            capacity = (
                d.Capacity(read or 0, write or 0, self.scaling())
                if read or write
                else None
            )
        return d.Index(
            name=data["name"],
            kind=data["kind"],
            partition_key=self._keys("pk") if is_global else (),
            sort_key=self._keys("sk")[: 1 if not is_global else KEY_SLOTS],
            projection=d.Projection(data["projection_type"], projected),
            capacity=capacity,
        )

    def field_for(self, path: str) -> str | None:
        tail = re.sub(r"^table\.indexes\[\d+\]", "", path)
        for prefix, field in (
            (".name", "name"),
            (".partition_key", "pk_name_0"),
            (".sort_key", "sk_name_0"),
            (".projection", "projection_attributes"),
            (".capacity.auto_scaling.read", "read_max"),
            (".capacity.auto_scaling.write", "write_max"),
            (".capacity", "read_capacity"),
        ):
            if tail.startswith(prefix):
                return field
        return None
