"""Import of a OneTable schema (dynamodb-onetable's JSON schema, formats
onetable:1.0.0 and 1.1.0, and the same object as a JavaScript module writes
it with JSON types).

`indexes.primary` becomes the table's keys, every other index a GSI (an
LSI with `type: local`) with its projection; each model an entity. A
model's fields whose name (or `map`) is an index's hash or sort attribute
are its keys: their `value` templates, `${attr}` and `${attr:size}`,
become the workbench's `{attr}` and `{attr:0Nd}`. The other fields become
typed attributes with generators from `generate`/`uuid` (ulid, uuid),
`enum` (a choice), `default` (a constant) and `value` (a template).
Whatever the design cannot carry (validations, encryption, saved queries,
data items...) is listed in `notes`, never dropped silently.

The importer writes a design document in the workbench's own format and
reads it with `read_design`, so an imported design passes exactly the
checks a hand-written one does. Imports no Django.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import DEFAULT_MAX_BYTES
from modeler.importers.budget import (
    ImportLimitError,
    check_cpu,
    check_nesting,
    import_budget,
)
from modeler.importers.built import read_built_document
from modeler.infra.textfiles import TextFileError, file_text

# The models' names OneTable accepts (its specification's regular expression).
_MODEL_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
# `${name}`, `${name:size}` or `${name:size:pad}`.
_PLACEHOLDER = re.compile(r"\$\{([^}:]*)(?::([^}:]*))?(?::([^}]*))?\}")
_TYPES = {
    "string": "S",
    "number": "N",
    "boolean": "BOOL",
    "binary": "B",
    "buffer": "B",
    "arraybuffer": "B",
    "array": "L",
    "object": "M",
    "set": "SS",
}
# Field properties that only OneTable's runtime uses: named in the notes.
_RUNTIME = (
    "validate",
    "crypt",
    "hidden",
    "unique",
    "reference",
    "nulls",
    "filter",
    "partial",
    "scale",
    "encode",
    "schema",
    "items",
    "timestamp",
)
_KNOWN_FIELD = {
    "type",
    "value",
    "required",
    "default",
    "enum",
    "generate",
    "uuid",
    "map",
    "ttl",
    *_RUNTIME,
}


class OneTableError(ValueError):
    """Input the importer cannot read: `path` is the JSON path of the part."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


@dataclass(frozen=True)
class OneTableImport:
    design: d.Design | None
    problems: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = ()


def looks_like_onetable(source: str | bytes) -> bool:
    """A JSON object whose start has OneTable's `models` and `indexes` (or
    its `format: onetable:`)."""
    head = source[:8192]
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    if not head.lstrip("\ufeff \t\r\n").startswith("{"):
        return False
    return '"onetable:' in head or ('"models"' in head and '"indexes"' in head)


def read_onetable(
    source: str | bytes, *, filename: str = "", max_bytes: int = DEFAULT_MAX_BYTES
) -> OneTableImport:
    """The design of a OneTable schema; never raises on bad input (a
    problem names the JSON path of what is wrong)."""
    try:
        text = file_text(source, max_bytes=max_bytes, kind="OneTable schemas")
    except TextFileError as exc:
        return OneTableImport(None, (error("onetable-invalid", "file", str(exc)),))
    with import_budget():
        try:
            return _Reader(filename).read(text)
        except OneTableError as exc:
            return OneTableImport(
                None, (error("onetable-invalid", exc.path, exc.message),)
            )
        except ImportLimitError as exc:
            return OneTableImport(None, (error("import-limit", "file", str(exc)),))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else "null"
    )


class _Reader:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.notes: list[str] = []
        self.iso_dates = False
        # The table's TTL attribute: the stored name of the first field
        # marked `ttl: true` (DynamoDB holds one per table).
        self.ttl_attribute = ""

    def read(self, text: str) -> OneTableImport:
        try:
            schema = json.loads(text)
        except json.JSONDecodeError as exc:
            raise OneTableError(
                f"line {exc.lineno} column {exc.colno}",
                f"is not JSON: {exc.msg} (a OneTable schema is a JSON object; "
                "export a JavaScript schema with JSON.stringify)",
            ) from None
        check_nesting(schema, what="the schema")
        if not isinstance(schema, dict):
            raise OneTableError("$", f"expected a JSON object, found {_kind(schema)}")
        fmt = schema.get("format")
        if fmt is not None and not (
            isinstance(fmt, str) and fmt.startswith("onetable:")
        ):
            raise OneTableError(
                "format",
                f"expected 'onetable:1.1.0' or 'onetable:1.0.0', found {fmt!r}",
            )
        params = self._object(schema, "params", "params", optional=True)
        self._params(params)
        indexes = self._indexes(self._object(schema, "indexes", "indexes"))
        models = self._object(schema, "models", "models")
        if not models:
            raise OneTableError("models", "has no model: nothing to import")
        entities = {}
        for name, model in models.items():
            check_cpu()
            entities[name] = self._model(name, model, indexes, params)
        self._leftovers(schema)
        design, problems = read_built_document(
            self._document(schema, indexes, entities)
        )
        return OneTableImport(design, problems, tuple(self.notes))

    # -- parts -----------------------------------------------------------

    def _object(
        self, parent: dict, key: str, path: str, *, optional: bool = False
    ) -> dict:
        value = parent.get(key)
        if value is None and optional:
            return {}
        if value is None:
            raise OneTableError(path, "is missing")
        if not isinstance(value, dict):
            raise OneTableError(path, f"expected an object, found {_kind(value)}")
        return value

    def _params(self, params: dict) -> None:
        self.iso_dates = params.get("isoDates") is True
        for key in sorted(params):
            if key not in ("typeField", "isoDates", "timestamps"):
                self.notes.append(f"params.{key}: not carried (OneTable runtime)")

    def _indexes(self, indexes: dict) -> dict[str, dict]:
        primary = indexes.get("primary")
        if not isinstance(primary, dict) or not isinstance(primary.get("hash"), str):
            raise OneTableError(
                "indexes.primary.hash",
                "is missing: the primary index names its partition (hash) attribute",
            )
        found: dict[str, dict] = {}
        for name, index in indexes.items():
            path = f"indexes.{name}"
            if not isinstance(index, dict):
                raise OneTableError(path, f"expected an object, found {_kind(index)}")
            for part in ("hash", "sort"):
                value = index.get(part)
                if value is not None and not (
                    isinstance(value, str) and _FIELD_NAME.match(value)
                ):
                    raise OneTableError(
                        f"{path}.{part}", f"expected an attribute name, found {value!r}"
                    )
            if (
                name != "primary"
                and index.get("type") != "local"
                and not index.get("hash")
            ):
                raise OneTableError(f"{path}.hash", "is missing")
            found[name] = index
        return found

    def _model(
        self, name: str, model: Any, indexes: dict[str, dict], params: dict
    ) -> dict:
        path = f"models.{name}"
        if not _MODEL_NAME.match(name):
            raise OneTableError(
                path, "a model's name is a letter or '_' then word characters"
            )
        if not isinstance(model, dict):
            raise OneTableError(
                path, f"expected an object of fields, found {_kind(model)}"
            )
        key_names = {
            index[part]: (index_name, part)
            for index_name, index in indexes.items()
            for part in ("hash", "sort")
            if index.get(part)
        }
        stored = {}  # field name -> attribute name in the table
        for field, spec in model.items():
            if not _FIELD_NAME.match(field):
                raise OneTableError(f"{path}.{field}", "is not a usable attribute name")
            if not isinstance(spec, dict):
                raise OneTableError(
                    f"{path}.{field}", f"expected a field object, found {_kind(spec)}"
                )
            mapped = spec.get("map")
            if (
                isinstance(mapped, str)
                and _FIELD_NAME.match(mapped)
                and "." not in mapped
            ):
                stored[field] = mapped
            else:
                if mapped is not None:
                    self.notes.append(
                        f"{path}.{field}.map: packed into {mapped!r}; the design "
                        f"keeps it as its own attribute {field}"
                    )
                stored[field] = field
        attributes: dict[str, dict] = {}
        keys: dict[str, str] = {}
        key_values: dict[str, tuple[str, str]] = {}
        for field, spec in model.items():
            check_cpu()
            fpath = f"{path}.{field}"
            self._unknown(spec, fpath)
            physical = stored[field]
            if physical in key_names:
                value = spec.get("value")
                if not isinstance(value, str):
                    raise OneTableError(
                        f"{fpath}.value",
                        f"is missing: {physical} is a key of index "
                        f"{key_names[physical][0]}, and the workbench needs its "
                        "value template (such as 'USER#${id}')",
                    )
                key_values[physical] = (value, f"{fpath}.value")
                continue
            attributes[physical] = self._attribute(spec, fpath)
            if spec.get("ttl") is True:
                self._ttl(physical, fpath)
        if params.get("timestamps") is True:
            for key, default in (
                ("createdField", "created"),
                ("updatedField", "updated"),
            ):
                field = params.get(key) or default
                if isinstance(field, str) and field not in attributes:
                    attributes[field] = self._attribute(
                        {"type": "date"}, f"params.{key}"
                    )
        types = {f: a["type"] for f, a in attributes.items()}
        for physical, (value, vpath) in key_values.items():
            keys[physical] = self._template(value, vpath, stored, types)
        used = {attr for t in keys.values() for attr in re.findall(r"\{([^}:]+)", t)}
        for attr in used:
            if attr in attributes:
                # A key is always written: what it is made from is required.
                attributes[attr].pop("required", None)
                attributes[attr].pop("presence", None)
        primary = indexes["primary"]
        for part in ("hash", "sort"):
            if primary.get(part) and primary[part] not in keys:
                raise OneTableError(
                    path,
                    f"has no field for the primary key attribute {primary[part]}: "
                    f"every model states its {primary[part]} value template",
                )
        entity: dict[str, Any] = {"attributes": attributes, "keys": keys}
        return entity

    def _unknown(self, spec: dict, path: str) -> None:
        for key in spec:
            if key in _RUNTIME:
                self.notes.append(f"{path}.{key}: not carried (OneTable runtime)")
            elif key not in _KNOWN_FIELD:
                self.notes.append(f"{path}.{key}: unknown property, not carried")

    def _attribute(self, spec: dict, path: str) -> dict:
        raw = spec.get("type", "string")
        if not isinstance(raw, str) or (
            raw.lower() not in _TYPES and raw.lower() != "date"
        ):
            raise OneTableError(
                f"{path}.type",
                f"expected one of array, binary, boolean, date, number, object, "
                f"set, string, found {raw!r}",
            )
        kind = raw.lower()
        attr: dict[str, Any] = {}
        ttl = spec.get("ttl")
        if ttl is not None and not isinstance(ttl, bool):
            raise OneTableError(f"{path}.ttl", f"expected true or false, found {ttl!r}")
        if ttl and kind not in ("date", "number"):
            raise OneTableError(
                f"{path}.ttl",
                f"a TTL field is a date or a number (epoch seconds), not {raw!r}",
            )
        if ttl:
            # OneTable stores a TTL date as epoch seconds, isoDates or not; a
            # TTL number is epoch seconds too (a default number would be a
            # moment in 1970, which DynamoDB never expires).
            attr["type"] = "N"
            attr["generator"] = {"int": {"min": 1704067200, "max": 1798761599}}
        elif kind == "date":
            attr["type"] = "S" if self.iso_dates else "N"
            attr["generator"] = (
                {"timestamp": {"from": "2024-01-01", "to": "2026-12-31"}}
                if self.iso_dates
                else {"int": {"min": 1704067200, "max": 1798761599}}
            )
        else:
            attr["type"] = _TYPES[kind]
        generate = spec.get("generate", spec.get("uuid"))
        enum = spec.get("enum")
        if generate is not None:
            if generate not in ("ulid", "uuid"):
                raise OneTableError(
                    f"{path}.generate", f"expected 'ulid' or 'uuid', found {generate!r}"
                )
            attr["generator"] = generate
        elif isinstance(enum, list) and enum:
            if not all(isinstance(v, (str, int, float)) for v in enum):
                raise OneTableError(f"{path}.enum", "expected a list of values")
            attr["generator"] = {"choice": list(enum)}
        elif enum is not None:
            raise OneTableError(f"{path}.enum", f"expected a list, found {_kind(enum)}")
        elif "default" in spec and isinstance(spec["default"], (str, int, float, bool)):
            attr["generator"] = {"constant": spec["default"]}
        elif isinstance(spec.get("value"), str):
            self.notes.append(
                f"{path}.value: a computed attribute; its sample values are "
                "generated by type, not from its template"
            )
        if spec.get("required") is not True:
            attr["required"] = False
        return attr

    def _ttl(self, attribute: str, path: str) -> None:
        if not self.ttl_attribute:
            self.ttl_attribute = attribute
        elif attribute != self.ttl_attribute:
            self.notes.append(
                f"{path}.ttl: not carried: a table has one time-to-live attribute, "
                f"and {self.ttl_attribute} is already it"
            )

    def _template(
        self, value: str, path: str, stored: dict[str, str], types: dict[str, str]
    ) -> str:
        out = []
        position = 0
        for match in _PLACEHOLDER.finditer(value):
            out.append(_literal(value[position : match.start()]))
            position = match.end()
            field, size, pad = match.group(1), match.group(2), match.group(3)
            if field not in stored:
                raise OneTableError(path, f"${{{field}}} names no field of this model")
            attr = stored[field]
            if size:
                if not size.isdigit() or int(size) < 1:
                    raise OneTableError(
                        path, f"${{{match.group(0)[2:-1]}}}: the size is not a number"
                    )
                if (pad or "0") == "0" and types.get(attr) == "N":
                    out.append(f"{{{attr}:0{int(size)}d}}")
                    continue
                self.notes.append(
                    f"{path}: the padding of ${{{field}}} is not carried (the "
                    "workbench zero-pads numbers only)"
                )
            out.append(f"{{{attr}}}")
        out.append(_literal(value[position:]))
        if "${" in "".join(out):
            raise OneTableError(path, "has an unclosed ${ placeholder")
        return "".join(out)

    def _leftovers(self, schema: dict) -> None:
        queries = schema.get("queries")
        if isinstance(queries, dict) and queries:
            self.notes.append(
                f"queries: {len(queries)} saved queries not carried (they hold "
                "literal key values, not access patterns): "
                + ", ".join(sorted(map(str, queries))[:20])
            )
        items = schema.get("items")
        if isinstance(items, list) and items:
            self.notes.append(
                f"items: {len(items)} data items not carried; the design's sample "
                "data is generated"
            )
        for key in sorted(schema):
            if key not in (
                "version",
                "format",
                "params",
                "indexes",
                "models",
                "queries",
                "items",
                "description",
            ):
                self.notes.append(f"{key}: not carried")

    def _document(
        self, schema: dict, indexes: dict[str, dict], entities: dict[str, dict]
    ) -> dict:
        title = " ".join(re.findall(r"[A-Za-z0-9]+", PurePath(self.filename).stem))
        title = title[:200] or "OneTable schema"
        table_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", title.lower()).strip("-")
        table_name = table_name if len(table_name) >= 3 else f"{table_name}-table"
        key_types = _key_types(indexes)
        primary = indexes["primary"]
        table: dict[str, Any] = {
            "name": table_name[:255],
            "partition_key": {
                "name": primary["hash"],
                "type": key_types[primary["hash"]],
            },
        }
        if primary.get("sort"):
            table["sort_key"] = {
                "name": primary["sort"],
                "type": key_types[primary["sort"]],
            }
        table["billing"] = {"mode": "PAY_PER_REQUEST"}
        if self.ttl_attribute:
            table["ttl_attribute"] = self.ttl_attribute
        gsis = []
        for name, index in indexes.items():
            if name == "primary":
                continue
            local = index.get("type") == "local"
            spec: dict[str, Any] = {
                "name": name,
                "kind": "local" if local else "global",
            }
            if not local:  # a local index shares the table's partition key
                hash_name = index["hash"]
                spec["partition_key"] = {
                    "name": hash_name,
                    "type": key_types[hash_name],
                }
            if index.get("sort"):
                spec["sort_key"] = {
                    "name": index["sort"],
                    "type": key_types[index["sort"]],
                }
            spec["projection"] = self._projection(
                index.get("project"), f"indexes.{name}.project", set(key_types)
            )
            gsis.append(spec)
        if gsis:
            table["indexes"] = gsis
        description = schema.get("description")
        return {
            "format": "single-table-workbench/v1",
            "name": title,
            "description": (description if isinstance(description, str) else "")
            + (
                f"\n\nImported from the OneTable schema {PurePath(self.filename).name}."
                if self.filename
                else ""
            ),
            "table": table,
            "entities": entities,
        }

    def _projection(self, project: Any, path: str, keys: set[str]) -> Any:
        if project in (None, "all"):
            return "ALL"
        if project == "keys":
            return "KEYS_ONLY"
        if isinstance(project, list) and all(isinstance(a, str) for a in project):
            # OneTable lists the keys too; DynamoDB projects them anyway.
            extra = [a for a in project if a not in keys]
            return {"type": "INCLUDE", "attributes": extra} if extra else "KEYS_ONLY"
        raise OneTableError(
            path, f"expected 'all', 'keys' or a list of attributes, found {project!r}"
        )


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _key_types(indexes: dict[str, dict]) -> dict[str, str]:
    """S for every key attribute: a OneTable value template makes text."""
    return {
        index[part]: "S"
        for index in indexes.values()
        for part in ("hash", "sort")
        if index.get(part)
    }
