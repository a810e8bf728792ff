"""Review of every entity's key templates against the table and its indexes.

Each finding is a `Problem` whose path is in the design file's terms
(`entities.Order.keys.SK`) and whose message gives the template column where
it applies, so the editor can point at the character.
"""

from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from modeler.design.model import Attribute, Design, Entity, KeyTemplate, Table
from modeler.design.problems import Problem
from modeler.keys.collisions import check_key_collisions
from modeler.keys.condition import ConditionSyntaxError, parse_condition
from modeler.keys.lengths import max_key_bytes
from modeler.keys.template import (
    Literal,
    Placeholder,
    Template,
    TemplateSyntaxError,
    parse_template,
)

PARTITION_KEY_MAX_BYTES = 2048
SORT_KEY_MAX_BYTES = 1024
# For N and B key attributes: how a message names the key and its values.
_KEY_TYPE_NAMES = {"N": ("a number (N)", "number"), "B": ("binary (B)", "binary")}
_DATE_GENERATORS = ("date", "timestamp")


@dataclass(frozen=True)
class KeyRole:
    """What a key attribute is across the table and its indexes. One
    attribute can be a partition key of one index and a sort key of another;
    being a sort key anywhere is what limits its length and its order."""

    name: str
    type: str
    is_sort: bool
    is_table_key: bool

    @property
    def max_bytes(self) -> int:
        return SORT_KEY_MAX_BYTES if self.is_sort else PARTITION_KEY_MAX_BYTES

    @property
    def kind(self) -> str:
        return "sort key" if self.is_sort else "partition key"


def key_roles(table: Table) -> dict[str, KeyRole]:
    sort = {table.sort_key.name} if table.sort_key else set()
    for index in table.indexes:
        sort.update(a.name for a in index.sort_key)
    table_keys = {a.name for a in table.key_attributes}
    return {
        a.name: KeyRole(a.name, a.type, a.name in sort, a.name in table_keys)
        for a in table.all_key_attributes()
    }


def check_entity_keys(design: Design) -> list[Problem]:
    roles = key_roles(design.table)
    problems: list[Problem] = []
    for entity in design.entities:
        problems += _check_table_keys_present(design.table, entity)
        problems += _check_index_presence(design.table, entity)
        for key_name, key in entity.keys.items():
            path = f"entities.{entity.name}.keys.{key_name}"
            problems += [
                Problem(severity, path, message)
                for severity, message in _key_findings(
                    entity, key_name, key, roles.get(key_name)
                )
            ]
    return problems


def _check_table_keys_present(table: Table, entity: Entity) -> list[Problem]:
    path = f"entities.{entity.name}.keys"
    if not entity.keys:
        # An entity written before its keys, as a design stated by what its
        # patterns need is: nothing is wrong yet, but nothing can be stored.
        return [
            Problem(
                "warning",
                path,
                f"{entity.name} has no keys yet; propose keys or write them",
            )
        ]
    problems = []
    for kind, attribute in (
        ("partition key", table.partition_key),
        ("sort key", table.sort_key),
    ):
        if attribute is not None and attribute.name not in entity.keys:
            problems.append(
                Problem(
                    "error",
                    path,
                    f"every entity needs a template for the table's {kind} "
                    f"'{attribute.name}'",
                )
            )
    return problems


def _check_index_presence(table: Table, entity: Entity) -> list[Problem]:
    """An entity with some but not all of an index's key attributes is
    silently left out of that index, which is rarely what was meant.

    The table's own keys say nothing (every item has them), nor does an
    attribute the entity writes for another index it is fully in.
    """
    table_keys = {a.name for a in table.key_attributes}
    complete = [
        index
        for index in table.indexes
        if all(a.name in entity.keys for a in index.key_attributes)
    ]
    explained = table_keys | {a.name for i in complete for a in i.key_attributes}
    complete_names = {index.name for index in complete}
    problems = []
    for index in table.indexes:
        if index.name in complete_names:
            continue
        present = [a.name for a in index.key_attributes if a.name in entity.keys]
        if not any(name not in explained for name in present):
            continue
        missing = [a.name for a in index.key_attributes if a.name not in entity.keys]
        problems.append(
            Problem(
                "error",
                f"entities.{entity.name}.keys",
                f"{_quoted(present)} without {_quoted(missing)} leaves "
                f"{entity.name} out of index {index.name}: add a template for "
                f"{_quoted(missing)}, or remove {_quoted(present)} if the entity "
                "should not be in the index",
            )
        )
    return problems


def _key_findings(
    entity: Entity, key_name: str, key: KeyTemplate, role: KeyRole | None
) -> list[tuple[str, str]]:
    if role is None:
        return [
            (
                "error",
                f"'{key_name}' is not a key attribute of the table or of any index",
            )
        ]
    findings = []
    if key.when and role.is_table_key:
        findings.append(
            (
                "error",
                f"'{role.name}' is a key of the table, so it cannot have a "
                "condition: every item needs its primary key",
            )
        )
    try:
        template = parse_template(key.template)
    except TemplateSyntaxError as error:
        findings.append(("error", str(error)))
    else:
        findings += _template_findings(entity, template, role)
    if key.when:
        findings += _condition_findings(entity, key.when)
    return findings


def _template_findings(
    entity: Entity, template: Template, role: KeyRole
) -> list[tuple[str, str]]:
    if not template.parts:
        return [("error", "a key value cannot be empty")]
    findings = [
        ("error", _unknown_attribute(entity, p))
        for p in template.placeholders
        if entity.attribute(p.attribute) is None
    ]
    if role.type in _KEY_TYPE_NAMES:
        key_kind, value_kind = _KEY_TYPE_NAMES[role.type]
        if not _is_single_placeholder_of(entity, template, role.type):
            findings.append(
                (
                    "error",
                    f"key attribute '{role.name}' is {key_kind}: its template must "
                    f"be a single placeholder of a {value_kind} attribute, like "
                    f"{{{role.name}}}",
                )
            )
    else:
        findings += _string_key_findings(entity, template, role)
    # A number key is bounded by its 38 significant digits, not by bytes.
    size = None if role.type == "N" else max_key_bytes(template, entity)
    if size is not None and size > role.max_bytes:
        findings.append(
            (
                "error",
                f"can be up to {size} bytes long; DynamoDB allows at most "
                f"{role.max_bytes} bytes for a {role.kind}",
            )
        )
    return findings


def _is_single_placeholder_of(entity: Entity, template: Template, type_: str) -> bool:
    if not template.is_single_placeholder:
        return False
    attribute = entity.attribute(template.placeholders[0].attribute)
    # An unknown attribute is reported on its own; one error is enough.
    return attribute is None or attribute.type == type_


def _string_key_findings(
    entity: Entity, template: Template, role: KeyRole
) -> list[tuple[str, str]]:
    findings = []
    for placeholder in template.placeholders:
        attribute = entity.attribute(placeholder.attribute)
        if attribute is None:
            continue
        if attribute.type == "B":
            findings.append(
                (
                    "error",
                    f"attribute '{attribute.name}' at column {placeholder.column} "
                    "is binary (B) and cannot be placed in a string key",
                )
            )
        elif attribute.type != "S" and attribute.type != "N":
            findings.append(
                (
                    "error",
                    f"attribute '{attribute.name}' at column {placeholder.column} "
                    f"is of type {attribute.type}; key values must be S, N or B",
                )
            )
        elif role.is_sort:
            findings += _sort_order_findings(attribute, placeholder)
    findings += _touching_placeholders(template)
    return findings


def _sort_order_findings(
    attribute: Attribute, placeholder: Placeholder
) -> list[tuple[str, str]]:
    generator = attribute.generator
    kind = generator.kind if generator else ""
    if kind in _DATE_GENERATORS:
        if generator is not None and "format" in generator.params:
            return [
                (
                    "warning",
                    f"'{attribute.name}' at column {placeholder.column} uses the "
                    f"format '{generator.params['format']}': dates in sort keys "
                    "should be ISO-8601 so they sort in time order",
                )
            ]
        # An ISO date or an epoch of a fixed number of digits sorts in time
        # order without padding.
        return []
    if (
        attribute.type == "N"
        and placeholder.width is None
        and not numbers_of_one_length(attribute)
    ):
        return [
            (
                "warning",
                f"number '{attribute.name}' is placed unpadded in a string key at "
                f"column {placeholder.column}: '10' sorts before '9'; use "
                f"{{{attribute.name}:0Nd}}",
            )
        ]
    return []


def numbers_of_one_length(attribute: Attribute) -> bool:
    """Whether the attribute's generator bounds keep every value a whole
    number of one length, 0 or more (an int from 1000 to 9999, a choice of
    such numbers, a constant): then its text sorts as its numbers do and
    needs no padding."""
    generator = attribute.generator
    if generator is None:
        return False
    params = generator.params
    if generator.kind == "int":
        values = [params.get("min"), params.get("max")]
    elif generator.kind == "choice":
        options = params["value"] if set(params) == {"value"} else params
        values = list(options)
    elif generator.kind == "constant":
        values = [params.get("value")]
    else:
        return False
    lengths = set()
    for value in values:
        try:
            number = Decimal(str(value))
        except (InvalidOperation, ValueError):
            return False
        if number < 0 or number != number.to_integral_value():
            return False
        lengths.add(len(str(int(number))))
    return len(lengths) == 1


def _touching_placeholders(template: Template) -> list[tuple[str, str]]:
    findings = []
    for first, second in itertools.pairwise(template.parts):
        if isinstance(first, Literal) or isinstance(second, Literal):
            continue
        # A formatted number ends where its digits end; any other value could
        # end anywhere.
        if first.width is not None:
            continue
        findings.append(
            (
                "warning",
                f"placeholders {first.source} and {second.source} touch at column "
                f"{second.column}: keys cannot be parsed back into values; put a "
                "separator such as '#' between them",
            )
        )
    return findings


def _condition_findings(entity: Entity, text: str) -> list[tuple[str, str]]:
    try:
        condition = parse_condition(text)
    except ConditionSyntaxError as error:
        return [("error", f"condition: {error}")]
    return [
        ("error", f"condition: unknown attribute '{name}'{_suggestion(entity, name)}")
        for name in condition.attributes
        if entity.attribute(name) is None
    ]


def _unknown_attribute(entity: Entity, placeholder: Placeholder) -> str:
    return (
        f"unknown attribute '{placeholder.attribute}' at column "
        f"{placeholder.column}{_suggestion(entity, placeholder.attribute)}"
    )


def _suggestion(entity: Entity, name: str) -> str:
    close = difflib.get_close_matches(name, [a.name for a in entity.attributes], 1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _quoted(names: list[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def check_keys(design: Design) -> list[Problem]:
    """Every finding about the design's key templates."""
    return check_entity_keys(design) + check_key_collisions(design)
