"""The repeated rows of an access pattern's form, each a small form with
its own checks: the key condition (a row per key attribute of the chosen
table or index), the parameters, the predicates of what it must return,
and the items it writes or reads (its actions)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms

from modeler.design import model as d
from modeler.design_check import MAX_TEMPLATE
from modeler.editor.forms.common import (
    ATTRIBUTE_NAME,
    KEY_TYPE_CHOICES,
    Choices,
    _choices,
    _names,
)
from modeler.editor.forms.rows import KeyedRows, RowForm, Rows, rows_formset
from modeler.keys import TemplateSyntaxError, parse_template

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


def _template_input(**attrs: str) -> forms.TextInput:
    return forms.TextInput(
        attrs={
            "class": "code template-input",
            "spellcheck": "false",
            "autocomplete": "off",
            **attrs,
        }
    )


def _text(label: str) -> forms.CharField:
    """A plain text field of a row."""
    return forms.CharField(
        required=False,
        max_length=MAX_TEMPLATE,
        label=label,
        widget=forms.TextInput(attrs={"class": "code", "spellcheck": "false"}),
    )


def _stripped(values: Mapping[str, Any], name: str) -> str:
    return (values.get(name) or "").strip()


def present(values: Iterable[Any]) -> tuple[Any, ...]:
    """The values that are something (a blank row gives None)."""
    return tuple(value for value in values if value is not None)


# --- The key condition -------------------------------------------------------------


class PartitionKeyForm(RowForm):
    """`PK = <template>`: the partition key attribute's value. Its one
    field is named as the row (`key-PK`)."""

    value = forms.CharField(
        max_length=MAX_TEMPLATE, required=False, strip=False, widget=_template_input()
    )

    def __init__(self, *args: Any, attribute: d.KeyAttribute, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.attribute = attribute
        self.fields["value"].label = f"{attribute.name} ="

    def add_prefix(self, field_name: str) -> str:
        return self.prefix or field_name

    def clause(self, *, draft: bool = False) -> d.KeyClause | None:
        value = self.values(draft=draft).get("value") or ""
        return d.KeyClause(self.attribute.name, "=", (value,)) if value else None


class PartitionKeyRows(KeyedRows):
    what = "partition key"

    @classmethod
    def row_initial(
        cls, initial: Mapping[str, Any], kind: str, name: str
    ) -> dict[str, Any]:
        return {"value": initial.get(f"{kind}-{name}")}


class SortKeyForm(RowForm):
    """A condition on a sort key attribute: none, a comparison, between
    two values or begins_with."""

    op = forms.ChoiceField(choices=SORT_OPERATOR_CHOICES, required=False)
    value = forms.CharField(
        max_length=MAX_TEMPLATE, required=False, strip=False, widget=_template_input()
    )
    value2 = forms.CharField(
        max_length=MAX_TEMPLATE, required=False, strip=False, widget=_template_input()
    )

    def __init__(self, *args: Any, attribute: d.KeyAttribute, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.attribute = attribute
        name = attribute.name
        self.fields["op"].label = name
        self.fields["value"].label = f"{name} value"
        self.fields["value2"].label = f"{name} and"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        op = data.get("op")
        if op and not data.get("value"):
            self.add_error("value", f"{op} needs a value.")
        if op == "between" and not data.get("value2"):
            self.add_error("value2", "between needs a second value.")
        return data

    def clause(self, *, draft: bool = False) -> d.KeyClause | None:
        values = self.values(draft=draft)
        op = values.get("op")
        if not op:
            return None
        parts = [values.get("value") or ""]
        if op == "between":
            parts.append(values.get("value2") or "")
        return d.KeyClause(self.attribute.name, op, tuple(parts))


class SortKeyRows(KeyedRows):
    what = "sort key"


PartitionKeyFormSet = rows_formset(PartitionKeyForm, PartitionKeyRows)
SortKeyFormSet = rows_formset(SortKeyForm, SortKeyRows)


def key_initial(
    pattern: d.AccessPattern, partition: Iterable[d.KeyAttribute]
) -> dict[str, Any]:
    """The key condition as its page posts it: `key-PK`, `sort-SK-op`..."""
    partition_names = {a.name for a in partition}
    data: dict[str, Any] = {}
    for clause in pattern.key:
        if clause.attribute in partition_names:
            data[f"key-{clause.attribute}"] = clause.values[0] if clause.values else ""
            continue
        values = [*clause.values, "", ""]
        data[f"sort-{clause.attribute}-op"] = clause.operator
        data[f"sort-{clause.attribute}-value"] = values[0]
        data[f"sort-{clause.attribute}-value2"] = values[1]
    return data


# --- Parameters ----------------------------------------------------------------------


class ParameterForm(RowForm):
    """A parameter of the request; a row with no name is left out."""

    name = _text("Name")
    type = forms.ChoiceField(
        choices=PARAMETER_TYPE_CHOICES, initial="S", label="Type", required=False
    )
    example = _text("Example")

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if name and not ATTRIBUTE_NAME.match(name):
            raise forms.ValidationError(f"'{name}' is not a parameter name.")
        return name

    def parameter(self, *, draft: bool = False) -> d.Parameter | None:
        values = self.values(draft=draft)
        name = _stripped(values, "name")
        if not name:
            return None
        return d.Parameter(
            name, values.get("type") or "S", _stripped(values, "example")
        )


def parameter_initial(parameter: d.Parameter) -> dict[str, Any]:
    return {
        "name": parameter.name,
        "type": parameter.type,
        "example": parameter.example,
    }


class ParameterRows(Rows):
    what = "parameter"


ParameterFormSet = rows_formset(ParameterForm, ParameterRows)


# --- Predicates of what it must return ---------------------------------------------


class PredicateForm(RowForm):
    """`status = OPEN`, `total between 10 and 20`, `tag in a, b`; a row
    with no attribute is left out."""

    attribute = _text("Attribute")
    operator = forms.ChoiceField(
        choices=PREDICATE_OPERATOR_CHOICES,
        initial="=",
        label="Operator",
        required=False,
    )
    value = _text("Value")
    value2 = _text("Value (and)")

    def predicate(self, *, draft: bool = False) -> d.Predicate | None:
        values = self.values(draft=draft)
        attribute = _stripped(values, "attribute")
        if not attribute:
            return None
        op = values.get("operator") or "="
        value = _stripped(values, "value")
        operands: tuple[str, ...] = (value,)
        if op in ("exists", "not_exists"):
            operands = ()
        elif op == "in":
            operands = tuple(v.strip() for v in value.split(",") if v.strip())
        elif op == "between":
            operands = (value, _stripped(values, "value2"))
        return d.Predicate(attribute, op, operands)


def predicate_initial(predicate: d.Predicate) -> dict[str, Any]:
    values = [*predicate.values, "", ""]
    if predicate.operator == "in":
        values = [", ".join(predicate.values), ""]
    return {
        "attribute": predicate.attribute,
        "operator": predicate.operator,
        "value": values[0],
        "value2": values[1],
    }


class PredicateRows(Rows):
    what = "predicate"


PredicateFormSet = rows_formset(PredicateForm, PredicateRows)


# --- Actions ---------------------------------------------------------------------


class ActionForm(RowForm):
    """One item the pattern writes or reads: its operation (a single
    write's is the pattern's), entity, key (empty: the entity's key
    templates), what an update writes, a condition and a count. A row with
    no operation (a single write's: no entity) is left out."""

    operation = forms.ChoiceField(required=False, label="Action")
    entity = forms.ChoiceField(required=False, label="Entity")
    set = _text("Set")
    set_if_absent = _text("Set_if_absent")
    append = _text("Append")
    add = _text("Add")
    delete = _text("Delete")
    remove = _text("Remove")
    condition = _text("Condition")
    count = _text("Count")

    def __init__(
        self,
        *args: Any,
        operations: Choices,
        entities: Choices,
        table_keys: tuple[d.KeyAttribute, ...],
        write: str = "",
        **kwargs: Any,
    ) -> None:
        """`write`: the pattern's single write (Put, Update, Delete), else ''."""
        super().__init__(*args, **kwargs)
        self.fields["operation"].choices = operations
        self.fields["entity"].choices = entities
        self.write = write
        self.key_names = [f"key-{a.name}" for a in table_keys]
        for attr, name in zip(table_keys, self.key_names, strict=True):
            self.fields[name] = forms.CharField(
                required=False,
                max_length=MAX_TEMPLATE,
                strip=False,
                label=f"{attr.name} =",
                widget=_template_input(placeholder="the entity's template"),
            )
        self.fast_widgets()

    @property
    def keys(self) -> list[forms.BoundField]:
        return [self[name] for name in self.key_names]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if (self.write or data.get("operation")) and not data.get("entity"):
            self.add_error("entity", "Choose the entity it writes or reads.")
        for how in d.UPDATE_WAYS:
            try:
                _pairs(data.get(how) or "")
            except ValueError as exc:
                self.add_error(how, str(exc))
        for name in self.key_names:
            self._check_key(name, data.get(name) or "")
        return data

    def _check_key(self, name: str, template: str) -> None:
        if not template:
            return
        try:
            parse_template(template)
        except TemplateSyntaxError as exc:
            self.add_error(name, str(exc))

    def action(self, *, draft: bool = False) -> d.Action | None:
        values = self.values(draft=draft)
        operation = self.write or values.get("operation")
        if not operation or (self.write and not values.get("entity")):
            return None
        update = operation == "Update"
        return d.Action(
            operation=operation,
            entity=values.get("entity") or "",
            key=present(self._clause(values, name) for name in self.key_names),
            **{
                how: _pairs_or_none(values.get(how)) if update else ()
                for how in d.UPDATE_WAYS
            },
            remove=_names(values.get("remove") or "") if update else (),
            condition=_stripped(values, "condition"),
            count="" if self.write else _stripped(values, "count"),
        )

    def _clause(self, values: Mapping[str, Any], name: str) -> d.KeyClause | None:
        value = values.get(name) or ""
        return d.KeyClause(name.removeprefix("key-"), "=", (value,)) if value else None


def action_initial(action: d.Action) -> dict[str, Any]:
    return {
        "operation": action.operation,
        "entity": action.entity,
        **{
            how: ", ".join(f"{k}={v}" for k, v in getattr(action, how))
            for how in d.UPDATE_WAYS
        },
        "remove": ", ".join(action.remove),
        "condition": action.condition,
        "count": action.count,
        **{
            f"key-{clause.attribute}": clause.values[0] if clause.values else ""
            for clause in action.key
        },
    }


class ActionRows(Rows):
    what = "action"
    more = 1


ActionFormSet = rows_formset(ActionForm, ActionRows)


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


def _pairs_or_none(text: str | None) -> tuple[tuple[str, str], ...]:
    """The pairs, or none while they do not parse (as typed so far)."""
    try:
        return _pairs(text or "")
    except ValueError:
        return ()
