"""What an ElectroDB (v3) module built becomes a design document.

Each `new Entity({model, attributes, indexes}, {table})` is an entity; its
indexes give the table's keys (the one without `index` is the table's own)
and GSIs, and the entity's key templates: a `template` (`USER#${userId}`)
as written, else ElectroDB's own format (`$service#attr_value` for the
partition key, `$entity_version#attr_value` or `$collection#entity_version`
for the sort key). ElectroDB's indexes and collections are its access
patterns: each index a Query (and a GetItem for the table's own index), each
collection a Query of its entities together; an index's `projection` its
projection. What the design cannot carry (value casing, getters and
setters, validations, the attributes inside maps and lists, ElectroDB's own
attributes) is named in the notes.
"""

from __future__ import annotations

import re
from typing import Any

from modeler.importers.jsmodel.common import JsModelError, literal, table_document

_PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")
_TYPES = {"string": "S", "number": "N", "boolean": "BOOL", "list": "L", "map": "M"}
_SET_TYPES = {"string": "SS", "number": "NS"}
_RUNTIME = ("get", "set", "validate", "watch", "readOnly", "hidden")
_KNOWN = {"type", "required", "default", "field", "label", "items", "properties"}
_KNOWN.add("padding")


def electrodb_document(recorded: dict, *, filename: str) -> tuple[dict, list[str]]:
    """The design document of the recorded entities, and the notes."""
    reader = _Reader(filename)
    return reader.document(recorded), reader.notes


class _Reader:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.notes: list[str] = []
        self.keys: dict[str, tuple[str, str | None]] = {}  # index: (pk, sk)
        self.collections: dict[tuple[str, str], list[tuple[str, dict]]] = {}
        # index: [(where, ElectroDB's projection)], one per entity stating it
        self.projections: dict[str, list[tuple[str, Any]]] = {}
        self.index_users: dict[str, int] = {}  # index: entities using it

    def document(self, recorded: dict) -> dict:
        raw = recorded.get("entities") or []
        if not raw:
            raise JsModelError(
                "builds no ElectroDB Entity (expected `new Entity({model, "
                "attributes, indexes}, {table})`)"
            )
        entities: dict[str, dict] = {}
        patterns: list[dict] = []
        tables: set[str] = set()
        services: set[str] = set()
        for number, entry in enumerate(raw):
            schema = entry.get("schema")
            config = entry.get("config") or {}
            where = f"Entity {number + 1}"
            if not isinstance(schema, dict) or not isinstance(
                schema.get("model"), dict
            ):
                raise JsModelError(
                    f"{where}: expected `{{model: {{entity, version, service}}, "
                    "attributes, indexes}` (ElectroDB v1-v3)"
                )
            model = schema["model"]
            name = model.get("entity")
            if not isinstance(name, str) or not name:
                raise JsModelError(f"{where}: model.entity is missing")
            if name in entities:
                raise JsModelError(f"entity {name} is built twice")
            services.add(str(model.get("service", "")))
            if isinstance(config, dict) and isinstance(config.get("table"), str):
                tables.add(config["table"])
            entities[name], found = self._entity(
                name, model, schema, entry.get("conditions") or {}
            )
            patterns.extend(found)
        patterns.extend(self._collection_patterns())
        for entry in recorded.get("services") or []:
            missing = [n for n, at in (entry.get("entities") or {}).items() if at < 0]
            if missing:
                self.notes.append(
                    f"Service: {', '.join(missing)} are not entities the module "
                    "built with new Entity: not carried"
                )
        self.notes.append(
            "ElectroDB states no traffic: each access pattern has none; set it "
            "before the review sizes the table"
        )
        self.notes.append(
            "ElectroDB's own attributes __edb_e__ and __edb_v__ (entity and "
            "version on every item) are not carried"
        )
        if len(tables) > 1:
            self.notes.append(
                f"entities name several tables ({', '.join(sorted(tables))}): "
                "the design is one table"
            )
        title = " ".join(sorted(s for s in services if s)) or "ElectroDB model"
        return {
            "format": "single-table-workbench/v1",
            "name": title[:200],
            "description": f"Imported from the ElectroDB module {self.filename}.",
            "table": self._table(sorted(tables)[0] if tables else title),
            "entities": entities,
            "access_patterns": patterns,
        }

    def _table(self, name: str) -> dict:
        if "" not in self.keys:
            raise JsModelError(
                "no index without `index`: ElectroDB's first (table) index "
                "names the table's own keys"
            )
        table_pk = self.keys[""][0]
        for index, (pk, _sk) in self.keys.items():
            if index and pk == table_pk:
                self.notes.append(
                    f"index {index}: keyed by the table's partition key {pk}, it "
                    "is imported as a global index; ElectroDB does not say whether "
                    "an index is local (an LSI): make it local in the editor if "
                    "the table was created with it"
                )
        return table_document(name, self.keys, projections=self._projections())

    def _projections(self) -> dict[str, Any]:
        """Each GSI's projection: ElectroDB's `all`, `keys_only` or list of
        attributes (INCLUDE; the key attributes, which every index holds,
        and ElectroDB's own __edb_e__/__edb_v__, not carried, left out).
        An index is one projection however many entities use it, and
        ElectroDB lets an entity list only its own attributes: the index
        projects what they list together (ALL if any projects ALL, which
        is ElectroDB's default, and a note says so where others list less)."""
        keys = {name for pair in self.keys.values() for name in pair if name}
        out: dict[str, Any] = {}
        for index, stated in self.projections.items():
            kinds: set[str] = set()
            included: list[str] = []
            for where, projection in stated:
                if isinstance(projection, str) and projection.lower() in (
                    "all",
                    "keys_only",
                ):
                    kinds.add(projection.upper())
                elif (
                    isinstance(projection, list)
                    and projection
                    and all(isinstance(a, str) for a in projection)
                ):
                    kinds.add("INCLUDE")
                    for attribute in projection:
                        if not (
                            attribute in keys
                            or attribute.startswith("__edb_")
                            or attribute in included
                        ):
                            included.append(attribute)
                else:
                    raise JsModelError(
                        f"{where}.projection: expected 'all', 'keys_only' or a "
                        f"list of attribute names, found {projection!r}"[:300]
                    )
            unstated = len(stated) < self.index_users.get(index, 0)
            if unstated:
                kinds.add("ALL")  # ElectroDB's default for an entity stating none
            if "ALL" in kinds and len(kinds) > 1:
                self.notes.append(
                    f"index {index}: some of its entities project ALL, others "
                    "less; the design's index projects ALL"
                )
            if "ALL" in kinds:
                out[index] = "ALL"
            elif "INCLUDE" in kinds and included:
                out[index] = {"type": "INCLUDE", "attributes": included}
            else:
                out[index] = "KEYS_ONLY"
        return out

    def _entity(
        self, name: str, model: dict, schema: dict, conditions: dict
    ) -> tuple[dict, list]:
        attributes = schema.get("attributes")
        if not isinstance(attributes, dict) or not attributes:
            raise JsModelError(f"entity {name}: attributes is missing")
        attrs = {
            attr: self._attribute(f"{name}.attributes.{attr}", spec)
            for attr, spec in attributes.items()
        }
        indexes = schema.get("indexes")
        if not isinstance(indexes, dict) or not indexes:
            raise JsModelError(f"entity {name}: indexes is missing")
        version = str(model.get("version", "1"))
        service = str(model.get("service", ""))
        # A key's template, or {template, when} for a key an index has only
        # while its condition holds.
        keys: dict[str, str | dict[str, str]] = {}
        patterns: list[dict] = []
        for access, spec in indexes.items():
            where = f"{name}.indexes.{access}"
            if not isinstance(spec, dict) or not isinstance(spec.get("pk"), dict):
                raise JsModelError(f"{where}: expected {{pk: {{field, composite}}}}")
            index = str(spec.get("index") or "")
            collection = spec.get("collection")
            if isinstance(collection, list):
                collection = collection[0] if collection else None
                if len(spec["collection"]) > 1:
                    self.notes.append(
                        f"{where}.collection: sub-collections past the first "
                        "are not carried"
                    )
            pk_field, pk, pk_names = self._key(
                f"{where}.pk", spec["pk"], attrs, ("pk", service, name, version, None)
            )
            sk_field: str | None = None
            sk: str | None = None
            sk_names: list[str] = []
            if isinstance(spec.get("sk"), dict):
                sk_field, sk, sk_names = self._key(
                    f"{where}.sk",
                    spec["sk"],
                    attrs,
                    ("sk", service, name, version, collection),
                )
            known = self.keys.setdefault(index, (pk_field, sk_field))
            if known != (pk_field, sk_field):
                raise JsModelError(
                    f"{where}: index {index or '(table)'} has fields "
                    f"{pk_field}/{sk_field}, another entity gives it "
                    f"{known[0]}/{known[1]}"
                )
            when = (
                self._when(where, conditions.get(access)) if "condition" in spec else ""
            )
            keys[pk_field] = {"template": pk, "when": when} if when else pk
            if sk_field and sk is not None:
                keys[sk_field] = {"template": sk, "when": when} if when else sk
            if index:
                self.index_users[index] = self.index_users.get(index, 0) + 1
                if "projection" in spec:
                    self.projections.setdefault(index, []).append(
                        (where, spec["projection"])
                    )
            elif "projection" in spec:
                self.notes.append(
                    f"{where}.projection: the table's own index holds every "
                    "attribute; not carried"
                )
            known_parts = {"pk", "sk", "index", "collection", "condition"}
            known_parts.add("projection")
            for extra in sorted(set(spec) - known_parts):
                self.notes.append(f"{where}.{extra}: not carried")
            patterns.extend(
                _patterns(
                    name,
                    access,
                    index,
                    (pk_field, pk, pk_names),
                    (sk_field, sk, sk_names),
                    when,
                )
            )
            if collection:
                self.collections.setdefault((index, str(collection)), []).append(
                    (name, {"pk": (pk_field, pk, pk_names), "sk": (sk_field, sk)})
                )
        for attr in attrs.values():
            attr.pop("padding", None)
        return {"attributes": attrs, "keys": keys}, patterns

    def _when(self, where: str, condition: Any) -> str:
        """A sparse index's condition as the design's `when`: read back only
        where it is true for exactly one value of one enumerated attribute
        (`status === "OPEN"`), else named as not carried."""
        probes = (condition or {}).get("probes") or []
        true = [(name, value) for name, value, result in probes if result is True]
        if (
            (condition or {}).get("base") is False
            and len(true) == 1
            and all(result is not None for _, _, result in probes)
            and re.fullmatch(r"[A-Za-z0-9_.-]+", str(true[0][1]))
        ):
            return f"{true[0][0]} = {true[0][1]}"
        self.notes.append(
            f"{where}.condition: not carried (read back only when true for one "
            "value of one enumerated attribute); the design writes this index "
            "for every item"
        )
        return ""

    def _attribute(self, where: str, spec: Any) -> dict:
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, dict):
            raise JsModelError(f"{where}: expected {{type: ...}}")
        kind = spec.get("type", "string")
        attr: dict[str, Any] = {}
        if isinstance(kind, list):
            attr["type"] = "S"
            if kind:
                attr["generator"] = {"choice": [str(v) for v in kind]}
        elif kind == "set":
            items = spec.get("items")
            attr["type"] = _SET_TYPES.get(items if isinstance(items, str) else "", "SS")
            if isinstance(items, list):
                self.notes.append(
                    f"{where}.items: the set's allowed values are not carried "
                    "(the design draws any text)"
                )
        elif kind in _TYPES:
            attr["type"] = _TYPES[kind]
        elif kind in ("any", "custom"):
            attr["type"] = "S"
            self.notes.append(f"{where}: type {kind} is read as text")
        else:
            raise JsModelError(
                f"{where}.type: expected string, number, boolean, list, map, set, "
                f"any, custom or a list of values, found {kind!r}"
            )
        if kind == "map" and spec.get("properties"):
            self.notes.append(
                f"{where}.properties: the map's attributes "
                f"({', '.join(sorted(map(str, spec['properties'])))[:200]}) are not "
                "carried; the design holds the map as one M attribute"
            )
        if kind == "list" and spec.get("items"):
            self.notes.append(
                f"{where}.items: the list's item type is not carried; the design "
                "holds the list as one L attribute"
            )
        default = spec.get("default")
        if isinstance(default, (str, int, float, bool)) and "generator" not in attr:
            attr["generator"] = {"constant": default}
        elif isinstance(default, dict):
            self.notes.append(f"{where}.default: a function; not carried")
        if spec.get("required") is not True:
            attr["required"] = False
        padding = spec.get("padding")
        if padding is not None:
            if (
                isinstance(padding, dict)
                and padding.get("char") == "0"
                and isinstance(padding.get("length"), int)
                and 0 < padding["length"] <= 40
                and attr["type"] == "N"
            ):
                attr["padding"] = padding["length"]
            else:
                self.notes.append(
                    f"{where}.padding: only a number's zero padding is carried"
                )
        for part in _RUNTIME:
            if part in spec:
                self.notes.append(f"{where}.{part}: not carried (ElectroDB runtime)")
        if "field" in spec and spec["field"] != where.rsplit(".", 1)[-1]:
            self.notes.append(
                f"{where}.field: stored as {spec['field']} by ElectroDB; the design "
                "keeps the attribute's name"
            )
        for extra in sorted(set(spec) - _KNOWN - set(_RUNTIME)):
            self.notes.append(f"{where}.{extra}: not carried")
        return attr

    def _key(
        self, where: str, spec: dict, attrs: dict, context: tuple
    ) -> tuple[str, str, list[str]]:
        part, service, entity, version, collection = context
        field = spec.get("field")
        if not isinstance(field, str) or not field:
            raise JsModelError(f"{where}.field: expected the key attribute's name")
        composite = spec.get("composite") or []
        if not isinstance(composite, list) or not all(
            isinstance(c, str) for c in composite
        ):
            raise JsModelError(f"{where}.composite: expected a list of attribute names")
        casing = spec.get("casing", "default")
        if casing not in ("default", "lower", "upper", "none"):
            raise JsModelError(
                f"{where}.casing: expected default, lower, upper or none, found "
                f"{casing!r}"
            )
        template = spec.get("template")
        if isinstance(template, str):
            names = [m.group(1) for m in _PLACEHOLDER.finditer(template)]
            pieces = _PLACEHOLDER.split(template)
        else:
            names = list(composite)
            head = (
                f"${service}"
                if part == "pk"
                else (
                    f"${collection}#{entity}_{version}"
                    if collection
                    else f"${entity}_{version}"
                )
            )
            pieces = [head]
            for name in names:
                pieces[-1] += f"#{name.lower()}_"
                pieces.extend([name, ""])
        for name in names:
            if name not in attrs:
                raise JsModelError(f"{where}: {name} is no attribute of {entity}")
        out = []
        for position, piece in enumerate(pieces):
            if position % 2:
                width = attrs[piece].get("padding")
                out.append(f"{{{piece}:0{width}d}}" if width else f"{{{piece}}}")
            else:
                cased = (
                    piece
                    if casing == "none"
                    else (piece.upper() if casing == "upper" else piece.lower())
                )
                out.append(literal(cased))
        if casing != "none" and any(attrs[n]["type"] == "S" for n in names):
            self.notes.append(
                f"{where}: ElectroDB writes its text values in "
                f"{'upper' if casing == 'upper' else 'lower'} case (casing "
                f"{casing}); the design keeps them as they are (casing: 'none' "
                "matches)"
            )
        return field, "".join(out), names

    def _collection_patterns(self) -> list[dict]:
        patterns = []
        for (index, collection), members in self.collections.items():
            names = [m for m, _ in members]
            pk_field, pk, pk_names = members[0][1]["pk"]
            if any(spec["pk"][1] != pk for _, spec in members):
                self.notes.append(
                    f"collection {collection}: its entities' partition keys "
                    "differ; not carried as a pattern"
                )
                continue
            pattern: dict[str, Any] = {
                "name": f"collection {collection}",
                "operation": "Query",
                "key": {pk_field: pk},
                "expects": {
                    "entity": names,
                    "where": {n: f"{{{n}}}" for n in pk_names},
                },
            }
            if index:
                pattern["index"] = index
            patterns.append(pattern)
        return patterns


def _patterns(
    entity: str, access: str, index: str, pk: tuple, sk: tuple, when: str = ""
) -> list[dict]:
    """ElectroDB's query of the index: the partition key's composites given,
    the sort key's prefix before its first placeholder (`begins_with`);
    for the table's own index also its get, every composite given. A sparse
    index (`when`, `status = OPEN`) holds only the items its condition
    holds for: its query promises those."""
    pk_field, pk_template, pk_names = pk
    sk_field, sk_template, sk_names = sk
    where = {n: f"{{{n}}}" for n in pk_names}
    if when:
        attribute, value = (part.strip() for part in when.split("=", 1))
        where.setdefault(attribute, value)
    key: dict[str, Any] = {pk_field: pk_template}
    patterns = []
    if sk_field and sk_template is not None and not sk_names:
        key[sk_field] = sk_template
        operation = "GetItem" if not index else "Query"
    else:
        operation = "Query"
        # The prefix before the first placeholder (none where a brace is
        # written literally: `{{` would be cut in two).
        plain = sk_template and "{{" not in sk_template
        prefix = sk_template.split("{", 1)[0] if plain else ""
        if sk_field and prefix:
            key[sk_field] = {"begins_with": prefix}
    pattern: dict[str, Any] = {
        "name": f"{entity} {access}",
        "operation": operation,
        "key": key,
        "expects": {"entity": entity, "where": where},
    }
    if index:
        pattern["index"] = index
    patterns.append(pattern)
    if not index and sk_field and sk_names:
        patterns.append(
            {
                "name": f"{entity} {access} get",
                "operation": "GetItem",
                "key": {pk_field: pk_template, sk_field: sk_template},
                "expects": {
                    "entity": entity,
                    "where": where | {n: f"{{{n}}}" for n in sk_names},
                },
            }
        )
    return patterns
