"""The generator picker of the entity editor: a sample generator chosen by
kind and filled in field by field, written in the design file's syntax
(`{date: {from: "2025-01-01", to: "2026-06-30"}}`) for the attribute's
generator input."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms

from modeler.design import model as d
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
        ("source", "skew", "partner"),
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
    skew = forms.FloatField(
        label="Zipf skew (s)",
        required=False,
        min_value=0,
        max_value=10,
        help_text="0 or empty: every item as likely; above 0, a few items drawn often",
    )
    partner = forms.CharField(
        label="From the item drawn for (attribute)",
        required=False,
        max_length=255,
        help_text="Another pick of this entity: both name one row, as the "
        "columns of a composite foreign key do",
    )
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
        fields = _INITIAL.get(generator.kind)
        initial = fields(params, params.get("value")) if fields else {}
        return cls(initial={"kind": generator.kind, **initial})

    def generator(self) -> d.Generator | None:
        if not self.is_valid():
            return None
        kind = self.cleaned_data["kind"]
        build = _PARAMS.get(kind)
        params = build(self) if build else {}
        if self.errors:
            return None
        return d.Generator(kind, d.freeze(params))

    def need(self, name: str, what: str) -> Any:
        """A field's value; an error on it when empty."""
        value = self.cleaned_data.get(name)
        if value in (None, ""):
            self.add_error(
                name, f"{BY_NAME[self.cleaned_data['kind']].name} needs {what}."
            )
        return value

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


# Each kind's picker fields from its parameters (`value`: the parameter
# written without a name, `{faker: email}`), and back.


def _choice_initial(params: dict[str, Any], value: Any) -> dict[str, Any]:
    options = value if value is not None else params
    if isinstance(options, dict):
        return {"options": ", ".join(f"{k}: {w}" for k, w in options.items())}
    if isinstance(options, list):
        return {"options": ", ".join(str(o) for o in options)}
    return {}


_INITIAL: dict[str, Callable[[dict[str, Any], Any], dict[str, Any]]] = {
    "faker": lambda p, v: {"provider": v or p.get("provider", "")},
    "choice": _choice_initial,
    "int": lambda p, v: {"low": p.get("min"), "high": p.get("max")},
    "decimal": lambda p, v: {
        "low": p.get("min"),
        "high": p.get("max"),
        "places": p.get("places"),
    },
    "date": lambda p, v: {"start": p.get("from", ""), "end": p.get("to", "")},
    "timestamp": lambda p, v: {"start": p.get("from", ""), "end": p.get("to", "")},
    "sequence": lambda p, v: {"first": p.get("start"), "width": p.get("width")},
    "bool": lambda p, v: {"share": v if isinstance(v, (int, float)) else None},
    "constant": lambda p, v: {"value": "" if v is None else str(v)},
    "ref": lambda p, v: {"source": v if isinstance(v, str) else p.get("from", "")},
    "pick": lambda p, v: {
        "source": v if isinstance(v, str) else p.get("from", ""),
        "skew": p.get("s"),
        "partner": p.get("with", ""),
    },
    "template": lambda p, v: {"template": v or ""},
    "expires": lambda p, v: {"moment": p.get("from", ""), "days": p.get("days")},
}


def _range_params(form: GeneratorPickerForm) -> dict[str, Any]:
    low, high = form.need("low", "the lowest value"), form.need("high", "the highest")
    if low is None or high is None:
        return {}
    if low > high:
        form.add_error("high", "To is below From.")
    kind = form.cleaned_data["kind"]
    as_number = int if kind == "int" else float
    params = {"min": as_number(low), "max": as_number(high)}
    places = form.cleaned_data.get("places")
    if kind == "decimal" and places is not None:
        params["places"] = places
    return params


def _sequence_params(form: GeneratorPickerForm) -> dict[str, Any]:
    first, width = form.cleaned_data.get("first"), form.cleaned_data.get("width")
    return {
        **({"start": first} if first is not None else {}),
        **({"width": width} if width else {}),
    }


def _expires_params(form: GeneratorPickerForm) -> dict[str, Any]:
    days = form.need("days", "the number of days the item lives")
    source = form.need("moment", "the attribute it counts from, such as createdAt")
    if days is None:
        return {}
    return {"from": source, "days": int(days) if days == int(days) else float(days)}


def _dates(form: GeneratorPickerForm) -> dict[str, Any]:
    return {
        "from": form.need("start", "the first date"),
        "to": form.need("end", "the last date"),
    }


def _share(form: GeneratorPickerForm) -> dict[str, Any]:
    share = form.cleaned_data.get("share")
    return {"value": share} if share is not None else {}


def _source(form: GeneratorPickerForm) -> dict[str, Any]:
    return {
        "value": form.need("source", "the entity and attribute, such as User.userId")
    }


def _pick_params(form: GeneratorPickerForm) -> dict[str, Any]:
    """`{pick: User.userId}`, or with a skew or a partner pick
    `{pick: {from: Store.region, s: 1.1, with: storeNo}}`."""
    source = _source(form)["value"]
    skew = form.cleaned_data.get("skew")
    partner = (form.cleaned_data.get("partner") or "").strip()
    if not skew and not partner:
        return {"value": source}
    return (
        {"from": source}
        | ({"s": skew} if skew else {})
        | ({"with": partner} if partner else {})
    )


_PARAMS: dict[str, Callable[[GeneratorPickerForm], dict[str, Any]]] = {
    "faker": lambda f: {"value": f.need("provider", "a provider such as email")},
    "choice": lambda f: _options(f.need("options", "at least one option") or ""),
    "int": _range_params,
    "decimal": _range_params,
    "date": _dates,
    "timestamp": _dates,
    "sequence": _sequence_params,
    "bool": _share,
    "constant": lambda f: {"value": f.cleaned_data.get("value", "")},
    "ref": _source,
    "pick": _pick_params,
    "template": lambda f: {
        "value": f.need("template", "a template such as {firstName}-{lastName}")
    },
    "expires": _expires_params,
}
