"""One entity: its attributes (a formset of rows of name, type,
generator...), its key templates in the table and each index (a row per
key attribute), and how many sample items it has."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from django import forms

from modeler.design import model as d
from modeler.design_check import MAX_CONDITION, MAX_TEMPLATE
from modeler.designfile import (
    YamlStructureError,
    check_yaml_structure,
    # The design file's own reading of YAML values (dates kept as the ISO
    # text written), so a generator typed here stores exactly as one imported.
    plain_yaml_value,
)
from modeler.editor.forms.common import (
    ATTRIBUTE_NAME,
    ATTRIBUTE_TYPE_CHOICES,
    BLANK_ROWS,
    DESCRIPTION_MAX_CHARS,
    ENTITY_NAME,
    GENERATOR_MAX_CHARS,
    Choices,
    FieldChoice,
    VersionedForm,
    value_text,
)
from modeler.editor.forms.rows import (
    KeyedRows,
    RowForm,
    Rows,
    bind_keyed_rows,
    bind_rows,
    rows_formset,
    rows_posted,
)
from modeler.editor.forms.sample import SampleFields, sample_initial, sample_of
from modeler.history.fields import FieldClash
from modeler.infra.lru import Kept
from modeler.keys import (
    ConditionSyntaxError,
    TemplateSyntaxError,
    parse_condition,
    parse_template,
)

# --- Generators ---------------------------------------------------------------


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
    # In the order the design has them: a form saved unchanged must not
    # reorder a generator's parameters (a choice's options, a map's fields).
    text = yaml.safe_dump(
        {generator.kind: params}, default_flow_style=True, width=10_000, sort_keys=False
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


# --- Attribute rows ---------------------------------------------------------------


class AttributeForm(RowForm):
    """One attribute: a row with no name, or ticked Remove, is left out.
    `example` is a scratch value for the live preview, not part of the
    design; `original` is the name the row had when the page was made."""

    name = forms.CharField(
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
    type = forms.ChoiceField(
        choices=ATTRIBUTE_TYPES, label="Type", initial="S", required=False
    )
    required = forms.BooleanField(required=False, label="Required", initial=True)
    generator = forms.CharField(
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
    example = forms.CharField(
        required=False,
        label="Example value",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    delete = forms.BooleanField(required=False, label="Remove")
    presence = forms.FloatField(
        required=False,
        min_value=0,
        max_value=1,
        label="Presence",
        widget=forms.NumberInput(
            attrs={"step": "any", "placeholder": "1 if required, else 0.5"}
        ),
    )
    max_length = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=400_000,
        label="Max length",
        widget=forms.NumberInput(attrs={"placeholder": "none"}),
    )
    description = forms.CharField(
        required=False, max_length=DESCRIPTION_MAX_CHARS, label="Description"
    )
    original = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name = data.get("name")
        if not name or data.get("delete"):
            return data
        if not ATTRIBUTE_NAME.match(name):
            self.add_error(
                "name",
                f"'{name}' is not an attribute name: letters, digits, '_', "
                "'.' and '-', starting with a letter or '_'.",
            )
        try:
            data["generator"] = parse_generator(data.get("generator") or "")
        except forms.ValidationError as exc:
            self.add_error("generator", exc)
        presence = data.get("presence")
        if presence is not None and presence < 1 and data.get("required"):
            self.add_error(
                "presence",
                "A required attribute is on every item: presence 1 "
                "(or empty), or untick Required.",
            )
        kind = data.get("type") or "S"
        if data.get("max_length") is not None and kind not in ("S", "B"):
            self.add_error(
                "max_length",
                f"A max length applies to S and B attributes only, not {kind}.",
            )
        return data

    def draft(self) -> dict[str, Any]:
        values = super().draft()
        try:
            values["generator"] = parse_generator(values.get("generator") or "")
        except forms.ValidationError:
            values["generator"] = None
        return values

    @property
    def has_more(self) -> bool:
        """Whether the row's less used settings hold a value or an error
        (its disclosure opens then)."""
        return any(
            f.errors or f.value() not in (None, "")
            for f in (self["presence"], self["max_length"], self["description"])
        )

    @property
    def more_summary(self) -> str:
        """What the row's less used settings hold, in a few words."""
        parts = []
        presence, length = self["presence"].value(), self["max_length"].value()
        if presence not in (None, ""):
            parts.append(f"on {presence} of items")
        if length not in (None, ""):
            parts.append(f"≤ {length} chars")
        if self["description"].value():
            parts.append("described")
        return ", ".join(parts) or "details…"


def attribute_initial(attr: d.Attribute, example: str = "") -> dict[str, Any]:
    default_presence = 1.0 if attr.required else 0.5
    return {
        "name": attr.name,
        "type": attr.type,
        "required": attr.required,
        "generator": generator_text(attr.generator),
        "example": example,
        "original": attr.name,
        "presence": None if attr.presence == default_presence else attr.presence,
        "max_length": attr.max_length,
        "description": attr.description,
    }


def attribute_of(values: Mapping[str, Any]) -> d.Attribute | None:
    """The attribute a row's values describe; None for a blank or removed
    row."""
    name = values.get("name")
    if not name or values.get("delete"):
        return None
    required = bool(values.get("required"))
    presence = values.get("presence")
    if presence is None or not 0 <= presence <= 1:
        presence = 1.0 if required else 0.5
    generator = values.get("generator")
    max_length = values.get("max_length")
    return d.Attribute(
        name=name,
        type=values.get("type") or "S",
        required=required,
        presence=presence,
        generator=generator if isinstance(generator, d.Generator) else None,
        description=(values.get("description") or "").strip(),
        max_length=max_length if max_length and max_length > 0 else None,
    )


def _renamed_in_row(
    attribute: d.Attribute | None, values: Mapping[str, Any], entity: d.Entity | None
) -> d.Attribute | None:
    """A renamed row's attribute as the same element as the one it was
    (its uid, its sample draws); the row's `original` says which that was."""
    original = values.get("original") or ""
    if attribute is None or entity is None or original in ("", attribute.name):
        return attribute
    before = entity.attribute(original)
    if before is None:
        return attribute
    return d.renamed_from(dataclasses.replace(attribute, uid=before.uid), before)


class AttributeRows(Rows):
    what = "attribute"
    more = 3

    def clean(self) -> None:
        """An attribute declared twice: the second row says so."""
        seen: set[str] = set()
        for row in self.forms:
            name = row.cleaned_data.get("name")
            if not name or row.cleaned_data.get("delete") or "name" in row.errors:
                continue
            if name in seen:
                row.add_error("name", f"'{name}' is declared twice.")
            seen.add(name)


AttributeFormSet = rows_formset(AttributeForm, AttributeRows)


# --- Key template rows -------------------------------------------------------------


class KeyTemplateForm(RowForm):
    """The entity's value of one key attribute of the table or an index: a
    template, only while a condition holds, or (an index key) none."""

    mode = forms.ChoiceField(choices=INDEX_KEY_MODES, required=False)
    template = forms.CharField(
        max_length=MAX_TEMPLATE,
        required=False,
        strip=False,
        widget=forms.TextInput(
            attrs={
                "class": "code template-input",
                "spellcheck": "false",
                "autocomplete": "off",
            }
        ),
    )
    when = forms.CharField(
        max_length=MAX_CONDITION,
        required=False,
        widget=forms.TextInput(
            attrs={
                "class": "code",
                "spellcheck": "false",
                "placeholder": "status = OPEN",
            }
        ),
    )

    def __init__(self, *args: Any, slot: KeySlot, alias: str = "", **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.slot, self.alias = slot, alias  # alias: its NoSQL Workbench name
        name = slot.attribute.name
        mode = self.fields["mode"]
        if slot.is_table_key:
            mode.choices, mode.initial = TABLE_KEY_MODES, KEY_TEMPLATE
        else:
            mode.initial = KEY_ABSENT
        mode.label = f"{name}: how"
        self.fields["template"].label = f"{name} template"
        self.fields["when"].label = f"{name} condition"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        mode, template = data.get("mode"), data.get("template") or ""
        if mode == KEY_ABSENT or (not mode and not template):
            return data
        if not template:
            self.add_error("template", self._template_needed())
            return data
        try:
            parse_template(template)
        except TemplateSyntaxError as exc:
            self.add_error("template", str(exc))
        if mode == KEY_WHEN:
            self._check_condition(data.get("when") or "")
        return data

    def _template_needed(self) -> str:
        if self.slot.is_table_key:
            name = self.slot.attribute.name
            return f"Every item needs its {self.slot.role} '{name}': give a template."
        return "Give a template, or choose 'Not in this index'."

    def _check_condition(self, when: str) -> None:
        if not when:
            self.add_error("when", "Write the condition, such as status = OPEN.")
            return
        try:
            parse_condition(when)
        except ConditionSyntaxError as exc:
            self.add_error("when", str(exc))

    def key_template(self, *, draft: bool = False) -> d.KeyTemplate | None:
        """The key template the row describes; None when the entity has
        none for this key (a NoSQL Workbench alias has no field: it stays)."""
        values = self.values(draft=draft)
        mode, template = values.get("mode"), values.get("template") or ""
        if mode == KEY_ABSENT or not template:
            return None
        when = (values.get("when") or "") if mode == KEY_WHEN else ""
        return d.KeyTemplate(template, when, self.alias)


class KeyTemplateRows(KeyedRows):
    what = "key template"


KeyTemplateFormSet = rows_formset(KeyTemplateForm, KeyTemplateRows)


# --- The entity ------------------------------------------------------------------


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


class EntityForm(EntityCreateForm, SampleFields):
    """An entity's name, description, sample settings, attributes and key
    templates, saved together."""

    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(
        self,
        *args: Any,
        table: d.Table,
        entity: d.Entity | None = None,
        entity_names: Iterable[str] = (),
        more_rows: bool = False,
        **kwargs: Any,
    ) -> None:
        """`more_rows`: the page's "More rows", a few blank attribute rows
        added to those posted."""
        super().__init__(*args, **kwargs)
        self.table = table
        self.entity = entity
        others = [n for n in entity_names if not entity or n != entity.name]
        self.fields["sample_per"].choices = [("", "as roots (in all)")] + [
            (n, f"per {n}") for n in others
        ]
        self.attribute_rows = bind_rows(self, AttributeFormSet, "attr", more=more_rows)
        slots = key_slots(table)
        self.key_rows = bind_keyed_rows(
            self,
            KeyTemplateFormSet,
            "key",
            [slot.attribute.name for slot in slots],
            per_row=[
                {"slot": s, "alias": self._alias(s.attribute.name)} for s in slots
            ],
        )

    def row_sets(self) -> tuple[Rows, ...]:
        return (self.attribute_rows, self.key_rows)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.clean_sample(data)
        return data

    @classmethod
    def initial_for(
        cls, entity: d.Entity, version: int, examples: Mapping[str, str] = {}
    ) -> dict[str, Any]:
        """What the entity's page posts untouched."""
        rows = [
            attribute_initial(attr, examples.get(attr.name, ""))
            for attr in entity.attributes
        ]
        data: dict[str, Any] = {
            "version": version,
            "name": entity.name,
            "description": entity.description,
            **sample_initial(entity.sample),
            **rows_posted("attr", rows, blank=BLANK_ROWS if rows else 4),
        }
        for name, key in entity.keys.items():
            data[f"key-{name}-mode"] = KEY_WHEN if key.when else KEY_TEMPLATE
            data[f"key-{name}-template"] = key.template
            data[f"key-{name}-when"] = key.when
        return data

    def _alias(self, key: str) -> str:
        kept = self.entity.keys.get(key) if self.entity else None
        return kept.alias if kept else ""

    def to_entity(self) -> d.Entity:
        return self.entity_of(self.cleaned_data)

    def entity_of(self, values: Mapping[str, Any], *, draft: bool = False) -> d.Entity:
        """The entity the form's values (cleaned, or as typed so far: a
        draft) and its rows describe."""
        previous = self.entity
        rows = [row.values(draft=draft) for row in self.attribute_rows]
        attributes = [_renamed_in_row(attribute_of(v), v, previous) for v in rows]
        keys = {
            row.slot.attribute.name: row.key_template(draft=draft)
            for row in self.key_rows
        }
        return d.Entity(
            name=values.get("name") or (previous.name if previous else ""),
            description=values.get("description") or "",
            attributes=tuple(a for a in attributes if a is not None),
            keys=d.freeze({name: key for name, key in keys.items() if key}),
            sample=sample_of(
                values, previous.sample if previous else d.SampleSettings()
            ),
        )

    def field_for(self, path: str) -> str | None:
        match = re.match(r"^entities\.[^.]+\.sample(\.[a-z_.]+)?", path)
        if match:
            return self.sample_field_for(match.group(1) or "")
        match = re.match(r"^entities\.[^.]+\.(attributes|keys)\.([^.]+)(\..*)?$", path)
        if match is None:
            return None
        what, name, rest = match.groups()
        if what == "keys":
            return self._key_field(name, rest, path)
        return self._attribute_field(name, rest or "")

    def _key_field(self, name: str, rest: str | None, path: str) -> str | None:
        if rest is not None or name not in self.key_rows.names:
            return None
        condition = "condition" in path or "when" in path
        return f"key-{name}-{'when' if condition else 'template'}"

    def _attribute_field(self, name: str, rest: str) -> str | None:
        row = next(
            (r for r in self.attribute_rows if r.raw("name").strip() == name), None
        )
        if row is None:
            return None
        part = next(
            (
                part
                for part in ("generator", "presence", "max_length", "description")
                if rest.startswith(f".{part}")
            ),
            "name",
        )
        return self.name_in_form(row, part)

    def clash_choice(self, clash: FieldClash) -> FieldChoice:
        parts = clash.path.split(".")
        if parts[0] == "keys" and len(parts) == 2 and parts[1] in self.key_rows.names:
            return FieldChoice(
                clash.label,
                f"key-{parts[1]}-template",
                value_text(clash.theirs),
                value_text(clash.mine),
            )
        if parts[0] == "attributes" and len(parts) == 3:
            row = next(
                (r for r in self.attribute_rows if r.raw("name").strip() == parts[1]),
                None,
            )
            text = generator_text if parts[2] == "generator" else value_text
            if row is not None and parts[2] in row.fields:
                return FieldChoice(
                    clash.label,
                    self.add_prefix(self.name_in_form(row, parts[2])),
                    text(clash.theirs),
                    text(clash.mine),
                )
        return super().clash_choice(clash)

    def examples(self) -> dict[str, str]:
        """The example values typed in the form, by attribute name."""
        return {
            name: row.raw("example")
            for row in self.attribute_rows
            if (name := row.raw("name").strip()) and not row.raw("delete")
        }


def entity_draft(form: EntityForm) -> d.Entity:
    """The entity as typed so far, for the live preview: whatever parses,
    without refusing anything."""
    values = form.draft()
    name = values.get("name") or ""
    values["name"] = (
        name
        if ENTITY_NAME.match(name)
        else (form.entity.name if form.entity else "New")
    )
    return form.entity_of(values, draft=True)
