"""The access patterns of a DynamoDB MCP server data model: each entry's
AWS CLI `implementation` (`aws dynamodb query --key-condition-expression
'PK = :pk AND begins_with(SK, :sk)' --expression-attribute-values ...`)
read back into a pattern of the design. The CLI holds sample key values
(`USER#u1`); the entity whose key template renders such a value
(`USER#{userId}`) gives the pattern its key template, so the pattern reads
as the workbench's own do. An entry that is no DynamoDB operation (its
`reason`), or whose command cannot be read, is named in the notes."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from modeler.design import model as d
from modeler.importers.mcp_writes import Unreadable, Write, filter_text, wire_text
from modeler.keys.condition import ConditionSyntaxError, Presence
from modeler.keys.condition import parse_condition as parse_when
from modeler.keys.template import Literal, TemplateSyntaxError, parse_template

_COMMANDS = {
    "get-item": "GetItem",
    "query": "Query",
    "scan": "Scan",
    "put-item": "PutItem",
    "update-item": "UpdateItem",
    "delete-item": "DeleteItem",
    "transact-write-items": "TransactWriteItems",
    "batch-write-item": "BatchWriteItem",
}
# The options each command's reading uses; any other is named as not carried.
_COMMON = {"table-name", "expression-attribute-names", "expression-attribute-values"}
_READ_OPTIONS = {
    "GetItem": _COMMON | {"key", "consistent-read"},
    "Query": _COMMON
    | {
        "index-name",
        "key-condition-expression",
        "no-scan-index-forward",
        "scan-index-forward",
        "consistent-read",
        "no-consistent-read",
        "limit",
        "filter-expression",
    },
    "Scan": _COMMON | {"index-name"},
    "PutItem": _COMMON | {"item", "condition-expression"},
    "UpdateItem": _COMMON | {"key", "update-expression", "condition-expression"},
    "DeleteItem": _COMMON | {"key", "condition-expression"},
    "TransactWriteItems": {"transact-items"},
    "BatchWriteItem": {"request-items"},
}
# What the CLI option of a single write is in the SDK's request.
_REQUEST_FIELDS = {
    "item": "Item",
    "key": "Key",
    "update-expression": "UpdateExpression",
    "condition-expression": "ConditionExpression",
    "expression-attribute-names": "ExpressionAttributeNames",
    "expression-attribute-values": "ExpressionAttributeValues",
}
_TRANSACT_FIELDS = {"TableName", *_REQUEST_FIELDS.values()}
_NAME = r"(#?[A-Za-z_][\w.-]*)"
_VALUE = r"(:[A-Za-z_]\w*)"
_PARTITION = re.compile(rf"\s*{_NAME}\s*=\s*{_VALUE}\s*\Z")
_SORT = (
    (
        re.compile(rf"\s*begins_with\s*\(\s*{_NAME}\s*,\s*{_VALUE}\s*\)\s*\Z", re.I),
        "begins_with",
    ),
    (
        re.compile(rf"\s*{_NAME}\s+between\s+{_VALUE}\s+and\s+{_VALUE}\s*\Z", re.I),
        "between",
    ),
    (re.compile(rf"\s*{_NAME}\s*(<=|>=|<|>|=)\s*{_VALUE}\s*\Z"), ""),
)


_Unreadable = Unreadable


def mcp_patterns(
    entries: list, design: d.Design, table: str, notes: list[str]
) -> list[dict[str, Any]]:
    """The design-file patterns of the entries of `table`; every entry
    not carried is named in `notes`."""
    patterns: list[dict[str, Any]] = []
    names: set[str] = set()
    for i, entry in enumerate(entries):
        path = f"access_patterns[{i}]"
        if not isinstance(entry, dict):
            notes.append(f"{path}: not an object, not carried")
            continue
        if entry.get("table") not in (None, table):
            continue  # another table's
        label = _label(entry, i)
        implementation = entry.get("implementation")
        if not isinstance(implementation, str) or not implementation.strip():
            reason = entry.get("reason")
            notes.append(
                f"{path} ({label}): no DynamoDB command, not carried"
                + (f": {reason}" if isinstance(reason, str) and reason else "")
            )
            continue
        dropped: list[str] = []
        try:
            pattern = _pattern(implementation, design, table, dropped)
        except _Unreadable as exc:
            notes.append(f"{path} ({label}): not carried: {exc}")
            continue
        if dropped:
            notes.append(f"{path} ({label}): carried without " + "; ".join(dropped))
        name = label
        while name in names:
            name += " (again)"
        names.add(name)
        patterns.append({"name": name, **pattern})
    return patterns


def _label(entry: dict, position: int) -> str:
    number = entry.get("pattern")
    description = entry.get("description")
    text = description.strip() if isinstance(description, str) else ""
    prefix = f"AP{number}" if isinstance(number, (str, int)) and str(number) else ""
    return (f"{prefix} {text}".strip() or f"Pattern {position + 1}")[:200]


def _options(command: str) -> tuple[str, dict[str, str | None]]:
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise _Unreadable(f"the command does not split into words ({exc})") from None
    if words[:2] != ["aws", "dynamodb"] or len(words) < 3:
        raise _Unreadable("not an `aws dynamodb` command")
    options: dict[str, str | None] = {}
    position = 3
    while position < len(words):
        word = words[position]
        if not word.startswith("--"):
            raise _Unreadable(f"unexpected word {word!r}")
        following = words[position + 1] if position + 1 < len(words) else None
        if following is not None and not following.startswith("--"):
            options[word[2:]] = following
            position += 2
        else:
            options[word[2:]] = None
            position += 1
    return words[2], options


def _json_option(
    options: dict[str, str | None], option: str, kind: type, what: str
) -> Any:
    """The JSON value of an option, of the type `kind` (`what` names it);
    None when the command does not give the option."""
    text = options.get(option)
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Unreadable(f"--{option} is not JSON ({exc.msg})") from None
    if not isinstance(value, kind):
        raise _Unreadable(f"--{option} is not a JSON {what}")
    return value


def _json(options: dict[str, str | None], option: str) -> dict:
    value = _json_option(options, option, dict, "object")
    return {} if value is None else value


def _pattern(
    command: str, design: d.Design, table: str, dropped: list[str]
) -> dict[str, Any]:
    verb, options = _options(command)
    operation = _COMMANDS.get(verb)
    if operation is None:
        raise _Unreadable(f"`{verb}` is not read (only " + ", ".join(_COMMANDS) + ")")
    if options.get("table-name") not in (None, table):
        raise _Unreadable(f"--table-name {options['table-name']} is not {table}")
    dropped.extend(
        f"--{option}" + (f" {value}" if value is not None and len(value) < 40 else "")
        for option, value in options.items()
        if option not in _READ_OPTIONS[operation]
    )
    if operation == "Scan":
        pattern: dict[str, Any] = {"operation": "Scan"}
        if options.get("index-name"):
            pattern["index"] = options["index-name"]
        return pattern
    if operation == "Query":
        return _query(options, design, dropped)
    if operation in ("TransactWriteItems", "BatchWriteItem"):
        return _many(operation, options, design, table, dropped)
    if operation != "GetItem":
        request = {
            field: _json(options, option)
            if option not in ("update-expression", "condition-expression")
            else options.get(option)
            for option, field in _REQUEST_FIELDS.items()
            if options.get(option) is not None
        }
        parameters: dict[str, dict[str, str]] = {}
        action = Write(design, _matching, parameters).action(
            operation.removesuffix("Item"), request
        )
        del action["operation"]
        pattern = {"operation": operation, **action}
        if parameters:
            pattern["parameters"] = parameters
        return pattern
    key = _json(options, "key")
    values = {name: wire_text(v, name) for name, v in key.items()}
    keys = (design.table.partition_key, design.table.sort_key)
    wanted: dict[str, str] = {}
    for key_attribute in keys:
        if key_attribute is None:
            continue
        value = values.get(key_attribute.name)
        if value is None:
            raise _Unreadable("the command does not give the table's whole key")
        wanted[key_attribute.name] = value
    entities = _matching(design, wanted)
    if not entities:
        raise _Unreadable(f"its key {wanted} matches no entity's key templates")
    entity = entities[0]
    templates = {name: entity.keys[name].template for name in wanted}
    pattern = {"operation": "GetItem", "key": templates}
    if "consistent-read" in options:
        pattern["consistent_read"] = True
    pattern["expects"] = {"entity": entity.name, "where": _where(templates)}
    return pattern


def _many(
    operation: str,
    options: dict[str, str | None],
    design: d.Design,
    table: str,
    dropped: list[str],
) -> dict[str, Any]:
    """A transaction's or a batch's writes as the pattern's actions, each
    run of the same action (three line items put) one action with its
    count."""
    if operation == "TransactWriteItems":
        option, listed = "transact-items", _json_list(options, "transact-items")
    else:
        option = "request-items"
        by_table = _json(options, option)
        if set(by_table) - {table}:
            raise _Unreadable(
                "it writes other tables too: "
                + ", ".join(sorted(set(by_table) - {table}))
            )
        requests = by_table.get(table)
        if not isinstance(requests, list):
            raise _Unreadable(f"--{option} lists no request of {table}")
        listed = requests
    kinds = (
        {kind: kind for kind in ("Put", "Update", "Delete", "ConditionCheck")}
        if operation == "TransactWriteItems"
        else {"PutRequest": "Put", "DeleteRequest": "Delete"}
    )
    parameters: dict[str, dict[str, str]] = {}
    write = Write(design, _matching, parameters)
    actions: list[dict[str, Any]] = []
    counts: list[int] = []
    for position, element in enumerate(listed):
        where = f"--{option}[{position}]"
        if not isinstance(element, dict) or len(element) != 1:
            raise _Unreadable(f"{where} is not one request")
        ((kind, request),) = element.items()
        if kind not in kinds or not isinstance(request, dict):
            raise _Unreadable(f"{where}: {kind} is not read (only {', '.join(kinds)})")
        if request.get("TableName", table) != table:
            raise _Unreadable(f"{where} writes the table {request['TableName']}")
        extra = sorted(set(request) - _TRANSACT_FIELDS)
        dropped.extend(f"{where}.{field}" for field in extra)
        try:
            action = write.action(kinds[kind], request)
        except _Unreadable as exc:
            raise _Unreadable(f"{where}: {exc}") from None
        if actions and actions[-1] == action:
            counts[-1] += 1
            continue
        actions.append(action)
        counts.append(1)
    if not actions:
        raise _Unreadable(f"--{option} holds no request")
    for action, count in zip(actions, counts, strict=True):
        if count > 1:
            action["count"] = count
    pattern: dict[str, Any] = {"operation": operation, "actions": actions}
    if parameters:
        pattern["parameters"] = parameters
    return pattern


def _json_list(options: dict[str, str | None], option: str) -> list:
    value = _json_option(options, option, list, "list")
    if value is None:
        raise _Unreadable(f"a command without --{option}")
    return value


def _query(
    options: dict[str, str | None], design: d.Design, dropped: list[str]
) -> dict[str, Any]:
    condition = options.get("key-condition-expression")
    if not condition:
        raise _Unreadable("a query without --key-condition-expression")
    names = _json(options, "expression-attribute-names")
    values = _json(options, "expression-attribute-values")
    parts = re.split(r"\s+and\s+(?![^(]*\))", condition, maxsplit=1, flags=re.I)

    def name(token: str) -> str:
        return str(names.get(token, token)) if token.startswith("#") else token

    def value(token: str) -> str:
        if token not in values:
            raise _Unreadable(f"{token} has no value in --expression-attribute-values")
        return wire_text(values[token], token)

    first = _PARTITION.match(parts[0])
    if first is None:
        raise _Unreadable(f"the key condition {condition!r} is not read")
    partition, partition_value = name(first.group(1)), value(first.group(2))
    index_name = options.get("index-name")
    index = next((i for i in design.table.indexes if i.name == index_name), None)
    if index_name and index is None:
        raise _Unreadable(f"--index-name {index_name} is no index of the table")
    entities = _matching(design, {partition: partition_value})
    if not entities:
        raise _Unreadable(
            f"its {partition} value {partition_value!r} matches no entity's "
            "key template"
        )
    key: dict[str, Any] = {partition: entities[0].keys[partition].template}
    ranged: dict[str, Any] = {}
    parameters: dict[str, Any] = {}
    if len(parts) == 2:
        sort, ranged, parameters, writers = _sort_condition(
            parts[1], name, value, entities
        )
        key.update(sort)
        # The entities the sort condition can select: those with the sort
        # key whose template can start with a begins_with prefix, or whose
        # template gives the range's ends.
        ((sort_name, condition),) = sort.items()
        prefix = condition.get("begins_with") if isinstance(condition, dict) else None
        entities = [
            e
            for e in entities
            if sort_name in e.keys
            and (prefix is None or _may_begin(e.keys[sort_name].template, prefix))
            and (not writers or e.name in writers)
        ] or entities
    # The partition key as the selected entities write it; the pattern
    # expects those that write it the same way (the same placeholders).
    key[partition] = entities[0].keys[partition].template
    entities = [e for e in entities if e.keys[partition].template == key[partition]]
    pattern: dict[str, Any] = {"operation": "Query"}
    if index_name:
        pattern["index"] = index_name
    pattern["key"] = key
    if "no-scan-index-forward" in options:
        pattern["scan_forward"] = False
    if "consistent-read" in options:
        pattern["consistent_read"] = True
    limit = options.get("limit")
    if limit and limit.isdigit() and int(limit) > 0:
        pattern["limit"] = int(limit)
    if parameters:
        pattern["parameters"] = parameters
    chosen = [e.name for e in entities]
    pattern["expects"] = {
        "entity": chosen[0] if len(chosen) == 1 else chosen,
        "where": _where(key) | ranged | _sparse(entities, partition, dropped),
    }
    if options.get("filter-expression"):
        _filter(pattern, options, design, entities, index, dropped)
    return pattern


def _filter(
    pattern: dict[str, Any],
    options: dict[str, str | None],
    design: d.Design,
    entities: list[d.Entity],
    index: d.Index | None,
    dropped: list[str],
) -> None:
    """A query's --filter-expression as its filter, and as predicates of
    its expectation (the items the filter keeps); one the expectation
    cannot state, or that names a key of the index read, is named in
    `dropped` and the query carried without it."""
    text = str(options["filter-expression"])
    parameters = dict(pattern.get("parameters", {}))
    try:
        where = Write(design, _matching, parameters).where(
            text,
            _json(options, "expression-attribute-names"),
            _json(options, "expression-attribute-values"),
        )
        keys = (
            index.key_attributes
            if index is not None
            else (design.table.partition_key, design.table.sort_key)
        )
        for attribute in where:
            if attribute in {k.name for k in keys if k is not None}:
                raise _Unreadable(f"it filters on {attribute}, a key of the read")
            if attribute in pattern["expects"]["where"]:
                raise _Unreadable(f"the key's expectation states {attribute} too")
            if not any(e.attribute(attribute) for e in entities):
                raise _Unreadable(f"{attribute} is no attribute of the items read")
    except _Unreadable as exc:
        dropped.append(f"--filter-expression {text} ({exc})")
        return
    pattern["filter"] = filter_text(where)
    pattern["expects"]["where"] |= where
    if parameters:
        pattern["parameters"] = parameters


def _sparse(
    entities: list[d.Entity], partition: str, dropped: list[str]
) -> dict[str, Any]:
    """What a sparse index holds its entities' items by: the `when` of
    the partition key all of them write only while it holds (`status =
    OPEN`, inferred from the items that lack the key), each clause the
    expectation's predicate of its attribute (`status in (OPEN, PENDING)`,
    `priority >= 3`, `attribute_exists(shippedAt)`). Nothing where they
    differ, or where two clauses name one attribute (an expectation states
    one predicate an attribute: named in `dropped`)."""
    whens = {e.keys[partition].when for e in entities}
    if len(whens) != 1:
        return {}
    when = whens.pop()
    if not when:
        return {}
    try:
        clauses = parse_when(when).clauses
    except ConditionSyntaxError:
        return {}
    where: dict[str, Any] = {}
    for clause in clauses:
        if clause.attribute in where:
            dropped.append(
                f"the index's condition `{when}` in its expectation, which "
                f"states one predicate of {clause.attribute}, not two"
            )
            return {}
        if isinstance(clause, Presence):
            where[clause.attribute] = (
                {"exists": True} if clause.exists else {"not_exists": True}
            )
            continue
        values = [_literal(str(v)) for v in clause.values]
        if clause.operator == "in":
            where[clause.attribute] = {"in": values}
        elif clause.operator == "=":
            where[clause.attribute] = values[0]
        else:
            where[clause.attribute] = {clause.operator: values[0]}
    return where


def _sort_condition(
    text: str, name: Any, value: Any, entities: list
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], set[str]]:
    """The sort key's condition; what it places on the items beyond the key's
    equalities (a range's attribute between its ends); the parameters it
    names; and the entities whose template the sample values fit (none
    where no template was matched)."""
    for expression, operator in _SORT:
        match = expression.match(text)
        if match is None:
            continue
        attribute = name(match.group(1))
        if operator == "begins_with":
            prefix = value(match.group(2))
            for entity in entities:
                template = entity.keys.get(attribute)
                found = (
                    _template_prefix(prefix, template.template) if template else None
                )
                if found is not None:
                    # `METRIC#temperature#` of `METRIC#{metric}#{readingAt}`:
                    # the prefix fixes metric.
                    return {attribute: {"begins_with": found}}, {}, {}, set()
            return {attribute: {"begins_with": _literal(prefix)}}, {}, {}, set()
        if operator == "between":
            low, high = value(match.group(2)), value(match.group(3))
            ranged = _range(attribute, low, high, entities)
            if ranged is not None:
                return ranged
            return (
                {
                    attribute: {
                        "between": [
                            _as_template(low, attribute, entities),
                            _as_template(high, attribute, entities),
                        ]
                    }
                },
                {},
                {},
                set(),
            )
        operator = match.group(2)
        found = _as_template(value(match.group(3)), attribute, entities)
        return (
            {attribute: found if operator == "=" else {operator: found}},
            {},
            {},
            set(),
        )
    raise _Unreadable(f"the sort key condition {text.strip()!r} is not read")


def _range(
    attribute: str, low: str, high: str, entities: list
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], set[str]] | None:
    """A BETWEEN whose ends one key template renders, differing in one
    attribute (`READING#2026-06-10...` and `READING#2026-06-12...` of
    `READING#{readingAt}`): the key between that template with the
    attribute's two ends as parameters, and the items' attribute between
    them. None where no template renders both ends so."""
    for entity in entities:
        template = entity.keys.get(attribute)
        if template is None:
            continue
        try:
            parsed = parse_template(template.template)
        except TemplateSyntaxError:
            continue
        low_values, high_values = parsed.match(low), parsed.match(high)
        if low_values is None or high_values is None:
            continue
        differing = [a for a in parsed.attributes if low_values[a] != high_values[a]]
        if len(differing) != 1:
            continue
        (ranged,) = differing
        ends = (f"{ranged}_from", f"{ranged}_to")
        sources = [
            "".join(
                part.text.replace("{", "{{").replace("}", "}}")
                if isinstance(part, Literal)
                else part.source.replace("{" + ranged, "{" + end, 1)
                if part.attribute == ranged
                else part.source
                for part in parsed.parts
            )
            for end in ends
        ]
        writers = {
            e.name
            for e in entities
            if e.keys.get(attribute) is not None
            and e.keys[attribute].template == template.template
        }
        parameters = {
            end: {"type": "S", "example": str(sample[ranged])}
            for end, sample in zip(ends, (low_values, high_values), strict=True)
        }
        return (
            {attribute: {"between": sources}},
            {ranged: {"between": [f"{{{ends[0]}}}", f"{{{ends[1]}}}"]}},
            parameters,
            writers,
        )
    return None


def _template_prefix(prefix: str, template: str) -> str | None:
    """The prefix as a prefix of the template with placeholders where it
    holds their values (`METRIC#{metric}#` for `METRIC#temperature#` of
    `METRIC#{metric}#{readingAt}`), or None where it holds no whole value
    or does not fit the template."""
    try:
        parts = parse_template(template).parts
    except TemplateSyntaxError:
        return None
    rest, out, placed = prefix, [], False
    for at, part in enumerate(parts):
        if not rest:
            break
        if isinstance(part, Literal):
            if rest.startswith(part.text):
                out.append(_literal(part.text))
                rest = rest[len(part.text) :]
                continue
            if part.text.startswith(rest):
                out.append(_literal(rest))
                rest = ""
                break
            return None
        following = parts[at + 1] if at + 1 < len(parts) else None
        if not isinstance(following, Literal) or following.text not in rest:
            return None  # the prefix ends inside this value
        held = rest[: rest.index(following.text)]
        if not held:
            return None
        out.append(part.source)
        rest = rest[len(held) :]
        placed = True
    return "".join(out) if placed and not rest else None


def _as_template(sample: str, attribute: str, entities: list) -> str:
    """The entity's key template when it renders the sample, else the
    sample as literal text."""
    for entity in entities:
        template = entity.keys.get(attribute)
        if template is not None and _renders(template.template, sample):
            return template.template
    return _literal(sample)


def _where(key: dict[str, Any]) -> dict[str, Any]:
    """What the items a key selects hold: each attribute an equality
    condition places equals its parameter."""
    where: dict[str, Any] = {}
    for condition in key.values():
        if isinstance(condition, dict) and "begins_with" in condition:
            condition = condition["begins_with"]  # a prefix holding values
        if isinstance(condition, str):
            for attribute in parse_template(condition).attributes:
                where[attribute] = f"{{{attribute}}}"
    return where


def _may_begin(template: str, prefix: str) -> bool:
    """Whether keys of `template` can start with the literal `prefix`."""
    try:
        fixed = parse_template(template).literal_prefix
    except TemplateSyntaxError:
        return False
    text = prefix.replace("{{", "{").replace("}}", "}")
    return fixed.startswith(text) or text.startswith(fixed)


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _renders(template: str, sample: str) -> bool:
    try:
        return parse_template(template).match(sample) is not None
    except TemplateSyntaxError:
        return False


def _matching(design: d.Design, values: dict[str, str]) -> list[d.Entity]:
    """The entities whose key templates render every value."""
    return [
        entity
        for entity in design.entities
        if all(
            attribute in entity.keys
            and _renders(entity.keys[attribute].template, sample)
            for attribute, sample in values.items()
        )
    ]
