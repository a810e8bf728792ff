"""The table of a design described once, in DynamoDB's own terms, for the
infrastructure exporters: they all write the same key schema, attribute
definitions, indexes and settings, so they describe the same table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d

# Application Auto Scaling: the utilisation it keeps by default.
DEFAULT_TARGET_UTILISATION = 70


@dataclass(frozen=True)
class ScalingTarget:
    """One provisioned dimension that Application Auto Scaling tracks."""

    label: str  # unique, identifier-safe: table_read, index_gsi1_write
    index: str  # "" for the table
    dimension: str  # "read" or "write"
    min_capacity: int
    max_capacity: int
    # The utilisation it keeps; None for the export's variable (the design
    # leaves auto scaling to the export's default).
    target: int | None = None
    # The policy's cooldowns (None: Application Auto Scaling's default) and
    # whether it never scales in.
    scale_in_cooldown: int | None = None
    scale_out_cooldown: int | None = None
    disable_scale_in: bool = False

    @property
    def scalable_dimension(self) -> str:
        level = "index" if self.index else "table"
        unit = "ReadCapacityUnits" if self.dimension == "read" else "WriteCapacityUnits"
        return f"dynamodb:{level}:{unit}"

    @property
    def metric(self) -> str:
        kind = "Read" if self.dimension == "read" else "Write"
        return f"DynamoDB{kind}CapacityUtilization"


def policy_configuration(policy: d.ScalingRange | ScalingTarget) -> dict[str, Any]:
    """A target tracking policy's settings beside its target value where the
    design gives them (the others are Application Auto Scaling's defaults),
    by CloudFormation's and the API's names."""
    out: dict[str, Any] = {}
    if policy.disable_scale_in:
        out["DisableScaleIn"] = True
    if policy.scale_in_cooldown is not None:
        out["ScaleInCooldown"] = policy.scale_in_cooldown
    if policy.scale_out_cooldown is not None:
        out["ScaleOutCooldown"] = policy.scale_out_cooldown
    return out


def attribute_definitions(table: d.Table) -> list[d.KeyAttribute]:
    """Exactly the attributes that some key of the table or an index uses,
    in the order they first appear (DynamoDB refuses any other)."""
    return list(table.all_key_attributes())


def identifier(text: str) -> str:
    """A Terraform/CloudFormation-safe identifier made from a name."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", text).strip("_") or "table"
    return cleaned if not cleaned[0].isdigit() else f"t_{cleaned}"


def logical_id(text: str) -> str:
    """An alphanumeric CloudFormation logical id part made from a name."""
    parts = re.split(r"[^A-Za-z0-9]+", text)
    return "".join(p[:1].upper() + p[1:] for p in parts if p) or "Index"


def scaling_targets(table: d.Table) -> list[ScalingTarget]:
    """The auto-scaled dimensions of a provisioned table and its GSIs: the
    design's ranges where it gives them, none where it turns auto scaling
    off, else each capacity from its units to `d.default_max_capacity` at the
    export's target utilisation."""
    if table.billing_mode != "PROVISIONED":
        return []
    targets: list[ScalingTarget] = []
    used: set[str] = set()

    def add(index: str, capacity: d.Capacity | None) -> None:
        if capacity is None:
            return
        base = f"index_{identifier(index).lower()}" if index else "table"
        while base in used:
            base += "_"
        used.add(base)
        for dimension in ("read", "write"):
            r = capacity.scaling(dimension)
            if r is not None:
                targets.append(
                    ScalingTarget(
                        f"{base}_{dimension}",
                        index,
                        dimension,
                        r.minimum,
                        r.maximum,
                        # The default leaves the target to the export's variable.
                        r.target if capacity.auto_scaling is not None else None,
                        r.scale_in_cooldown,
                        r.scale_out_cooldown,
                        r.disable_scale_in,
                    )
                )

    add("", table.capacity)
    for index in table.indexes:
        if index.is_global:
            add(index.name, index.capacity)
    return targets


def is_kms_arn(key: str) -> bool:
    return key.startswith("arn:")
