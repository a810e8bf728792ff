"""TypeScript identifiers and property names for what users named. An
identifier is letters, digits and underscores in camel case, never a
JavaScript or TypeScript reserved word nor a name the module binds; a
property keeps the user's name, quoted when it is not an identifier."""

from __future__ import annotations

import re

from modeler.exporters.access.names import camel, unique
from modeler.exporters.access.ts_runtime import RUNTIME_NAMES
from modeler.exporters.literals import typescript_string

RESERVED = frozenset(
    {
        # ECMAScript reserved words, strict mode's and TypeScript's own.
        *[
            "break",
            "case",
            "catch",
            "class",
            "const",
            "continue",
            "debugger",
            "default",
            "delete",
            "do",
            "else",
            "enum",
            "export",
            "extends",
            "false",
            "finally",
            "for",
            "function",
            "if",
            "import",
            "in",
            "instanceof",
            "new",
            "null",
            "return",
            "super",
            "switch",
            "this",
            "throw",
            "true",
            "try",
            "typeof",
            "var",
            "void",
            "while",
            "with",
            "yield",
            "let",
            "static",
            "implements",
            "interface",
            "package",
            "private",
            "protected",
            "public",
            "await",
            "async",
            "arguments",
            "eval",
            "undefined",
            "NaN",
            "Infinity",
            "any",
            "boolean",
            "number",
            "string",
            "symbol",
            "never",
            "unknown",
            "object",
            "bigint",
            "declare",
            "module",
            "namespace",
            "type",
            "readonly",
            "keyof",
            "infer",
            "satisfies",
            "as",
            "is",
            "of",
            "get",
            "set",
        ],
        # Globals the module uses.
        *[
            "Object",
            "Array",
            "Set",
            "Map",
            "Number",
            "String",
            "Boolean",
            "Error",
            "TypeError",
            "RangeError",
            "Promise",
            "RegExp",
            "Uint8Array",
            "BigInt",
            "JSON",
            "Math",
            "Record",
            "Pick",
            "Partial",
            "Required",
            "Readonly",
            "TextEncoder",
            "AsyncGenerator",
            "AttributeValue",
            "DynamoDBClient",
            "encoder",
            "compareBytes",
        ],
    }
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def upper_camel(name: str) -> str:
    return camel(name)


def lower_camel(name: str) -> str:
    upper = camel(name)
    # `GSI1PK` -> `gsi1pk`, `OrderItem` -> `orderItem`.
    head = re.match(r"[A-Z0-9]+(?=[A-Z][a-z]|$)|[A-Z]", upper)
    if head is None:
        return upper
    return head.group(0).lower() + upper[head.end() :]


def identifier(base: str, taken: set[str], *, fallback: str) -> str:
    """`base` as an identifier free in `taken` (which it joins)."""
    if not taken >= RESERVED:
        taken |= RESERVED | RUNTIME_NAMES
    return unique(base, taken, fallback=fallback)


def assign(variable: str, name: str, value: str) -> str:
    """The statement setting the property (`put` for an inherited name)."""
    if name in INHERITED:
        return f"put({variable}, {typescript_string(name)}, {value});"
    if _IDENTIFIER.fullmatch(name):
        return f"{variable}.{name} = {value};"
    return f"{variable}[{typescript_string(name)}] = {value};"


def prop(name: str, *, in_type: bool = False) -> str:
    """A property name in a type or an object literal (where `__proto__`
    is written computed, so that it names a property, not the prototype)."""
    if name == "__proto__" and not in_type:
        return f"[{typescript_string(name)}]"
    return name if _IDENTIFIER.fullmatch(name) else typescript_string(name)


# Names every object has from Object.prototype: read as own properties only
# (`own`), written as own properties (`put`), so an attribute of that name is
# an attribute, not the prototype's.
INHERITED = frozenset(
    {
        "__proto__",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
    }
)


def access(variable: str, name: str) -> str:
    """`item.name`, or `item["a name"]`; `own(item, "constructor")` for a
    name objects inherit."""
    if name in INHERITED:
        return f"own({variable}, {typescript_string(name)})"
    if _IDENTIFIER.fullmatch(name):
        return f"{variable}.{name}"
    return f"{variable}[{typescript_string(name)}]"
