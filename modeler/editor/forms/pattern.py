"""One access pattern: its operation, index, key condition, filter,
parameters, transaction actions and what it promises to return; or, not
keyed yet, only what it needs."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from django import forms

from modeler import design as d
from modeler.design_check import MAX_NAME, MAX_TEMPLATE
from modeler.editor.forms.common import (
    ATTRIBUTE_NAME,
    BLANK_ROWS,
    KEY_TYPE_CHOICES,
    MAX_ROWS,
    Choices,
    VersionedForm,
    _choices,
    _filled_rows,
    _names,
    _row_count,
)
from modeler.keys import (
    TemplateSyntaxError,
    parse_template,
)

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


SORT_OPERATOR_CHOICES = Choices(
    [
        ("", "any (no condition)"),
        ("=", "="),
        ("<", "<"),
        ("<=", "<="),
        (">", ">"),
        (">=", ">="),
        ("between", "between"),
        ("begins_with", "begins_with"),
    ]
)
PREDICATE_OPERATOR_CHOICES = Choices(_choices(d.PREDICATE_OPERATORS))
PARAMETER_TYPE_CHOICES = Choices([*KEY_TYPE_CHOICES, ("BOOL", "BOOL")])

# What each operation takes, beyond its name, index and parameters.
KEY_CONDITION_OPERATIONS = ("GetItem", "Query")
FILTER_OPERATIONS = ("Query", "Scan")  # a filter and a limit
ORDER_OPERATIONS = ("Query",)
CONSISTENT_OPERATIONS = ("GetItem", "Query", "Scan", "BatchGetItem")
SINGLE_WRITES = {"PutItem": "Put", "UpdateItem": "Update", "DeleteItem": "Delete"}
# The operation choice of a pattern stated by what it needs (d.UNKEYED).
NEEDS_CHOICE = "needs"
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
            ("Not keyed yet", [(NEEDS_CHOICE, "Not keyed yet (state what it needs)")]),
        ],
        widget=forms.Select(attrs={"data-pattern-operation": ""}),
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
        "action": (
            "operation",
            "entity",
            *d.UPDATE_WAYS,
            "remove",
            "condition",
            "count",
        ),
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
        if operation == NEEDS_CHOICE:
            self.op = d.UNKEYED
        else:
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
        action_ops = Choices(
            [("", "—")] + _choices(ACTION_CHOICES.get(self.op, d.ACTION_OPERATIONS))
        )
        entity_choices = Choices([("", "—")] + _choices(entity_names))
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
                            choices=PARAMETER_TYPE_CHOICES,
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
    def unkeyed(self) -> bool:
        """Stated by what it needs: no index, key, filter or actions."""
        return self.op == d.UNKEYED

    @property
    def takes_key(self) -> bool:
        return self.op in KEY_CONDITION_OPERATIONS

    @property
    def takes_filter(self) -> bool:
        return self.op in FILTER_OPERATIONS

    @property
    def takes_limit(self) -> bool:
        return self.takes_filter or self.unkeyed

    @property
    def takes_order(self) -> bool:
        return self.op in ORDER_OPERATIONS

    @property
    def takes_consistent(self) -> bool:
        return self.op in CONSISTENT_OPERATIONS or self.unkeyed

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
            names.append("filter")
        if not self.takes_limit:
            names.append("limit")
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
            "operation": pattern.operation if pattern.keyed else NEEDS_CHOICE,
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
                **{
                    f"action-{i}-{how}": ", ".join(
                        f"{k}={v}" for k, v in getattr(action, how)
                    )
                    for how in d.UPDATE_WAYS
                },
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
        if self.unkeyed and not data.get("expects_entities"):
            self.add_error(
                "expects_entities",
                "Choose what the pattern returns: a pattern not keyed yet is "
                "stated by what it needs.",
            )
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
            for how in d.UPDATE_WAYS:
                try:
                    _pairs(data.get(f"action-{i}-{how}") or "")
                except ValueError as exc:
                    self.add_error(f"action-{i}-{how}", str(exc))
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
        match = re.match(r"^\.(?:expects|needs)\.where\.([^.]+)", tail)
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
            (".needs.order_by", "order_by"),
            (".needs", "expects_entities"),
            (".projection", "projection"),
        ):
            if tail.startswith(prefix):
                return field
        if re.match(r"^\.(" + "|".join(self.ROW_KINDS["action"][1:]) + ")", tail):
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
        update = operation == "Update"
        updates = {}
        for how in d.UPDATE_WAYS:
            try:
                pairs = _pairs(data.get(f"action-{i}-{how}") or "")
            except ValueError:
                pairs = ()
            updates[how] = pairs if update else ()
        action_key = tuple(
            d.KeyClause(attr.name, "=", (value,))
            for attr in form.table_keys
            if (value := data.get(f"action-{i}-key-{attr.name}") or "")
        )
        actions.append(
            d.Action(
                operation=operation,
                entity=data.get(f"action-{i}-entity") or "",
                key=action_key,
                **updates,
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
        index=(data.get("index") or d.TABLE_INDEX)
        if not form.unkeyed
        else d.TABLE_INDEX,
        key=tuple(key),
        filter=(data.get("filter") or "").strip() if form.takes_filter else "",
        projection=_names(data.get("projection") or ""),
        scan_forward=data.get("scan_forward") != "reverse" or not form.takes_order,
        limit=limit if isinstance(limit, int) and form.takes_limit else None,
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
