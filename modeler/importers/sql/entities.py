"""Tables become entities: columns become typed attributes with
generators, foreign keys become parent and child (`per` and `ref`) or a
`pick` of another entity's item, and a join table (a primary key made of
two foreign keys) a many-to-many relation: its items are made under one
side, each picking a distinct item of the other.

Foreign keys that close a cycle (a store's manager is staff of a store)
cannot all be followed when sample data is made parents first: the one
least needed (a one-to-one or optional reference) is made without it, with
a note."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from modeler.importers.sql.generators import is_full_text, typed
from modeler.importers.sql.schema import Column, ForeignKey, Schema, Table

# Sample data: about this many items of each entity, and of a root.
ITEMS_PER_ENTITY = 200
_MAX_PER_PARENT = 20
# A join table's rows per item of its first side (actors of a film).
_JOIN_SAMPLE = {"count": {"uniform": {"min": 2, "max": 6}}}


@dataclass
class Names:
    """How the schema's names are written in the design: a table's entity,
    a column's attribute (names a design cannot hold are rewritten)."""

    entities: dict[str, str] = field(default_factory=dict)
    attributes: dict[tuple[str, str], str] = field(default_factory=dict)

    def attribute(self, table: str, column: str) -> str | None:
        return self.attributes.get((table, column))


@dataclass
class Entities:
    names: Names
    specs: dict[str, dict[str, Any]]
    notes: list[str]
    inferred: list[str]
    join_tables: list[str]


# Plurals that the rules below would get wrong, and their singulars.
_SINGULARS = {
    "buses": "bus",
    "bonuses": "bonus",
    "campuses": "campus",
    "statuses": "status",
    "viruses": "virus",
    "movies": "movie",
    "cookies": "cookie",
    "calories": "calorie",
    "series": "series",
    "species": "species",
    "news": "news",
    "people": "person",
    "alias": "alias",
    "aliases": "alias",
    "atlas": "atlas",
    "canvas": "canvas",
    "analytics": "analytics",
    "statistics": "statistics",
    "children": "child",
}


def singular(word: str) -> str:
    """An English plural's singular, for the regular plurals tables are
    named with (orders, categories, addresses, boxes, purchases); a word
    that is no plural, or one the rules would get wrong, as it is. An
    entity names one item: an order, not orders."""
    lower = word.lower()
    if lower in _SINGULARS:
        return word[:1] + _SINGULARS[lower][1:]
    if len(lower) > 4 and lower.endswith("ies"):
        return word[:-3] + ("Y" if word[-3:].isupper() else "y")
    if lower.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if (
        len(lower) > 3
        and lower.endswith("s")
        and not lower.endswith(("ss", "us", "is", "os"))
    ):
        return word[:-1]
    return word


def entity_name(table: str, taken: set[str]) -> str:
    words = re.findall(r"[A-Za-z0-9]+", table)
    if words:
        words[-1] = singular(words[-1])
    name = "".join(w[:1].upper() + w[1:] for w in words)[:60]
    if not name or not name[0].isalpha():
        name = "T" + name if name else "Table"
    base, number = name, 2
    while name.lower() in taken:
        name, number = f"{base}{number}", number + 1
    taken.add(name.lower())
    return name


def attribute_name(column: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", column)[:200]
    return name if re.match(r"[A-Za-z_]", name) else "_" + name


def design_entities(schema: Schema) -> Entities:
    names = Names()
    notes: list[str] = []
    taken: set[str] = set()
    for table in schema.tables.values():
        names.entities[table.name] = entity_name(table.name, taken)
        used: set[str] = set()
        for column in table.columns:
            name = attribute_name(column.name)
            while name in used:
                name += "_"
            used.add(name)
            names.attributes[(table.name, column.name)] = name
            if name != column.name:
                notes.append(
                    f"{table.name}.{column.name} is written {name}: an attribute "
                    "name of letters, digits, _ . and -"
                )
    links = _links(schema, notes)
    parents = _parents(schema, links)
    joins = [t.name for t in schema.tables.values() if _is_join(t, links)]
    counts = _counts(schema, parents)
    notes.extend(_independent_picks(schema, links, parents))
    # A sequence counts within each parent's children (line numbers 1..n of
    # an order): a child's own numeric id would repeat across parents, so
    # it becomes a ULID, which sorts by creation time as the number did.
    texts = {
        (table.name, table.primary_key[0])
        for table in schema.tables.values()
        if table.name in parents
        and table.name not in joins
        and len(table.primary_key) == 1
        and (key := table.column(table.primary_key[0])) is not None
        and typed(key, key=True).generator == "sequence"
    }
    for table_name, column_name in sorted(texts):
        notes.append(
            f"{table_name}.{column_name} is numbered by the database; its items "
            "are made under a parent, so their ids are ULIDs (text that sorts by "
            "creation time)"
        )
    specs: dict[str, dict[str, Any]] = {}
    inferred: list[str] = []
    for table in schema.tables.values():
        entity = names.entities[table.name]
        parent = parents.get(table.name)
        attributes: dict[str, Any] = {}
        for column in table.columns:
            if is_full_text(column):
                notes.append(
                    f"{table.name}.{column.name} ({column.type_name}) is not "
                    "carried: DynamoDB has no full-text search; a search service "
                    "fed by the table's stream indexes the text"
                )
                continue
            link = links.get((table.name, column.name))
            attributes[names.attributes[(table.name, column.name)]] = _attribute(
                table,
                column,
                link,
                parent,
                names,
                texts,
                partner=_drawn_with(table.name, column.name, link, links, names),
            )
        spec: dict[str, Any] = {
            "description": table.comment
            or f"From table {table.name} (line {table.line}).",
            "attributes": attributes,
            "sample": _JOIN_SAMPLE | {"per": names.entities[parent.parent]}
            if table.name in joins and parent is not None
            else _sample(counts, parent, names),
        }
        specs[entity] = spec
        relation = (
            f", many-to-many between {_join_sides(table, links, names)}"
            if table.name in joins
            else (f", {names.entities[parent.parent]} has many" if parent else "")
        )
        inferred.append(
            f"entity {entity} from table {table.name} (line {table.line}): "
            f"{len(attributes)} attributes{relation}"
        )
    return Entities(names, specs, notes, inferred, joins)


def _links(schema: Schema, notes: list[str]) -> dict[tuple[str, str], ForeignKey]:
    """Each referencing column's foreign key, once cycles are broken."""
    keys: list[tuple[Table, ForeignKey]] = []
    for table in schema.tables.values():
        for key in table.foreign_keys:
            if key.parent not in schema.tables:
                notes.append(
                    f"{table.name} (line {key.line}) refers to {key.parent}, "
                    "which the file does not create: generated without it"
                )
                continue
            if key.parent == table.name:
                notes.append(
                    f"{table.name}.{', '.join(key.columns)} (line {key.line}) "
                    "refers to its own table: generated without the reference"
                )
                continue
            keys.append((table, key))
    while (cycle := _cycle(keys)) is not None:
        table, key = max(cycle, key=lambda edge: _break_score(*edge))
        keys.remove((table, key))
        notes.append(
            f"{table.name}.{', '.join(key.columns)} → {key.parent} (line "
            f"{key.line}) closes a cycle of references "
            f"({' → '.join(t.name for t, _ in cycle)}): generated without it"
        )
    return {(table.name, column): key for table, key in keys for column in key.columns}


def _drawn_with(
    table: str,
    column: str,
    link: ForeignKey | None,
    links: dict[tuple[str, str], ForeignKey],
    names: Names,
) -> str:
    """The attribute a column of a foreign key of several columns is picked
    with (its first column's), so the columns name one row of the parent;
    '' for a first column, a single one, or where the first column is
    taken by another foreign key."""
    if link is None or len(link.columns) < 2 or column == link.columns[0]:
        return ""
    if links.get((table, link.columns[0])) is not link:
        return ""
    return names.attributes.get((table, link.columns[0]), "")


def _independent_picks(
    schema: Schema,
    links: dict[tuple[str, str], ForeignKey],
    parents: dict[str, ForeignKey],
) -> list[str]:
    """A note for each foreign key of several columns made by `pick` whose
    first column another foreign key takes: its columns cannot be picked
    `with` it, so each draws its own item and the pair may match no row of
    the parent table (the others are picked with their first column, and a
    parent's key, made by `ref`, copies one item's values together)."""
    notes = []
    seen: set[int] = set()
    for (table, _), key in links.items():
        if len(key.columns) < 2 or id(key) in seen or parents.get(table) is key:
            continue
        if links.get((table, key.columns[0])) is key:
            continue
        seen.add(id(key))
        notes.append(
            f"{table}.({', '.join(key.columns)}) → {key.parent} (line {key.line}) "
            f"is made by one pick per column: its first column is another foreign "
            f"key's, so the others cannot be picked with it from one "
            f"{key.parent} item, and a generated pair may name no {key.parent} "
            f"row; queries joining on the pair find fewer items than the database "
            f"would"
        )
    return notes


def _cycle(
    keys: list[tuple[Table, ForeignKey]],
) -> list[tuple[Table, ForeignKey]] | None:
    edges: dict[str, list[tuple[Table, ForeignKey]]] = {}
    for table, key in keys:
        edges.setdefault(table.name, []).append((table, key))
    state: dict[str, int] = {}
    path: list[tuple[Table, ForeignKey]] = []

    def visit(name: str) -> list[tuple[Table, ForeignKey]] | None:
        state[name] = 1
        for edge in edges.get(name, []):
            target = edge[1].parent
            if state.get(target) == 1:
                start = next(
                    (i for i, (t, _) in enumerate(path) if t.name == target), 0
                )
                return path[start:] + [edge]
            if target not in state:
                path.append(edge)
                found = visit(target)
                if found is not None:
                    return found
                path.pop()
        state[name] = 2
        return None

    for name in list(edges):
        if name not in state:
            found = visit(name)
            if found is not None:
                return found
    return None


def _break_score(table: Table, key: ForeignKey) -> tuple[int, int, int]:
    """The reference to give up first: one-to-one, then optional, then not
    in the primary key."""
    one_to_one = key.columns in table.uniques
    optional = any(
        (c := table.column(name)) is not None and c.nullable for name in key.columns
    )
    in_key = set(key.columns) <= set(table.primary_key)
    return (one_to_one, optional, not in_key)


def _parents(
    schema: Schema, links: dict[tuple[str, str], ForeignKey]
) -> dict[str, ForeignKey]:
    """Each child table's parent: its first foreign key in its primary key,
    else its first required one."""
    parents: dict[str, ForeignKey] = {}
    for table in schema.tables.values():
        keys = [
            links[(table.name, c)]
            for c in table.primary_key
            if (table.name, c) in links
        ]
        if not keys:
            keys = [
                links[(table.name, c.name)]
                for c in table.columns
                if (table.name, c.name) in links and not c.nullable
            ]
        if keys:
            parents[table.name] = keys[0]
    return parents


def _is_join(table: Table, links: dict[tuple[str, str], ForeignKey]) -> bool:
    pointing = {
        links[(table.name, c)].parent
        for c in table.primary_key
        if (table.name, c) in links
    }
    return (
        len(table.primary_key) >= 2
        and len(pointing) >= 2
        and all((table.name, c) in links for c in table.primary_key)
    )


def _join_sides(
    table: Table, links: dict[tuple[str, str], ForeignKey], names: Names
) -> str:
    sides = [names.entities[links[(table.name, c)].parent] for c in table.primary_key]
    return " and ".join(sides)


def _counts(schema: Schema, parents: dict[str, ForeignKey]) -> dict[str, int]:
    """How many items each entity gets, parents first."""
    counts: dict[str, int] = {}

    def count(name: str, seen: frozenset[str] = frozenset()) -> int:
        if name in counts:
            return counts[name]
        parent = parents.get(name)
        if parent is None or parent.parent in seen:
            counts[name] = ITEMS_PER_ENTITY
        else:
            per = _per_parent(count(parent.parent, seen | {name}))
            counts[name] = counts[parent.parent] * per
        return counts[name]

    for name in schema.tables:
        count(name)
    return counts


def _per_parent(parents: int) -> int:
    return max(1, min(_MAX_PER_PARENT, round(ITEMS_PER_ENTITY / max(parents, 1))))


def _sample(counts: dict[str, int], parent: ForeignKey | None, names: Names) -> Any:
    if parent is None:
        return {"count": ITEMS_PER_ENTITY}
    per = _per_parent(counts[parent.parent])
    count: Any = (
        per
        if per == 1
        else {"uniform": {"min": max(1, per // 2), "max": per + per // 2}}
    )
    return {"per": names.entities[parent.parent], "count": count}


def _attribute(
    table: Table,
    column: Column,
    link: ForeignKey | None,
    parent: ForeignKey | None,
    names: Names,
    texts: set[tuple[str, str]],
    *,
    partner: str = "",
) -> dict[str, Any]:
    key = column.name in table.primary_key and len(table.primary_key) == 1
    shape = typed(column, key=key or (column.auto and link is None))
    spec: dict[str, Any] = {"type": shape.type}
    if (table.name, column.name) in texts:
        return {"type": "S", "generator": "ulid"}
    if link is not None:
        position = link.columns.index(column.name)
        target_columns = link.parent_columns or ()
        target = (
            target_columns[position] if position < len(target_columns) else column.name
        )
        if (link.parent, target) in texts:
            spec["type"] = "S"
        target = names.attribute(link.parent, target) or target
        source = f"{names.entities[link.parent]}.{target}"
        if link == parent:
            spec["generator"] = {"ref": source}
        elif partner:
            spec["generator"] = {"pick": {"from": source, "with": partner}}
        else:
            spec["generator"] = {"pick": source}
    elif shape.generator is not None:
        spec["generator"] = shape.generator
    if shape.max_length and shape.type == "S":
        spec["max_length"] = shape.max_length
    if column.nullable and column.name not in table.primary_key:
        spec["required"] = False
        # Drawn with its partner, it is present where that is.
        spec["presence"] = 1.0 if partner else 0.8
    return spec
