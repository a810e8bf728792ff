"""The key map: one row per entity, one column per key attribute of the
table and of every index, each cell the entity's key template there (with
its sparse condition), or a mark that the entity is not in that index."""

from __future__ import annotations

from dataclasses import dataclass

from modeler.design import model as d
from modeler.keys import TemplateSyntaxError, parse_template


@dataclass(frozen=True)
class KeyColumn:
    """One key attribute of one index (`table` for the base table)."""

    index: str
    role: str  # "partition" or "sort"
    attribute: str
    type: str
    shared: bool = False  # an LSI's partition key: the table's own


@dataclass(frozen=True)
class IndexGroup:
    """The header over an index's columns."""

    name: str
    kind: str  # "table", "global" or "local"
    projection: str
    span: int


@dataclass(frozen=True)
class KeyCell:
    template: str = ""
    when: str = ""
    # Optional attributes the template uses: the item has no key (and is
    # not in the index) when one of them is missing.
    optional: tuple[str, ...] = ()
    absent: bool = False

    @property
    def sparse(self) -> bool:
        return bool(self.when or self.optional)


@dataclass(frozen=True)
class AttributeInfo:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class KeyMapRow:
    entity: str
    colour: int
    description: str
    cells: tuple[KeyCell, ...]
    attributes: tuple[AttributeInfo, ...]
    indexes: tuple[str, ...]  # the secondary indexes the entity is in
    absent_from: tuple[str, ...]


@dataclass(frozen=True)
class KeyMap:
    groups: tuple[IndexGroup, ...]
    columns: tuple[KeyColumn, ...]
    rows: tuple[KeyMapRow, ...]


def projection_text(projection: d.Projection) -> str:
    if projection.type == "INCLUDE":
        return "INCLUDE " + ", ".join(projection.attributes)
    return projection.type


def index_columns(design: d.Design) -> list[tuple[IndexGroup, list[KeyColumn]]]:
    """The table's and every index's key attributes, grouped by index."""
    table = design.table
    groups: list[tuple[IndexGroup, list[KeyColumn]]] = []
    columns = [
        KeyColumn(
            "table", "partition", table.partition_key.name, table.partition_key.type
        )
    ]
    if table.sort_key:
        columns.append(
            KeyColumn("table", "sort", table.sort_key.name, table.sort_key.type)
        )
    groups.append((IndexGroup("table", "table", "", len(columns)), columns))
    for index in table.indexes:
        columns = []
        partition = index.partition_key or (table.partition_key,)
        for attr in partition:
            columns.append(
                KeyColumn(
                    index.name,
                    "partition",
                    attr.name,
                    attr.type,
                    shared=not index.is_global,
                )
            )
        for attr in index.sort_key:
            columns.append(KeyColumn(index.name, "sort", attr.name, attr.type))
        group = IndexGroup(
            index.name, index.kind, projection_text(index.projection), len(columns)
        )
        groups.append((group, columns))
    return groups


def entity_in_index(entity: d.Entity, columns: list[KeyColumn]) -> bool:
    """Whether an entity writes every key attribute of an index."""
    return all(c.attribute in entity.keys for c in columns)


def _optional_attributes(entity: d.Entity, template: str) -> tuple[str, ...]:
    try:
        names = parse_template(template).attributes
    except TemplateSyntaxError:
        return ()
    optional = []
    for name in names:
        attribute = entity.attribute(name)
        if attribute is not None and not attribute.required and name not in optional:
            optional.append(name)
    return tuple(optional)


def key_map(design: d.Design) -> KeyMap:
    groups = index_columns(design)
    all_columns = tuple(c for _, cs in groups for c in cs)
    rows = []
    for position, entity in enumerate(design.entities):
        cells: list[KeyCell] = []
        member_of: list[str] = []
        absent_from: list[str] = []
        for group, columns in groups:
            present = entity_in_index(entity, columns)
            if group.kind != "table":
                (member_of if present else absent_from).append(group.name)
            for column in columns:
                key = entity.keys.get(column.attribute)
                if not present or key is None:
                    cells.append(KeyCell(absent=True))
                    continue
                cells.append(
                    KeyCell(
                        template=key.template,
                        when=key.when,
                        optional=_optional_attributes(entity, key.template),
                    )
                )
        rows.append(
            KeyMapRow(
                entity=entity.name,
                colour=position % 10,
                description=entity.description,
                cells=tuple(cells),
                attributes=tuple(
                    AttributeInfo(a.name, a.type, a.required, a.description)
                    for a in entity.attributes
                ),
                indexes=tuple(member_of),
                absent_from=tuple(absent_from),
            )
        )
    return KeyMap(tuple(g for g, _ in groups), all_columns, tuple(rows))
