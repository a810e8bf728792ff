"""A quick pass of botocore's parameter validation, for the client's calls.

botocore's `ParamValidator` walks the request and DynamoDB's service model
generically, which costs a GetItem or an UpdateItem about a third of its
time in the engine. `passes(shape)` compiles, once per operation, a check of
the same rules (types, required and unknown members, minimum lengths and
values) that answers only whether the request is certainly valid. When it is
not sure, or the request is invalid, the client runs botocore's validator,
which reports the errors in its own words: a request is refused exactly as
before, and a valid one is never refused.

Anything the quick check does not know (documents, JSON-value headers,
tagged unions, timestamps) is "not sure", so botocore decides those; so is
a binary value given as text or as a file, which lets the client skip its
search for text to encode in every request that passes.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from typing import Any

from botocore.model import Shape
from botocore.utils import is_json_value_header

Check = Callable[[Any], bool]


def _unsure(value: Any) -> bool:
    return False


def _minimum(shape: Shape) -> float | None:
    """The least length or value botocore's `range_check` accepts."""
    if "min" in shape.metadata:
        return shape.metadata["min"]
    if getattr(shape, "serialization", {}).get("hostLabel"):
        return 1
    return None


class _Compiler:
    """Checks by shape name, so that recursive shapes (an AttributeValue
    holds maps and lists of AttributeValues) refer to each other."""

    def __init__(self) -> None:
        self.checks: dict[str, Check] = {}

    def check(self, shape: Shape) -> Check:
        name = shape.name
        if name not in self.checks:
            # A placeholder while compiling, replaced below, so that a
            # reference back to this shape looks it up at call time.
            self.checks[name] = lambda value: self.checks[name](value)
            self.checks[name] = self._compile(shape)
        return self.checks[name]

    def _compile(self, shape: Shape) -> Check:  # one case a type
        kind = shape.type_name
        if is_json_value_header(shape) or (
            kind == "structure" and (shape.is_document_type or shape.is_tagged_union)
        ):
            return _unsure
        least = _minimum(shape)
        if kind == "structure":
            return self._structure(shape)
        if kind == "map":
            return self._map(shape)
        if kind == "list":
            member = self.check(shape.member)
            return lambda param: (
                isinstance(param, (list, tuple))
                and (least is None or len(param) >= least)
                and all(member(m) for m in param)
            )
        if kind == "string":
            if least is None:
                return lambda param: isinstance(param, str)
            return lambda param: isinstance(param, str) and len(param) >= least
        if kind == "boolean":
            return lambda param: isinstance(param, bool)
        if kind in ("integer", "long"):
            return lambda param: (
                isinstance(param, int) and (least is None or param >= least)
            )
        if kind in ("double", "float"):
            return lambda param: (
                isinstance(param, (float, decimal.Decimal, int))
                and (least is None or param >= least)
            )
        if kind == "blob":
            # Text and files are valid too, but left to botocore: a request
            # that passes holds no binary value given as text, which the
            # client then need not look for.
            return lambda param: isinstance(param, (bytes, bytearray))
        return _unsure

    def _map(self, shape: Shape) -> Check:
        key, value = self.check(shape.key), self.check(shape.value)
        key_type = _plain_type(shape.key)
        # An item's attributes, {"name": {"S": "x"}}, are checked in place
        # when the key is plain text and the value a plain attribute value.
        plain = _plain_members(shape.value)
        plain_type = plain.get  # None for a name that is not plain
        # A map of plain values (ExpressionAttributeNames: text to text).
        value_type = _plain_type(shape.value)

        def check_map(param: Any) -> bool:
            if not isinstance(param, dict):
                return False
            for k, v in param.items():
                if type(k) is not key_type and not key(k):
                    return False
                if type(v) is value_type:
                    continue
                if type(v) is dict and len(v) == 1:
                    for name in v:  # the one member
                        if type(v[name]) is plain_type(name):
                            break
                        if not value(v):
                            return False
                elif not value(v):
                    return False
            return True

        return check_map

    def _structure(self, shape: Shape) -> Check:
        required = tuple(shape.metadata.get("required", ()))
        members = {name: self.check(member) for name, member in shape.members.items()}
        # A structure of one member whose check is only its Python type, an
        # attribute value such as {"S": "x"}, passes on one look.
        plain = _plain_members(shape)
        # The least length of each string member (0: any), whose check is
        # made in place for a str.
        texts = {
            name: _minimum(member) or 0
            for name, member in shape.members.items()
            if member.type_name == "string" and not is_json_value_header(member)
        }

        def structure(param: Any) -> bool:
            if type(param) is dict and len(param) == 1 and plain:
                for name, value in param.items():
                    if type(value) is plain.get(name):
                        return True
            if not isinstance(param, dict):
                return False
            for name in required:
                if name not in param:
                    return False
            for name, value in param.items():
                if type(value) is str:
                    least = texts.get(name)
                    if least is not None and len(value) >= least:
                        continue
                member = members.get(name)
                if member is None or not member(value):
                    return False
            return True

        return structure


def _plain_type(shape: Shape) -> type | None:
    """str or bool when a value of `shape` is valid exactly when it is an
    instance of that type (a string of any length, a boolean)."""
    if is_json_value_header(shape):
        return None
    if shape.type_name == "boolean":
        return bool
    if shape.type_name == "string" and _minimum(shape) is None:
        return str
    return None


def _plain_members(shape: Shape) -> dict[str, type]:
    """The members of a structure with no required member whose values are
    plain (see `_plain_type`), by name; empty for any other shape."""
    if (
        shape.type_name != "structure"
        or shape.metadata.get("required")
        or shape.is_document_type
        or shape.is_tagged_union
        or is_json_value_header(shape)
    ):
        return {}
    plain = {name: _plain_type(member) for name, member in shape.members.items()}
    return {name: kind for name, kind in plain.items() if kind is not None}


def passes(shape: Shape, compiled: dict[str, Check] | None = None) -> Check:
    """A check that is True only for parameters botocore's validator would
    accept against `shape` (False: let botocore decide). `compiled`: the
    checks of the shapes of the same service model compiled before, by
    shape name, which the compilation reuses and adds to (the operations of
    one model share most of their shapes: an attribute value, a key, the
    expression names and values)."""
    compiler = _Compiler()
    if compiled is None:
        return _written_out(shape, compiler.checks, compiler.check(shape))
    # On a copy, kept only once complete: a compilation that failed halfway
    # leaves no placeholder behind.
    compiler.checks = dict(compiled)
    check = compiler.check(shape)
    compiled.update(compiler.checks)
    return _written_out(shape, compiler.checks, check)


# The members a written-out check tests first, as most requests send them.
_FIRST = (
    "TableName",
    "Key",
    "Item",
    "KeyConditionExpression",
    "UpdateExpression",
    "ConditionExpression",
    "ExpressionAttributeNames",
    "ExpressionAttributeValues",
)


def _written_out(shape: Shape, checks: dict[str, Check], general: Check) -> Check:
    """The check `general` of a request's structure, written out as one
    function: True when each member certainly passes, tested in its lines
    (a string of its least length, a map of text keys to plain values or to
    attribute values of one plain member, as `_map`'s check passes them) or
    by its own check; a missing required member or an unknown one is False,
    as `general` says; anything else in doubt is `general`'s answer.

    Among the engine's calls, an UpdateItem's check by the closures (a
    call per member, the loop of one closure's code for every map) cost
    more than twice what it cost alone; written out, it costs less alone
    and less again among them."""
    if shape.type_name != "structure" or not shape.members:
        return general
    order = list(shape.members)
    names = sorted(
        order,
        key=lambda n: (_FIRST.index(n) if n in _FIRST else len(_FIRST), order.index(n)),
    )
    namespace: dict[str, Any] = {"general": general}
    lines = [
        "def check(param):",
        "    if type(param) is not dict:",
        "        return general(param)",
    ]
    for name in shape.metadata.get("required", ()):
        lines += [f"    if {name!r} not in param:", "        return False"]
    lines.append("    for name, value in param.items():")
    for i, name in enumerate(names):
        member = shape.members[name]
        lines.append(f"        {'if' if i == 0 else 'elif'} name == {name!r}:")
        if member.type_name == "string" and not is_json_value_header(member):
            least = _minimum(member) or 0
            lines += [
                f"            if type(value) is not str or len(value) < {least!r}:",
                "                return general(param)",
            ]
        elif member.type_name == "map" and _plain_type(member.key) is str:
            value_type = _plain_type(member.value)
            namespace[f"plain{i}"] = _plain_members(member.value).get
            lines += [
                "            if type(value) is not dict:",
                "                return general(param)",
                "            for k, v in value.items():",
                "                if type(k) is not str:",
                "                    return general(param)",
            ]
            if value_type is not None:
                namespace[f"type{i}"] = value_type
                lines += [
                    f"                if type(v) is type{i}:",
                    "                    continue",
                ]
            lines += [
                "                if type(v) is not dict or len(v) != 1:",
                "                    return general(param)",
                "                for t, d in v.items():",
                f"                    if type(d) is not plain{i}(t):",
                "                        return general(param)",
            ]
        else:
            namespace[f"member{i}"] = checks[member.name]
            lines += [
                f"            if not member{i}(value):",
                "                return False",
            ]
    lines += ["        else:", "            return False", "    return True"]
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<quick check of {shape.name}>", "exec"), namespace)  # noqa: S102 - our own source
    return namespace["check"]
