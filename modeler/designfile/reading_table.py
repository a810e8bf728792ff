"""Reading a design file's table: its keys, capacity, auto scaling and indexes."""

from __future__ import annotations

from typing import Any

from modeler.design import model as d
from modeler.designfile.fields import SCALING_RANGE_KEYS
from modeler.designfile.reader_base import MISSING, ReaderBase, value_kind
from modeler.designfile.yaml_loading import join_path


class TableReader(ReaderBase):
    def key_attribute(self, data: Any, path: str) -> d.KeyAttribute:
        if isinstance(data, str):
            return d.KeyAttribute(data, "S")
        spec = self.mapping(data, path, allowed=("name", "type"))
        return d.KeyAttribute(
            self.text(spec, "name", path),
            self.choice(spec, "type", path, d.KEY_TYPES, "S"),
        )

    def key_attributes(self, data: Any, path: str) -> tuple[d.KeyAttribute, ...]:
        if data is None:
            return ()
        if isinstance(data, list):
            return tuple(
                self.key_attribute(item, f"{path}[{i}]") for i, item in enumerate(data)
            )
        return (self.key_attribute(data, path),)

    def capacity(self, data: Any, path: str) -> d.Capacity | None:
        if data is None:
            return None
        spec = self.mapping(data, path, allowed=("read", "write", "auto_scaling"))
        return d.Capacity(
            self.integer(spec, "read", path, minimum=1),
            self.integer(spec, "write", path, minimum=1),
            self.auto_scaling(
                spec.get("auto_scaling"), join_path(path, "auto_scaling")
            ),
        )

    def auto_scaling(self, data: Any, path: str) -> d.AutoScaling | None:
        """`{read: {min, max, target}, write: ...}`; `false` (or `off`)
        for a capacity that is not scaled; absent for the exports'
        default."""
        if data is None:
            return None
        if data is False or data == "off":
            return d.AUTO_SCALING_OFF
        spec = self.mapping(data, path, allowed=("read", "write"))
        return d.AutoScaling(
            self.scaling_range(spec.get("read", False), join_path(path, "read")),
            self.scaling_range(spec.get("write", False), join_path(path, "write")),
        )

    def scaling_range(self, data: Any, path: str) -> d.ScalingRange | None:
        if data is False or data is None or data == "off":
            return None
        spec = self.mapping(data, path, allowed=SCALING_RANGE_KEYS)
        return d.ScalingRange(
            self.integer(spec, "min", path, minimum=1),
            self.integer(spec, "max", path, minimum=1),
            self.integer(spec, "target", path, default=70, minimum=1),
            self.integer(spec, "scale_in_cooldown", path, default=None),
            self.integer(spec, "scale_out_cooldown", path, default=None),
            self.boolean(spec, "disable_scale_in", path, False),
        )

    def table(self, data: Any) -> d.Table | None:
        if data is MISSING:
            self.error("field-required", "table", "is required")
            return None
        spec = self.mapping(
            data,
            "table",
            allowed=(
                "name",
                "partition_key",
                "sort_key",
                "billing",
                "indexes",
                "ttl_attribute",
                "stream",
                "point_in_time_recovery",
                "encryption",
                "table_class",
                "deletion_protection",
                "tags",
            ),
        )
        if "partition_key" not in spec:
            self.error("field-required", "table.partition_key", "is required")
            return None
        billing = self.mapping(
            spec.get("billing"),
            "table.billing",
            allowed=("mode", "read", "write", "auto_scaling"),
        )
        mode = self.choice(
            billing, "mode", "table.billing", d.BILLING_MODES, "PAY_PER_REQUEST"
        )
        capacity = None
        if "read" in billing or "write" in billing:
            capacity = self.capacity(
                {
                    k: billing[k]
                    for k in ("read", "write", "auto_scaling")
                    if k in billing
                },
                "table.billing",
            )
        elif billing.get("auto_scaling") is not None:
            self.error(
                "auto-scaling-without-capacity",
                "table.billing.auto_scaling",
                "scales provisioned capacity: give read and write units too",
            )
        encryption = self.mapping(
            spec.get("encryption"), "table.encryption", allowed=("type", "kms_key")
        )
        tags = self.mapping(spec.get("tags"), "table.tags")
        for key, value in tags.items():
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                self.error(
                    "expected-text",
                    f"table.tags.{key}",
                    f"expected text, found {value_kind(value)}",
                )
        return d.Table(
            name=self.text(spec, "name", "table"),
            partition_key=self.key_attribute(
                spec["partition_key"], "table.partition_key"
            ),
            sort_key=(
                self.key_attribute(spec["sort_key"], "table.sort_key")
                if spec.get("sort_key") is not None
                else None
            ),
            billing_mode=mode,
            capacity=capacity,
            indexes=tuple(
                self.index(item, f"table.indexes[{i}]")
                for i, item in enumerate(
                    self.sequence(spec.get("indexes"), "table.indexes")
                )
            ),
            ttl_attribute=self.text(spec, "ttl_attribute", "table", ""),
            stream_view_type=self.choice(
                spec, "stream", "table", ("",) + d.STREAM_VIEW_TYPES, ""
            ),
            point_in_time_recovery=self.boolean(
                spec, "point_in_time_recovery", "table", False
            ),
            encryption=d.Encryption(
                self.choice(
                    encryption,
                    "type",
                    "table.encryption",
                    d.ENCRYPTION_TYPES,
                    "AWS_OWNED",
                ),
                self.text(encryption, "kms_key", "table.encryption", ""),
            ),
            table_class=self.choice(
                spec, "table_class", "table", d.TABLE_CLASSES, "STANDARD"
            ),
            deletion_protection=self.boolean(
                spec, "deletion_protection", "table", False
            ),
            tags=tuple((str(k), str(v)) for k, v in tags.items()),
        )

    def index(self, data: Any, path: str) -> d.Index:
        spec = self.mapping(
            data,
            path,
            allowed=(
                "name",
                "kind",
                "partition_key",
                "sort_key",
                "projection",
                "capacity",
            ),
        )
        projection = spec.get("projection", "ALL")
        if isinstance(projection, str):
            projection = {"type": projection}
        projection = self.mapping(
            projection, f"{path}.projection", allowed=("type", "attributes")
        )
        return d.Index(
            name=self.text(spec, "name", path),
            kind=self.choice(spec, "kind", path, d.INDEX_KINDS, "global"),
            partition_key=self.key_attributes(
                spec.get("partition_key"), f"{path}.partition_key"
            ),
            sort_key=self.key_attributes(spec.get("sort_key"), f"{path}.sort_key"),
            projection=d.Projection(
                self.choice(
                    projection, "type", f"{path}.projection", d.PROJECTION_TYPES, "ALL"
                ),
                self.names(
                    projection.get("attributes"), f"{path}.projection.attributes"
                ),
            ),
            capacity=self.capacity(spec.get("capacity"), f"{path}.capacity"),
        )
