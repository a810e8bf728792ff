"""The one place where ORM rows become a `Design` and a `Design` becomes rows.

`design_from_project` reads a project in a fixed number of queries;
`design_write_rows` replaces a project's design rows with the design's.
Reading back what was written gives an equal Design.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Prefetch

from modeler import design as d
from modeler import models as m


def _clauses_to_json(clauses: tuple[d.KeyClause, ...]) -> list[dict[str, Any]]:
    return [
        {"attribute": c.attribute, "operator": c.operator, "values": list(c.values)}
        for c in clauses
    ]


def _clauses_from_json(rows: list[dict[str, Any]]) -> tuple[d.KeyClause, ...]:
    return tuple(
        d.KeyClause(r["attribute"], r["operator"], tuple(r["values"])) for r in rows
    )


def _predicates_from_json(rows: list[dict[str, Any]]) -> tuple[d.Predicate, ...]:
    return tuple(
        d.Predicate(r["attribute"], r["operator"], tuple(r["values"])) for r in rows
    )


def _capacity(read: int | None, write: int | None) -> d.Capacity | None:
    return d.Capacity(read, write) if read is not None and write is not None else None


# --- Rows -> Design -----------------------------------------------------------


def project_design_queryset() -> Any:
    """Projects with everything a Design needs, prefetched."""
    return m.Project.objects.select_related("table").prefetch_related(
        Prefetch(
            "table__indexes",
            queryset=m.Index.objects.prefetch_related("key_attributes"),
        ),
        Prefetch(
            "entities",
            queryset=m.Entity.objects.prefetch_related("attributes", "key_templates"),
        ),
        Prefetch(
            "access_patterns",
            queryset=m.AccessPattern.objects.prefetch_related("parameters", "actions"),
        ),
        "sample_items",
    )


def design_from_project(project: m.Project) -> d.Design:
    """The project's design. Pass a project from `project_design_queryset()`
    to read it without further queries."""
    return d.Design(
        name=project.name,
        description=project.description,
        table=_table_from_row(project.table),
        entities=tuple(_entity_from_row(e) for e in project.entities.all()),
        access_patterns=tuple(
            _pattern_from_row(p) for p in project.access_patterns.all()
        ),
        sample_data=d.SampleData(
            seed=project.sample_seed,
            items=tuple(d.freeze(i.item) for i in project.sample_items.all()),
        ),
    )


def _table_from_row(row: m.Table) -> d.Table:
    return d.Table(
        name=row.name,
        partition_key=d.KeyAttribute(row.partition_key_name, row.partition_key_type),
        sort_key=(
            d.KeyAttribute(row.sort_key_name, row.sort_key_type)
            if row.sort_key_name
            else None
        ),
        billing_mode=row.billing_mode,
        capacity=_capacity(row.read_capacity, row.write_capacity),
        indexes=tuple(_index_from_row(i) for i in row.indexes.all()),
        ttl_attribute=row.ttl_attribute,
        stream_view_type=row.stream_view_type,
        point_in_time_recovery=row.point_in_time_recovery,
        encryption=d.Encryption(row.encryption_type, row.kms_key),
        table_class=row.table_class,
        deletion_protection=row.deletion_protection,
        tags=tuple((k, v) for k, v in row.tags),
    )


def _index_from_row(row: m.Index) -> d.Index:
    keys = list(row.key_attributes.all())

    def part(name: str) -> tuple[d.KeyAttribute, ...]:
        return tuple(
            d.KeyAttribute(k.name, k.type)
            for k in sorted(keys, key=lambda k: k.position)
            if k.part == name
        )

    return d.Index(
        name=row.name,
        kind=row.kind,
        partition_key=part(m.IndexKeyAttribute.PARTITION),
        sort_key=part(m.IndexKeyAttribute.SORT),
        projection=d.Projection(row.projection_type, tuple(row.projection_attributes)),
        capacity=_capacity(row.read_capacity, row.write_capacity),
    )


def _entity_from_row(row: m.Entity) -> d.Entity:
    return d.Entity(
        name=row.name,
        description=row.description,
        attributes=tuple(_attribute_from_row(a) for a in row.attributes.all()),
        keys=d.freeze(
            {
                k.key_attribute: d.KeyTemplate(k.template, k.condition)
                for k in row.key_templates.all()
            }
        ),
        sample=d.SampleSettings(
            count=d.Count(
                row.count_distribution,
                value=row.count_value,
                low=row.count_low,
                high=row.count_high,
                s=row.count_s,
            ),
            per=row.sample_per,
            hot_keys=row.hot_keys,
            hot_share=row.hot_share,
        ),
    )


def _attribute_from_row(row: m.Attribute) -> d.Attribute:
    generator = None
    if row.generator is not None:
        generator = d.Generator(
            row.generator["kind"], d.freeze(row.generator.get("params", {}))
        )
    return d.Attribute(
        name=row.name,
        type=row.type,
        required=row.required,
        presence=row.presence,
        generator=generator,
        description=row.description,
        max_length=row.max_length,
    )


def _pattern_from_row(row: m.AccessPattern) -> d.AccessPattern:
    expects = None
    if row.expects_entities:
        expects = d.Expectation(
            tuple(row.expects_entities),
            _predicates_from_json(row.expects_where),
            tuple(row.expects_order_by),
        )
    return d.AccessPattern(
        name=row.name,
        operation=row.operation,
        description=row.description,
        index=row.index_name,
        key=_clauses_from_json(row.key),
        filter=row.filter,
        projection=tuple(row.projection),
        scan_forward=row.scan_forward,
        limit=row.limit,
        consistent_read=row.consistent_read,
        parameters=tuple(
            d.Parameter(p.name, p.type, p.example) for p in row.parameters.all()
        ),
        traffic=d.Traffic(row.rps, row.peak_rps),
        expects=expects,
        actions=tuple(
            d.Action(
                operation=a.operation,
                entity=a.entity,
                key=_clauses_from_json(a.key),
                set=tuple((k, v) for k, v in a.set),
                remove=tuple(a.remove),
                condition=a.condition,
                count=a.count,
            )
            for a in row.actions.all()
        ),
    )


# --- Design -> rows -----------------------------------------------------------


@transaction.atomic
def design_write_rows(project: m.Project, design: d.Design) -> None:
    """Replace the project's design rows with `design` (name and description
    included). The caller checks the design and the project's version."""
    project.name = design.name
    project.description = design.description
    project.sample_seed = design.sample_data.seed
    project.save()
    m.Table.objects.filter(project=project).delete()
    project.entities.all().delete()
    project.access_patterns.all().delete()
    project.sample_items.all().delete()
    _write_table(project, design.table)
    for position, entity in enumerate(design.entities):
        _write_entity(project, position, entity)
    for position, pattern in enumerate(design.access_patterns):
        _write_pattern(project, position, pattern)
    m.SampleItem.objects.bulk_create(
        m.SampleItem(project=project, position=i, item=d.thaw(item))
        for i, item in enumerate(design.sample_data.items)
    )


def _write_table(project: m.Project, table: d.Table) -> None:
    row = m.Table.objects.create(
        project=project,
        name=table.name,
        partition_key_name=table.partition_key.name,
        partition_key_type=table.partition_key.type,
        sort_key_name=table.sort_key.name if table.sort_key else "",
        sort_key_type=table.sort_key.type if table.sort_key else "S",
        billing_mode=table.billing_mode,
        read_capacity=table.capacity.read if table.capacity else None,
        write_capacity=table.capacity.write if table.capacity else None,
        ttl_attribute=table.ttl_attribute,
        stream_view_type=table.stream_view_type,
        point_in_time_recovery=table.point_in_time_recovery,
        encryption_type=table.encryption.type,
        kms_key=table.encryption.kms_key,
        table_class=table.table_class,
        deletion_protection=table.deletion_protection,
        tags=[list(pair) for pair in table.tags],
    )
    for position, index in enumerate(table.indexes):
        index_row = m.Index.objects.create(
            table=row,
            position=position,
            name=index.name,
            kind=index.kind,
            projection_type=index.projection.type,
            projection_attributes=list(index.projection.attributes),
            read_capacity=index.capacity.read if index.capacity else None,
            write_capacity=index.capacity.write if index.capacity else None,
        )
        m.IndexKeyAttribute.objects.bulk_create(
            [
                m.IndexKeyAttribute(
                    index=index_row, part=part, position=i, name=a.name, type=a.type
                )
                for part, attrs in (
                    (m.IndexKeyAttribute.PARTITION, index.partition_key),
                    (m.IndexKeyAttribute.SORT, index.sort_key),
                )
                for i, a in enumerate(attrs)
            ]
        )


def _write_entity(project: m.Project, position: int, entity: d.Entity) -> None:
    count = entity.sample.count
    row = m.Entity.objects.create(
        project=project,
        position=position,
        name=entity.name,
        description=entity.description,
        sample_per=entity.sample.per,
        count_distribution=count.distribution,
        count_value=count.value,
        count_low=count.low,
        count_high=count.high,
        count_s=count.s,
        hot_keys=entity.sample.hot_keys,
        hot_share=entity.sample.hot_share,
    )
    m.Attribute.objects.bulk_create(
        m.Attribute(
            entity=row,
            position=i,
            name=a.name,
            type=a.type,
            required=a.required,
            presence=a.presence,
            generator=(
                {"kind": a.generator.kind, "params": d.thaw(a.generator.params)}
                if a.generator
                else None
            ),
            description=a.description,
            max_length=a.max_length,
        )
        for i, a in enumerate(entity.attributes)
    )
    m.KeyTemplate.objects.bulk_create(
        m.KeyTemplate(
            entity=row,
            position=i,
            key_attribute=name,
            template=k.template,
            condition=k.when,
        )
        for i, (name, k) in enumerate(entity.keys.items())
    )


def _write_pattern(project: m.Project, position: int, pattern: d.AccessPattern) -> None:
    expects = pattern.expects
    row = m.AccessPattern.objects.create(
        project=project,
        position=position,
        name=pattern.name,
        description=pattern.description,
        operation=pattern.operation,
        index_name=pattern.index,
        key=_clauses_to_json(pattern.key),
        filter=pattern.filter,
        projection=list(pattern.projection),
        scan_forward=pattern.scan_forward,
        limit=pattern.limit,
        consistent_read=pattern.consistent_read,
        rps=pattern.traffic.rps,
        peak_rps=pattern.traffic.peak_rps,
        expects_entities=list(expects.entities) if expects else [],
        expects_where=(
            [
                {
                    "attribute": p.attribute,
                    "operator": p.operator,
                    "values": list(p.values),
                }
                for p in expects.where
            ]
            if expects
            else []
        ),
        expects_order_by=list(expects.order_by) if expects else [],
    )
    m.PatternParameter.objects.bulk_create(
        m.PatternParameter(
            pattern=row, position=i, name=p.name, type=p.type, example=p.example
        )
        for i, p in enumerate(pattern.parameters)
    )
    m.PatternAction.objects.bulk_create(
        m.PatternAction(
            pattern=row,
            position=i,
            operation=a.operation,
            entity=a.entity,
            key=_clauses_to_json(a.key),
            set=[list(pair) for pair in a.set],
            remove=list(a.remove),
            condition=a.condition,
            count=a.count,
        )
        for i, a in enumerate(pattern.actions)
    )
