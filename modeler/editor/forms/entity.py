"""One entity: its attributes (rows of name, type, generator...), its key
templates in the table and each index, and how many sample items it has."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from django import forms

from modeler import design as d
from modeler.design_check import MAX_CONDITION, MAX_TEMPLATE
from modeler.designfile import YamlStructureError, check_yaml_structure

# The design file's own reading of YAML values (dates kept as the ISO text
# written), so a generator typed here stores exactly as one imported.
from modeler.designfile import _plain as plain_yaml_value
from modeler.editor.forms.common import (
    ATTRIBUTE_NAME,
    ATTRIBUTE_TYPE_CHOICES,
    BLANK_ROWS,
    DESCRIPTION_MAX_CHARS,
    ENTITY_NAME,
    GENERATOR_MAX_CHARS,
    MAX_ROWS,
    Choices,
    VersionedForm,
    _row_count,
)
from modeler.kept import Kept
from modeler.keys import (
    ConditionSyntaxError,
    TemplateSyntaxError,
    parse_condition,
    parse_template,
)

# --- Entities -------------------------------------------------------------------


# Generators written and read as text, by their content: each row of the
# entity editor writes its generator through YAML, and each save and each
# keystroke of the live preview reads every row's back.
_texts: Kept[str] = Kept(1024)
_generators: Kept[d.Generator] = Kept(1024)


def generator_text(generator: d.Generator | None) -> str:
    """A generator as the design file writes it, on one line: `ulid`,
    `{faker: email}`, `{int: {min: 1, max: 9}}`."""
    if generator is None:
        return ""
    if not generator.params:
        return generator.kind
    key = repr(generator)
    text = _texts.get(key)
    if text is None:
        text = _generator_text(generator)
        _texts.put(key, text)
    return text


def _generator_text(generator: d.Generator) -> str:
    params = d.thaw(generator.params)
    if set(params) == {"value"}:
        params = params["value"]
    text = yaml.safe_dump(
        {generator.kind: params}, default_flow_style=True, width=10_000
    )
    return text.strip()


def parse_generator(text: str) -> d.Generator | None:
    """The inverse of `generator_text`; raises ValidationError with what
    was expected."""
    text = text.strip()
    if not text:
        return None
    generator = _generators.get(text)
    if generator is None:
        generator = _parse_generator(text)
        _generators.put(text, generator)
    return generator


def _parse_generator(text: str) -> d.Generator:
    if len(text) > GENERATOR_MAX_CHARS:
        raise forms.ValidationError(
            f"At most {GENERATOR_MAX_CHARS} characters, found {len(text)}."
        )
    try:
        # Aliases and deep nesting refused as in a design file, before the
        # text is built: 2,000 characters of aliases made ten million values
        # (15 s of CPU), and 1,000 brackets a RecursionError.
        check_yaml_structure(text, what="a generator")
    except YamlStructureError as exc:
        raise forms.ValidationError(f"Not a generator: {exc}.") from None
    except yaml.YAMLError as exc:
        if "aliases (*name)" in str(exc):
            raise forms.ValidationError(
                "Not a generator: aliases (*name) are not allowed."
            ) from None
        # Broken YAML: said below where PyYAML's own parser finds it.
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at column {mark.column + 1}" if mark else ""
        raise forms.ValidationError(
            f"Not a generator{where}: write a name such as ulid, or "
            "{kind: parameters} such as {int: {min: 1, max: 9}}."
        ) from None
    data = plain_yaml_value(data)
    if isinstance(data, str):
        return d.Generator(data)
    if isinstance(data, dict) and len(data) == 1:
        kind, params = next(iter(data.items()))
        if not isinstance(params, dict):
            params = {"value": params}
        return d.Generator(str(kind), d.freeze(params))
    raise forms.ValidationError(
        "Expected one generator: a name such as ulid, or {kind: parameters} "
        "such as {faker: email}."
    )


@dataclass(frozen=True)
class KeySlot:
    """One key attribute of the table or an index, as an entity sees it."""

    attribute: d.KeyAttribute
    index: str  # "table" or the index name
    role: str  # "partition key" / "sort key"
    is_table_key: bool
    shared_with: str = ""  # another index using the same attribute


def key_slots(table: d.Table) -> list[KeySlot]:
    """Every distinct key attribute of the table and its indexes, in order,
    with where it is first used."""
    slots: dict[str, KeySlot] = {}
    places = [
        ("table", (table.partition_key,), (table.sort_key,) if table.sort_key else ())
    ]
    places += [
        (i.name, i.partition_key if i.is_global else (), i.sort_key)
        for i in table.indexes
    ]
    for index_name, partition, sort in places:
        for role, attrs in (("partition key", partition), ("sort key", sort)):
            for attr in attrs:
                if attr.name in slots:
                    slot = slots[attr.name]
                    if not slot.shared_with:
                        slots[attr.name] = KeySlot(
                            slot.attribute,
                            slot.index,
                            slot.role,
                            slot.is_table_key,
                            index_name,
                        )
                    continue
                slots[attr.name] = KeySlot(
                    attr, index_name, role, index_name == "table"
                )
    return list(slots.values())


KEY_TEMPLATE, KEY_WHEN, KEY_ABSENT = "template", "when", "absent"
TABLE_KEY_MODES = Choices([(KEY_TEMPLATE, "Template")])
INDEX_KEY_MODES = Choices(
    [*TABLE_KEY_MODES, (KEY_WHEN, "Only while…"), (KEY_ABSENT, "Not in the index")]
)
ATTRIBUTE_TYPES = Choices(ATTRIBUTE_TYPE_CHOICES)


@dataclass
class AttributeRow:
    index: int
    name: forms.BoundField
    type: forms.BoundField
    required: forms.BoundField
    generator: forms.BoundField
    example: forms.BoundField
    delete: forms.BoundField
    original: forms.BoundField
    presence: forms.BoundField
    max_length: forms.BoundField
    description: forms.BoundField

    @property
    def has_more(self) -> bool:
        """Whether the row's less used settings hold a value or an error
        (its disclosure opens then)."""
        return any(
            f.errors or f.value() not in (None, "")
            for f in (self.presence, self.max_length, self.description)
        )

    @property
    def more_summary(self) -> str:
        """What the row's less used settings hold, in a few words."""
        parts = []
        presence, length = self.presence.value(), self.max_length.value()
        if presence not in (None, ""):
            parts.append(f"on {presence} of items")
        if length not in (None, ""):
            parts.append(f"≤ {length} chars")
        if self.description.value():
            parts.append("described")
        return ", ".join(parts) or "details…"


@dataclass
class KeyRow:
    slot: KeySlot
    mode: forms.BoundField
    template: forms.BoundField
    when: forms.BoundField
    alias: str = ""  # the key's name in a NoSQL Workbench model


class EntityCreateForm(VersionedForm):
    name = forms.CharField(
        max_length=64,
        label="Entity name",
        help_text="Letters, digits and '_', starting with a letter: "
        "Customer, LineItem.",
        widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not ENTITY_NAME.match(name):
            raise forms.ValidationError(
                f"'{name}' is not an entity name: letters, digits and '_', "
                "starting with a letter, at most 64."
            )
        return name

    def to_entity(self) -> d.Entity:
        return d.Entity(name=self.cleaned_data["name"])


class EntityForm(EntityCreateForm):
    """An entity's name, description, attributes and key templates, saved
    together. The `example` column is a scratch value for the live preview;
    it is not part of the design."""

    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
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

    def __init__(
        self,
        *args: Any,
        table: d.Table,
        entity: d.Entity | None = None,
        rows: int | None = None,
        entity_names: Iterable[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.entity = entity
        self.slots = key_slots(table)
        others = [n for n in entity_names if not entity or n != entity.name]
        self.fields["sample_per"].choices = [("", "as roots (in all)")] + [
            (n, f"per {n}") for n in others
        ]
        if rows is None:
            if self.is_bound:
                rows = _row_count(self.data, "attr-", "-name")
            else:
                rows = len(entity.attributes) if entity else 0
            rows += BLANK_ROWS if rows else 4  # a new entity gets room to start
        self.rows = min(rows, MAX_ROWS)
        for i in range(self.rows):
            self.fields[f"attr-{i}-name"] = forms.CharField(
                max_length=255,
                required=False,
                label="Name",
                widget=forms.TextInput(
                    attrs={
                        "class": "code attr-name",
                        "spellcheck": "false",
                        "autocomplete": "off",
                    }
                ),
            )
            self.fields[f"attr-{i}-type"] = forms.ChoiceField(
                choices=ATTRIBUTE_TYPES,
                label="Type",
                initial="S",
                required=False,
            )
            self.fields[f"attr-{i}-required"] = forms.BooleanField(
                required=False, label="Required", initial=True
            )
            self.fields[f"attr-{i}-generator"] = forms.CharField(
                required=False,
                label="Sample generator",
                widget=forms.TextInput(
                    attrs={
                        "class": "code",
                        "spellcheck": "false",
                        "placeholder": "default for the type",
                        "list": "generator-kinds",
                    }
                ),
            )
            self.fields[f"attr-{i}-example"] = forms.CharField(
                required=False,
                label="Example value",
                widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
            )
            self.fields[f"attr-{i}-delete"] = forms.BooleanField(
                required=False, label="Remove"
            )
            self.fields[f"attr-{i}-presence"] = forms.FloatField(
                required=False,
                min_value=0,
                max_value=1,
                label="Presence",
                widget=forms.NumberInput(
                    attrs={"step": "any", "placeholder": "1 if required, else 0.5"}
                ),
            )
            self.fields[f"attr-{i}-max_length"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=400_000,
                label="Max length",
                widget=forms.NumberInput(attrs={"placeholder": "none"}),
            )
            self.fields[f"attr-{i}-description"] = forms.CharField(
                required=False, max_length=DESCRIPTION_MAX_CHARS, label="Description"
            )
            self.fields[f"attr-{i}-original"] = forms.CharField(
                required=False, widget=forms.HiddenInput
            )
        for slot in self.slots:
            name = slot.attribute.name
            self.fields[f"key-{name}-mode"] = forms.ChoiceField(
                choices=TABLE_KEY_MODES if slot.is_table_key else INDEX_KEY_MODES,
                label=f"{name}: how",
                initial=KEY_TEMPLATE if slot.is_table_key else KEY_ABSENT,
                required=False,
            )
            self.fields[f"key-{name}-template"] = forms.CharField(
                max_length=MAX_TEMPLATE,
                required=False,
                strip=False,
                label=f"{name} template",
                widget=forms.TextInput(
                    attrs={
                        "class": "code template-input",
                        "spellcheck": "false",
                        "autocomplete": "off",
                    }
                ),
            )
            self.fields[f"key-{name}-when"] = forms.CharField(
                max_length=MAX_CONDITION,
                required=False,
                label=f"{name} condition",
                widget=forms.TextInput(
                    attrs={
                        "class": "code",
                        "spellcheck": "false",
                        "placeholder": "status = OPEN",
                    }
                ),
            )
        self.fast_widgets()

    @classmethod
    def initial_for(
        cls, entity: d.Entity, version: int, examples: Mapping[str, str] = {}
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": version,
            "name": entity.name,
            "description": entity.description,
            "sample_per": entity.sample.per,
        }
        data |= sample_initial(entity.sample)
        for i, attr in enumerate(entity.attributes):
            data |= {
                f"attr-{i}-name": attr.name,
                f"attr-{i}-type": attr.type,
                f"attr-{i}-required": attr.required,
                f"attr-{i}-generator": generator_text(attr.generator),
                f"attr-{i}-example": examples.get(attr.name, ""),
                f"attr-{i}-original": attr.name,
                f"attr-{i}-presence": (
                    None
                    if attr.presence == (1.0 if attr.required else 0.5)
                    else attr.presence
                ),
                f"attr-{i}-max_length": attr.max_length,
                f"attr-{i}-description": attr.description,
            }
        for name, key in entity.keys.items():
            data[f"key-{name}-mode"] = KEY_WHEN if key.when else KEY_TEMPLATE
            data[f"key-{name}-template"] = key.template
            data[f"key-{name}-when"] = key.when
        return data

    @property
    def attribute_rows(self) -> list[AttributeRow]:
        return [
            AttributeRow(
                i,
                *(
                    self[f"attr-{i}-{part}"]
                    for part in (
                        "name",
                        "type",
                        "required",
                        "generator",
                        "example",
                        "delete",
                        "original",
                        "presence",
                        "max_length",
                        "description",
                    )
                ),
            )
            for i in range(self.rows)
        ]

    @property
    def key_rows(self) -> list[KeyRow]:
        return [
            KeyRow(
                slot,
                self[f"key-{slot.attribute.name}-mode"],
                self[f"key-{slot.attribute.name}-template"],
                self[f"key-{slot.attribute.name}-when"],
                self._alias(slot.attribute.name),
            )
            for slot in self.slots
        ]

    def _alias(self, key: str) -> str:
        kept = self.entity.keys.get(key) if self.entity else None
        return kept.alias if kept else ""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seen: dict[str, int] = {}
        for i in range(self.rows):
            name = (data.get(f"attr-{i}-name") or "").strip()
            if not name or data.get(f"attr-{i}-delete"):
                continue
            if not ATTRIBUTE_NAME.match(name):
                self.add_error(
                    f"attr-{i}-name",
                    f"'{name}' is not an attribute name: letters, digits, '_', "
                    "'.' and '-', starting with a letter or '_'.",
                )
            elif name in seen:
                self.add_error(f"attr-{i}-name", f"'{name}' is declared twice.")
            seen[name] = i
            try:
                data[f"attr-{i}-generator"] = parse_generator(
                    data.get(f"attr-{i}-generator") or ""
                )
            except forms.ValidationError as exc:
                self.add_error(f"attr-{i}-generator", exc)
            presence = data.get(f"attr-{i}-presence")
            if presence is not None and presence < 1 and data.get(f"attr-{i}-required"):
                self.add_error(
                    f"attr-{i}-presence",
                    "A required attribute is on every item: presence 1 "
                    "(or empty), or untick Required.",
                )
            kind = data.get(f"attr-{i}-type") or "S"
            if data.get(f"attr-{i}-max_length") is not None and kind not in ("S", "B"):
                self.add_error(
                    f"attr-{i}-max_length",
                    f"A max length applies to S and B attributes only, not {kind}.",
                )
        self._clean_sample(data)
        for slot in self.slots:
            name = slot.attribute.name
            mode = data.get(f"key-{name}-mode")
            template = data.get(f"key-{name}-template") or ""
            when = (data.get(f"key-{name}-when") or "").strip()
            if mode == KEY_ABSENT or (not mode and not template):
                continue
            if not template:
                if slot.is_table_key:
                    self.add_error(
                        f"key-{name}-template",
                        f"Every item needs its {slot.role} '{name}': give a template.",
                    )
                else:
                    self.add_error(
                        f"key-{name}-template",
                        "Give a template, or choose 'Not in this index'.",
                    )
                continue
            try:
                parse_template(template)
            except TemplateSyntaxError as exc:
                self.add_error(f"key-{name}-template", str(exc))
            if mode == KEY_WHEN:
                if not when:
                    self.add_error(
                        f"key-{name}-when",
                        "Write the condition, such as status = OPEN.",
                    )
                    continue
                try:
                    parse_condition(when)
                except ConditionSyntaxError as exc:
                    self.add_error(f"key-{name}-when", str(exc))
        return data

    def _clean_sample(self, data: dict[str, Any]) -> None:
        """The sample settings' rules of the design file and its check."""
        distribution = data.get("sample_distribution")
        if distribution == "fixed" and data.get("sample_count") is None:
            if "sample_count" not in self.errors:
                self.add_error(
                    "sample_count", "How many items: a whole number of 0 or more."
                )
        elif distribution == "uniform":
            low, high = data.get("sample_min"), data.get("sample_max")
            if low is None and "sample_min" not in self.errors:
                self.add_error("sample_min", "A uniform count needs its min.")
            if high is None and "sample_max" not in self.errors:
                self.add_error("sample_max", "A uniform count needs its max.")
            if low is not None and high is not None and high < low:
                self.add_error(
                    "sample_max", f"The max ({high}) is less than the min ({low})."
                )
        elif distribution == "zipf":
            high, s = data.get("sample_max"), data.get("sample_s")
            if (high is None or high < 1) and "sample_max" not in self.errors:
                self.add_error("sample_max", "A Zipf count needs a max of 1 or more.")
            if s is not None and s <= 0:
                self.add_error("sample_s", "The exponent must be above 0.")
        hot_keys, hot_share = data.get("hot_keys"), data.get("hot_share")
        if hot_keys and not data.get("sample_per"):
            self.add_error(
                "hot_keys",
                "Hot keys skew children toward some parents: choose the parent "
                "the items are made per.",
            )
        if hot_share and not hot_keys:
            self.add_error("hot_keys", "How many parents are hot (1 or more).")

    def to_entity(self) -> d.Entity:
        return entity_from_data(self.cleaned_data, self)

    def field_for(self, path: str) -> str | None:
        match = re.match(r"^entities\.[^.]+\.sample(\.[a-z_.]+)?", path)
        if match:
            rest = match.group(1) or ""
            if rest.startswith(".count"):
                return {
                    "uniform": "sample_min" if "min" in rest else "sample_max",
                    "zipf": "sample_s" if rest.endswith(".s") else "sample_max",
                }.get(self.data.get("sample_distribution") or "", "sample_count")
            if rest == ".hot.share":
                return "hot_share"
            if rest.startswith(".hot"):
                return "hot_keys"
            return "sample_per"
        match = re.match(r"^entities\.[^.]+\.(attributes|keys)\.([^.]+)(\..*)?$", path)
        if match is None:
            return None
        what, name, rest = match.groups()
        if what == "keys":
            if rest is None and any(s.attribute.name == name for s in self.slots):
                condition = "condition" in path or "when" in path
                return f"key-{name}-{'when' if condition else 'template'}"
            return None
        for i in range(self.rows):
            if (self.data.get(f"attr-{i}-name") or "").strip() == name:
                if rest and rest.startswith(".generator"):
                    return f"attr-{i}-generator"
                for part in ("presence", "max_length", "description"):
                    if rest and rest.startswith(f".{part}"):
                        return f"attr-{i}-{part}"
                return f"attr-{i}-name"
        return None

    def examples(self) -> dict[str, str]:
        """The example values typed in the form, by attribute name."""
        out = {}
        for i in range(self.rows):
            name = (self.data.get(f"attr-{i}-name") or "").strip()
            if name and not self.data.get(f"attr-{i}-delete"):
                out[name] = self.data.get(f"attr-{i}-example") or ""
        return out


def entity_from_data(data: Mapping[str, Any], form: EntityForm) -> d.Entity:
    """The entity the form describes."""
    previous = form.entity
    attributes = []
    for i in range(form.rows):
        name = (data.get(f"attr-{i}-name") or "").strip()
        if not name or data.get(f"attr-{i}-delete"):
            continue
        generator = data.get(f"attr-{i}-generator")
        required = bool(data.get(f"attr-{i}-required"))
        presence = _number(data.get(f"attr-{i}-presence"), float)
        max_length = _number(data.get(f"attr-{i}-max_length"), int)
        attributes.append(
            d.Attribute(
                name=name,
                type=data.get(f"attr-{i}-type") or "S",
                required=required,
                presence=(
                    presence
                    if presence is not None and 0 <= presence <= 1
                    else (1.0 if required else 0.5)
                ),
                generator=generator if isinstance(generator, d.Generator) else None,
                description=str(data.get(f"attr-{i}-description") or "").strip(),
                max_length=max_length if max_length and max_length > 0 else None,
            )
        )
    keys = {}
    for slot in form.slots:
        name = slot.attribute.name
        mode = data.get(f"key-{name}-mode")
        template = data.get(f"key-{name}-template") or ""
        if mode == KEY_ABSENT or not template:
            continue
        when = (data.get(f"key-{name}-when") or "").strip() if mode == KEY_WHEN else ""
        # A NoSQL Workbench alias has no field of its own: it stays.
        kept = previous.keys.get(name) if previous else None
        keys[name] = d.KeyTemplate(template, when, kept.alias if kept else "")
    return d.Entity(
        name=data.get("name") or (previous.name if previous else ""),
        description=data.get("description") or "",
        attributes=tuple(attributes),
        keys=d.freeze(keys),
        sample=_sample(data, form),
    )


def _number(value: Any, kind: type) -> Any:
    """A number from a cleaned value or from the text as typed (for the
    live preview); None when empty or not a number."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return kind(value)
    try:
        return kind(str(value).strip())
    except ValueError:
        return None


def sample_initial(sample: d.SampleSettings) -> dict[str, Any]:
    """The form's sample fields for an entity's sample settings."""
    count = sample.count
    return {
        "sample_distribution": count.distribution,
        "sample_count": count.value if count.distribution == "fixed" else None,
        "sample_min": count.low if count.distribution == "uniform" else None,
        "sample_max": count.high if count.distribution != "fixed" else None,
        "sample_s": count.s if count.distribution == "zipf" else None,
        "hot_keys": sample.hot_keys or None,
        "hot_share": sample.hot_share or None,
    }


def _sample(data: Mapping[str, Any], form: EntityForm) -> d.SampleSettings:
    sample = form.entity.sample if form.entity else d.SampleSettings()
    per = data.get("sample_per")
    distribution = data.get("sample_distribution")
    count = sample.count
    if distribution == "fixed":
        value = _number(data.get("sample_count"), int)
        if value is not None and value >= 0:
            count = d.Count("fixed", value=value)
    elif distribution == "uniform":
        low = _number(data.get("sample_min"), int)
        high = _number(data.get("sample_max"), int)
        if low is not None and high is not None:
            count = d.Count("uniform", low=low, high=high)
    elif distribution == "zipf":
        high = _number(data.get("sample_max"), int)
        s = _number(data.get("sample_s"), float)
        if high is not None:
            count = d.Count("zipf", high=high, s=s if s is not None else 1.2)
    return d.SampleSettings(
        count=count,
        per=per if isinstance(per, str) else sample.per,
        hot_keys=_number(data.get("hot_keys"), int) or 0,
        hot_share=_number(data.get("hot_share"), float) or 0.0,
    )


def entity_draft(form: EntityForm) -> d.Entity:
    """The entity as typed so far, for the live preview: whatever parses,
    without refusing anything."""
    data = dict(form.data.items())
    for i in range(form.rows):
        try:
            data[f"attr-{i}-generator"] = parse_generator(
                data.get(f"attr-{i}-generator") or ""
            )
        except forms.ValidationError:
            data[f"attr-{i}-generator"] = None
        data[f"attr-{i}-required"] = data.get(f"attr-{i}-required") in (
            "on",
            "true",
            "1",
        )
    name = (data.get("name") or "").strip()
    data["name"] = (
        name
        if ENTITY_NAME.match(name)
        else (form.entity.name if form.entity else "New")
    )
    return entity_from_data(data, form)
