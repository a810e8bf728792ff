"""Forms of the design editor: each parses what the browser sends into a
design value (`to_table`, `to_index`, `to_entity`, `to_pattern`) and puts
the design check's problems back beside the field they concern.

Repeated rows (attributes, parameters, predicates, actions) are plain
numbered fields (`attr-0-name`, `attr-1-name`...): the page shows the
existing rows plus blank ones, a blank row is ignored, and "More rows"
re-renders the form with more, so everything works without JavaScript.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

import yaml
from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from modeler import design as d
from modeler.design_check import MAX_CONDITION, MAX_NAME, MAX_TEMPLATE

# The design file's own reading of YAML values (dates kept as the ISO text
# written), so a generator typed here stores exactly as one imported.
from modeler.designfile import _plain as plain_yaml_value
from modeler.keys import (
    ConditionSyntaxError,
    TemplateSyntaxError,
    parse_condition,
    parse_template,
)
from modeler.problems import Problem

ENTITY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,254}$")
BLANK_ROWS = 2
MAX_ROWS = 200
GENERATOR_MAX_CHARS = 2000
DESCRIPTION_MAX_CHARS = 2000


def _choices(values: Iterable[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


KEY_TYPE_CHOICES = _choices(d.KEY_TYPES)
ATTRIBUTE_TYPE_CHOICES = _choices(d.ATTRIBUTE_TYPES)


def _names(text: str) -> tuple[str, ...]:
    """`a, b c` -> ('a', 'b', 'c'), duplicates kept (the check reports them)."""
    return tuple(n for n in re.split(r"[\s,]+", text.strip()) if n)


# The editor's forms have many small fields (a row per attribute, a select
# of types in each): rendering each widget through its template is most of
# a section's server time, so these widgets write their HTML directly, with
# the same attributes and escaping.


class _FastInput(forms.widgets.Input):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["type"] = self.input_type
        final["name"] = name
        shown = self.format_value(value)
        if shown is not None:
            final["value"] = shown
        return format_html("<input{}>", flatatt(final))


class _FastTextInput(_FastInput, forms.TextInput):
    pass


class _FastNumberInput(_FastInput, forms.NumberInput):
    pass


class _FastHiddenInput(_FastInput, forms.HiddenInput):
    pass


class _FastCheckbox(forms.CheckboxInput):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final |= {"type": "checkbox", "name": name}
        if self.check_test(value):
            final["checked"] = True
        return format_html("<input{}>", flatatt(final))


_SELECTED = mark_safe(" selected")  # noqa: S308 - a constant


class _FastSelect(forms.Select):
    def render(
        self, name: str, value: Any, attrs: Any = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        chosen = set(self.format_value(value))

        def options(choices: Iterable[tuple[Any, Any]]) -> SafeString:
            return format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                (
                    (v, _SELECTED if str(v) in chosen else "", label)
                    for v, label in choices
                ),
            )

        parts = []
        for group, choices in self.choices:
            if isinstance(choices, (list, tuple)):
                parts.append(
                    format_html(
                        '<optgroup label="{}">{}</optgroup>', group, options(choices)
                    )
                )
            else:
                parts.append(options([(group, choices)]))
        return format_html(
            "<select{}>{}</select>",
            flatatt(final),
            format_html_join("", "{}", ((part,) for part in parts)),
        )


_FAST = {
    forms.TextInput: _FastTextInput,
    forms.NumberInput: _FastNumberInput,
    forms.HiddenInput: _FastHiddenInput,
    forms.CheckboxInput: _FastCheckbox,
    forms.Select: _FastSelect,
}


class VersionedForm(forms.Form):
    """Every editor form carries the project version its page showed."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    # After an edit conflict: the other person's version of each clashing
    # element (presenters.TheirVersion), shown beside the input.
    their_versions: list = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fast_widgets()

    def keep_mine_at(self, version: int) -> None:
        """The form as typed, now at `version` (which holds someone else's
        change to the same element): saving it again keeps mine in place
        of theirs."""
        self.data = self.data.copy()
        self.data[self.add_prefix("version")] = str(version)

    def fast_widgets(self) -> None:
        """Swap the plain widgets for ones that write their HTML directly."""
        for field in self.fields.values():
            fast = _FAST.get(type(field.widget))
            if fast is not None:
                field.widget.__class__ = fast

    def raw(self, name: str) -> str:
        """A field's value as posted (before cleaning), '' if absent."""
        return self.data.get(self.add_prefix(name)) or ""

    def draft_data(self) -> dict[str, Any]:
        """The posted values by field name (the form's prefix removed): a
        list for a field of several choices, else one text. A field posted
        twice (a hidden copy kept as typed beside the shown one) gives its
        last value, as binding the form does."""
        multiple = {
            name
            for name, field in self.fields.items()
            if isinstance(field, forms.MultipleChoiceField)
        }
        out: dict[str, Any] = {}
        for key in self.data:
            name = key[len(self.prefix) + 1 :] if self.prefix else key
            if self.prefix and not key.startswith(f"{self.prefix}-"):
                continue
            values = (
                self.data.getlist(key)
                if hasattr(self.data, "getlist")
                else [self.data[key]]
            )
            out[name] = values if name in multiple else values[-1]
        return out

    # How a problem path of the design check maps to a field of this form;
    # a path no rule matches is shown above the form.
    def field_for(self, path: str) -> str | None:
        return None

    def add_problems(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            field = self.field_for(problem.path)
            if field is not None and field not in self.fields:
                field = None
            message = problem.message
            if field is None and problem.path:
                message = f"{problem.path}: {message}"
            self.add_error(field, message)


# --- Table ----------------------------------------------------------------------


class TableForm(VersionedForm):
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
                d.Capacity(data["read_capacity"], data["write_capacity"])
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
            "table.billing": "billing_mode",
            "table.encryption": "kms_key",
            "table.tags": "tags",
            "table.ttl": "ttl_attribute",
        }
        for prefix, field in rules.items():
            if path.startswith(prefix):
                return field
        return None


# --- Indexes --------------------------------------------------------------------

KEY_SLOTS = 4  # a GSI key has up to 4 partition and 4 sort key attributes


class IndexForm(VersionedForm):
    kind = forms.ChoiceField(
        choices=[
            ("global", "Global secondary index (GSI)"),
            ("local", "Local secondary index (LSI)"),
        ],
        label="Kind",
    )
    name = forms.CharField(
        max_length=255,
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    projection_type = forms.ChoiceField(
        choices=[
            ("KEYS_ONLY", "KEYS_ONLY · the keys"),
            ("INCLUDE", "INCLUDE · the keys and chosen attributes"),
            ("ALL", "ALL · every attribute"),
        ],
        label="Projection",
    )
    projection_attributes = forms.MultipleChoiceField(
        required=False,
        label="Projected attributes (INCLUDE)",
        widget=forms.CheckboxSelectMultiple,
    )
    projection_other = forms.CharField(
        required=False,
        label="Other attributes to project",
        help_text="Names that no entity declares, separated by commas.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    read_capacity = forms.IntegerField(
        required=False, min_value=1, max_value=40_000, label="Read capacity (RCU)"
    )
    write_capacity = forms.IntegerField(
        required=False, min_value=1, max_value=40_000, label="Write capacity (WCU)"
    )

    def __init__(
        self, *args: Any, attribute_names: Iterable[str] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for part in ("pk", "sk"):
            for slot in range(KEY_SLOTS):
                self.fields[f"{part}_name_{slot}"] = forms.CharField(
                    max_length=255,
                    required=False,
                    label=f"{'Partition' if part == 'pk' else 'Sort'} key "
                    f"attribute {slot + 1}",
                    widget=forms.TextInput(
                        attrs={"class": "code", "spellcheck": "false"}
                    ),
                )
                self.fields[f"{part}_type_{slot}"] = forms.ChoiceField(
                    choices=KEY_TYPE_CHOICES, label="Type", initial="S", required=False
                )
        names = dict.fromkeys(attribute_names)
        initial = self.initial.get("projection_attributes") or ()
        names.update(dict.fromkeys(initial))
        self.fields["projection_attributes"].choices = _choices(names)
        self.fast_widgets()

    @classmethod
    def initial_for(cls, index: d.Index | None, version: int) -> dict[str, Any]:
        if index is None:
            return {"version": version, "kind": "global", "projection_type": "ALL"}
        data: dict[str, Any] = {
            "version": version,
            "kind": index.kind,
            "name": index.name,
            "projection_type": index.projection.type,
            "projection_attributes": list(index.projection.attributes),
            "read_capacity": index.capacity.read if index.capacity else None,
            "write_capacity": index.capacity.write if index.capacity else None,
        }
        for part, attrs in (("pk", index.partition_key), ("sk", index.sort_key)):
            for slot, attr in enumerate(attrs[:KEY_SLOTS]):
                data[f"{part}_name_{slot}"] = attr.name
                data[f"{part}_type_{slot}"] = attr.type
        return data

    def key_rows(self, part: str) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"{part}_name_{slot}"], self[f"{part}_type_{slot}"])
            for slot in range(KEY_SLOTS)
        ]

    @property
    def partition_rows(self) -> list:
        return self.key_rows("pk")

    @property
    def sort_rows(self) -> list:
        return self.key_rows("sk")

    def _keys(self, part: str) -> tuple[d.KeyAttribute, ...]:
        data = self.cleaned_data
        return tuple(
            d.KeyAttribute(
                data[f"{part}_name_{slot}"], data.get(f"{part}_type_{slot}") or "S"
            )
            for slot in range(KEY_SLOTS)
            if data.get(f"{part}_name_{slot}")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        if data["kind"] == "global" and not self._keys("pk"):
            self.add_error("pk_name_0", "A GSI needs a partition key attribute.")
        if data["kind"] == "local" and len(self._keys("sk")) != 1:
            self.add_error("sk_name_0", "An LSI has exactly one sort key attribute.")
        if data["projection_type"] == "INCLUDE" and not (
            data["projection_attributes"] or _names(data["projection_other"])
        ):
            self.add_error(
                "projection_attributes", "INCLUDE needs the attributes to project."
            )
        return data

    def to_index(self, table: d.Table) -> d.Index:
        data = self.cleaned_data
        is_global = data["kind"] == "global"
        projected: tuple[str, ...] = ()
        if data["projection_type"] == "INCLUDE":
            projected = tuple(
                dict.fromkeys(
                    [*data["projection_attributes"], *_names(data["projection_other"])]
                )
            )
        capacity = None
        if is_global and table.billing_mode == "PROVISIONED":
            read, write = data.get("read_capacity"), data.get("write_capacity")
            capacity = d.Capacity(read or 0, write or 0) if read or write else None
        return d.Index(
            name=data["name"],
            kind=data["kind"],
            partition_key=self._keys("pk") if is_global else (),
            sort_key=self._keys("sk")[: 1 if not is_global else KEY_SLOTS],
            projection=d.Projection(data["projection_type"], projected),
            capacity=capacity,
        )

    def field_for(self, path: str) -> str | None:
        tail = re.sub(r"^table\.indexes\[\d+\]", "", path)
        for prefix, field in (
            (".name", "name"),
            (".partition_key", "pk_name_0"),
            (".sort_key", "sk_name_0"),
            (".projection", "projection_attributes"),
            (".capacity", "read_capacity"),
        ):
            if tail.startswith(prefix):
                return field
        return None


# --- Entities -------------------------------------------------------------------


def generator_text(generator: d.Generator | None) -> str:
    """A generator as the design file writes it, on one line: `ulid`,
    `{faker: email}`, `{int: {min: 1, max: 9}}`."""
    if generator is None:
        return ""
    if not generator.params:
        return generator.kind
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
    if len(text) > GENERATOR_MAX_CHARS:
        raise forms.ValidationError(
            f"At most {GENERATOR_MAX_CHARS} characters, found {len(text)}."
        )
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
                choices=ATTRIBUTE_TYPE_CHOICES,
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
            modes = [(KEY_TEMPLATE, "Template")]
            if not slot.is_table_key:
                modes += [
                    (KEY_WHEN, "Only while…"),
                    (KEY_ABSENT, "Not in the index"),
                ]
            self.fields[f"key-{name}-mode"] = forms.ChoiceField(
                choices=modes,
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
            )
            for slot in self.slots
        ]

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


def _filled_rows(data: Mapping[str, Any], prefix: str) -> int:
    """The rows up to the last one with something typed in it (a select's
    default, such as a parameter's type, does not count)."""
    count = 0
    for key in data:
        if key.startswith(prefix) and str(data.get(key) or "").strip():
            middle, _, part = key[len(prefix) :].partition("-")
            if middle.isdigit() and part not in ("type", "operator"):
                count = max(count, int(middle) + 1)
    return min(count, MAX_ROWS)


def _row_count(data: Mapping[str, Any], prefix: str, suffix: str) -> int:
    count = 0
    for key in data:
        if key.startswith(prefix) and key.endswith(suffix):
            middle = key[len(prefix) : -len(suffix)]
            if middle.isdigit():
                count = max(count, int(middle) + 1)
    return min(count, MAX_ROWS)


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
        keys[name] = d.KeyTemplate(template, when)
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


# --- Access patterns ------------------------------------------------------------


@dataclass
class Row:
    index: int
    fields: dict[str, forms.BoundField]
    keys: list[forms.BoundField] = dc_field(default_factory=list)  # actions only

    def __getitem__(self, name: str) -> forms.BoundField:
        return self.fields[name]


def index_keys(
    table: d.Table, index_name: str
) -> tuple[tuple[d.KeyAttribute, ...], tuple[d.KeyAttribute, ...]]:
    """The partition and sort key attributes a pattern on this index uses."""
    if index_name == d.TABLE_INDEX:
        return (table.partition_key,), ((table.sort_key,) if table.sort_key else ())
    index = table.index(index_name)
    if index is None:
        return (), ()
    if index.is_global:
        return index.partition_key, index.sort_key
    return (table.partition_key,), index.sort_key


SORT_OPERATOR_CHOICES = [
    ("", "any (no condition)"),
    ("=", "="),
    ("<", "<"),
    ("<=", "<="),
    (">", ">"),
    (">=", ">="),
    ("between", "between"),
    ("begins_with", "begins_with"),
]
PREDICATE_OPERATOR_CHOICES = _choices(d.PREDICATE_OPERATORS)

# What each operation takes, beyond its name, index and parameters.
KEY_CONDITION_OPERATIONS = ("GetItem", "Query")
FILTER_OPERATIONS = ("Query", "Scan")  # a filter and a limit
ORDER_OPERATIONS = ("Query",)
CONSISTENT_OPERATIONS = ("GetItem", "Query", "Scan", "BatchGetItem")
SINGLE_WRITES = {"PutItem": "Put", "UpdateItem": "Update", "DeleteItem": "Delete"}
ACTION_CHOICES = {
    "BatchGetItem": ("Get",),
    "TransactGetItems": ("Get",),
    "BatchWriteItem": ("Put", "Delete"),
    "TransactWriteItems": ("Put", "Update", "Delete", "ConditionCheck"),
}


class PatternForm(VersionedForm):
    name = forms.CharField(max_length=MAX_NAME)
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    operation = forms.ChoiceField(
        choices=[
            ("Reads", _choices(d.READ_OPERATIONS)),
            ("Writes", _choices(d.WRITE_OPERATIONS)),
        ]
    )
    index = forms.ChoiceField(label="Table or index")
    filter = forms.CharField(
        required=False,
        label="Filter",
        help_text="Applied after reading, e.g. total > {minTotal} AND "
        'status <> "CANCELLED".',
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    projection = forms.CharField(
        required=False,
        label="Projection",
        help_text="Attributes to return, separated by commas; empty for all.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )
    scan_forward = forms.ChoiceField(
        choices=[
            ("forward", "Ascending (ScanIndexForward)"),
            ("reverse", "Descending"),
        ],
        label="Order",
    )
    limit = forms.IntegerField(required=False, min_value=1, max_value=1_000_000)
    consistent_read = forms.BooleanField(
        required=False, label="Strongly consistent read"
    )
    rps = forms.FloatField(min_value=0, initial=0, label="Requests per second")
    peak_rps = forms.FloatField(
        min_value=0, initial=0, label="Peak requests per second"
    )
    expects_entities = forms.MultipleChoiceField(
        required=False, label="Returns items of", widget=forms.CheckboxSelectMultiple
    )
    order_by = forms.CharField(
        required=False,
        label="In the order of",
        help_text="Attributes, '-' for descending: -orderDate, orderId.",
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )

    ROW_KINDS = {
        "param": ("name", "type", "example"),
        "where": ("attribute", "operator", "value", "value2"),
        "action": ("operation", "entity", "set", "remove", "condition", "count"),
    }

    def __init__(
        self,
        *args: Any,
        design: d.Design,
        pattern: d.AccessPattern | None = None,
        grow: bool = True,
        **kwargs: Any,
    ) -> None:
        """`grow=False` (a re-render when the operation or index changes)
        keeps the filled rows and one or two blank ones, rather than adding
        blank rows to those posted."""
        super().__init__(*args, **kwargs)
        self.design = design
        self.pattern = pattern
        table = design.table
        self.fields["index"].choices = [(d.TABLE_INDEX, f"Table {table.name}")] + [
            (i.name, f"{'GSI' if i.is_global else 'LSI'} {i.name}")
            for i in table.indexes
        ]
        entity_names = [e.name for e in design.entities]
        if pattern and pattern.expects:
            entity_names += [
                n for n in pattern.expects.entities if n not in entity_names
            ]
        self.fields["expects_entities"].choices = _choices(entity_names)
        index_name = (
            self.data.get(self.add_prefix("index"))
            if self.is_bound
            else self.initial.get("index")
        ) or d.TABLE_INDEX
        self.partition_attrs, self.sort_attrs = index_keys(table, index_name)
        operation = (
            self.data.get(self.add_prefix("operation"))
            if self.is_bound
            else self.initial.get("operation")
        )
        self.op = operation if operation in d.OPERATIONS else "Query"
        self.table_keys = table.key_attributes
        for attr in self.partition_attrs:
            self.fields[f"key-{attr.name}"] = forms.CharField(
                max_length=MAX_TEMPLATE,
                required=False,
                strip=False,
                label=f"{attr.name} =",
                widget=forms.TextInput(
                    attrs={
                        "class": "code template-input",
                        "spellcheck": "false",
                        "autocomplete": "off",
                    }
                ),
            )
        for attr in self.sort_attrs:
            self.fields[f"sort-{attr.name}-op"] = forms.ChoiceField(
                choices=SORT_OPERATOR_CHOICES, required=False, label=f"{attr.name}"
            )
            for part in ("value", "value2"):
                self.fields[f"sort-{attr.name}-{part}"] = forms.CharField(
                    max_length=MAX_TEMPLATE,
                    required=False,
                    strip=False,
                    label=f"{attr.name} {'value' if part == 'value' else 'and'}",
                    widget=forms.TextInput(
                        attrs={
                            "class": "code template-input",
                            "spellcheck": "false",
                            "autocomplete": "off",
                        }
                    ),
                )
        self.row_counts = {}
        action_ops = [("", "—")] + _choices(
            ACTION_CHOICES.get(self.op, d.ACTION_OPERATIONS)
        )
        entity_choices = [("", "—")] + _choices(entity_names)
        for kind, parts in self.ROW_KINDS.items():
            if self.is_bound and not grow:
                count = _filled_rows(self.data, self.add_prefix(f"{kind}-"))
            elif self.is_bound:
                count = _row_count(
                    self.data, self.add_prefix(f"{kind}-"), f"-{parts[0]}"
                )
            else:
                count = self.initial.get(f"_{kind}_rows", 0)
            count = min(count + (1 if kind == "action" else BLANK_ROWS), MAX_ROWS)
            self.row_counts[kind] = count
            for i in range(count):
                for part in parts:
                    name = f"{kind}-{i}-{part}"
                    if part == "type":
                        field: forms.Field = forms.ChoiceField(
                            choices=KEY_TYPE_CHOICES + [("BOOL", "BOOL")],
                            initial="S",
                            label="Type",
                            required=False,
                        )
                    elif part == "operator":
                        field = forms.ChoiceField(
                            choices=PREDICATE_OPERATOR_CHOICES,
                            initial="=",
                            label="Operator",
                            required=False,
                        )
                    elif part == "operation":
                        field = forms.ChoiceField(
                            choices=action_ops, required=False, label="Action"
                        )
                    elif part == "entity":
                        field = forms.ChoiceField(
                            choices=entity_choices, required=False, label="Entity"
                        )
                    else:
                        field = forms.CharField(
                            required=False,
                            max_length=MAX_TEMPLATE,
                            label=part.replace("2", " (and)").capitalize(),
                            widget=forms.TextInput(
                                attrs={"class": "code", "spellcheck": "false"}
                            ),
                        )
                    self.fields[name] = field
                if kind == "action":
                    for attr in self.table_keys:
                        self.fields[f"action-{i}-key-{attr.name}"] = forms.CharField(
                            required=False,
                            max_length=MAX_TEMPLATE,
                            strip=False,
                            label=f"{attr.name} =",
                            widget=forms.TextInput(
                                attrs={
                                    "class": "code template-input",
                                    "spellcheck": "false",
                                    "autocomplete": "off",
                                    "placeholder": "the entity's template",
                                }
                            ),
                        )
        self.fast_widgets()

    def rows(self, kind: str) -> list[Row]:
        return [
            Row(
                i,
                {part: self[f"{kind}-{i}-{part}"] for part in self.ROW_KINDS[kind]},
                (
                    [self[f"action-{i}-key-{a.name}"] for a in self.table_keys]
                    if kind == "action"
                    else []
                ),
            )
            for i in range(self.row_counts[kind])
        ]

    # What the chosen operation takes: the form shows these and keeps the
    # others as typed (hidden), so switching back loses nothing; a save
    # stores only what the operation takes.
    @property
    def takes_key(self) -> bool:
        return self.op in KEY_CONDITION_OPERATIONS

    @property
    def takes_filter(self) -> bool:
        return self.op in FILTER_OPERATIONS

    @property
    def takes_order(self) -> bool:
        return self.op in ORDER_OPERATIONS

    @property
    def takes_consistent(self) -> bool:
        return self.op in CONSISTENT_OPERATIONS

    @property
    def single_write(self) -> bool:
        return self.op in SINGLE_WRITES

    @property
    def takes_actions(self) -> bool:
        return self.single_write or self.op in d.MULTI_ITEM_OPERATIONS

    @property
    def takes_set(self) -> bool:
        return self.op in ("UpdateItem", "TransactWriteItems")

    @property
    def shown_action_rows(self) -> list[Row]:
        rows = self.action_rows if self.takes_actions else []
        return rows[:1] if self.single_write else rows

    @property
    def kept_fields(self) -> list[forms.BoundField]:
        """The fields the chosen operation does not take, kept as typed."""
        names = []
        if not self.takes_key:
            names += [f"key-{a.name}" for a in self.partition_attrs]
            names += [
                f"sort-{a.name}-{part}"
                for a in self.sort_attrs
                for part in ("op", "value", "value2")
            ]
        if not self.takes_filter:
            names += ["filter", "limit"]
        if not self.takes_order:
            names.append("scan_forward")
        if not self.takes_consistent:
            names.append("consistent_read")
        shown = {row.index for row in self.shown_action_rows}
        for i in range(self.row_counts["action"]):
            if i in shown:
                continue
            names += [f"action-{i}-{part}" for part in self.ROW_KINDS["action"]]
            names += [f"action-{i}-key-{a.name}" for a in self.table_keys]
        return [self[name] for name in names]

    @property
    def param_rows(self) -> list[Row]:
        return self.rows("param")

    @property
    def where_rows(self) -> list[Row]:
        return self.rows("where")

    @property
    def action_rows(self) -> list[Row]:
        return self.rows("action")

    @property
    def partition_fields(self) -> list[forms.BoundField]:
        return [self[f"key-{a.name}"] for a in self.partition_attrs]

    @property
    def sort_fields(
        self,
    ) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (
                self[f"sort-{a.name}-op"],
                self[f"sort-{a.name}-value"],
                self[f"sort-{a.name}-value2"],
            )
            for a in self.sort_attrs
        ]

    @classmethod
    def initial_for(
        cls, design: d.Design, pattern: d.AccessPattern | None, version: int
    ) -> dict[str, Any]:
        if pattern is None:
            return {
                "version": version,
                "operation": "Query",
                "index": d.TABLE_INDEX,
                "scan_forward": "forward",
                "rps": 0,
                "peak_rps": 0,
            }
        data: dict[str, Any] = {
            "version": version,
            "name": pattern.name,
            "description": pattern.description,
            "operation": pattern.operation,
            "index": pattern.index,
            "filter": pattern.filter,
            "projection": ", ".join(pattern.projection),
            "scan_forward": "forward" if pattern.scan_forward else "reverse",
            "limit": pattern.limit,
            "consistent_read": pattern.consistent_read,
            "rps": pattern.traffic.rps,
            "peak_rps": pattern.traffic.peak_rps,
        }
        partition, sort = index_keys(design.table, pattern.index)
        partition_names = {a.name for a in partition}
        for clause in pattern.key:
            if clause.attribute in partition_names:
                data[f"key-{clause.attribute}"] = (
                    clause.values[0] if clause.values else ""
                )
            else:
                data[f"sort-{clause.attribute}-op"] = clause.operator
                values = list(clause.values) + ["", ""]
                data[f"sort-{clause.attribute}-value"] = values[0]
                data[f"sort-{clause.attribute}-value2"] = values[1]
        for i, param in enumerate(pattern.parameters):
            data |= {
                f"param-{i}-name": param.name,
                f"param-{i}-type": param.type,
                f"param-{i}-example": param.example,
            }
        data["_param_rows"] = len(pattern.parameters)
        if pattern.expects:
            data["expects_entities"] = list(pattern.expects.entities)
            data["order_by"] = ", ".join(pattern.expects.order_by)
            for i, predicate in enumerate(pattern.expects.where):
                values = list(predicate.values) + ["", ""]
                if predicate.operator == "in":
                    values = [", ".join(predicate.values), ""]
                data |= {
                    f"where-{i}-attribute": predicate.attribute,
                    f"where-{i}-operator": predicate.operator,
                    f"where-{i}-value": values[0],
                    f"where-{i}-value2": values[1],
                }
            data["_where_rows"] = len(pattern.expects.where)
        for i, action in enumerate(pattern.actions):
            data |= {
                f"action-{i}-operation": action.operation,
                f"action-{i}-entity": action.entity,
                f"action-{i}-set": ", ".join(f"{k}={v}" for k, v in action.set),
                f"action-{i}-remove": ", ".join(action.remove),
                f"action-{i}-condition": action.condition,
                f"action-{i}-count": action.count,
            }
            for clause in action.key:
                data[f"action-{i}-key-{clause.attribute}"] = (
                    clause.values[0] if clause.values else ""
                )
        data["_action_rows"] = len(pattern.actions)
        return data

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for bound in self.kept_fields:
            # Not part of what this operation saves: not refused either.
            self._errors.pop(bound.name, None)
        if self.errors:
            return data
        for i in range(self.row_counts["param"]):
            name = (data.get(f"param-{i}-name") or "").strip()
            if name and not ATTRIBUTE_NAME.match(name):
                self.add_error(f"param-{i}-name", f"'{name}' is not a parameter name.")
        for row in self.shown_action_rows:
            i = row.index
            used = self.single_write or data.get(f"action-{i}-operation")
            if used and not data.get(f"action-{i}-entity"):
                self.add_error(
                    f"action-{i}-entity", "Choose the entity it writes or reads."
                )
            try:
                _pairs(data.get(f"action-{i}-set") or "")
            except ValueError as exc:
                self.add_error(f"action-{i}-set", str(exc))
            for attr in self.table_keys:
                value = data.get(f"action-{i}-key-{attr.name}") or ""
                if value:
                    try:
                        parse_template(value)
                    except TemplateSyntaxError as exc:
                        self.add_error(f"action-{i}-key-{attr.name}", str(exc))
        for attr in self.sort_attrs if self.takes_key else ():
            op = data.get(f"sort-{attr.name}-op")
            if op and not data.get(f"sort-{attr.name}-value"):
                self.add_error(f"sort-{attr.name}-value", f"{op} needs a value.")
            if op == "between" and not data.get(f"sort-{attr.name}-value2"):
                self.add_error(
                    f"sort-{attr.name}-value2", "between needs a second value."
                )
        return data

    def to_pattern(self) -> d.AccessPattern:
        return pattern_from_data(self.cleaned_data, self)

    def field_for(self, path: str) -> str | None:
        tail = re.sub(r"^access_patterns\[\d+\]", "", path)
        if self.single_write and tail.startswith(".key"):
            # A single write's key is its action's (the design file's sugar).
            tail = ".actions[0]" + tail
        match = re.match(r"^\.actions\[(\d+)\]\.key(?:\.([^.]+))?", tail)
        if match:
            i, name = match.groups()
            names = [a.name for a in self.table_keys]
            name = name if name in names else names[0]
            return f"action-{i}-key-{name}"
        match = re.match(r"^\.key\.([^.]+)", tail)
        if match:
            name = match.group(1)
            if f"key-{name}" in self.fields:
                return f"key-{name}"
            return f"sort-{name}-value"
        if tail == ".key" and self.partition_attrs:
            return f"key-{self.partition_attrs[0].name}"
        match = re.match(r"^\.parameters\.([^.]+)", tail)
        if match:
            for i in range(self.row_counts["param"]):
                if self.raw(f"param-{i}-name").strip() == match.group(1):
                    return f"param-{i}-{'example' if 'example' in tail else 'name'}"
            return None
        match = re.match(r"^\.expects\.where\.([^.]+)", tail)
        if match:
            for i in range(self.row_counts["where"]):
                if self.raw(f"where-{i}-attribute").strip() == match.group(1):
                    return f"where-{i}-attribute"
            return None
        match = re.match(r"^\.actions\[(\d+)\]\.?(\w*)", tail)
        if match:
            part = (
                match.group(2)
                if match.group(2) in self.ROW_KINDS["action"]
                else "operation"
            )
            return f"action-{match.group(1)}-{part}"
        for prefix, field in (
            (".name", "name"),
            (".index", "index"),
            (".filter", "filter"),
            (".limit", "limit"),
            (".consistent_read", "consistent_read"),
            (".scan_forward", "scan_forward"),
            (".traffic", "peak_rps"),
            (".expects.order_by", "order_by"),
            (".expects", "expects_entities"),
            (".projection", "projection"),
        ):
            if tail.startswith(prefix):
                return field
        if re.match(r"^\.(entity|set|remove|condition|count)", tail):
            part = tail[1:].split(".")[0]
            return f"action-0-{part}"
        return None


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    """`status=SHIPPED, shippedAt={shippedAt}` -> pairs."""
    pairs = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"Expected attribute=value, found '{part.strip()}'.")
        pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


def pattern_from_data(data: Mapping[str, Any], form: PatternForm) -> d.AccessPattern:
    """The pattern the form describes: only what its operation takes (the
    fields kept for the other operations are left out)."""
    key = []
    for attr in form.partition_attrs if form.takes_key else ():
        value = data.get(f"key-{attr.name}") or ""
        if value:
            key.append(d.KeyClause(attr.name, "=", (value,)))
    for attr in form.sort_attrs if form.takes_key else ():
        op = data.get(f"sort-{attr.name}-op")
        if not op:
            continue
        values = [data.get(f"sort-{attr.name}-value") or ""]
        if op == "between":
            values.append(data.get(f"sort-{attr.name}-value2") or "")
        key.append(d.KeyClause(attr.name, op, tuple(values)))
    params = []
    for i in range(form.row_counts["param"]):
        name = (data.get(f"param-{i}-name") or "").strip()
        if name:
            params.append(
                d.Parameter(
                    name,
                    data.get(f"param-{i}-type") or "S",
                    (data.get(f"param-{i}-example") or "").strip(),
                )
            )
    where = []
    for i in range(form.row_counts["where"]):
        attribute = (data.get(f"where-{i}-attribute") or "").strip()
        if not attribute:
            continue
        op = data.get(f"where-{i}-operator") or "="
        value = (data.get(f"where-{i}-value") or "").strip()
        if op in ("exists", "not_exists"):
            values: tuple[str, ...] = ()
        elif op == "in":
            values = tuple(v.strip() for v in value.split(",") if v.strip())
        elif op == "between":
            values = (value, (data.get(f"where-{i}-value2") or "").strip())
        else:
            values = (value,)
        where.append(d.Predicate(attribute, op, values))
    entities = tuple(data.get("expects_entities") or ())
    expects = (
        d.Expectation(entities, tuple(where), _names(data.get("order_by") or ""))
        if entities
        else None
    )
    actions = []
    for row in form.shown_action_rows:
        i = row.index
        if form.single_write:
            operation = SINGLE_WRITES[form.op]
            if not data.get(f"action-{i}-entity"):
                continue
        else:
            operation = data.get(f"action-{i}-operation")
            if not operation:
                continue
        try:
            pairs = _pairs(data.get(f"action-{i}-set") or "")
        except ValueError:
            pairs = ()
        action_key = tuple(
            d.KeyClause(attr.name, "=", (value,))
            for attr in form.table_keys
            if (value := data.get(f"action-{i}-key-{attr.name}") or "")
        )
        update = operation == "Update"
        actions.append(
            d.Action(
                operation=operation,
                entity=data.get(f"action-{i}-entity") or "",
                key=action_key,
                set=pairs if update else (),
                remove=_names(data.get(f"action-{i}-remove") or "") if update else (),
                condition=(data.get(f"action-{i}-condition") or "").strip(),
                count=(
                    (data.get(f"action-{i}-count") or "").strip()
                    if not form.single_write
                    else ""
                ),
            )
        )
    limit = data.get("limit")
    return d.AccessPattern(
        name=(data.get("name") or "").strip(),
        operation=form.op,
        description=(data.get("description") or "").strip(),
        index=data.get("index") or d.TABLE_INDEX,
        key=tuple(key),
        filter=(data.get("filter") or "").strip() if form.takes_filter else "",
        projection=_names(data.get("projection") or ""),
        scan_forward=data.get("scan_forward") != "reverse" or not form.takes_order,
        limit=limit if isinstance(limit, int) and form.takes_filter else None,
        consistent_read=bool(data.get("consistent_read")) and form.takes_consistent,
        parameters=tuple(params),
        traffic=d.Traffic(
            float(data.get("rps") or 0), float(data.get("peak_rps") or 0)
        ),
        expects=expects,
        actions=tuple(actions),
    )


def pattern_draft(form: PatternForm) -> d.AccessPattern:
    """The pattern as typed so far, for the live request: bad numbers read
    as empty, nothing refused."""
    data = form.draft_data()
    entities = data.get("expects_entities") or ()
    data["expects_entities"] = [entities] if isinstance(entities, str) else entities
    try:
        data["limit"] = int(data.get("limit") or "")
    except (TypeError, ValueError):
        data["limit"] = None
    for name in ("rps", "peak_rps"):
        try:
            data[name] = float(data.get(name) or 0)
        except (TypeError, ValueError):
            data[name] = 0.0
    consistent = str(data.get("consistent_read") or "").lower()
    data["consistent_read"] = consistent in ("on", "true", "1")
    return pattern_from_data(data, form)
