"""Auto scaling found beside an imported table (scalable targets and their
target tracking policies), applied to the design's capacity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from modeler.design import model as d
from modeler.design.model import default_max_capacity
from modeler.exporters.tabledef import DEFAULT_TARGET_UTILISATION as DEFAULT_TARGET
from modeler.importers.table_values import cooldown_seconds, loose_boolean, whole_number

# A target tracking policy's settings beside its target value, by their
# CloudFormation (and API) names, and the design's.
POLICY_SETTINGS = {
    "ScaleInCooldown": "scale_in_cooldown",
    "ScaleOutCooldown": "scale_out_cooldown",
    "DisableScaleIn": "disable_scale_in",
}


@dataclass(frozen=True)
class Scaling:
    """An Application Auto Scaling target of a table or one of its GSIs,
    with the target utilisation of its policy (None when it has none) and
    the policy's other settings (POLICY_SETTINGS, as the file gives them)."""

    dimension: str  # dynamodb:table:ReadCapacityUnits, dynamodb:index:...
    index: str  # "" for the table
    minimum: Any
    maximum: Any
    target: Any = None
    policy: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(
        cls,
        resource_id: str,
        dimension: Any,
        minimum: Any,
        maximum: Any,
        target: Any,
        policy: dict[str, Any] | None = None,
    ) -> Scaling:
        """A target from its ResourceId as the file writes it
        (`table/${Table}/index/GSI1`, `table/${aws_dynamodb_table.t.name}`)."""
        index = re.search(r"/index/([^\"/$]+)", resource_id)
        return cls(
            str(dimension or ""),
            index.group(1) if index else "",
            minimum,
            maximum,
            target,
            policy_settings(policy),
        )

    @property
    def unit(self) -> str:
        return "read" if "Read" in self.dimension else "write"


def policy_settings(config: Any) -> tuple[tuple[str, Any], ...]:
    """The POLICY_SETTINGS a policy's configuration (in CloudFormation's
    names) gives."""
    if not isinstance(config, dict):
        return ()
    return tuple((name, config[name]) for name in POLICY_SETTINGS if name in config)


def _range_settings(scaling: Scaling, what: str, notes: list[str]) -> dict[str, Any]:
    """A policy's settings as the design's range holds them: cooldowns in
    whole seconds, scale-in disabled or not. A value that is neither is
    left out with a note (Application Auto Scaling's default stands)."""
    out: dict[str, Any] = {}
    for name, value in scaling.policy:
        if name == "DisableScaleIn":
            flag = loose_boolean(value)
            if isinstance(flag, bool):
                if flag:
                    out["disable_scale_in"] = True
                continue
        else:
            seconds = cooldown_seconds(value)
            if seconds is not None:
                out[POLICY_SETTINGS[name]] = seconds
                continue
        notes.append(
            f"{name} of {what}'s {scaling.unit}s left out: expected "
            + ("true or false" if name == "DisableScaleIn" else "whole seconds")
            + f", found {value!r}"
        )
    return out


def apply_scaling(
    table: dict[str, Any], scalings: list[Scaling], *, indexes: bool = True
) -> list[str]:
    """The file's auto scaling kept in the design document's table: per
    provisioned capacity (the table's, each GSI's) a range per dimension,
    `false` for a dimension the file does not scale. Ranges that are the
    exports' default (from the capacity to ten times it, at 70%) are left to
    it; without `indexes`, the GSIs' are left to it too (a file that cannot
    hold theirs). Returns the notes that say what was kept and what was
    not."""
    billing = table.get("billing", {})
    if billing.get("mode") != "PROVISIONED":
        return (
            ["auto scaling targets left out: the table is on-demand"]
            if scalings
            else []
        )
    homes: dict[str, dict[str, Any]] = {"": billing}
    for index in table.get("indexes", []) if indexes else ():
        if isinstance(index.get("capacity"), dict):
            homes[index["name"]] = index["capacity"]
    notes: list[str] = []
    ranges: dict[str, dict[str, dict[str, int]]] = {}
    for scaling in scalings:
        what = f"GSI {scaling.index}" if scaling.index else "the table"
        if scaling.index not in homes:
            notes.append(
                f"auto scaling of {what} left out: the table has no such GSI "
                "with capacity of its own"
            )
            continue
        target = (
            DEFAULT_TARGET if scaling.target is None else whole_number(scaling.target)
        )
        minimum = whole_number(scaling.minimum)
        maximum = whole_number(scaling.maximum)
        if minimum is None or maximum is None or target is None:
            notes.append(
                f"auto scaling of {what}'s {scaling.unit}s left out: expected whole "
                f"numbers, found min {scaling.minimum!r}, max {scaling.maximum!r}, "
                f"target {scaling.target!r}"
            )
            continue
        if scaling.target is None:
            notes.append(
                f"auto scaling of {what}'s {scaling.unit}s has no target tracking "
                f"policy; {DEFAULT_TARGET}% is used"
            )
        ranges.setdefault(scaling.index, {})[scaling.unit] = {
            "min": minimum,
            "max": maximum,
            "target": target,
            **_range_settings(scaling, what, notes),
        }
    kept = []
    for home, capacity in homes.items():
        what = f"GSI {home}" if home else "the table"
        found = ranges.get(home, {})
        default = {
            unit: {
                "min": capacity[unit],
                "max": default_max_capacity(capacity[unit]),
                "target": DEFAULT_TARGET,
            }
            for unit in ("read", "write")
            if isinstance(capacity.get(unit), int)
        }
        if found == default and len(found) == 2:
            kept.append(
                f"{what}: the exports' default (from the capacity to ten times it)"
            )
            continue
        if not found:
            capacity["auto_scaling"] = False
            kept.append(f"{what}: none (the capacity stays as provisioned)")
            continue
        capacity["auto_scaling"] = {
            unit: found.get(unit, False) for unit in ("read", "write")
        }
        kept.append(
            f"{what}: "
            + ", ".join(
                f"{unit}s {r['min']} to {r['max']} units at {r['target']}%"
                + (f" ({policy})" if (policy := _policy_text(r)) else "")
                if (r := found.get(unit))
                else f"{unit}s not scaled"
                for unit in ("read", "write")
            )
        )
    notes.insert(0, "auto scaling kept: " + "; ".join(kept))
    return notes


def _policy_text(found: dict[str, Any]) -> str:
    """A range's policy settings in the words the pages use."""
    return d.ScalingRange(
        found["min"],
        found["max"],
        scale_in_cooldown=found.get("scale_in_cooldown"),
        scale_out_cooldown=found.get("scale_out_cooldown"),
        disable_scale_in=found.get("disable_scale_in", False),
    ).policy_text
