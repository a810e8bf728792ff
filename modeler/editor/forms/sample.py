"""How many sample items an entity has, as its form asks for it: a fixed
number, a uniform or a Zipf count, in all or per parent item, with hot
parents that get an outsized share of the children."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from modeler.design import model as d


class SampleFields(forms.Form):
    """The fields; a form that has them calls `clean_sample` and
    `sample_field_for`, and writes them with `sample_initial` and reads
    them with `sample_of`."""

    sample_per = forms.ChoiceField(
        required=False,
        label="Sample items are made",
        help_text="Children (orders of a customer) are made per item of their "
        "parent, and can copy its values with {ref: Parent.attribute}.",
    )
    sample_distribution = forms.ChoiceField(
        choices=[
            ("fixed", "A fixed number"),
            ("uniform", "Uniform, from min to max"),
            ("zipf", "Zipf: most few, some many"),
        ],
        initial="fixed",
        label="How many",
        help_text="In all, or per parent item.",
    )
    sample_count = forms.IntegerField(
        required=False, min_value=0, max_value=1_000_000, label="Number"
    )
    sample_min = forms.IntegerField(
        required=False, min_value=0, max_value=1_000_000, label="Min"
    )
    sample_max = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=1_000_000,
        label="Max",
        help_text="Uniform: the most; Zipf: the cap, at least 1.",
    )
    sample_s = forms.FloatField(
        required=False,
        min_value=0,
        max_value=100,
        label="Exponent s",
        help_text="Above 0; 1.2 if empty. Larger: more skewed.",
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": "1.2"}),
    )
    hot_keys = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=1_000_000,
        label="Hot parents",
        help_text="The first N parents get an outsized share of the children.",
    )
    hot_share = forms.FloatField(
        required=False,
        min_value=0,
        max_value=1,
        label="Their share",
        help_text="A fraction from 0 to 1: 0.2 is 20% of all the children.",
        widget=forms.NumberInput(attrs={"step": "any", "placeholder": "0.2"}),
    )

    def clean_sample(self, data: dict[str, Any]) -> None:
        """The sample settings' rules of the design file and its check."""
        check = {
            "fixed": self._check_fixed,
            "uniform": self._check_uniform,
            "zipf": self._check_zipf,
        }.get(data.get("sample_distribution") or "")
        if check is not None:
            check(data)
        hot_keys, hot_share = data.get("hot_keys"), data.get("hot_share")
        if hot_keys and not data.get("sample_per"):
            self.add_error(
                "hot_keys",
                "Hot keys skew children toward some parents: choose the parent "
                "the items are made per.",
            )
        if hot_share and not hot_keys:
            self.add_error("hot_keys", "How many parents are hot (1 or more).")

    def _missing(self, field: str, data: dict[str, Any], message: str) -> None:
        """`message` on `field` when it is empty and has no error yet."""
        if data.get(field) is None and field not in self.errors:
            self.add_error(field, message)

    def _check_fixed(self, data: dict[str, Any]) -> None:
        self._missing(
            "sample_count", data, "How many items: a whole number of 0 or more."
        )

    def _check_uniform(self, data: dict[str, Any]) -> None:
        low, high = data.get("sample_min"), data.get("sample_max")
        self._missing("sample_min", data, "A uniform count needs its min.")
        self._missing("sample_max", data, "A uniform count needs its max.")
        if low is not None and high is not None and high < low:
            self.add_error(
                "sample_max", f"The max ({high}) is less than the min ({low})."
            )

    def _check_zipf(self, data: dict[str, Any]) -> None:
        high, s = data.get("sample_max"), data.get("sample_s")
        if (high is None or high < 1) and "sample_max" not in self.errors:
            self.add_error("sample_max", "A Zipf count needs a max of 1 or more.")
        if s is not None and s <= 0:
            self.add_error("sample_s", "The exponent must be above 0.")

    def sample_field_for(self, rest: str) -> str:
        """The field of a problem at `entities.X.sample<rest>`."""
        if rest.startswith(".count"):
            return {
                "uniform": "sample_min" if "min" in rest else "sample_max",
                "zipf": "sample_s" if rest.endswith(".s") else "sample_max",
            }.get(self.raw_distribution(), "sample_count")
        if rest == ".hot.share":
            return "hot_share"
        if rest.startswith(".hot"):
            return "hot_keys"
        return "sample_per"

    def raw_distribution(self) -> str:
        return self.data.get(self.add_prefix("sample_distribution")) or ""


def sample_initial(sample: d.SampleSettings) -> dict[str, Any]:
    """The form's sample fields for an entity's sample settings."""
    count = sample.count
    return {
        "sample_per": sample.per,
        "sample_distribution": count.distribution,
        "sample_count": count.value if count.distribution == "fixed" else None,
        "sample_min": count.low if count.distribution == "uniform" else None,
        "sample_max": count.high if count.distribution != "fixed" else None,
        "sample_s": count.s if count.distribution == "zipf" else None,
        "hot_keys": sample.hot_keys or None,
        "hot_share": sample.hot_share or None,
    }


def sample_of(
    values: Mapping[str, Any], previous: d.SampleSettings
) -> d.SampleSettings:
    """The sample settings the fields' values describe (cleaned, or as
    typed so far: a count that does not parse keeps the previous one)."""
    per = values.get("sample_per")
    return d.SampleSettings(
        count=_count(values) or previous.count,
        per=per if isinstance(per, str) else previous.per,
        hot_keys=values.get("hot_keys") or 0,
        hot_share=values.get("hot_share") or 0.0,
    )


def _count(values: Mapping[str, Any]) -> d.Count | None:
    distribution = values.get("sample_distribution")
    high = values.get("sample_max")
    if distribution == "fixed":
        value = values.get("sample_count")
        return d.Count("fixed", value=value) if value is not None else None
    if distribution == "uniform":
        low = values.get("sample_min")
        if low is None or high is None:
            return None
        return d.Count("uniform", low=low, high=high)
    if distribution == "zipf" and high is not None:
        s = values.get("sample_s")
        return d.Count("zipf", high=high, s=s if s is not None else 1.2)
    return None
