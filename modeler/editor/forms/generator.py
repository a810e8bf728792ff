"""The generator picker of the entity editor: a sample generator chosen by
kind and filled in field by field, written in the design file's syntax
(`{date: {from: "2025-01-01", to: "2026-06-30"}}`) for the attribute's
generator input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from modeler import design as d
from modeler.editor.forms.entity import generator_text, parse_generator


@dataclass(frozen=True)
class Kind:
    name: str
    label: str
    fields: tuple[str, ...]  # the picker's fields this kind uses
    example: str  # in the design file's syntax


KINDS = (
    Kind(
        "faker",
        "Faker: names, emails, addresses, words…",
        ("provider",),
        "{faker: email}",
    ),
    Kind(
        "choice",
        "One of some options, with weights",
        ("options",),
        "{choice: {OPEN: 1, SHIPPED: 4}}",
    ),
    Kind(
        "int", "A whole number in a range", ("low", "high"), "{int: {min: 1, max: 5}}"
    ),
    Kind(
        "decimal",
        "A decimal number in a range",
        ("low", "high", "places"),
        "{decimal: {min: 5, max: 2000, places: 2}}",
    ),
    Kind(
        "date",
        "A date (YYYY-MM-DD) in a range",
        ("start", "end"),
        '{date: {from: "2025-01-01", to: "2026-06-30"}}',
    ),
    Kind(
        "timestamp",
        "An ISO-8601 UTC time in a range",
        ("start", "end"),
        '{timestamp: {from: "2025-01-01", to: "2026-06-30"}}',
    ),
    Kind("ulid", "A ULID (26 characters, sorts by creation time)", (), "ulid"),
    Kind("uuid", "A random UUID (36 characters)", (), "uuid"),
    Kind(
        "sequence",
        "1, 2, 3… (within each parent for a child)",
        ("first", "width"),
        "{sequence: {start: 1, width: 0}}",
    ),
    Kind("bool", "true for a share of items", ("share",), "{bool: 0.05}"),
    Kind("constant", "Always the same value", ("value",), "{constant: EUR}"),
    Kind(
        "ref",
        "A copy of the parent's attribute",
        ("source",),
        "{ref: Customer.customerId}",
    ),
    Kind(
        "pick",
        "The attribute of a random item of another entity",
        ("source",),
        "{pick: User.userId}",
    ),
    Kind(
        "template",
        "Text built from the item's other attributes",
        ("template",),
        '{template: "{firstName}.{lastName}@example.com"}',
    ),
    Kind(
        "expires",
        "A TTL: epoch seconds some days after another attribute's time",
        ("moment", "days"),
        "{expires: {from: createdAt, days: 30}}",
    ),
)
BY_NAME = {kind.name: kind for kind in KINDS}
# Common Faker providers, offered as suggestions; any provider is accepted.
FAKER_PROVIDERS = (
    "name",
    "first_name",
    "last_name",
    "email",
    "user_name",
    "phone_number",
    "company",
    "job",
    "address",
    "street_address",
    "city",
    "country",
    "country_code",
    "postcode",
    "url",
    "word",
    "sentence",
    "paragraph",
    "color_name",
    "currency_code",
    "ipv4",
    "iban",
)


class GeneratorPickerForm(forms.Form):
    """The picker's fields. `kind` says which of the others apply; the
    generator they make is `generator()` (None with the form's errors when
    they do not make one)."""

    kind = forms.ChoiceField(
        label="Kind", choices=[(k.name, f"{k.name}: {k.label}") for k in KINDS]
    )
    provider = forms.CharField(label="Faker provider", required=False, max_length=80)
    options = forms.CharField(
        label="Options",
        required=False,
        max_length=2000,
        help_text="OPEN, SHIPPED or with weights OPEN: 1, SHIPPED: 4",
    )
    low = forms.DecimalField(label="From", required=False)
    high = forms.DecimalField(label="To", required=False)
    places = forms.IntegerField(
        label="Decimals", required=False, min_value=0, max_value=38
    )
    start = forms.CharField(label="From", required=False, max_length=40)
    end = forms.CharField(label="To", required=False, max_length=40)
    first = forms.IntegerField(label="Start at", required=False)
    width = forms.IntegerField(
        label="Zero-pad to", required=False, min_value=0, max_value=38
    )
    share = forms.FloatField(
        label="Share of true", required=False, min_value=0, max_value=1
    )
    value = forms.CharField(label="Value", required=False, max_length=400)
    source = forms.CharField(label="Entity.attribute", required=False, max_length=400)
    template = forms.CharField(label="Template", required=False, max_length=400)
    moment = forms.CharField(
        label="Counted from (attribute)", required=False, max_length=255
    )
    days = forms.DecimalField(
        label="Days after", required=False, min_value=0, max_value=36_500
    )

    @classmethod
    def for_generator(cls, generator: d.Generator | None) -> GeneratorPickerForm:
        """The picker showing `generator`'s kind and parameters."""
        if generator is None or generator.kind not in BY_NAME:
            return cls(initial={"kind": "faker", "provider": "word"})
        params = d.thaw(generator.params)
        value = params.get("value")
        initial: dict[str, Any] = {"kind": generator.kind}
        kind = generator.kind
        if kind == "faker":
            initial["provider"] = value or params.get("provider", "")
        elif kind == "choice":
            options = value if value is not None else params
            if isinstance(options, dict):
                initial["options"] = ", ".join(f"{k}: {w}" for k, w in options.items())
            elif isinstance(options, list):
                initial["options"] = ", ".join(str(o) for o in options)
        elif kind in ("int", "decimal"):
            initial.update(
                low=params.get("min"),
                high=params.get("max"),
                places=params.get("places"),
            )
        elif kind in ("date", "timestamp"):
            initial.update(start=params.get("from", ""), end=params.get("to", ""))
        elif kind == "sequence":
            initial.update(first=params.get("start"), width=params.get("width"))
        elif kind == "bool":
            initial["share"] = value if isinstance(value, (int, float)) else None
        elif kind == "constant":
            initial["value"] = "" if value is None else str(value)
        elif kind in ("ref", "pick"):
            initial["source"] = (
                value if isinstance(value, str) else params.get("from", "")
            )
        elif kind == "template":
            initial["template"] = value or ""
        elif kind == "expires":
            initial.update(moment=params.get("from", ""), days=params.get("days"))
        return cls(initial=initial)

    def generator(self) -> d.Generator | None:
        if not self.is_valid():
            return None
        c = self.cleaned_data
        kind = c["kind"]
        params: dict[str, Any] = {}

        def need(name: str, what: str) -> Any:
            if c.get(name) in (None, ""):
                self.add_error(name, f"{BY_NAME[kind].name} needs {what}.")
            return c.get(name)

        if kind == "faker":
            params["value"] = need("provider", "a provider such as email")
        elif kind == "choice":
            params = _options(need("options", "at least one option") or "")
        elif kind in ("int", "decimal"):
            low, high = need("low", "the lowest value"), need("high", "the highest")
            if low is not None and high is not None:
                if low > high:
                    self.add_error("high", "To is below From.")
                as_number = int if kind == "int" else float
                params = {"min": as_number(low), "max": as_number(high)}
                if kind == "decimal" and c.get("places") is not None:
                    params["places"] = c["places"]
        elif kind in ("date", "timestamp"):
            params = {
                "from": need("start", "the first date"),
                "to": need("end", "the last date"),
            }
        elif kind == "sequence":
            if c.get("first") is not None:
                params["start"] = c["first"]
            if c.get("width"):
                params["width"] = c["width"]
        elif kind == "bool":
            if c.get("share") is not None:
                params["value"] = c["share"]
        elif kind == "constant":
            params["value"] = c.get("value", "")
        elif kind in ("ref", "pick"):
            params["value"] = need(
                "source", "the entity and attribute, such as User.userId"
            )
        elif kind == "template":
            params["value"] = need(
                "template", "a template such as {firstName}-{lastName}"
            )
        elif kind == "expires":
            days = need("days", "the number of days the item lives")
            source = need("moment", "the attribute it counts from, such as createdAt")
            if days is not None:
                params = {
                    "from": source,
                    "days": int(days) if days == int(days) else float(days),
                }
        if self.errors:
            return None
        return d.Generator(kind, d.freeze(params))

    def text(self) -> str:
        """The generator as the design file writes it, '' if none."""
        generator = self.generator()
        return generator_text(generator) if generator else ""


def _options(text: str) -> dict[str, Any]:
    """`A, B` (equal weights) or `A: 1, B: 4` as choice's parameters."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if parts and all(":" in part for part in parts):
        weights: dict[str, Any] = {}
        for part in parts:
            option, _, weight = part.rpartition(":")
            try:
                weights[option.strip()] = (
                    float(weight) if "." in weight else int(weight)
                )
            except ValueError:
                weights[part] = 1
        return weights
    return {"value": parts}


def current_generator(text: str) -> d.Generator | None:
    """The generator typed in an attribute's input, None if blank or not
    one (the picker then starts from the default)."""
    try:
        return parse_generator(text)
    except forms.ValidationError:
        return None
