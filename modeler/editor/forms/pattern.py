"""One access pattern: its operation, index, key condition, filter,
parameters, transaction actions and what it promises to return; or, not
keyed yet, only what it needs. The repeated rows (key condition,
parameters, predicates, actions) are formsets of pattern_rows' forms; this
form shows and saves only what the chosen operation takes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django import forms

from modeler.design import model as d
from modeler.design_check import MAX_NAME
from modeler.editor.forms.common import Choices, VersionedForm, _choices, _names
from modeler.editor.forms.pattern_rows import (
    ActionForm,
    ActionFormSet,
    ParameterFormSet,
    PartitionKeyFormSet,
    PredicateFormSet,
    SortKeyFormSet,
    action_initial,
    key_initial,
    parameter_initial,
    predicate_initial,
    present,
)
from modeler.editor.forms.rows import (
    RowForm,
    Rows,
    bind_keyed_rows,
    bind_rows,
    rows_posted,
)


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
# A problem of the design check at one of these (after the pattern's
# own path) goes beside this field.
PATTERN_FIELDS = (
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
)
ACTION_PARTS = ("operation", "entity", *d.UPDATE_WAYS, "remove", "condition", "count")


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

    def __init__(
        self,
        *args: Any,
        design: d.Design,
        pattern: d.AccessPattern | None = None,
        more_rows: bool = False,
        **kwargs: Any,
    ) -> None:
        """`more_rows`: the page's "More rows", a few blank rows of each
        kind added to those posted."""
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
        operation = self._chosen("operation")
        if operation == NEEDS_CHOICE:
            self.op = d.UNKEYED
        else:
            self.op = operation if operation in d.OPERATIONS else "Query"
        self.table_keys = table.key_attributes
        self.partition_attrs, self.sort_attrs = index_keys(
            table, self._chosen("index") or d.TABLE_INDEX
        )
        self._bind_rows(entity_names, more_rows)

    def _chosen(self, name: str) -> Any:
        """A field's value as posted, or (unbound) as initially."""
        if self.is_bound:
            return self.data.get(self.add_prefix(name))
        return self.initial.get(name)

    def _bind_rows(self, entity_names: list[str], more: bool) -> None:
        self.partition_rows = bind_keyed_rows(
            self,
            PartitionKeyFormSet,
            "key",
            [a.name for a in self.partition_attrs],
            per_row=[{"attribute": a} for a in self.partition_attrs],
        )
        self.sort_rows = bind_keyed_rows(
            self,
            SortKeyFormSet,
            "sort",
            [a.name for a in self.sort_attrs],
            per_row=[{"attribute": a} for a in self.sort_attrs],
        )
        self.param_rows = bind_rows(self, ParameterFormSet, "param", more=more)
        self.where_rows = bind_rows(self, PredicateFormSet, "where", more=more)
        operations = ACTION_CHOICES.get(self.op, d.ACTION_OPERATIONS)
        self.action_rows = bind_rows(
            self,
            ActionFormSet,
            "action",
            more=more,
            form_kwargs={
                "operations": Choices([("", "—"), *_choices(operations)]),
                "entities": Choices([("", "—"), *_choices(entity_names)]),
                "table_keys": self.table_keys,
                "write": SINGLE_WRITES.get(self.op, ""),
            },
        )
        for row in [*self._kept_key_rows(), *self._kept_action_rows()]:
            # Typed for another operation: carried as typed, not checked.
            row.kept = True

    def row_sets(self) -> tuple[Rows, ...]:
        return (
            self.partition_rows,
            self.sort_rows,
            self.param_rows,
            self.where_rows,
            self.action_rows,
        )

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
    def shown_action_rows(self) -> list[ActionForm]:
        rows = list(self.action_rows) if self.takes_actions else []
        return rows[:1] if self.single_write else rows

    def _kept_key_rows(self) -> list[RowForm]:
        """The key condition's rows, when the operation takes no key."""
        return [] if self.takes_key else [*self.partition_rows, *self.sort_rows]

    def _kept_action_rows(self) -> list[RowForm]:
        """The action rows the operation does not show."""
        return list(self.action_rows)[len(self.shown_action_rows) :]

    def _kept_names(self) -> list[str]:
        """The form's own fields the operation does not take."""
        takes = {
            "filter": self.takes_filter,
            "limit": self.takes_limit,
            "scan_forward": self.takes_order,
            "consistent_read": self.takes_consistent,
        }
        return [name for name, taken in takes.items() if not taken]

    @property
    def kept_fields(self) -> list[forms.BoundField]:
        """The fields the chosen operation does not take, kept as typed."""
        return [
            *(field for row in self._kept_key_rows() for field in row),
            *(self[name] for name in self._kept_names()),
            *(field for row in self._kept_action_rows() for field in row),
        ]

    @property
    def partition_fields(self) -> list[forms.BoundField]:
        return [row["value"] for row in self.partition_rows]

    @property
    def sort_fields(
        self,
    ) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [(row["op"], row["value"], row["value2"]) for row in self.sort_rows]

    @classmethod
    def initial_for(
        cls, design: d.Design, pattern: d.AccessPattern | None, version: int
    ) -> dict[str, Any]:
        """What the pattern's page posts untouched (a new one's, for None)."""
        if pattern is None:
            return {
                "version": version,
                "operation": "Query",
                "index": d.TABLE_INDEX,
                "scan_forward": "forward",
                "rps": 0,
                "peak_rps": 0,
                **rows_posted("param", []),
                **rows_posted("where", []),
                **rows_posted("action", [], blank=1),
            }
        expects = pattern.expects
        return {
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
            **key_initial(pattern, index_keys(design.table, pattern.index)[0]),
            **rows_posted("param", [parameter_initial(p) for p in pattern.parameters]),
            **_expects_initial(expects),
            **rows_posted(
                "where",
                [predicate_initial(p) for p in expects.where] if expects else [],
            ),
            **rows_posted(
                "action", [action_initial(a) for a in pattern.actions], blank=1
            ),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in self._kept_names():
            # Not part of what this operation saves: not refused either.
            self._errors.pop(name, None)
        if self.unkeyed and not data.get("expects_entities") and not self.errors:
            self.add_error(
                "expects_entities",
                "Choose what the pattern returns: a pattern not keyed yet is "
                "stated by what it needs.",
            )
        return data

    def to_pattern(self) -> d.AccessPattern:
        return self.pattern_of(self.cleaned_data)

    def pattern_of(
        self, values: Mapping[str, Any], *, draft: bool = False
    ) -> d.AccessPattern:
        """The pattern the values (cleaned, or as typed so far) and the
        rows describe: only what its operation takes."""
        key_rows = [*self.partition_rows, *self.sort_rows]
        pattern = d.AccessPattern(
            name=(values.get("name") or "").strip(),
            operation=self.op,
            description=(values.get("description") or "").strip(),
            index=values.get("index") or d.TABLE_INDEX,
            key=present(row.clause(draft=draft) for row in key_rows),
            filter=(values.get("filter") or "").strip(),
            projection=_names(values.get("projection") or ""),
            scan_forward=values.get("scan_forward") != "reverse",
            limit=values.get("limit"),
            consistent_read=bool(values.get("consistent_read")),
            parameters=present(row.parameter(draft=draft) for row in self.param_rows),
            traffic=d.Traffic(
                float(values.get("rps") or 0), float(values.get("peak_rps") or 0)
            ),
            expects=self._expects(values, draft=draft),
            actions=present(row.action(draft=draft) for row in self.shown_action_rows),
        )
        return self._only_what_it_takes(pattern)

    def _expects(
        self, values: Mapping[str, Any], *, draft: bool
    ) -> d.Expectation | None:
        entities = tuple(values.get("expects_entities") or ())
        if not entities:
            return None
        where = present(row.predicate(draft=draft) for row in self.where_rows)
        return d.Expectation(entities, where, _names(values.get("order_by") or ""))

    def _only_what_it_takes(self, pattern: d.AccessPattern) -> d.AccessPattern:
        """The pattern without what its operation does not take (the
        fields kept for the other operations)."""
        left_out: dict[str, Any] = {}
        if self.unkeyed:
            left_out["index"] = d.TABLE_INDEX
        if not self.takes_key:
            left_out["key"] = ()
        if not self.takes_filter:
            left_out["filter"] = ""
        if not self.takes_order:
            left_out["scan_forward"] = True
        if not self.takes_limit:
            left_out["limit"] = None
        if not self.takes_consistent:
            left_out["consistent_read"] = False
        return replace(pattern, **left_out)

    def field_for(self, path: str) -> str | None:
        tail = re.sub(r"^access_patterns\[\d+\]", "", path)
        if self.single_write and tail.startswith(".key"):
            # A single write's key is its action's (the design file's sugar).
            tail = ".actions[0]" + tail
        rules = (
            (r"^\.actions\[(\d+)\]\.key(?:\.([^.]+))?", self._action_key_field),
            (r"^\.key\.([^.]+)", self._key_field),
            (r"^\.key$", self._first_key_field),
            (r"^\.parameters\.([^.]+)", self._parameter_field),
            (r"^\.(?:expects|needs)\.where\.([^.]+)", self._predicate_field),
            (r"^\.actions\[(\d+)\]\.?(\w*)", self._action_field),
        )
        for rule, field in rules:
            match = re.match(rule, tail)
            if match:
                return field(match)
        return self._pattern_field(tail)

    def _action_key_field(self, match: re.Match[str]) -> str:
        i, name = match.groups()
        names = [a.name for a in self.table_keys]
        return f"action-{i}-key-{name if name in names else names[0]}"

    def _key_field(self, match: re.Match[str]) -> str:
        name = match.group(1)
        if name in self.partition_rows.names:
            return f"key-{name}"
        return f"sort-{name}-value"

    def _first_key_field(self, match: re.Match[str]) -> str | None:
        names = self.partition_rows.names
        return f"key-{names[0]}" if names else None

    def _parameter_field(self, match: re.Match[str]) -> str | None:
        part = "example" if "example" in match.string else "name"
        return self._row_named(self.param_rows, "name", match.group(1), part)

    def _predicate_field(self, match: re.Match[str]) -> str | None:
        return self._row_named(self.where_rows, "attribute", match.group(1))

    def _row_named(
        self, rows: Rows, field: str, name: str, part: str = ""
    ) -> str | None:
        """The `part` (else the `field`) of the first row whose `field` is
        typed as `name`."""
        for row in rows:
            if row.raw(field).strip() == name:
                return self.name_in_form(row, part or field)
        return None

    def _action_field(self, match: re.Match[str]) -> str:
        i, part = match.groups()
        return f"action-{i}-{part if part in ACTION_PARTS else 'operation'}"

    def _pattern_field(self, tail: str) -> str | None:
        for prefix, field in PATTERN_FIELDS:
            if tail.startswith(prefix):
                return field
        if re.match(r"^\.(" + "|".join(ACTION_PARTS[1:]) + ")", tail):
            return f"action-0-{tail[1:].split('.')[0]}"
        return None


def _expects_initial(expects: d.Expectation | None) -> dict[str, Any]:
    if expects is None:
        return {}
    return {
        "expects_entities": list(expects.entities),
        "order_by": ", ".join(expects.order_by),
    }


def pattern_draft(form: PatternForm) -> d.AccessPattern:
    """The pattern as typed so far, for the live request: bad numbers read
    as empty, nothing refused."""
    return form.pattern_of(form.draft(), draft=True)
