"""The writes of a DynamoDB MCP server data model: a put-item, update-item
or delete-item command, or each element of a transact-write-items or
batch-write-item one, read back into the design's write pattern or action.

The command's values are samples (`CUST#01M7...#SHIPPED`); the design's
are templates. A value that renders the entity's key template for its
attribute becomes that template, its placeholders kept where the item's
key or this update gives them (`CUST#{customerId}#SHIPPED`); an enumerated
word (`SHIPPED`, `OPEN`) is a constant; any other value a parameter named
after its attribute, its example the command's value. What the design
cannot state (a nested path, a list or map value, an option it has no
field for) is named, never dropped in silence."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from modeler.design import model as d
from modeler.engine.errors import ValidationException
from modeler.engine.expressions.condition_parser import ConditionParser
from modeler.engine.expressions.conditions import And, Between, Comparison, In
from modeler.engine.expressions.operands import Call, NameRef, RawPath, RawValue
from modeler.engine.expressions.update import Arithmetic, UpdateParser
from modeler.keys.template import Literal, TemplateSyntaxError, parse_template


class Unreadable(ValueError):
    """Why a write is not carried."""


# A text value the design states as a constant rather than a parameter:
# an enumerated word, as a status is written (OPEN, IN_PROGRESS).
_CONSTANT = re.compile(r"[A-Z][A-Z_]{0,63}\Z")
_BARE_NAME = re.compile(r"[A-Za-z_][\w]*\Z")
_NAME_TOKEN = re.compile(r"#[A-Za-z0-9_]+")
_VALUE_TOKEN = re.compile(r":[A-Za-z0-9_]+")
_COMPARED = re.compile(
    r"(#[A-Za-z0-9_]+|[A-Za-z_]\w*)\s*(?:=|<>|<=|>=|<|>)\s*(:[A-Za-z0-9_]+)"
)


class Write:
    """One write request as the SDK states it (`Item` or `Key`,
    `UpdateExpression`, `ConditionExpression` and their names and values),
    read into a design action; the parameters it names gather in
    `parameters`, shared by the actions of one pattern."""

    def __init__(
        self,
        design: d.Design,
        matching: Callable[[d.Design, dict[str, str]], list[d.Entity]],
        parameters: dict[str, dict[str, str]],
    ) -> None:
        self.design = design
        self.matching = matching
        self.parameters = parameters

    def action(self, operation: str, request: dict[str, Any]) -> dict[str, Any]:
        """The design action of `operation` (Put, Update, Delete or
        ConditionCheck) that `request` states."""
        names = _mapping(request.get("ExpressionAttributeNames"), "names")
        values = _mapping(request.get("ExpressionAttributeValues"), "values")
        item = _mapping(request.get("Item" if operation == "Put" else "Key"), "key")
        entity, known = self._entity(item)
        action: dict[str, Any] = {"operation": operation, "entity": entity.name}
        sets: dict[str, str] = {}
        if operation == "Update":
            expression = request.get("UpdateExpression")
            if not isinstance(expression, str) or not expression.strip():
                raise Unreadable("an update without an update expression")
            action.update(self._update(expression, names, values, entity, known))
            sets = action.get("set", {})
        condition = request.get("ConditionExpression")
        if isinstance(condition, str) and condition.strip():
            action["condition"] = self.condition(condition, names, values, sets)
        elif operation == "ConditionCheck":
            raise Unreadable("a condition check without a condition expression")
        return action

    def _entity(self, item: dict[str, Any]) -> tuple[d.Entity, dict[str, str]]:
        """The entity whose table key templates render the item's key, and
        the attribute values the key holds (`customerId` of `CUST#...`)."""
        table = self.design.table
        wanted: dict[str, str] = {}
        for key_attribute in (table.partition_key, table.sort_key):
            if key_attribute is None:
                continue
            value = item.get(key_attribute.name)
            if value is None:
                raise Unreadable("the request does not give the table's whole key")
            wanted[key_attribute.name] = wire_text(value, key_attribute.name)
        entities = self.matching(self.design, wanted)
        if not entities:
            raise Unreadable(f"its key {wanted} matches no entity's key templates")
        entity = entities[0]
        known: dict[str, str] = {}
        for name, sample in wanted.items():
            found = parse_template(entity.keys[name].template).match(sample) or {}
            known.update({a: str(v) for a, v in found.items()})
        return entity, known

    def _update(
        self,
        expression: str,
        names: dict[str, Any],
        values: dict[str, Any],
        entity: d.Entity,
        known: dict[str, str],
    ) -> dict[str, Any]:
        try:
            raw = UpdateParser(expression, None, None, "UpdateExpression").read()
        except ValidationException as exc:
            raise Unreadable(f"the update expression is not read ({exc})") from None
        ways: dict[str, dict[str, str]] = {}
        removed: list[str] = []
        pending: list[tuple[str, str, dict[str, Any], str]] = []
        for section, raw_path, raw_value in raw:
            attribute = _attribute(raw_path, names)
            if section == "REMOVE":
                removed.append(attribute)
                continue
            way, operand, sign = _way(section, raw_path, raw_value)
            pending.append((way, attribute, _value(values, operand.placeholder), sign))
        # A key template's placeholder that this update sets to a constant
        # is that constant (GSI1PK's status: SHIPPED).
        constants = {
            attribute: wire_text(sample, attribute)
            for way, attribute, sample, _ in pending
            if way == "set" and _is_constant(sample)
        }
        for way, attribute, sample, sign in pending:
            if way == "add":
                text = self._amount(sample, attribute, negated=sign == "-")
            elif way == "delete":
                text = self._member(sample, attribute)
            else:
                text = self._set_value(sample, attribute, entity, known, constants)
            ways.setdefault(way, {})[attribute] = text
        out: dict[str, Any] = {way: ways[way] for way in d.UPDATE_WAYS if way in ways}
        if removed:
            out["remove"] = removed
        return out

    def _set_value(
        self,
        sample: dict[str, Any],
        attribute: str,
        entity: d.Entity,
        known: dict[str, str],
        constants: dict[str, str],
    ) -> str:
        template = entity.keys.get(attribute)
        if template is not None and "S" in sample:
            rendered = _as_template(
                template.template, str(sample["S"]), known, constants
            )
            if rendered is not None:
                return rendered
        if attribute in constants:
            return _literal(constants[attribute])
        if "BOOL" in sample:
            return "true" if sample["BOOL"] else "false"
        name = attribute if attribute not in known else f"new_{attribute}"
        return self._parameter(name, sample, attribute)

    def _amount(self, sample: dict[str, Any], attribute: str, *, negated: bool) -> str:
        if "N" in sample:
            amount = str(sample["N"])
            if negated:
                amount = amount[1:] if amount.startswith("-") else "-" + amount
            return amount
        return self._member(sample, attribute)

    def _member(self, sample: dict[str, Any], attribute: str) -> str:
        for kind in ("SS", "NS"):
            members = sample.get(kind)
            if isinstance(members, list) and len(members) == 1:
                return self._parameter(attribute, {kind[0]: members[0]}, attribute)
        raise Unreadable(
            f"it adds to or deletes from {attribute} a value other than a "
            "number or a set of one member"
        )

    def _parameter(self, name: str, sample: dict[str, Any], attribute: str) -> str:
        kind = next(iter(sample), "")
        if kind not in ("S", "N") or not isinstance(sample[kind], (str, int, float)):
            raise Unreadable(
                f"it writes {attribute} a value of type {kind or 'none'}, which a "
                "parameter does not hold"
            )
        example = str(sample[kind])
        wanted = {"type": kind, "example": example}
        base, n = name, 1
        while name in self.parameters and self.parameters[name] != wanted:
            n += 1
            name = f"{base}_{n}"
        self.parameters[name] = wanted
        return "{" + name + "}"

    def condition(
        self,
        expression: str,
        names: dict[str, Any],
        values: dict[str, Any],
        sets: dict[str, str],
    ) -> str:
        try:
            ConditionParser(expression, None, None, "ConditionExpression").read()
        except ValidationException as exc:
            raise Unreadable(f"the condition is not read ({exc})") from None
        compared = {
            value: _NAME_TOKEN.sub(lambda m: _name(m.group(), names), attribute)
            for attribute, value in _COMPARED.findall(expression)
        }

        def value(match: re.Match[str]) -> str:
            sample = _value(values, match.group())
            if _is_constant(sample):
                return _quoted(sample)
            if isinstance(sample.get("BOOL"), bool):
                return "true" if sample["BOOL"] else "false"
            if "N" in sample and match.group() not in compared:
                return str(sample["N"])
            name = compared.get(match.group(), match.group()[1:])
            if name in sets:
                name = f"expected_{name}"
            return self._parameter(name, sample, name)

        text = _NAME_TOKEN.sub(lambda m: _name(m.group(), names), expression)
        return _VALUE_TOKEN.sub(value, text)

    def where(
        self, expression: str, names: dict[str, Any], values: dict[str, Any]
    ) -> dict[str, Any]:
        """A filter as the expectation's predicates, one an attribute: each
        of its AND-joined comparisons, BETWEEN, IN, begins_with and
        attribute_(not_)exists; what an expectation cannot state (OR, NOT,
        size, contains, two predicates of one attribute) is Unreadable."""
        try:
            raw = ConditionParser(expression, None, None, "FilterExpression").read()
        except ValidationException as exc:
            raise Unreadable(f"the filter is not read ({exc})") from None
        where: dict[str, Any] = {}
        for node in raw.children if isinstance(raw, And) else (raw,):
            attribute, predicate = self._predicate(node, names, values)
            if attribute in where:
                raise Unreadable(f"the filter states {attribute} twice")
            where[attribute] = predicate
        return where

    def _predicate(
        self, node: Any, names: dict[str, Any], values: dict[str, Any]
    ) -> tuple[str, Any]:
        def attribute(operand: Any) -> str | None:
            return _attribute(operand, names) if isinstance(operand, RawPath) else None

        def value(operand: Any, name: str) -> str:
            if not isinstance(operand, RawValue):
                raise Unreadable("the filter compares two attributes")
            sample = _value(values, operand.placeholder)
            if _is_constant(sample):
                return _literal(str(sample["S"]))
            if isinstance(sample.get("BOOL"), bool):
                return "true" if sample["BOOL"] else "false"
            return self._parameter(name, sample, name)

        if isinstance(node, Comparison):
            operator = "!=" if node.operator == "<>" else node.operator
            left, right = attribute(node.left), attribute(node.right)
            if left is None and right is not None:
                flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
                left, operator = right, flipped.get(operator, operator)
                node = Comparison(node.operator, node.right, node.left)
            if left is not None:
                text = value(node.right, left)
                return left, text if operator == "=" else {operator: text}
        elif isinstance(node, Between) and (name := attribute(node.operand)):
            ends = [value(node.low, f"{name}_from"), value(node.high, f"{name}_to")]
            return name, {"between": ends}
        elif isinstance(node, In) and (name := attribute(node.operand)):
            return name, {"in": [value(c, name) for c in node.choices]}
        elif isinstance(node, Call) and node.args and attribute(node.args[0]):
            name = attribute(node.args[0]) or ""
            if node.name in ("attribute_exists", "attribute_not_exists"):
                return name, {node.name.removeprefix("attribute_"): True}
            if node.name == "begins_with" and len(node.args) == 2:
                return name, {"begins_with": value(node.args[1], name)}
        raise Unreadable(
            "the filter holds a clause an expectation cannot state: "
            "OR, NOT, size, contains or attribute_type"
        )


def filter_text(where: dict[str, Any]) -> str:
    """The filter an expectation's predicates state (`verified = true and
    status in ("OPEN", "PENDING")`): a constant quoted, a parameter and a
    boolean as they are."""

    def value(text: str) -> str:
        return (
            text if text.startswith("{") or text in ("true", "false") else f'"{text}"'
        )

    clauses = []
    for attribute, predicate in where.items():
        if not isinstance(predicate, dict):
            clauses.append(f"{attribute} = {value(predicate)}")
            continue
        ((operator, operand),) = predicate.items()
        if operator in ("exists", "not_exists"):
            clauses.append(f"attribute_{operator}({attribute})")
        elif operator == "begins_with":
            clauses.append(f"begins_with({attribute}, {value(operand)})")
        elif operator == "between":
            low, high = (value(v) for v in operand)
            clauses.append(f"{attribute} between {low} and {high}")
        elif operator == "in":
            listed = ", ".join(value(v) for v in operand)
            clauses.append(f"{attribute} in ({listed})")
        else:
            symbol = "<>" if operator == "!=" else operator
            clauses.append(f"{attribute} {symbol} {value(operand)}")
    return " and ".join(clauses)


def _way(section: str, raw_path: RawPath, raw_value: Any) -> tuple[str, RawValue, str]:
    """How an update writes its attribute (one of the design's update
    ways), the value placeholder it writes, and the sign of an addition."""
    if section in ("ADD", "DELETE") and isinstance(raw_value, RawValue):
        return section.lower(), raw_value, "+"
    if isinstance(raw_value, RawValue):
        return "set", raw_value, "+"
    if (
        isinstance(raw_value, Call)
        and raw_value.name == "if_not_exists"
        and len(raw_value.args) == 2
        and raw_value.args[0] == raw_path
        and isinstance(raw_value.args[1], RawValue)
    ):
        return "set_if_absent", raw_value.args[1], "+"
    if (
        isinstance(raw_value, Arithmetic)
        and raw_value.left == raw_path
        and isinstance(raw_value.right, RawValue)
    ):
        # SET n = n + :x, a counter (the design's ADD, which takes a
        # missing number as 0 where this SET would fail).
        return "add", raw_value.right, raw_value.operator
    raise Unreadable(
        "its update sets a value the design cannot state (only a value, "
        "if_not_exists of the same attribute, or a counter's + or -)"
    )


def _attribute(raw_path: RawPath, names: dict[str, Any]) -> str:
    if len(raw_path.elements) != 1:
        raise Unreadable("it names a nested path; the design names attributes")
    (element,) = raw_path.elements
    if isinstance(element, NameRef):
        return _name(element.placeholder, names)
    if isinstance(element, str):
        return element
    raise Unreadable("it names a list element; the design names attributes")


def _name(placeholder: str, names: dict[str, Any]) -> str:
    name = names.get(placeholder)
    if not isinstance(name, str):
        raise Unreadable(f"{placeholder} has no name in the expression attribute names")
    if not _BARE_NAME.match(name):
        raise Unreadable(f"the attribute name {name!r} is not one the design states")
    return name


def _value(values: dict[str, Any], placeholder: str) -> dict[str, Any]:
    value = values.get(placeholder)
    if not isinstance(value, dict) or len(value) != 1:
        raise Unreadable(f"{placeholder} has no value in the expression values")
    return value


def _is_constant(sample: dict[str, Any]) -> bool:
    return isinstance(sample.get("S"), str) and bool(_CONSTANT.match(sample["S"]))


def _quoted(sample: dict[str, Any]) -> str:
    return '"' + str(sample["S"]) + '"'


def _as_template(
    template: str, sample: str, known: dict[str, str], constants: dict[str, str]
) -> str | None:
    """The key template with its placeholders kept, but for those this
    update sets to a constant the sample holds (`CUST#{customerId}#SHIPPED`);
    None where the template does not render the sample."""
    try:
        parsed = parse_template(template)
    except TemplateSyntaxError:
        return None
    found = parsed.match(sample)
    if found is None:
        return None
    out = []
    for part in parsed.parts:
        if isinstance(part, Literal):
            out.append(_literal(part.text))
        elif (
            part.attribute in constants
            and str(found[part.attribute]) == constants[part.attribute]
            and part.source == "{" + part.attribute + "}"
        ):
            out.append(_literal(constants[part.attribute]))
        else:
            out.append(part.source)
    return "".join(out)


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Unreadable(f"the request's {what} are not a JSON object")
    return value


def wire_text(value: Any, what: str) -> str:
    """The text of a sample's S or N value (`{"S": "x"}`, `{"N": "12"}`)."""
    if isinstance(value, dict) and len(value) == 1:
        kind, raw = next(iter(value.items()))
        if kind in ("S", "N") and isinstance(raw, (str, int, float)):
            return str(raw)
    raise Unreadable(f"{what} is not a string or number value")


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")
