"""The access-pattern part of a generated module: a function per pattern
with typed parameters, sending the request the simulator checked
(`symbolic`), its items returned as entity objects; a page function and an
iterator for a Query or Scan; a write's actions in one request, its
condition failures as named exceptions."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.exporters.access import symbolic
from modeler.exporters.access.entities import (
    LINE,
    PARAMETER_TYPES,
    EntityCode,
    EntityNames,
    render_expression,
)
from modeler.exporters.access.names import python_string, snake, unique
from modeler.exporters.access.values import NotGenerated, ValueWriter
from modeler.exporters.literals import python_docstring
from modeler.simulation.requests import CLIENT_METHODS, RequestError

# Names a pattern function's body binds besides its parameters.
LOCAL_NAMES = frozenset(
    {"client", "start_key", "request", "response", "item", "page", "actions"}
    | {"writes", "unprocessed"}
)
_TRANSACT_ELEMENTS = {
    "PutItem": "Put",
    "UpdateItem": "Update",
    "DeleteItem": "Delete",
    "ConditionCheck": "ConditionCheck",
}


@dataclass
class Argument:
    """A parameter of a generated function."""

    name: str  # the design's: a pattern parameter, or an entity for a Put
    identifier: str
    annotation: str
    entity: str = ""  # for an entity object (or a sequence of them)
    many: bool = False


@dataclass
class PatternCode:
    pattern: d.AccessPattern
    function: str
    page: str = ""  # the page function of a Query or Scan
    text: str = ""
    problem: str = ""
    arguments: list[Argument] = field(default_factory=list)
    result: str = ""  # the annotation of what it returns (one item)
    converter: str = ""  # the function turning a read's native item into it
    partial: bool = False


@dataclass
class Converters:
    """The `_as_...` functions turning returned items into entity objects,
    one per distinct result."""

    names: EntityNames
    taken: set[str]
    by_result: dict[tuple[str, ...], tuple[str, str]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def converter(
        self, codes: list[EntityCode], *, partial: bool, keyed: bool
    ) -> tuple[str, str]:
        """(function, annotation) for items of these entities."""
        classes = tuple(c.part if partial else c.cls for c in codes)
        found = self.by_result.get(classes + (str(keyed),))
        if found:
            return found
        base = "_as_" + "_or_".join(snake(c) for c in classes)
        function = unique(base, self.taken, fallback="_as")
        annotation = " | ".join(classes)
        lines = [f"def {function}(item: Mapping[str, Any]) -> {annotation}:"]
        if partial:
            for code in codes:
                if keyed:
                    lines.append(f"    if _matches(item, {code.keys_constant}):")
                    lines.append(f"        return {code.part}.from_item(item)")
                else:
                    lines.append(f"    return {code.part}.from_item(item)")
                    break
            else:
                lines.append("    raise UnrecognisedItem(item)")
        else:
            lines.append("    found = recognise(item)")
            check = classes[0] if len(classes) == 1 else f"({', '.join(classes)})"
            lines.append(f"    if isinstance(found, {check}):")
            lines.append("        return found")
            lines.append("    raise UnrecognisedItem(item)")
        self.by_result[classes + (str(keyed),)] = (function, annotation)
        self.sources.append("\n".join(lines) + "\n")
        return function, annotation


class _Writer(ValueWriter):
    """Python source of one pattern's requests: markers as expressions."""

    def __init__(
        self,
        design: d.Design,
        names: EntityNames,
        types: dict[str, str],
        identifiers: dict[str, str],
    ) -> None:
        super().__init__(types)
        self.design = design
        self.names = names
        self.identifiers = identifiers
        self.owners: dict[str, EntityCode] = {}

    def param(self, name: str, owner: str = "") -> str:
        if owner:
            code = self.owners[owner]
            field_name = code.field_of(name)
            if field_name is None:
                raise NotGenerated(f"{code.entity.name} has no attribute {name}")
            return f"{owner}.{field_name}"
        if name not in self.identifiers:
            raise NotGenerated(f"no parameter {name}")
        self.used[name] = None
        return self.identifiers[name]

    def rendered(self, template: str, key_type: str) -> str:
        return render_expression(template, key_type, self.param, self.type_of)

    def typed(self, kind: str, text: str) -> str:
        return {
            "N": f"Decimal({text})",
            "BOOL": f'({text}).lower() == "true"',
            "B": f"({text}).encode()",
            "SS": f"{{{text}}}",
            "NS": f"{{Decimal({text})}}",
            "BS": f"{{({text}).encode()}}",
        }.get(kind, text)

    def key(self, name: str) -> str:
        return python_string(name)

    def string(self, text: str) -> str:
        return python_string(text)

    def decimal(self, value: Decimal) -> str:
        return f"Decimal({python_string(str(value))})"

    def scalar(self, value: bool | int | bytes | None) -> str:
        return repr(value)

    def members(self, members: list[str]) -> str:
        return "{" + ", ".join(members) + "}"

    def wired(self, values: dict[Any, Any], indent: int) -> str:
        pad, inner = " " * indent, " " * (indent + 4)
        return f"_to_wire(\n{inner}{self.expr(values, indent + 4)}\n{pad})"

    def whole_item(self, variable: str) -> str:
        return f"_to_wire({variable}.to_item())"

    def table_name(self, value: Any) -> bool:
        return bool(value == self.design.table.name)


def _items(convert: str) -> str:
    """The page's items, laid out as ruff format lays them out."""
    line = (
        f'        [{convert}(_from_wire(item)) for item in response.get("Items", [])],'
    )
    if len(line) <= LINE:
        return line + "\n"
    return (
        "        [\n"
        f"            {convert}(_from_wire(item))\n"
        '            for item in response.get("Items", [])\n'
        "        ],\n"
    )


def _docstring(pattern: d.AccessPattern, extra: str = "") -> str:
    lines = [" ".join(pattern.name.split())]
    if pattern.description:
        lines += ["", " ".join(pattern.description.split())]
    where = "" if pattern.index == d.TABLE_INDEX else f" on {pattern.index}"
    lines += ["", f"{pattern.operation}{where}, as the workbench simulates it."]
    if extra:
        lines += [extra]
    return "    " + python_docstring("\n".join(lines) + "\n", "    ") + "\n"


def _signature(
    function: str, arguments: list[Argument], returns: str, extra: str = ""
) -> str:
    lines = [f"def {function}(", "    client: DynamoDBClient,"]
    if arguments or extra:
        lines.append("    *,")
    lines += [f"    {a.identifier}: {a.annotation}," for a in arguments]
    if extra:
        lines.append(f"    {extra},")
    lines.append(f") -> {returns}:")
    return "\n".join(lines) + "\n"


def pattern_code(
    design: d.Design,
    pattern: d.AccessPattern,
    names: EntityNames,
    taken: set[str],
    converters: Converters,
) -> PatternCode:
    function = unique(snake(pattern.name), taken, fallback="pattern")
    code = PatternCode(pattern, function)
    try:
        if not pattern.keyed:
            raise NotGenerated("the pattern has no key yet")
        if pattern.operation in ("GetItem", "Query", "Scan"):
            _read(design, pattern, names, taken, converters, code)
        elif pattern.operation in ("PutItem", "UpdateItem", "DeleteItem") or (
            pattern.operation in ("TransactWriteItems", "BatchWriteItem")
        ):
            _write(design, pattern, names, code)
        else:
            raise NotGenerated(
                f"{pattern.operation} chooses its items from the sample data; "
                "its function is not generated"
            )
    except (NotGenerated, RequestError, KeyError) as exc:
        code.problem = str(exc)
        code.text = ""
    return code


def _identifiers(
    design: d.Design, pattern: d.AccessPattern, reserved: set[str]
) -> dict[str, str]:
    taken = set(LOCAL_NAMES) | reserved
    return {
        p.name: unique(snake(p.name), taken, fallback="value")
        for p in pattern_parameters(design, pattern)
    }


def _arguments(
    writer: _Writer, design: d.Design, pattern: d.AccessPattern
) -> list[Argument]:
    return [
        Argument(
            p.name,
            writer.identifiers[p.name],
            PARAMETER_TYPES.get(writer.types.get(p.name, "S"), "Any"),
        )
        for p in pattern_parameters(design, pattern)
        if p.name in writer.used
    ]


def _result(
    design: d.Design,
    pattern: d.AccessPattern,
    names: EntityNames,
    converters: Converters,
) -> tuple[str, str, bool]:
    """(converter, annotation, partial) of the pattern's items."""
    expected = pattern.expects.entities if pattern.expects else ()
    codes = [names[e] for e in expected if e in names.by_name]
    if not codes:
        return "recognise", "AnyEntity", False
    keyed = not pattern.projection or all(
        a.name in pattern.projection for a in design.table.key_attributes
    )
    partial = any(_partial(design, pattern, c.entity) for c in codes)
    if partial:
        for c in codes:
            if not c.part:
                c.part = unique(f"{c.cls}Part", converters.taken, fallback="Part")
    function, annotation = converters.converter(codes, partial=partial, keyed=keyed)
    return function, annotation, partial


def _partial(design: d.Design, pattern: d.AccessPattern, entity: d.Entity) -> bool:
    """Whether the pattern's items may lack attributes the entity requires
    (a projection, or an index that does not project them)."""
    if pattern.projection:
        return True
    index = design.table.index(pattern.index)
    if index is None or index.projection.type == "ALL":
        return False
    projected = {a.name for a in design.table.key_attributes}
    projected |= {a.name for a in index.key_attributes}
    if index.projection.type == "INCLUDE":
        projected |= set(index.projection.attributes)
    return any(a.required and a.name not in projected for a in entity.attributes)


def _read(
    design: d.Design,
    pattern: d.AccessPattern,
    names: EntityNames,
    taken: set[str],
    converters: Converters,
    code: PatternCode,
) -> None:
    identifiers = _identifiers(design, pattern, set())
    writer = _Writer(
        design, names, symbolic.parameter_types(design, pattern), identifiers
    )
    request = writer.expr(symbolic.read(design, pattern), 4)
    convert, result, code.partial = _result(design, pattern, names, converters)
    code.result, code.converter = result, convert
    code.arguments = _arguments(writer, design, pattern)
    method = CLIENT_METHODS[pattern.operation]
    if pattern.operation == "GetItem":
        code.text = (
            _signature(code.function, code.arguments, f"{result} | None")
            + _docstring(pattern)
            + f"    request: dict[str, Any] = {request}\n"
            f"    response = _send(client.{method}, request)\n"
            '    item = response.get("Item")\n'
            f"    return None if item is None else {convert}(_from_wire(item))\n"
        )
        return
    code.page = unique(f"{code.function}_page", taken, fallback="pattern")
    page = (
        _signature(
            code.page,
            code.arguments,
            f"Page[{result}]",
            "start_key: dict[str, Any] | None = None",
        )
        + _docstring(
            pattern,
            "One page; pass its last_evaluated_key as start_key for the next.",
        )
        + f"    request: dict[str, Any] = {request}\n"
        "    if start_key is not None:\n"
        '        request["ExclusiveStartKey"] = start_key\n'
        f"    response = _send(client.{method}, request)\n"
        "    return Page(\n"
        f"{_items(convert)}"
        '        response.get("LastEvaluatedKey"),\n'
        "    )\n"
    )
    passed = [f"{a.identifier}={a.identifier}" for a in code.arguments]
    inner = ", ".join(["client", *passed, "start_key=start_key"])
    call = f"        page = {code.page}({inner})"
    if len(call) > LINE:
        if len(inner) + 12 <= LINE:
            call = f"        page = {code.page}(\n            {inner}\n        )"
        else:
            listed = "".join(
                f"            {a},\n"
                for a in ["client", *passed, "start_key=start_key"]
            )
            call = f"        page = {code.page}(\n{listed}        )"
    iterator = (
        _signature(code.function, code.arguments, f"Iterator[{result}]")
        + _docstring(pattern, "Every item, page after page.")
        + "    start_key: dict[str, Any] | None = None\n"
        "    while True:\n"
        f"{call}\n"
        "        yield from page.items\n"
        "        if page.last_evaluated_key is None:\n"
        "            return\n"
        "        start_key = page.last_evaluated_key\n"
    )
    code.text = page + "\n\n" + iterator


def _write(
    design: d.Design, pattern: d.AccessPattern, names: EntityNames, code: PatternCode
) -> None:
    reserved: set[str] = set()
    variables: list[tuple[d.Action, str, str]] = []  # action, loop variable, list
    for action in pattern.actions:
        if action.entity not in names.by_name:
            raise NotGenerated(f"no entity {action.entity}")
        if action.operation == "Put":
            base = snake(action.entity) or "item"
            variable = unique(base, reserved | set(LOCAL_NAMES), fallback="item")
            many = ""
            if action.count:
                many = unique(base + "s", reserved | set(LOCAL_NAMES), fallback="items")
                reserved.add(many)
            reserved.add(variable)
            variables.append((action, variable, many))
        elif action.count:
            raise NotGenerated(
                f"a repeated {action.operation} of {action.entity} takes its items "
                "from the sample data; its function is not generated"
            )
        elif action.operation == "Get":
            raise NotGenerated("a Get inside a write is not generated")
        else:
            variables.append((action, "", ""))
    identifiers = _identifiers(design, pattern, reserved)
    writer = _Writer(
        design, names, symbolic.parameter_types(design, pattern), identifiers
    )
    body: list[str] = []
    arguments: list[Argument] = []
    operation = pattern.operation
    single = operation in ("PutItem", "UpdateItem", "DeleteItem")
    if single and len(variables) != 1:
        raise NotGenerated(f"{operation} writes one item")
    for action, variable, many in variables:
        if variable:
            writer.owners[variable] = names[action.entity]
            arguments.append(
                Argument(
                    action.entity,
                    many or variable,
                    f"Sequence[{names[action.entity].cls}]"
                    if many
                    else names[action.entity].cls,
                    entity=action.entity,
                    many=bool(many),
                )
            )
        kind, request = symbolic.write(design, pattern, action, variable)
        if single:
            body.append(f"    request: dict[str, Any] = {writer.expr(request, 4)}\n")
            body.append(f"    _send(client.{CLIENT_METHODS[kind]}, request)\n")
            continue
        indent = 8 if many else 4
        if operation == "TransactWriteItems":
            element = {_TRANSACT_ELEMENTS[kind]: request}
            target = "actions"
        else:
            if kind not in ("PutItem", "DeleteItem"):
                raise NotGenerated("a batch write puts and deletes only")
            element = (
                {"PutRequest": {"Item": request["Item"]}}
                if kind == "PutItem"
                else {"DeleteRequest": {"Key": request["Key"]}}
            )
            target = "writes"
        pad = " " * indent
        line = (
            f"{pad}{target}.append(\n{pad}    {writer.expr(element, indent + 4)}\n"
            f"{pad})\n"
        )
        body.append(f"    for {variable} in {many}:\n" + line if many else line)
    code.arguments = arguments + _arguments(writer, design, pattern)
    if operation == "TransactWriteItems":
        body.insert(0, "    actions: list[dict[str, Any]] = []\n")
        body.append(
            '    _send(client.transact_write_items, {"TransactItems": actions})\n'
        )
    elif operation == "BatchWriteItem":
        body.insert(0, "    writes: list[dict[str, Any]] = []\n")
        body.append(
            "    unprocessed: dict[str, Any] = {TABLE_NAME: writes}\n"
            "    # DynamoDB may leave some writes unprocessed: send those again.\n"
            "    while unprocessed:\n"
            "        response = _send(\n"
            '            client.batch_write_item, {"RequestItems": unprocessed}\n'
            "        )\n"
            '        unprocessed = response.get("UnprocessedItems") or {}\n'
        )
    extra = (
        "Raises TransactionCanceled when a condition fails (nothing is written)."
        if operation == "TransactWriteItems"
        else "Raises ConditionFailed when its condition does not hold."
        if any(a.condition for a in pattern.actions)
        else ""
    )
    code.text = (
        _signature(code.function, code.arguments, "None")
        + _docstring(pattern, extra)
        + "".join(body)
    )
