"""What a DynamoDB-Toolbox (v2) module built becomes a design document.

`new Table({partitionKey, sortKey, indexes})` gives the table's keys and
indexes; each `new Entity({name, table, schema, computeKey})` an entity:
its schema's attributes (`item({...}).and(...)`) typed, `.key()`,
`.savedAs()`, `.link()`, `.enum()`, `.const()`, `.default()` and
`.optional()` read; its key templates read back from `computeKey` or the
`.link()` (or `.const()`) of the attributes saved as the table's (or an
index's) key attributes, each called with a placeholder per attribute; a
number's zero padding and a link sparse on one enumerated value carried.
Toolbox declares no access patterns and no index projection: the design
has no pattern and projects ALL, and the notes say so, as they name the
attributes inside a map, list or record, which the design holds whole.
"""

from __future__ import annotations

import re
from typing import Any

from modeler.importers.jsmodel.common import JsModelError, literal, table_document

# The recorder's placeholder: the attribute's name as code points.
_MARKER = re.compile("\u0001([0-9.]*)\u0002")
_PROBE = "a7"  # the recorder's probe value of every attribute
_NUMBER = "7"  # and its number probe, which a zero padding pads
_TYPES = {
    "string": "S",
    "number": "N",
    "boolean": "BOOL",
    "binary": "B",
    "list": "L",
    "map": "M",
    "record": "M",
}
_SET_TYPES = {"string": "SS", "number": "NS", "binary": "BS"}
_LINKS = ("link", "putLink", "keyLink")
_DEFAULTS = ("default", "putDefault", "keyDefault")
_READ = {"key", "savedAs", "enum", "const", "optional", "required", "hidden"}
_READ |= set(_LINKS) | set(_DEFAULTS)


def toolbox_document(recorded: dict, *, filename: str) -> tuple[dict, list[str]]:
    notes: list[str] = []
    tables = recorded.get("tables") or []
    entities = recorded.get("entities") or []
    if not entities or not tables:
        raise JsModelError(
            "builds no DynamoDB-Toolbox Table and Entity (expected `new Table("
            "{partitionKey, sortKey, indexes})` and `new Entity({name, table, "
            "schema: item({...})})`, DynamoDB-Toolbox v2)"
        )
    table, keys = _table(tables[0], notes)
    if len(tables) > 1:
        notes.append(f"{len(tables) - 1} more tables: only the first is carried")
    designed: dict[str, dict] = {}
    for number, entity in enumerate(entities):
        name = entity.get("name")
        if not isinstance(name, str) or not name:
            raise JsModelError(f"Entity {number + 1}: name is missing")
        if entity.get("table") != 0:
            notes.append(f"entity {name}: on another table; not carried")
            continue
        designed[name] = _entity(name, entity, keys, notes)
    notes.append(
        "DynamoDB-Toolbox declares no access patterns: the design has none; "
        "state them (or Propose keys from needs) before the review"
    )
    notes.append(
        "Toolbox's own attributes (the entity name _et, timestamps _ct and _md "
        "unless turned off) are not carried"
    )
    title = str(tables[0].get("name") or "DynamoDB-Toolbox model")
    return {
        "format": "single-table-workbench/v1",
        "name": title[:200],
        "description": f"Imported from the DynamoDB-Toolbox module {filename}.",
        "table": table,
        "entities": designed,
    }, notes


def _table(spec: Any, notes: list[str]) -> tuple[dict, dict]:
    if not isinstance(spec, dict) or not isinstance(spec.get("partitionKey"), dict):
        raise JsModelError("Table: expected {partitionKey: {name, type}, ...}")
    keys: dict[str, tuple[str, str | None]] = {
        "": (
            _partition_key_name(spec["partitionKey"], "Table"),
            _key_name(spec.get("sortKey")),
        )
    }
    indexes = spec.get("indexes") or {}
    for name, index in indexes.items():
        if not isinstance(index, dict):
            raise JsModelError(f"Table.indexes.{name}: expected an object")
        for several in ("partitionKeys", "sortKeys"):
            if several in index:
                raise JsModelError(
                    f"Table.indexes.{name}.{several}: a key of several attributes "
                    "is not read from Toolbox modules; give the index one "
                    "partitionKey and sortKey, or import the table's CloudFormation "
                    "or Terraform"
                )
        for extra in sorted(set(index) - {"type", "partitionKey", "sortKey"}):
            notes.append(f"Table.indexes.{name}.{extra}: not carried")
        if index.get("type") == "local":
            keys[name] = (keys[""][0], _key_name(index.get("sortKey")))
        else:
            keys[name] = (
                _partition_key_name(index.get("partitionKey"), f"Table.indexes.{name}"),
                _key_name(index.get("sortKey")),
            )
    for part in ("partitionKey", "sortKey"):
        given = (spec.get(part) or {}).get("type")
        if given not in (None, "string"):
            notes.append(f"Table.{part}: type {given} is read as text")
    for extra in sorted(set(spec) - {"name", "partitionKey", "sortKey", "indexes"}):
        notes.append(f"Table.{extra}: not carried")
    if indexes:
        notes.append(
            "Toolbox states no index projection: "
            f"{', '.join(indexes)} project ALL attributes in the design; narrow "
            "them (KEYS_ONLY or INCLUDE) where the table projects less"
        )
    local = {name for name, index in indexes.items() if index.get("type") == "local"}
    table = table_document(str(spec.get("name") or "toolbox-table"), keys, local=local)
    return table, keys


def _partition_key_name(spec: Any, where: str) -> str:
    name = _key_name(spec)
    if name is None:
        raise JsModelError(f"{where}: a partitionKey {{name, type}} is required")
    return name


def _key_name(spec: Any) -> str | None:
    if spec is None:
        return None
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise JsModelError("Table: a key is expected as {name, type}")
    return spec["name"]


def _entity(name: str, entity: dict, keys: dict, notes: list[str]) -> dict:
    schema = entity.get("schema")
    if not isinstance(schema, dict) or schema.get("schema") != "item":
        raise JsModelError(f"entity {name}: expected schema: item({{...}})")
    key_names = {n for pair in keys.values() for n in pair if n}
    attributes: dict[str, dict] = {}
    templates: dict[str, str] = {}
    raw = schema.get("attributes") or {}
    for attr, spec in raw.items():
        where = f"{name}.schema.{attr}"
        modifiers = _modifiers(spec, where)
        stored = (modifiers.get("savedAs") or [attr])[0]
        link = next((modifiers[m][0] for m in _LINKS if m in modifiers), None)
        if stored in key_names:
            if link is not None:
                key = _linked(link, f"{where}.link", raw, notes)
                if key is not None:
                    templates[stored] = key
            elif "const" in modifiers and isinstance(modifiers["const"][0], str):
                templates[stored] = literal(modifiers["const"][0])
            elif stored != attr:
                templates[stored] = f"{{{attr}}}"
                notes.append(
                    f"{where}: saved as {stored} by Toolbox; the design keeps "
                    f"{attr} as well as the key"
                )
            else:
                notes.append(
                    f"{where}: the key attribute {stored} is given as it is by "
                    "the caller, with no link or const; not carried"
                )
            if stored == attr or link is not None or "const" in modifiers:
                continue
        attributes[attr] = _attribute(spec, modifiers, where, notes)
    computed = entity.get("computeKey")
    if isinstance(computed, dict):
        value = computed.get("value")
        if not isinstance(value, dict):
            raise JsModelError(
                f"entity {name}.computeKey: "
                + (computed.get("error") or "expected it to return {pk, sk}")
            )
        for key, part in value.items():
            probes = {
                probe: (computed.get(probe) or {}).get(key)
                for probe in ("probe", "numbers")
                if isinstance(computed.get(probe), dict)
            }
            templates[key] = _template(
                {"value": part, **probes}, f"{name}.computeKey.{key}", raw, notes
            )
    for extra in sorted(set(entity) - {"name", "table", "schema", "computeKey"}):
        notes.append(f"entity {name}.{extra}: not carried")
    missing = [k for k in keys[""] if k and k not in templates]
    if missing:
        raise JsModelError(
            f"entity {name}: no template for the table's key {', '.join(missing)} "
            "(expected computeKey or an attribute saved as it)"
        )
    for key in templates.values():
        text = key["template"] if isinstance(key, dict) else key
        for used in re.findall(r"(?<!\{)\{([^{}:]+)", text):
            if used not in attributes:
                raise JsModelError(f"entity {name}: the key uses {used}, no attribute")
    return {"attributes": attributes, "keys": templates}


def _modifiers(spec: Any, where: str) -> dict[str, list]:
    if not isinstance(spec, dict) or "schema" not in spec:
        raise JsModelError(f"{where}: expected a schema (string(), number(), ...)")
    out: dict[str, list] = {}
    for entry in spec.get("modifiers") or []:
        out[str(entry[0])] = list(entry[1])
    return out


def _attribute(spec: dict, modifiers: dict, where: str, notes: list[str]) -> dict:
    kind = spec["schema"]
    attr: dict[str, Any] = {}
    args = spec.get("args") or []
    if kind == "set":
        inner = (args or [{}])[0] or {}
        attr["type"] = _SET_TYPES.get(inner.get("schema") or "", "SS")
        if inner.get("schema") not in _SET_TYPES:
            notes.append(f"{where}: a set of {inner.get('schema')}() is read as text")
        _inner_modifiers(inner, f"{where}'s elements", notes)
    elif kind in _TYPES:
        attr["type"] = _TYPES[kind]
        if kind == "map" and spec.get("attributes"):
            notes.append(
                f"{where}: the map's attributes "
                f"({', '.join(sorted(spec['attributes']))[:200]}) are not carried; "
                "the design holds the map as one M attribute"
            )
        elif kind == "list" and args:
            notes.append(
                f"{where}: the list's element schema ({(args[0] or {}).get('schema')}"
                "()) is not carried; the design holds the list as one L attribute"
            )
        elif kind == "record" and args:
            notes.append(
                f"{where}: the record's key and value schemas are not carried; "
                "the design holds the record as one M attribute"
            )
    else:
        attr["type"] = "S"
        notes.append(f"{where}: {kind}() is read as text")
    if "enum" in modifiers and modifiers["enum"]:
        attr["generator"] = {"choice": [str(v) for v in modifiers["enum"]]}
    elif "const" in modifiers:
        attr["generator"] = {"constant": modifiers["const"][0]}
    else:
        default = next((modifiers[m][0] for m in _DEFAULTS if m in modifiers), None)
        if isinstance(default, (str, int, float, bool)):
            attr["generator"] = {"constant": default}
        elif default is not None:
            notes.append(f"{where}.default: a function; not carried")
    if "optional" in modifiers:
        attr["required"] = False
    if "savedAs" in modifiers:
        notes.append(
            f"{where}.savedAs: stored as {modifiers['savedAs'][0]} by Toolbox; the "
            "design keeps the attribute's name"
        )
    for extra in sorted(set(modifiers) - _READ):
        notes.append(f"{where}.{extra}: not carried")
    return attr


def _inner_modifiers(inner: dict, where: str, notes: list[str]) -> None:
    """A set's element schema carries its type only: its enum and other
    modifiers are named."""
    for entry in inner.get("modifiers") or []:
        notes.append(f"{where}.{entry[0]}: not carried")


def _linked(link: Any, where: str, attributes: dict, notes: list[str]) -> Any:
    """A linked key attribute's template, or {template, when} where the
    link gives a value only for one value of one enumerated attribute (a
    sparse index: `status === "OPEN" ? ... : undefined`); None, named,
    where it gives none otherwise."""
    if not isinstance(link, dict) or "when" not in link or link.get("value"):
        return _template(link, where, attributes, notes)
    given = [(name, value, found) for name, value, found in link["when"] if found]
    if len(given) == 1 and re.fullmatch(r"[A-Za-z0-9_.-]+", str(given[0][1])):
        name, value, found = given[0]
        return {
            "template": _template(found, where, attributes, notes),
            "when": f"{name} = {value}",
        }
    notes.append(
        f"{where}: gives no value for every item, and not for exactly one value "
        "of one enumerated attribute; not carried (the entity does not write "
        "this key)"
    )
    return None


def _template(link: Any, where: str, attributes: dict, notes: list[str]) -> str:
    """The key function's template: its placeholders read back, a number's
    zero padding (`padStart(3, "0")`) as `{lineNo:03d}`; anything else it
    does to the values (casing, slicing) is named as not carried."""
    if not isinstance(link, dict) or "value" not in link:
        raise JsModelError(f"{where}: {(link or {}).get('error') or 'no value'}")
    value = link["value"]
    if not isinstance(value, str):
        raise JsModelError(f"{where}: expected text, found {value!r}"[:300])
    pieces: list[str] = []  # literal text and attribute names, alternating
    position = 0
    for found in _MARKER.finditer(value):
        pieces.append(value[position : found.start()])
        try:
            name = "".join(chr(int(c)) for c in found.group(1).split(".") if c)
        except (ValueError, OverflowError):
            raise JsModelError(f"{where}: an unreadable placeholder") from None
        if name not in attributes:
            raise JsModelError(f"{where}: {name} is no attribute")
        pieces.append(name)
        position = found.end()
    pieces.append(value[position:])
    widths = _widths(pieces, link.get("numbers"), attributes)
    placed = "".join(
        piece if not position % 2 else _PROBE.rjust(widths.get(piece, 0), "0")
        for position, piece in enumerate(pieces)
    )
    probe = link.get("probe")
    if isinstance(probe, dict) and "value" in probe:
        probe = probe["value"]
    if probe != placed:
        notes.append(
            f"{where}: the function does more than place attributes (with each "
            f"attribute {_PROBE!r} it gives {str(probe)[:80]!r}, not {placed[:80]!r}): "
            "casing or slicing of values, or padding other than a number's zeros, "
            "is not carried; the template places the values as they are"
        )
    return "".join(
        literal(piece)
        if not position % 2
        else (f"{{{piece}:0{widths[piece]}d}}" if piece in widths else f"{{{piece}}}")
        for position, piece in enumerate(pieces)
    )


def _widths(pieces: list[str], numbers: Any, attributes: dict) -> dict[str, int]:
    """The zero padding of each number attribute, read from the key function
    called with every attribute "7" (`ITEM#007`: 3)."""
    if not isinstance(numbers, str):
        return {}
    pattern = "".join(
        re.escape(piece)
        if not position % 2
        else (
            f"(?P<p{position}>0*){_NUMBER}"
            if (attributes.get(piece) or {}).get("schema") == "number"
            else re.escape(_NUMBER)
        )
        for position, piece in enumerate(pieces)
    )
    found = re.fullmatch(pattern, numbers)
    if found is None:
        return {}
    return {
        pieces[int(group[1:])]: len(zeros) + len(_NUMBER)
        for group, zeros in found.groupdict().items()
        if zeros
    }
