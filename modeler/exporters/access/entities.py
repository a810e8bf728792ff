"""The entity part of a generated module: a dataclass per entity (its
attributes, typed), a function per key template, the keys an item has
(sparse conditions included) and how a returned item is recognised."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from modeler.design import model as d
from modeler.exporters.access.names import camel, python_string, snake, unique
from modeler.exporters.literals import python_docstring
from modeler.keys import parse_condition, parse_template
from modeler.keys.condition import Comparison
from modeler.keys.template import Placeholder

FIELD_TYPES = {
    "S": "str",
    "N": "Decimal",
    "B": "bytes",
    "BOOL": "bool",
    "NULL": "None",
    "L": "list[Any]",
    "M": "dict[str, Any]",
    "SS": "set[str]",
    "NS": "set[Decimal]",
    "BS": "set[bytes]",
}
# A caller's values: a number may be an int.
PARAMETER_TYPES = {**FIELD_TYPES, "N": "Number"}
KEY_TYPES = {"S": "str", "N": "Decimal", "B": "bytes"}
_METHODS = {"table_key", "all_keys", "to_item", "from_item"}
LINE = 88  # ruff format's line length, which the generated code keeps


def _if(tests: list[str], indent: int) -> list[str]:
    """An `if` of all the tests, laid out as ruff format lays it out."""
    pad = " " * indent
    line = f"{pad}if {' and '.join(tests)}:"
    if len(line) <= LINE:
        return [line]
    inner = f"{pad}    {' and '.join(tests)}"
    if len(inner) <= LINE:
        return [f"{pad}if (", inner, f"{pad}):"]
    return (
        [f"{pad}if (", f"{pad}    {tests[0]}"]
        + [f"{pad}    and {t}" for t in tests[1:]]
        + [f"{pad}):"]
    )


@dataclass
class EntityCode:
    """The names an entity's code goes by."""

    entity: d.Entity
    cls: str
    fields: dict[str, str]  # attribute -> field
    key_functions: dict[str, str]  # key attribute -> function
    keys_constant: str  # the table key patterns recognising its items
    values_constant: str  # the key patterns giving attribute values back
    required_constant: str  # the attributes an item of it cannot lack
    part: str = ""  # the class of its projected items, where one is needed
    specificity: int = 0

    def field_of(self, attribute: str) -> str | None:
        return self.fields.get(attribute)


@dataclass
class EntityNames:
    by_name: dict[str, EntityCode] = field(default_factory=dict)

    def __getitem__(self, name: str) -> EntityCode:
        return self.by_name[name]


def name_entities(design: d.Design, taken: set[str]) -> EntityNames:
    """Class, field and function names for every entity, free in `taken`."""
    names = EntityNames()
    key_names = {a.name for a in design.table.all_key_attributes()}
    for entity in design.entities:
        cls = unique(camel(entity.name), taken, fallback="Entity")
        fields: dict[str, str] = {}
        in_class = set(_METHODS)
        for attribute in entity.attributes:
            fields[attribute.name] = unique(
                snake(attribute.name), in_class, fallback="value"
            )
        functions = {
            key: unique(f"{snake(entity.name)}_{snake(key)}", taken, fallback="key")
            for key in entity.keys
            if key in key_names
        }
        constant = unique(f"_{snake(entity.name).upper()}_KEYS", taken, fallback="_")
        values = unique(
            f"_{snake(entity.name).upper()}_KEY_VALUES", taken, fallback="_"
        )
        required = unique(
            f"_{snake(entity.name).upper()}_REQUIRED", taken, fallback="_"
        )
        literal = sum(
            len(part.text)
            for key in design.table.key_attributes
            if (template := entity.keys.get(key.name))
            for part in parse_template(template.template).parts
            if not isinstance(part, Placeholder)
        )
        names.by_name[entity.name] = EntityCode(
            entity,
            cls,
            fields,
            functions,
            constant,
            values,
            required,
            specificity=literal,
        )
    return names


def _key_types(design: d.Design) -> dict[str, str]:
    return {a.name: a.type for a in design.table.all_key_attributes()}


def key_function(design: d.Design, code: EntityCode, key: str) -> str:
    """`def order_sk(order_date: str, order_id: str) -> str`."""
    template = parse_template(code.entity.keys[key].template)
    key_type = _key_types(design)[key]
    arguments = []
    for attribute in template.attributes:
        attr = code.entity.attribute(attribute)
        name = code.field_of(attribute) or snake(attribute) or "value"
        kind = PARAMETER_TYPES.get(attr.type, "Any") if attr else "str"
        arguments.append(f"{name}: {kind}")

    def type_of(name: str) -> str:
        declared = code.entity.attribute(name)
        return declared.type if declared else "S"

    body = render_expression(
        template.source,
        key_type,
        lambda a: code.field_of(a) or snake(a) or "value",
        type_of,
    )
    doc = python_docstring(f"{code.entity.name}'s {key}: {template.source}", "    ")
    signature = (
        f"def {code.key_functions[key]}({', '.join(arguments)}) -> "
        f"{KEY_TYPES[key_type]}:"
    )
    if len(signature) > LINE:
        listed = "".join(f"    {a},\n" for a in arguments)
        signature = (
            f"def {code.key_functions[key]}(\n{listed}) -> {KEY_TYPES[key_type]}:"
        )
    return f"{signature}\n    {doc}\n    return {body}\n"


def render_expression(
    template_source: str,
    key_type: str,
    name_of: Callable[[str], str],
    type_of: Callable[[str], str],
) -> str:
    """Python that renders a key template: literal text and each
    placeholder's value as a key places it (`_text`, `_padded`)."""
    template = parse_template(template_source)
    if key_type in ("N", "B"):
        if template.is_constant:
            return (
                f"Decimal({python_string(template.source)})"
                if key_type == "N"
                else repr(template.source.encode())
            )
        value = name_of(template.placeholders[0].attribute)
        return f"Decimal({value})" if key_type == "N" else value
    pieces = []
    for part in template.parts:
        if not isinstance(part, Placeholder):
            pieces.append(python_string(part.text))
        elif part.width is not None:
            pieces.append(
                f"_padded({name_of(part.attribute)}, {python_string(part.format_spec)})"
            )
        elif type_of(part.attribute) == "S":
            pieces.append(name_of(part.attribute))
        else:
            pieces.append(f"_text({name_of(part.attribute)})")
    return " + ".join(pieces) or '""'


def key_pattern(template_source: str, *, capture: bool = False) -> str:
    """A regular expression matching every key the template renders; with
    `capture`, a group per placeholder (the last takes the rest of the
    key, the others end at the first separator that fits, as
    `modeler.keys` reads keys)."""
    template = parse_template(template_source)
    last = len(template.placeholders) - 1
    pieces = []
    for part in template.parts:
        if not isinstance(part, Placeholder):
            pieces.append(re.escape(part.text))
            continue
        if part.places is not None:
            piece = r"-?[0-9]+\.[0-9]+"
        elif part.width is not None:
            piece = "-?[0-9]+"
        else:
            lazy = capture and template.placeholders.index(part) != last
            piece = ".*?" if lazy else ".*"
        pieces.append(f"({piece})" if capture else piece)
    return "".join(pieces)


def key_values(design: d.Design, code: EntityCode) -> str:
    """The constant reading attribute values back from the entity's text
    keys, for projections that leave the attributes out."""
    types = _key_types(design)
    lines = [f"{code.values_constant}: KeyValues = ["]
    for key, template in code.entity.keys.items():
        parsed = parse_template(template.template)
        if types.get(key) != "S" or parsed.is_constant:
            continue
        lines += ["    (", f"        {python_string(key)},"]
        pattern = python_string(key_pattern(template.template, capture=True))
        lines += [f"        re.compile({pattern}),", "        ["]
        for placeholder in parsed.placeholders:
            attr = code.entity.attribute(placeholder.attribute)
            kind = "N" if attr is not None and attr.type == "N" else "S"
            lines.append(
                f"            ({python_string(placeholder.attribute)}, "
                f"{python_string(kind)}),"
            )
        lines += ["        ],", "    ),"]
    lines.append("]")
    return "\n".join(lines) + "\n"


def _condition(code: EntityCode, when: str) -> str:
    parts = []
    for clause in parse_condition(when).clauses:
        field_name = code.field_of(clause.attribute)
        actual = f"self.{field_name}" if field_name else "None"
        if isinstance(clause, Comparison):
            values = ", ".join(
                f"Decimal({python_string(str(v))})"
                if isinstance(v, Decimal)
                else python_string(v)
                for v in clause.values
            )
            parts.append(
                f"_compares({actual}, {python_string(clause.operator)}, {values})"
            )
        else:
            parts.append(f"{actual} is {'not ' if clause.exists else ''}None")
    return " and ".join(parts)


def entity_class(design: d.Design, code: EntityCode) -> str:
    entity = code.entity
    table_keys = [a.name for a in design.table.key_attributes]
    required = [a for a in entity.attributes if a.required]
    optional = [a for a in entity.attributes if not a.required]
    lines = ["@dataclass", f"class {code.cls}:"]
    summary = entity.description or f"An item of the entity {entity.name}."
    lines.append("    " + python_docstring(" ".join(summary.split())))
    lines.append("")
    for attr in required:
        lines.append(f"    {code.fields[attr.name]}: {FIELD_TYPES[attr.type]}")
    for attr in optional:
        kind = FIELD_TYPES[attr.type]
        kind = kind if kind == "None" else f"{kind} | None"
        lines.append(f"    {code.fields[attr.name]}: {kind} = None")

    def argument(attribute: str, *, table_key: bool) -> str:
        attr = entity.attribute(attribute)
        name = code.field_of(attribute)
        if attr is None or name is None:
            return "None"  # refused by the design check; never rendered
        if not attr.required and table_key:
            return f"_required(self.{name}, {python_string(attribute)})"
        return f"self.{name}"

    def call(key: str, *, table_key: bool) -> str:
        template = parse_template(entity.keys[key].template)
        arguments = ", ".join(
            argument(a, table_key=table_key) for a in template.attributes
        )
        return f"{code.key_functions[key]}({arguments})"

    lines += ["", "    def table_key(self) -> dict[str, Any]:"]
    lines.append('        """The item\'s primary key."""')
    lines.append("        return {")
    lines += [
        f"            {python_string(k)}: {call(k, table_key=True)},"
        for k in table_keys
        if k in code.key_functions
    ]
    lines.append("        }")
    lines += ["", "    def all_keys(self) -> dict[str, Any]:"]
    lines.append(
        '        """Every key attribute the item has: an index key only while its\n'
        "        condition holds and its template's attributes are there (a sparse\n"
        '        index)."""'
    )
    lines.append("        keys = self.table_key()")
    for key in code.key_functions:
        if key in table_keys:
            continue
        template = parse_template(entity.keys[key].template)
        tests = [
            f"self.{code.fields[a]} is not None"
            for a in template.attributes
            if (declared := entity.attribute(a)) is not None and not declared.required
        ]
        if entity.keys[key].when:
            tests.append(_condition(code, entity.keys[key].when))
        assign = f"keys[{python_string(key)}] = {call(key, table_key=False)}"
        if tests:
            lines += _if(tests, 8)
            lines.append(f"            {assign}")
        else:
            lines.append(f"        {assign}")
    lines.append("        return keys")
    lines += ["", "    def to_item(self) -> dict[str, Any]:"]
    lines.append('        """The item as it is written: attributes and keys."""')
    lines.append("        item: dict[str, Any] = {")
    for attr in required:
        lines.append(
            f"            {python_string(attr.name)}: self.{code.fields[attr.name]},"
        )
    lines.append("        }")
    for attr in optional:
        name = code.fields[attr.name]
        lines.append(f"        if self.{name} is not None:")
        lines.append(f"            item[{python_string(attr.name)}] = self.{name}")
    lines.append("        item.update(self.all_keys())")
    lines.append("        return item")
    lines += [
        "",
        "    @classmethod",
        f"    def from_item(cls, item: Mapping[str, Any]) -> {code.cls}:",
    ]
    if required:
        arguments = [
            "item",
            python_string(entity.name),
            code.keys_constant,
            code.required_constant,
        ]
        check = f"        _complete({', '.join(arguments)})"
        if len(check) <= LINE:
            lines.append(check)
        else:
            lines.append("        _complete(")
            lines += [f"            {a}," for a in arguments]
            lines.append("        )")
    lines.append("        return cls(")
    for attr in required:
        lines.append(
            f"            {code.fields[attr.name]}=item[{python_string(attr.name)}],"
        )
    for attr in optional:
        name = code.fields[attr.name]
        lines.append(f"            {name}=item.get({python_string(attr.name)}),")
    lines.append("        )")
    return "\n".join(lines) + "\n"


def required_attributes(code: EntityCode) -> str:
    """The constant naming the attributes an item of the entity cannot
    lack (`from_item` refuses it with MalformedItem); empty if none."""
    required = [a.name for a in code.entity.attributes if a.required]
    if not required:
        return ""
    listed = "".join(f"    {python_string(name)},\n" for name in required)
    return f"{code.required_constant} = [\n{listed}]\n"


def part_class(code: EntityCode) -> str:
    """The entity's items as a projection returns them: every attribute
    may be absent."""
    entity = code.entity
    lines = ["@dataclass", f"class {code.part}:"]
    lines.append(
        "    "
        + python_docstring(
            f"An item of {entity.name} as a projection returns it: only the "
            "projected attributes are there."
        )
    )
    lines.append("")
    for attr in entity.attributes:
        kind = FIELD_TYPES[attr.type]
        kind = kind if kind == "None" else f"{kind} | None"
        lines.append(f"    {code.fields[attr.name]}: {kind} = None")
    lines += [
        "",
        "    @classmethod",
        f"    def from_item(cls, item: Mapping[str, Any]) -> {code.part}:",
        f"        values = {{**_from_keys(item, {code.values_constant}), **item}}",
        "        return cls(",
    ]
    for attr in entity.attributes:
        name = code.fields[attr.name]
        lines.append(f"            {name}=values.get({python_string(attr.name)}),")
    lines.append("        )")
    return "\n".join(lines) + "\n"


def key_patterns(design: d.Design, code: EntityCode) -> str:
    """The constant recognising the entity's items by their table keys."""
    lines = [f"{code.keys_constant}: dict[str, re.Pattern[str] | None] = {{"]
    for key in design.table.key_attributes:
        template = code.entity.keys.get(key.name)
        if template is None:
            continue
        pattern = (
            f"re.compile({python_string(key_pattern(template.template))})"
            if key.type == "S"
            else "None"
        )
        lines.append(f"    {python_string(key.name)}: {pattern},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def recognise_function(codes: list[EntityCode]) -> str:
    """`recognise(item)`: the entity object of a returned item, by its
    keys; the entities whose keys say most in literal text are tried
    first."""
    ordered = sorted(codes, key=lambda c: -c.specificity)
    union = " | ".join(c.cls for c in codes) or "None"
    lines = [f"AnyEntity = {union}", "", ""]
    lines.append("def recognise(item: Mapping[str, Any]) -> AnyEntity:")
    lines.append('    """The entity object of an item (native values), by its keys."""')
    for code in ordered:
        lines.append(f"    if _matches(item, {code.keys_constant}):")
        lines.append(f"        return {code.cls}.from_item(item)")
    lines.append("    raise UnrecognisedItem(item)")
    return "\n".join(lines) + "\n"
