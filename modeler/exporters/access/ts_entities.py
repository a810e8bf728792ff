"""The entity part of a generated TypeScript module: an interface per
entity (its attributes, typed), a function per key template, the keys an
item has (sparse conditions included) and how a returned item is
recognised."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from modeler.design import model as d
from modeler.exporters.access.ts_names import (
    access,
    assign,
    identifier,
    lower_camel,
    prop,
    upper_camel,
)
from modeler.exporters.literals import comment_text, typescript_string
from modeler.keys import parse_condition, parse_template
from modeler.keys.condition import Comparison
from modeler.keys.template import Placeholder

FIELD_TYPES = {
    "S": "string",
    "N": "number",
    "B": "Uint8Array",
    "BOOL": "boolean",
    "NULL": "null",
    "L": "Value[]",
    "M": "{ [name: string]: Value }",
    "SS": "Set<string>",
    "NS": "Set<number>",
    "BS": "Set<Uint8Array>",
}
KEY_TYPES = {"S": "string", "N": "number", "B": "Uint8Array"}


@dataclass
class TsEntity:
    """The names an entity's code goes by."""

    entity: d.Entity
    interface: str
    key_functions: dict[str, str]  # key attribute -> function
    table_key: str
    all_keys: str
    to_item: str
    from_item: str
    part_from_item: str
    keys_constant: str
    values_constant: str
    specificity: int = 0

    @property
    def tag(self) -> str:
        return typescript_string(self.entity.name)


@dataclass
class TsNames:
    by_name: dict[str, TsEntity] = field(default_factory=dict)

    def __getitem__(self, name: str) -> TsEntity:
        return self.by_name[name]


def name_entities(design: d.Design, taken: set[str]) -> TsNames:
    names = TsNames()
    key_names = {a.name for a in design.table.all_key_attributes()}
    for entity in design.entities:
        interface = identifier(upper_camel(entity.name), taken, fallback="Entity")
        base = lower_camel(entity.name) or "entity"

        def named(suffix: str, base: str = base) -> str:
            return identifier(base + suffix, taken, fallback="entity")

        functions = {
            key: named(upper_camel(key) or "Key")
            for key in entity.keys
            if key in key_names
        }
        literal = sum(
            len(part.text)
            for key in design.table.key_attributes
            if (template := entity.keys.get(key.name))
            for part in parse_template(template.template).parts
            if not isinstance(part, Placeholder)
        )
        names.by_name[entity.name] = TsEntity(
            entity,
            interface,
            functions,
            named("TableKey"),
            named("AllKeys"),
            named("ToItem"),
            named("FromItem"),
            named("PartFromItem"),
            named("KeyPatterns"),
            named("KeyValues"),
            specificity=literal,
        )
    return names


def _key_types(design: d.Design) -> dict[str, str]:
    return {a.name: a.type for a in design.table.all_key_attributes()}


def render_expression(
    template_source: str,
    key_type: str,
    value_of: Callable[[str], str],
    type_of: Callable[[str], str],
) -> str:
    """TypeScript that renders a key template: literal text and each
    placeholder's value as a key places it (`text`, `padded`)."""
    template = parse_template(template_source)
    if key_type in ("N", "B"):
        if template.is_constant:
            if key_type == "N":
                return f"Number({typescript_string(template.source)})"
            return f"new TextEncoder().encode({typescript_string(template.source)})"
        return value_of(template.placeholders[0].attribute)
    pieces = []
    for part in template.parts:
        if not isinstance(part, Placeholder):
            pieces.append(typescript_string(part.text))
        elif part.width is not None:
            pieces.append(
                f"padded({value_of(part.attribute)}, "
                f"{typescript_string(part.format_spec)})"
            )
        elif type_of(part.attribute) == "S":
            pieces.append(value_of(part.attribute))
        else:
            pieces.append(f"text({value_of(part.attribute)})")
    if len(pieces) == 1 and not pieces[0].startswith('"'):
        pieces.insert(0, '""')
    return " + ".join(pieces) or '""'


def _type_of(entity: d.Entity) -> Callable[[str], str]:
    def type_of(attribute: str) -> str:
        attr = entity.attribute(attribute)
        return attr.type if attr else "S"

    return type_of


def _placeholder_type(entity: d.Entity, attribute: str) -> str:
    attr = entity.attribute(attribute)
    if attr is None or attr.type not in ("S", "N", "B", "BOOL"):
        return "string"
    return FIELD_TYPES[attr.type]


def key_function(design: d.Design, code: TsEntity, key: str) -> str:
    """`export function orderSK(values: { orderDate: string; ... }): string`."""
    template = parse_template(code.entity.keys[key].template)
    fields = "; ".join(
        f"readonly {prop(a, in_type=True)}: {_placeholder_type(code.entity, a)}"
        for a in template.attributes
    )
    body = render_expression(
        template.source,
        _key_types(design)[key],
        lambda a: access("values", a),
        _type_of(code.entity),
    )
    argument = f"values: {{ {fields} }}" if fields else ""
    return (
        f"// {comment_text(code.entity.name)}'s {comment_text(key)}: "
        f"{comment_text(template.source)}\n"
        f"export function {code.key_functions[key]}({argument}): "
        f"{KEY_TYPES[_key_types(design)[key]]} {{\n"
        f"  return {body};\n}}\n"
    )


def js_pattern(template_source: str, *, capture: bool = False) -> str:
    """A JavaScript regular expression matching every key the template
    renders, whole; with `capture`, a group per placeholder (the last takes
    the rest of the key, the others end at the first separator that fits,
    as `modeler.keys` reads keys)."""
    template = parse_template(template_source)
    last = len(template.placeholders) - 1
    pieces = []
    for part in template.parts:
        if not isinstance(part, Placeholder):
            pieces.append(re.sub(r"[\\^$.*+?()[\]{}|/-]", r"\\\g<0>", part.text))
            continue
        if part.places is not None:
            piece = r"-?[0-9]+\.[0-9]+"
        elif part.width is not None:
            piece = "-?[0-9]+"
        else:
            lazy = capture and template.placeholders.index(part) != last
            piece = "[^\\n]*?" if lazy else "[^\\n]*"
        pieces.append(f"({piece})" if capture else piece)
    return "^(?:" + "".join(pieces) + ")$"


def _regexp(pattern: str) -> str:
    return f"new RegExp({typescript_string(pattern)})"


def key_patterns(design: d.Design, code: TsEntity) -> str:
    lines = [f"const {code.keys_constant}: Record<string, RegExp | null> = {{"]
    for key in design.table.key_attributes:
        template = code.entity.keys.get(key.name)
        if template is None:
            continue
        pattern = _regexp(js_pattern(template.template)) if key.type == "S" else "null"
        lines.append(f"  {prop(key.name)}: {pattern},")
    lines.append("};")
    lines.append(f"const {code.values_constant}: KeyValues = [")
    types = _key_types(design)
    for name, template in code.entity.keys.items():
        parsed = parse_template(template.template)
        if types.get(name) != "S" or parsed.is_constant:
            continue
        attributes = ", ".join(
            f"[{typescript_string(p.attribute)}, "
            f"{str(_placeholder_type(code.entity, p.attribute) == 'number').lower()}]"
            for p in parsed.placeholders
        )
        lines.append(
            f"  [{typescript_string(name)}, "
            f"{_regexp(js_pattern(template.template, capture=True))}, [{attributes}]],"
        )
    lines.append("];")
    return "\n".join(lines) + "\n"


def _condition(entity: d.Entity, when: str) -> str:
    parts = []
    for clause in parse_condition(when).clauses:
        actual = access("item", clause.attribute)
        if entity.attribute(clause.attribute) is None:
            actual = "undefined"
        if isinstance(clause, Comparison):
            values = ", ".join(
                f"Number({typescript_string(str(v))})"
                if isinstance(v, Decimal)
                else typescript_string(v)
                for v in clause.values
            )
            parts.append(
                f"compares({actual}, {typescript_string(clause.operator)}, {values})"
            )
        else:
            parts.append(f"{actual} {'!==' if clause.exists else '==='} undefined")
    return " && ".join(parts)


def entity_code(design: d.Design, code: TsEntity) -> str:
    """The interface, its key functions' callers, to and from items."""
    entity = code.entity
    summary = entity.description or f"An item of the entity {entity.name}."
    lines = [f"// {comment_text(summary)}", f"export interface {code.interface} {{"]
    for attr in entity.attributes:
        optional = "" if attr.required else "?"
        lines.append(
            f"  readonly {prop(attr.name, in_type=True)}{optional}: "
            f"{FIELD_TYPES[attr.type]};"
        )
    lines.append("}")
    table_keys = [a.name for a in design.table.key_attributes]

    def call(key: str, *, table_key: bool) -> str:
        template = parse_template(entity.keys[key].template)
        values = []
        for a in template.attributes:
            attr = entity.attribute(a)
            value = access("item", a)
            if attr is not None and not attr.required:
                value = (
                    f"required({value}, {typescript_string(a)})"
                    if table_key
                    else f"{value}!"
                )
            values.append(f"{prop(a)}: {value}")
        argument = f"{{ {', '.join(values)} }}" if values else ""
        return f"{code.key_functions[key]}({argument})"

    lines += [
        "",
        "// The item's primary key.",
        f"export function {code.table_key}(item: {code.interface}): Item {{",
        "  return {",
    ]
    lines += [
        f"    {prop(k)}: {call(k, table_key=True)},"
        for k in table_keys
        if k in code.key_functions
    ]
    lines += [
        "  };",
        "}",
        "",
        "// Every key attribute the item has: an index key only while its "
        "condition holds",
        "// and its template's attributes are there (a sparse index).",
        f"export function {code.all_keys}(item: {code.interface}): Item {{",
        f"  const keys = {code.table_key}(item);",
    ]
    for key in code.key_functions:
        if key in table_keys:
            continue
        template = parse_template(entity.keys[key].template)
        tests = [
            f"{access('item', a)} !== undefined"
            for a in template.attributes
            if (found := entity.attribute(a)) is not None and not found.required
        ]
        if entity.keys[key].when:
            tests.append(_condition(entity, entity.keys[key].when))
        assigned = assign("keys", key, call(key, table_key=False))
        if tests:
            lines += [f"  if ({' && '.join(tests)}) {{", f"    {assigned}", "  }"]
        else:
            lines.append(f"  {assigned}")
    lines += [
        "  return keys;",
        "}",
        "",
        "// The item as it is written: attributes and keys.",
        f"export function {code.to_item}(item: {code.interface}): Item {{",
        "  const written: Item = {};",
    ]
    for attr in entity.attributes:
        value = access("item", attr.name)
        assigned = assign("written", attr.name, value)
        if attr.required:
            lines.append(f"  {assigned}")
        else:
            lines.append(f"  if ({value} !== undefined) {assigned}")
    lines += [
        f"  return {{ ...written, ...{code.all_keys}(item) }};",
        "}",
        "",
        f"export function {code.from_item}(item: Item): {code.interface} {{",
    ]
    required = [typescript_string(a.name) for a in entity.attributes if a.required]
    if required:
        # An item with the keys but not the attributes throws MalformedItem.
        lines.append(
            f"  complete(item, {code.tag}, {code.keys_constant}, "
            f"[{', '.join(required)}]);"
        )
    lines += [
        f"  const found: {{ -readonly [K in keyof {code.interface}]: "
        f"{code.interface}[K] }} = {{",
    ]
    for attr in entity.attributes:
        if attr.required:
            lines.append(
                f"    {prop(attr.name)}: {access('item', attr.name)} as "
                f"{FIELD_TYPES[attr.type]},"
            )
    lines.append("  };")
    for attr in entity.attributes:
        if not attr.required:
            lines.append(
                f"  if ({access('item', attr.name)} !== undefined) "
                + assign(
                    "found",
                    attr.name,
                    f"{access('item', attr.name)} as {FIELD_TYPES[attr.type]}",
                )
            )
    lines += [
        "  return found;",
        "}",
        "",
        "// The item as a projection returns it: only the projected attributes, and",
        "// those its keys were rendered from.",
        f"export function {code.part_from_item}(item: Item): "
        f"Partial<{code.interface}> {{",
        f"  const values = {{ ...fromKeys(item, {code.values_constant}), ...item }};",
        f"  const found: {{ -readonly [K in keyof {code.interface}]?: "
        f"{code.interface}[K] }} = {{}};",
    ]
    for attr in entity.attributes:
        lines.append(
            f"  if ({access('values', attr.name)} !== undefined) "
            + assign(
                "found",
                attr.name,
                f"{access('values', attr.name)} as {FIELD_TYPES[attr.type]}",
            )
        )
    lines += ["  return found;", "}"]
    return "\n".join(lines) + "\n"


def recognise_function(codes: list[TsEntity]) -> str:
    """`recognise(item)`: the entity of a returned item, by its keys (the
    entities whose keys say most in literal text are tried first), tagged
    with the entity's name."""
    union = " | ".join(
        f"{{ readonly entity: {c.tag}; readonly item: {c.interface} }}" for c in codes
    )
    lines = [
        "// A returned item of any entity, tagged with the entity's name.",
        f"export type AnyEntity = {union or 'never'};",
        "",
        "// The entity of an item, by its keys.",
        "export function recognise(item: Item): AnyEntity {",
    ]
    for code in sorted(codes, key=lambda c: -c.specificity):
        lines.append(f"  if (matches(item, {code.keys_constant})) {{")
        lines.append(
            f"    return {{ entity: {code.tag}, item: {code.from_item}(item) }};"
        )
        lines.append("  }")
    lines += ["  throw new UnrecognisedItem(item);", "}"]
    return "\n".join(lines) + "\n"
