"""The generated TypeScript module for the AWS SDK for JavaScript v3: the
runtime helpers, an interface and key functions per entity, and a function
per access pattern sending the request the simulator checked (the same
requests as the Python module, from `symbolic`), a page function and an
async iterator for a Query or Scan, writes in one request with condition
failures as named errors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.exporters.access import symbolic, ts_entities
from modeler.exporters.access.module import module_name
from modeler.exporters.access.patterns import (
    Argument,
    NotGenerated,
)
from modeler.exporters.access.ts_entities import (
    FIELD_TYPES,
    TsEntity,
    TsNames,
    render_expression,
)
from modeler.exporters.access.ts_names import (
    access,
    identifier,
    lower_camel,
    prop,
)
from modeler.exporters.access.ts_runtime import HELPERS
from modeler.exporters.access.values import ValueWriter
from modeler.exporters.literals import comment_text, typescript_string
from modeler.simulation.requests import RequestError

_COMMANDS = {
    "GetItem": "GetItemCommand",
    "Query": "QueryCommand",
    "Scan": "ScanCommand",
    "PutItem": "PutItemCommand",
    "UpdateItem": "UpdateItemCommand",
    "DeleteItem": "DeleteItemCommand",
}
_TRANSACT_ELEMENTS = {
    "PutItem": "Put",
    "UpdateItem": "Update",
    "DeleteItem": "Delete",
    "ConditionCheck": "ConditionCheck",
}
_SDK_NAMES = (
    "BatchWriteItemCommand",
    "DeleteItemCommand",
    "GetItemCommand",
    "PutItemCommand",
    "QueryCommand",
    "ScanCommand",
    "TransactWriteItemsCommand",
    "UpdateItemCommand",
)
_SDK_TYPES = (
    "AttributeValue",
    "BatchWriteItemCommandOutput",
    "DeleteItemCommandInput",
    "DynamoDBClient",
    "GetItemCommandInput",
    "PutItemCommandInput",
    "QueryCommandInput",
    "ScanCommandInput",
    "TransactWriteItem",
    "UpdateItemCommandInput",
    "WriteRequest",
)


@dataclass
class TsPattern:
    pattern: d.AccessPattern
    function: str
    page: str = ""
    text: str = ""
    problem: str = ""
    # A parameter's identifier is its name (a property of `params`).
    arguments: list[Argument] = field(default_factory=list)
    result: str = ""
    converter: str = ""


@dataclass(frozen=True)
class TypeScriptModule:
    text: str
    patterns: tuple[TsPattern, ...]
    names: TsNames

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(
            f"{p.pattern.name}: no function ({p.problem})."
            for p in self.patterns
            if p.problem
        )


def access_filename(design: d.Design) -> str:
    return module_name(design).replace("_", "-") + ".ts"


@dataclass
class _Converters:
    names: TsNames
    taken: set[str]
    by_result: dict[tuple[str, ...], tuple[str, str]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def converter(
        self, codes: list[TsEntity], *, partial: bool, keyed: bool
    ) -> tuple[str, str]:
        """(function, type) turning a returned item into the pattern's
        result: the entity's object, or with several entities the tagged
        union `recognise` returns."""
        key = tuple(c.entity.name for c in codes) + (str(partial), str(keyed))
        if key in self.by_result:
            return self.by_result[key]
        base = (
            "as" + "Or".join(c.interface for c in codes) + ("Part" if partial else "")
        )
        function = identifier(base, self.taken, fallback="as")
        if len(codes) == 1 or not keyed:
            # A projection without the table's keys cannot be recognised:
            # its items are taken as the first entity's.
            code = codes[0]
            annotation = f"Partial<{code.interface}>" if partial else code.interface
            convert = code.part_from_item if partial else code.from_item
            lines = [f"export function {function}(item: Item): {annotation} {{"]
            if keyed:
                lines.append(
                    f"  if (!matches(item, {code.keys_constant})) "
                    "throw new UnrecognisedItem(item);"
                )
            lines += [f"  return {convert}(item);", "}"]
        else:
            kinds = [
                f"{{ readonly entity: {c.tag}; readonly item: "
                f"{f'Partial<{c.interface}>' if partial else c.interface} }}"
                for c in codes
            ]
            annotation = "(" + " | ".join(kinds) + ")"
            lines = [f"export function {function}(item: Item): {annotation} {{"]
            for c in sorted(codes, key=lambda c: -c.specificity):
                convert = c.part_from_item if partial else c.from_item
                lines += [
                    f"  if (matches(item, {c.keys_constant})) {{",
                    f"    return {{ entity: {c.tag}, item: {convert}(item) }};",
                    "  }",
                ]
            lines.append("  throw new UnrecognisedItem(item);")
            lines.append("}")
        self.by_result[key] = (function, annotation)
        self.sources.append("\n".join(lines) + "\n")
        return function, annotation


class _Writer(ValueWriter):
    """TypeScript source of one pattern's requests: markers as expressions."""

    step = 2

    def __init__(self, names: TsNames, types: dict[str, str]) -> None:
        super().__init__(types)
        self.names = names
        self.owners: dict[str, TsEntity] = {}

    def param(self, name: str, owner: str = "") -> str:
        if owner:
            code = self.owners[owner]
            if code.entity.attribute(name) is None:
                raise NotGenerated(f"{code.entity.name} has no attribute {name}")
            return access(owner, name)
        self.used[name] = None
        return access("params", name)

    def rendered(self, template: str, key_type: str) -> str:
        return render_expression(template, key_type, self.param, self.type_of)

    def typed(self, kind: str, text: str) -> str:
        return {
            "N": f"Number({text})",
            "BOOL": f'({text}).toLowerCase() === "true"',
            "B": f"new TextEncoder().encode({text})",
            "SS": f"new Set([{text}])",
            "NS": f"new Set([Number({text})])",
            "BS": f"new Set([new TextEncoder().encode({text})])",
        }.get(kind, text)

    def key(self, name: str) -> str:
        return prop(name)

    def string(self, text: str) -> str:
        return typescript_string(text)

    def decimal(self, value: Decimal) -> str:
        return f"Number({typescript_string(str(value))})"

    def scalar(self, value: bool | int | bytes | None) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if value is None:
            return "null"
        if isinstance(value, int):
            return str(value)
        return f"new Uint8Array([{', '.join(str(b) for b in value)}])"

    def members(self, members: list[str]) -> str:
        return f"new Set([{', '.join(members)}])"

    def wired(self, values: dict[Any, Any], indent: int) -> str:
        return f"toWire({self.expr(values, indent)})"

    def whole_item(self, variable: str) -> str:
        return f"toWire({self.owners[variable].to_item}({variable}))"

    def table_name(self, value: Any) -> bool:
        # The TypeScript module names its table only by the constant.
        return True


def _comment(pattern: d.AccessPattern, extra: str = "") -> str:
    where = "" if pattern.index == d.TABLE_INDEX else f" on {pattern.index}"
    lines = [comment_text(pattern.name)]
    if pattern.description:
        lines.append(comment_text(pattern.description))
    lines.append(
        f"{pattern.operation}{comment_text(where)}, as the workbench simulates it."
    )
    if extra:
        lines.append(extra)
    return "".join(f"// {line}\n" for line in lines)


def _params_type(arguments: list[Argument]) -> str:
    if not arguments:
        return ""
    fields = "; ".join(
        f"readonly {prop(a.identifier, in_type=True)}: {a.annotation}"
        for a in arguments
    )
    return f", params: {{ {fields} }}"


def _parameter_list(
    writer: _Writer, design: d.Design, pattern: d.AccessPattern
) -> list[Argument]:
    return [
        Argument(
            p.name, p.name, FIELD_TYPES.get(writer.types.get(p.name, "S"), "Value")
        )
        for p in pattern_parameters(design, pattern)
        if p.name in writer.used
    ]


def _partial(design: d.Design, pattern: d.AccessPattern, entity: d.Entity) -> bool:
    from modeler.exporters.access.patterns import _partial as partial

    return partial(design, pattern, entity)


def _read(
    design: d.Design,
    pattern: d.AccessPattern,
    names: TsNames,
    taken: set[str],
    converters: _Converters,
    code: TsPattern,
) -> None:
    writer = _Writer(names, symbolic.parameter_types(design, pattern))
    operation = pattern.operation
    request = writer.expr(symbolic.read(design, pattern), 2)
    expected = pattern.expects.entities if pattern.expects else ()
    codes = [names[e] for e in expected if e in names.by_name]
    if codes:
        partial = any(_partial(design, pattern, c.entity) for c in codes)
        keyed = not pattern.projection or all(
            a.name in pattern.projection for a in design.table.key_attributes
        )
        code.converter, code.result = converters.converter(
            codes, partial=partial, keyed=keyed
        )
    else:
        code.converter, code.result = "recognise", "AnyEntity"
    code.arguments = _parameter_list(writer, design, pattern)
    params = _params_type(code.arguments)
    command = _COMMANDS[operation]
    if operation == "GetItem":
        code.text = (
            _comment(pattern)
            + f"export async function {code.function}(client: DynamoDBClient{params}): "
            f"Promise<{code.result} | undefined> {{\n"
            f"  const request: GetItemCommandInput = {request};\n"
            "  const response = await guarded(() =>\n"
            f"    client.send(new {command}(request)),\n"
            "  );\n"
            f"  return response.Item === undefined ? undefined : "
            f"{code.converter}(fromWire(response.Item));\n"
            "}\n"
        )
        return
    code.page = identifier(f"{code.function}Page", taken, fallback="pattern")
    passed = "client, params" if code.arguments else "client"
    code.text = (
        _comment(
            pattern, "One page; pass its lastEvaluatedKey as startKey for the next."
        )
        + f"export async function {code.page}(client: DynamoDBClient{params}, "
        f"startKey?: Wire): Promise<Page<{code.result}>> {{\n"
        f"  const request: {operation}CommandInput = {request};\n"
        "  if (startKey !== undefined) request.ExclusiveStartKey = startKey;\n"
        "  const response = await guarded(() =>\n"
        f"    client.send(new {command}(request)),\n"
        "  );\n"
        "  return {\n"
        "    items: (response.Items ?? []).map((item) =>\n"
        f"      {code.converter}(fromWire(item)),\n"
        "    ),\n"
        "    lastEvaluatedKey: response.LastEvaluatedKey,\n"
        "  };\n"
        "}\n\n"
        + _comment(pattern, "Every item, page after page.")
        + f"export async function* {code.function}(client: DynamoDBClient{params}): "
        f"AsyncGenerator<{code.result}> {{\n"
        "  let startKey: Wire | undefined;\n"
        "  do {\n"
        f"    const page = await {code.page}({passed}, startKey);\n"
        "    yield* page.items;\n"
        "    startKey = page.lastEvaluatedKey;\n"
        "  } while (startKey !== undefined);\n"
        "}\n"
    )


def _write(
    design: d.Design, pattern: d.AccessPattern, names: TsNames, code: TsPattern
) -> None:
    writer = _Writer(names, symbolic.parameter_types(design, pattern))
    declared = {p.name for p in pattern_parameters(design, pattern)}
    local: set[str] = set(declared)
    entities: list[Argument] = []
    body: list[str] = []
    operation = pattern.operation
    single = operation in ("PutItem", "UpdateItem", "DeleteItem")
    if single and len(pattern.actions) != 1:
        raise NotGenerated(f"{operation} writes one item")
    for action in pattern.actions:
        if action.entity not in names.by_name:
            raise NotGenerated(f"no entity {action.entity}")
        entity_code = names[action.entity]
        variable = many = ""
        if action.operation == "Put":
            base = lower_camel(action.entity) or "item"
            variable = identifier(base, local, fallback="item")
            writer.owners[variable] = entity_code
            if action.count:
                many = identifier(base + "s", local, fallback="items")
            entities.append(
                Argument(
                    action.entity,
                    many or variable,
                    f"readonly {entity_code.interface}[]"
                    if many
                    else entity_code.interface,
                    entity=action.entity,
                    many=bool(many),
                )
            )
        elif action.count:
            raise NotGenerated(
                f"a repeated {action.operation} of {action.entity} takes its items "
                "from the sample data; its function is not generated"
            )
        elif action.operation == "Get":
            raise NotGenerated("a Get inside a write is not generated")
        kind, request = symbolic.write(design, pattern, action, variable)
        owner = f"params.{variable}" if variable else ""
        if single:
            text = writer.expr(request, 2)
            if variable:
                body.append(f"  const {variable} = {owner};\n")
            body.append(f"  const request: {kind}CommandInput = {text};\n")
            body.append(
                f"  await guarded(() => client.send(new {_COMMANDS[kind]}(request)));\n"
            )
            continue
        indent = 4 if many or variable else 2
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
        line = f"{pad}{target}.push({writer.expr(element, indent)});\n"
        if many:
            body.append(f"  for (const {variable} of params.{many}) {{\n{line}  }}\n")
        elif variable:
            body.append(f"  {{\n    const {variable} = {owner};\n{line}  }}\n")
        else:
            body.append(line)
    code.arguments = entities + _parameter_list(writer, design, pattern)
    if operation == "TransactWriteItems":
        body.insert(0, "  const actions: TransactWriteItem[] = [];\n")
        body.append(
            "  await guarded(() =>\n"
            "    client.send(\n"
            "      new TransactWriteItemsCommand({ TransactItems: actions }),\n"
            "    ),\n"
            "  );\n"
        )
    elif operation == "BatchWriteItem":
        body.insert(0, "  const writes: WriteRequest[] = [];\n")
        body.append(
            "  let unprocessed: Record<string, WriteRequest[]> | undefined = "
            "{ [TABLE_NAME]: writes };\n"
            "  // DynamoDB may leave some writes unprocessed: send those again.\n"
            "  while (\n"
            "    unprocessed !== undefined &&\n"
            "    Object.keys(unprocessed).length > 0\n"
            "  ) {\n"
            "    const requestItems: Record<string, WriteRequest[]> = unprocessed;\n"
            "    const response: BatchWriteItemCommandOutput = await guarded(() =>\n"
            "      client.send(\n"
            "        new BatchWriteItemCommand({ RequestItems: requestItems }),\n"
            "      ),\n"
            "    );\n"
            "    unprocessed = response.UnprocessedItems;\n"
            "  }\n"
        )
    extra = (
        "Throws TransactionCanceled when a condition fails (nothing is written)."
        if operation == "TransactWriteItems"
        else "Throws ConditionFailed when its condition does not hold."
        if any(a.condition for a in pattern.actions)
        else ""
    )
    params = _params_type(code.arguments)
    code.text = (
        _comment(pattern, extra)
        + f"export async function {code.function}(client: DynamoDBClient{params}): "
        "Promise<void> {\n" + "".join(body) + "}\n"
    )


def _pattern(
    design: d.Design,
    pattern: d.AccessPattern,
    names: TsNames,
    taken: set[str],
    converters: _Converters,
) -> TsPattern:
    code = TsPattern(
        pattern, identifier(lower_camel(pattern.name), taken, fallback="pattern")
    )
    try:
        if not pattern.keyed:
            raise NotGenerated("the pattern has no key yet")
        if pattern.operation in ("GetItem", "Query", "Scan"):
            _read(design, pattern, names, taken, converters, code)
        elif pattern.operation in (
            "PutItem",
            "UpdateItem",
            "DeleteItem",
            "TransactWriteItems",
            "BatchWriteItem",
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


def typescript_module(design: d.Design) -> TypeScriptModule:
    taken: set[str] = set()
    names = ts_entities.name_entities(design, taken)
    converters = _Converters(names, taken)
    patterns = tuple(
        _pattern(design, p, names, taken, converters) for p in design.access_patterns
    )
    codes = list(names.by_name.values())
    parts = [
        f"export const TABLE_NAME = {typescript_string(design.table.name)};\n",
        HELPERS.strip("\n") + "\n",
    ]
    for code in codes:
        for key in code.key_functions:
            parts.append(ts_entities.key_function(design, code, key))
    for code in codes:
        parts.append(ts_entities.key_patterns(design, code))
        parts.append(ts_entities.entity_code(design, code))
    parts.append(ts_entities.recognise_function(codes))
    parts += converters.sources
    for pattern in patterns:
        parts.append(
            pattern.text
            or f"// {comment_text(pattern.pattern.name)}: no function "
            f"({comment_text(pattern.problem)})\n"
        )
    body = "\n".join(p.rstrip("\n") + "\n" for p in parts)
    title = " ".join(design.name.split())
    header = (
        f"// Data access for the design “{comment_text(title)}”, table "
        f"{comment_text(design.table.name)}.\n"
        "//\n"
        "// Generated by the single-table workbench: an interface per entity, its key\n"
        "// functions, and a function per access pattern sending the request the\n"
        "// workbench simulated, with the AWS SDK for JavaScript v3:\n"
        "//\n"
        "//     const client = new DynamoDBClient({});\n"
    )
    return TypeScriptModule(
        header + "\n" + _imports(body) + "\n" + body, patterns, names
    )


def _imports(body: str) -> str:
    values = [n for n in _SDK_NAMES if re.search(rf"\b{n}\b", body)]
    types = [n for n in _SDK_TYPES if re.search(rf"\b{n}\b", body)]
    listed = [*values, *(f"type {t}" for t in types)]
    return (
        "import {\n"
        + "".join(f"  {n},\n" for n in listed)
        + '} from "@aws-sdk/client-dynamodb";\n'
    )
