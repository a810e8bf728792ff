"""Auto scaling of a provisioned capacity (the table's or a GSI's), as the
table and index forms ask for it: the exports' default, a range per
dimension with its policy's cooldowns and scale-in, or none."""

from __future__ import annotations

from typing import Any

from django import forms

from modeler.design import model as d

DEFAULT, CUSTOM, OFF = "default", "custom", "off"
DIMENSIONS = (("read", "RCU"), ("write", "WCU"))


class ScalingFields(forms.Form):
    """The fields; a form that has them calls `scaling_initial`,
    `clean_scaling` and `scaling`."""

    auto_scaling = forms.ChoiceField(
        choices=[
            (DEFAULT, "From the capacity to 10 times it (default)"),
            (CUSTOM, "A range of my own"),
            (OFF, "Off: the capacity stays as provisioned"),
        ],
        required=False,
        label="Auto scaling",
    )
    read_min = forms.IntegerField(
        required=False, min_value=1, max_value=d.MAX_AUTO_SCALED_UNITS, label="Read min"
    )
    read_max = forms.IntegerField(
        required=False, min_value=1, max_value=d.MAX_AUTO_SCALED_UNITS, label="Read max"
    )
    read_target = forms.IntegerField(
        required=False, min_value=20, max_value=90, label="Read target %"
    )
    write_min = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=d.MAX_AUTO_SCALED_UNITS,
        label="Write min",
    )
    write_max = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=d.MAX_AUTO_SCALED_UNITS,
        label="Write max",
    )
    write_target = forms.IntegerField(
        required=False,
        min_value=20,
        max_value=90,
        label="Write target %",
    )
    # The target tracking policy's settings; empty cooldowns are Application
    # Auto Scaling's default (none for DynamoDB).
    read_scale_in_cooldown = forms.IntegerField(
        required=False, min_value=0, label="Read scale-in cooldown (s)"
    )
    read_scale_out_cooldown = forms.IntegerField(
        required=False, min_value=0, label="Read scale-out cooldown (s)"
    )
    read_disable_scale_in = forms.BooleanField(
        required=False, label="Reads never scale in"
    )
    write_scale_in_cooldown = forms.IntegerField(
        required=False, min_value=0, label="Write scale-in cooldown (s)"
    )
    write_scale_out_cooldown = forms.IntegerField(
        required=False, min_value=0, label="Write scale-out cooldown (s)"
    )
    write_disable_scale_in = forms.BooleanField(
        required=False, label="Writes never scale in"
    )

    @staticmethod
    def scaling_initial(capacity: d.Capacity | None) -> dict[str, Any]:
        scaling = capacity.auto_scaling if capacity else None
        if scaling is None:
            initial: dict[str, Any] = {"auto_scaling": DEFAULT}
        elif scaling == d.AUTO_SCALING_OFF:
            initial = {"auto_scaling": OFF}
        else:
            initial = {"auto_scaling": CUSTOM}
        for name, _ in DIMENSIONS:
            r = getattr(scaling, name) if scaling else None
            initial[f"{name}_min"] = r.minimum if r else None
            initial[f"{name}_max"] = r.maximum if r else None
            initial[f"{name}_target"] = r.target if r else None
            initial[f"{name}_scale_in_cooldown"] = r.scale_in_cooldown if r else None
            initial[f"{name}_scale_out_cooldown"] = r.scale_out_cooldown if r else None
            initial[f"{name}_disable_scale_in"] = r.disable_scale_in if r else False
        return initial

    def clean_scaling(self, data: dict[str, Any]) -> None:
        """A custom range needs both ends of each scaled dimension, the
        minimum at most the maximum, and one dimension at least."""
        if data.get("auto_scaling") != CUSTOM:
            return
        scaled = 0
        for name, _ in DIMENSIONS:
            low, high = data.get(f"{name}_min"), data.get(f"{name}_max")
            if low is None and high is None:
                continue
            scaled += 1
            if low is None:
                self.add_error(f"{name}_min", "Give the minimum too.")
            elif high is None:
                self.add_error(f"{name}_max", "Give the maximum too.")
            elif low > high:
                self.add_error(
                    f"{name}_max", f"The maximum must be at least the minimum ({low})."
                )
        if not scaled:
            self.add_error(
                "auto_scaling",
                "Give a minimum and maximum for reads or writes, or choose Off.",
            )

    def scaling(self) -> d.AutoScaling | None:
        data = self.cleaned_data
        choice = data.get("auto_scaling") or DEFAULT
        if choice == DEFAULT:
            return None
        if choice == OFF:
            return d.AUTO_SCALING_OFF
        ranges = {}
        for name, _ in DIMENSIONS:
            low, high = data.get(f"{name}_min"), data.get(f"{name}_max")
            ranges[name] = (
                d.ScalingRange(
                    low,
                    high,
                    data.get(f"{name}_target") or 70,
                    data.get(f"{name}_scale_in_cooldown"),
                    data.get(f"{name}_scale_out_cooldown"),
                    bool(data.get(f"{name}_disable_scale_in")),
                )
                if low is not None and high is not None
                else None
            )
        return d.AutoScaling(**ranges)
