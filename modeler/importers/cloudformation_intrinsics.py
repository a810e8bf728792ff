"""A CloudFormation template's text loaded with its YAML short forms (`!Ref X`
as `{Ref: X}`), and its intrinsic functions resolved where the template
alone decides them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import yaml

from modeler.designfile import (
    MAX_DEPTH,
    YamlStructureError,
    check_yaml_structure,
    yaml_error_message,
)
from modeler.importers.budget import Budget, text_size
from modeler.importers.tables import (
    failed,
    kind_of,
    load_json,
)

_SUB = re.compile(r"\$\{([^}!][^}]*)\}")
NO_VALUE = object()


class Unresolved(Exception):
    """A value the template alone does not decide; the message says why."""


def load_template(text: str) -> Any:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return load_json(text)
    try:
        check_yaml_structure(text, what="a template")
        return yaml.load(text, Loader=TemplateLoader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        return failed(yaml_error_message(exc))
    except RecursionError:
        return failed(f"the document is nested more than {MAX_DEPTH} levels deep")
    except YamlStructureError as exc:
        return failed(str(exc))


# The base is chosen at import time (libyaml's when PyYAML has it), which a
# checker cannot follow.
class TemplateLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # dynamic base
    """The safe loader with CloudFormation's short forms: `!Ref X` is
    `{Ref: X}`, `!GetAtt A.B` is `{Fn::GetAtt: [A, B]}`, `!Sub ...` is
    `{Fn::Sub: ...}` and so on. libyaml's when PyYAML has it: a template of
    a megabyte loads in a third of the pure-Python loader's CPU time, which
    counts against the import's budget."""


def _short_form(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if suffix in ("Ref", "Condition"):
        return {suffix: value}
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{suffix}": value}


TemplateLoader.add_multi_constructor("!", _short_form)


# --- Intrinsic functions ----------------------------------------------------


class Resolver:
    """Intrinsic functions resolved where the template decides them. Each
    condition and each mapping entry is evaluated once (conditions that
    each refer to the one before twice over would otherwise ask for work
    exponential in their number), every value evaluated costs a step of the
    import's budget, and a value past IMPORT_MAX_VALUE_BYTES is refused
    (an Fn::Join or Fn::Sub can multiply a text)."""

    def __init__(self, template: dict[str, Any], budget: Budget) -> None:
        parameters = template.get("Parameters")
        self.parameters = parameters if isinstance(parameters, dict) else {}
        mappings = template.get("Mappings")
        self.mappings = mappings if isinstance(mappings, dict) else {}
        conditions = template.get("Conditions")
        self.conditions = conditions if isinstance(conditions, dict) else {}
        resources = template.get("Resources")
        self.resources = resources if isinstance(resources, dict) else {}
        self.defaults_used: dict[str, Any] = {}
        self.budget = budget
        # Conditions, mapping entries and parameters once evaluated: the
        # value (with its size), or why it cannot be.
        self._known: dict[str, Any] = {}
        self._evaluating: list[str] = []  # in the order they refer

    def value(self, data: Any) -> Any:
        """`data` with every intrinsic function resolved; properties that
        resolve to AWS::NoValue are left out. Raises Unresolved, or
        ImportLimitError past a limit of the import."""
        found = self._value(data)[0]
        # A copy: mapping entries are shared by every use, and the caller
        # may change what it is given.
        return copy.deepcopy(found) if isinstance(found, (dict, list)) else found

    def _value(self, data: Any) -> tuple[Any, int]:
        """`data` resolved, and its size in bytes."""
        self.budget.charge()
        if isinstance(data, str):
            return data, text_size(data)
        if isinstance(data, list):
            out: Any = []
            size = 0
            for item in data:
                value, item_size = self._value(item)
                if value is not NO_VALUE:
                    out.append(value)
                    size += item_size + 1
        elif isinstance(data, dict):
            if len(data) == 1:
                ((key, arg),) = data.items()
                if key == "Ref":
                    return self._ref(arg)
                if isinstance(key, str) and (
                    key.startswith("Fn::") or key == "Condition"
                ):
                    return self._function(key, arg)
            out, size = {}, 0
            for key, item in data.items():
                value, item_size = self._value(item)
                if value is not NO_VALUE:
                    out[key] = value
                    size += text_size(str(key)) + item_size + 1
        else:
            return data, 8
        self.budget.check_size(size, self._what("a list or object"))
        return out, size

    def _what(self, what: str) -> str:
        """What is being evaluated, for a message: the condition, mapping
        entry or parameter, else `what`."""
        return self._evaluating[-1] if self._evaluating else what

    def _measure(self, value: Any) -> int:
        """The size of a value evaluated already (one item of a list), a step
        a member."""
        size = 0
        stack = [value]
        while stack:
            self.budget.charge()
            item = stack.pop()
            if isinstance(item, str):
                size += text_size(item)
            elif isinstance(item, list):
                stack.extend(item)
                size += len(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
                size += sum(text_size(str(k)) + 1 for k in item)
            else:
                size += 8
        return size

    def _once(self, label: str, evaluate: Callable[[], Any]) -> Any:
        """What `evaluate` gives, evaluated on the first use of `label` (a
        condition, a mapping entry) and remembered, its Unresolved too; a
        label met again while it is evaluated refers to itself."""
        known = self._known.get(label)
        if isinstance(known, Unresolved):
            raise Unresolved(*known.args)
        if label in self._known:
            return known
        if label in self._evaluating:
            cycle = self._evaluating[self._evaluating.index(label) :]
            if len(cycle) == 1:
                raise Unresolved(f"{label} refers to itself")
            raise Unresolved(
                f"{label} refers to itself through " + " -> ".join([*cycle[1:], label])
            )
        self._evaluating.append(label)
        try:
            found = self._known[label] = evaluate()
        except Unresolved as exc:
            self._known[label] = exc
            raise
        finally:
            self._evaluating.pop()
        return found

    def parameter_in(self, data: Any) -> str | None:
        """The first template parameter `data` refers to, if any."""
        if isinstance(data, list):
            return next(filter(None, map(self.parameter_in, data)), None)
        if not isinstance(data, dict):
            return None
        if len(data) == 1:
            ((key, arg),) = data.items()
            if key == "Ref" and isinstance(arg, str) and arg in self.parameters:
                return str(arg)
            if key == "Fn::Sub":
                text = arg[0] if isinstance(arg, list) and arg else arg
                for match in _SUB.finditer(text if isinstance(text, str) else ""):
                    if match.group(1).strip() in self.parameters:
                        return match.group(1).strip()
        return next(filter(None, map(self.parameter_in, data.values())), None)

    def _ref(self, name: Any) -> tuple[Any, int]:
        if name == "AWS::NoValue":
            return NO_VALUE, 0
        if not isinstance(name, str):
            raise Unresolved(f"Ref of {kind_of(name)}")
        if name in self.parameters:
            spec = self.parameters[name]
            if isinstance(spec, dict) and "Default" in spec:
                default = spec["Default"]
                self.defaults_used[name] = default
                return self._once(f"the parameter {name}", lambda: self._default(spec))
            raise Unresolved(
                f"the parameter {name} has no Default; give it one to import"
            )
        if name.startswith("AWS::"):
            raise Unresolved(f"{name} is known only when the stack is deployed")
        if name in self.resources:
            raise Unresolved(f"Ref {name} is another resource's id, known at deploy")
        raise Unresolved(f"Ref {name} names no parameter or resource")

    def _default(self, spec: dict[str, Any]) -> tuple[Any, int]:
        default = spec["Default"]
        if isinstance(spec.get("Type"), str) and "List" in spec["Type"]:
            default = [p.strip() for p in str(default).split(",")]
        return default, self._measure(default)

    def _function(self, key: str, arg: Any) -> tuple[Any, int]:
        if key == "Fn::Sub":
            return self._sub(arg)
        if key == "Fn::Join":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise Unresolved("Fn::Join takes [delimiter, [values]]")
            delimiter, values = self.text_of(arg[0]), self._value(arg[1])[0]
            if not isinstance(values, list):
                raise Unresolved("Fn::Join's values are not a list")
            texts = [_plain(v) for v in values]
            # Measured before it is made: a long delimiter between many
            # values is a long text.
            size = sum(map(text_size, texts)) + text_size(delimiter) * max(
                len(texts) - 1, 0
            )
            self.budget.check_size(size, self._what("Fn::Join"))
            return delimiter.join(texts), size
        if key == "Fn::Select":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise Unresolved("Fn::Select takes [index, [values]]")
            index, values = self._value(arg[0])[0], self._value(arg[1])[0]
            try:
                found = values[int(index)]
            except (ValueError, TypeError, IndexError, KeyError):
                raise Unresolved(
                    f"Fn::Select index {index!r} is out of range"
                ) from None
            return found, self._measure(found)
        if key == "Fn::Split":
            if not (isinstance(arg, list) and len(arg) == 2):
                raise Unresolved("Fn::Split takes [delimiter, text]")
            delimiter = self.text_of(arg[0])
            if not delimiter:
                raise Unresolved("Fn::Split's delimiter is empty")
            parts = self.text_of(arg[1]).split(delimiter)
            return parts, sum(map(text_size, parts)) + len(parts)
        if key == "Fn::FindInMap":
            if not (isinstance(arg, list) and len(arg) in (3, 4)):
                raise Unresolved("Fn::FindInMap takes [map, top key, second key]")
            names = [_plain(self._value(a)[0]) for a in arg[:3]]
            try:
                entry = self.mappings[names[0]][names[1]][names[2]]
            except (KeyError, TypeError):
                if len(arg) == 4 and isinstance(arg[3], dict):
                    return self._value(arg[3].get("DefaultValue"))
                raise Unresolved(
                    "Fn::FindInMap finds nothing at " + " / ".join(names)
                ) from None
            return self._once(
                "the mapping entry " + " / ".join(names), lambda: self._value(entry)
            )
        if key == "Fn::If":
            if not (isinstance(arg, list) and len(arg) == 3):
                raise Unresolved("Fn::If takes [condition, if true, if false]")
            return self._value(arg[1] if self.condition(arg[0]) else arg[2])
        if key in ("Fn::Equals", "Fn::And", "Fn::Or", "Fn::Not", "Condition"):
            return self.logical(key, arg), 8
        if key == "Fn::GetAtt":
            target = arg[0] if isinstance(arg, list) and arg else arg
            raise Unresolved(f"Fn::GetAtt of {target} is known only at deploy")
        if key == "Fn::ImportValue":
            raise Unresolved("Fn::ImportValue reads another stack's output at deploy")
        raise Unresolved(f"{key} is not resolved by the importer")

    def text_of(self, data: Any) -> str:
        """A value resolved and written as text (lists and objects as Python
        writes them, as `str` does)."""
        return str(self._value(data)[0])

    def _sub(self, arg: Any) -> tuple[str, int]:
        variables: dict[str, Any] = {}
        if isinstance(arg, list) and len(arg) == 2 and isinstance(arg[1], dict):
            arg, variables = arg[0], arg[1]
        if not isinstance(arg, str):
            raise Unresolved("Fn::Sub takes a text (or [text, {variables}])")
        # Each variable is evaluated once however often the text names it,
        # and the text measured as it is made.
        values: dict[str, str] = {}
        out: list[str] = []
        size = position = 0
        for match in _SUB.finditer(arg):
            name = match.group(1).strip()
            if name not in values:
                if name in variables:
                    values[name] = _plain(self._value(variables[name])[0])
                elif "." in name and not name.startswith("AWS::"):
                    raise Unresolved(f"${{{name}}} is another resource's attribute")
                else:
                    values[name] = _plain(self._ref(name)[0])
            literal = arg[position : match.start()]
            size += text_size(literal) + text_size(values[name])
            self.budget.check_size(size, self._what("Fn::Sub"))
            out += (literal, values[name])
            position = match.end()
        out.append(arg[position:])
        # ${!Literal} stands for the text ${Literal}.
        text = "".join(out).replace("${!", "${")
        return text, text_size(text)

    def condition(self, name: Any) -> bool:
        if not isinstance(name, str) or name not in self.conditions:
            raise Unresolved(f"the condition {name!r} is not in Conditions")
        return self._once(
            f"the condition {name}",
            lambda: bool(self._value(self.conditions[name])[0]),
        )

    def logical(self, key: str, arg: Any) -> bool:
        if key == "Condition":
            return self.condition(arg)
        if not isinstance(arg, list):
            raise Unresolved(f"{key} takes a list")
        if key == "Fn::Equals":
            if len(arg) != 2:
                raise Unresolved("Fn::Equals takes two values")
            return _plain(self._value(arg[0])[0]) == _plain(self._value(arg[1])[0])
        values = [bool(self._value(a)[0]) for a in arg]
        if key == "Fn::Not":
            return not values[0] if values else True
        return all(values) if key == "Fn::And" else any(values)


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        raise Unresolved(f"{kind_of(value)} where a text was expected")
    return str(value)
