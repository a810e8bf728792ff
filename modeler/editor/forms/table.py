"""The table's settings: name, primary key, capacity, protection, streams,
TTL and tags."""

from __future__ import annotations

from typing import Any

from django import forms

from modeler.design import model as d
from modeler.editor.forms.common import (
    KEY_TYPE_CHOICES,
    VersionedForm,
    _choices,
)
from modeler.editor.forms.scaling import ScalingFields

# --- Table ----------------------------------------------------------------------


class TableForm(VersionedForm, ScalingFields):
    name = forms.CharField(
        max_length=255,
        help_text="3 to 255 letters, digits, '_', '-' or '.'",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    pk_name = forms.CharField(
        max_length=255,
        label="Partition key",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    pk_type = forms.ChoiceField(choices=KEY_TYPE_CHOICES, label="Type")
    sk_name = forms.CharField(
        max_length=255,
        required=False,
        label="Sort key",
        help_text="Empty for a table without a sort key.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    sk_type = forms.ChoiceField(choices=KEY_TYPE_CHOICES, label="Type")
    billing_mode = forms.ChoiceField(
        choices=[
            ("PAY_PER_REQUEST", "On demand (PAY_PER_REQUEST)"),
            ("PROVISIONED", "Provisioned"),
        ],
        label="Billing mode",
    )
    read_capacity = forms.IntegerField(
        required=False, min_value=1, max_value=40_000, label="Read capacity (RCU)"
    )
    write_capacity = forms.IntegerField(
        required=False, min_value=1, max_value=40_000, label="Write capacity (WCU)"
    )
    ttl_attribute = forms.CharField(
        max_length=255,
        required=False,
        label="TTL attribute",
        help_text="A number attribute of epoch seconds; empty for no TTL.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    stream_view_type = forms.ChoiceField(
        choices=[("", "Off"), *_choices(d.STREAM_VIEW_TYPES)],
        required=False,
        label="Stream",
    )
    point_in_time_recovery = forms.BooleanField(
        required=False, label="Point-in-time recovery"
    )
    deletion_protection = forms.BooleanField(
        required=False, label="Deletion protection"
    )
    encryption_type = forms.ChoiceField(
        choices=[
            ("AWS_OWNED", "AWS owned key"),
            ("AWS_MANAGED", "AWS managed key (aws/dynamodb)"),
            ("KMS", "Customer managed KMS key"),
        ],
        label="Encryption",
    )
    kms_key = forms.CharField(
        max_length=2048,
        required=False,
        label="KMS key",
        help_text="ARN or alias, with customer managed encryption only.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    table_class = forms.ChoiceField(
        choices=[
            ("STANDARD", "Standard"),
            ("STANDARD_INFREQUENT_ACCESS", "Standard-Infrequent Access"),
        ],
        label="Table class",
    )
    tags = forms.CharField(
        required=False,
        label="Tags",
        help_text="One key=value a line.",
        widget=forms.Textarea(
            attrs={"rows": 3, "class": "code", "spellcheck": "false"}
        ),
    )

    @classmethod
    def initial_for(cls, table: d.Table, version: int) -> dict[str, Any]:
        return {
            "version": version,
            "name": table.name,
            "pk_name": table.partition_key.name,
            "pk_type": table.partition_key.type,
            "sk_name": table.sort_key.name if table.sort_key else "",
            "sk_type": table.sort_key.type if table.sort_key else "S",
            "billing_mode": table.billing_mode,
            "read_capacity": table.capacity.read if table.capacity else None,
            "write_capacity": table.capacity.write if table.capacity else None,
            "ttl_attribute": table.ttl_attribute,
            "stream_view_type": table.stream_view_type,
            "point_in_time_recovery": table.point_in_time_recovery,
            "deletion_protection": table.deletion_protection,
            "encryption_type": table.encryption.type,
            "kms_key": table.encryption.kms_key,
            "table_class": table.table_class,
            "tags": "\n".join(f"{k}={v}" for k, v in table.tags),
            **cls.scaling_initial(table.capacity),
        }

    def clean_tags(self) -> tuple[tuple[str, str], ...]:
        pairs = []
        for number, line in enumerate(self.cleaned_data["tags"].splitlines(), 1):
            if not line.strip():
                continue
            key, sep, value = line.partition("=")
            if not sep or not key.strip():
                raise forms.ValidationError(
                    f"Line {number}: expected key=value, found '{line.strip()}'."
                )
            pairs.append((key.strip(), value.strip()))
        keys = [k for k, _ in pairs]
        for key in keys:
            if keys.count(key) > 1:
                raise forms.ValidationError(f"The tag '{key}' is given twice.")
        return tuple(pairs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        read, write = data.get("read_capacity"), data.get("write_capacity")
        if data.get("billing_mode") == "PROVISIONED":
            self.clean_scaling(data)
            if read is None:
                self.add_error("read_capacity", "A provisioned table needs read units.")
            if write is None:
                self.add_error(
                    "write_capacity", "A provisioned table needs write units."
                )
        if data.get("sk_name") and data.get("sk_name") == data.get("pk_name"):
            self.add_error(
                "sk_name", "The sort key must differ from the partition key."
            )
        return data

    def to_table(self) -> d.Table:
        data = self.cleaned_data
        provisioned = data["billing_mode"] == "PROVISIONED"
        return d.Table(
            name=data["name"],
            partition_key=d.KeyAttribute(data["pk_name"], data["pk_type"]),
            sort_key=(
                d.KeyAttribute(data["sk_name"], data["sk_type"])
                if data["sk_name"]
                else None
            ),
            billing_mode=data["billing_mode"],
            capacity=(
                d.Capacity(
                    data["read_capacity"], data["write_capacity"], self.scaling()
                )
                if provisioned
                else None
            ),
            ttl_attribute=data["ttl_attribute"],
            stream_view_type=data["stream_view_type"],
            point_in_time_recovery=data["point_in_time_recovery"],
            encryption=d.Encryption(
                data["encryption_type"],
                data["kms_key"] if data["encryption_type"] == "KMS" else "",
            ),
            table_class=data["table_class"],
            deletion_protection=data["deletion_protection"],
            tags=data["tags"],
        )

    def field_for(self, path: str) -> str | None:
        rules = {
            "table.name": "name",
            "table.partition_key": "pk_name",
            "table.sort_key": "sk_name",
            "table.billing.auto_scaling.read": "read_max",
            "table.billing.auto_scaling.write": "write_max",
            "table.billing": "billing_mode",
            "table.encryption": "kms_key",
            "table.tags": "tags",
            "table.ttl": "ttl_attribute",
        }
        for prefix, field in rules.items():
            if path.startswith(prefix):
                return field
        return None
