"""Each project's design rows become its first kept revision.

The revision takes the project's current version as its number, so pages
opened before the upgrade still save. The document is written in the shape
`modeler.history.codec` reads (every field given, which it accepts), from the
rows as they stood in 0003; this file does not import the app's code, which
will go on changing.
"""

import hashlib
import json
import secrets

from django.db import migrations


def _uid():
    return secrets.token_hex(6)


def _capacity(read, write):
    if read is None or write is None:
        return None
    return {"read": read, "write": write}


def _clauses(rows):
    return [
        {
            "attribute": r["attribute"],
            "operator": r["operator"],
            "values": list(r["values"]),
        }
        for r in rows
    ]


def _table(row):
    indexes = []
    for index in row.indexes.order_by("position"):
        keys = list(index.key_attributes.order_by("position"))
        indexes.append(
            {
                "name": index.name,
                "kind": index.kind,
                "partition_key": [
                    {"name": k.name, "type": k.type}
                    for k in keys
                    if k.part == "partition"
                ],
                "sort_key": [
                    {"name": k.name, "type": k.type} for k in keys if k.part == "sort"
                ],
                "projection": {
                    "type": index.projection_type,
                    "attributes": list(index.projection_attributes),
                },
                "capacity": _capacity(index.read_capacity, index.write_capacity),
                "uid": _uid(),
            }
        )
    return {
        "name": row.name,
        "partition_key": {
            "name": row.partition_key_name,
            "type": row.partition_key_type,
        },
        "sort_key": (
            {"name": row.sort_key_name, "type": row.sort_key_type}
            if row.sort_key_name
            else None
        ),
        "billing_mode": row.billing_mode,
        "capacity": _capacity(row.read_capacity, row.write_capacity),
        "indexes": indexes,
        "ttl_attribute": row.ttl_attribute,
        "stream_view_type": row.stream_view_type,
        "point_in_time_recovery": row.point_in_time_recovery,
        "encryption": {"type": row.encryption_type, "kms_key": row.kms_key},
        "table_class": row.table_class,
        "deletion_protection": row.deletion_protection,
        "tags": [[k, v] for k, v in row.tags],
    }


def _entity(row):
    attributes = []
    for a in row.attributes.order_by("position"):
        generator = None
        if a.generator is not None:
            generator = {
                "kind": a.generator["kind"],
                "params": a.generator.get("params", {}),
            }
        attributes.append(
            {
                "name": a.name,
                "type": a.type,
                "required": a.required,
                "presence": a.presence,
                "generator": generator,
                "description": a.description,
                "max_length": a.max_length,
                "uid": _uid(),
            }
        )
    return {
        "name": row.name,
        "description": row.description,
        "attributes": attributes,
        "keys": {
            k.key_attribute: {"template": k.template, "when": k.condition}
            for k in row.key_templates.order_by("position")
        },
        "sample": {
            "count": {
                "distribution": row.count_distribution,
                "value": row.count_value,
                "low": row.count_low,
                "high": row.count_high,
                "s": row.count_s,
            },
            "per": row.sample_per,
            "hot_keys": row.hot_keys,
            "hot_share": row.hot_share,
        },
        "uid": _uid(),
    }


def _pattern(row):
    expects = None
    if row.expects_entities:
        expects = {
            "entities": list(row.expects_entities),
            "where": _clauses(row.expects_where),
            "order_by": list(row.expects_order_by),
        }
    return {
        "name": row.name,
        "operation": row.operation,
        "description": row.description,
        "index": row.index_name,
        "key": _clauses(row.key),
        "filter": row.filter,
        "projection": list(row.projection),
        "scan_forward": row.scan_forward,
        "limit": row.limit,
        "consistent_read": row.consistent_read,
        "parameters": [
            {"name": p.name, "type": p.type, "example": p.example}
            for p in row.parameters.order_by("position")
        ],
        "traffic": {"rps": row.rps, "peak_rps": row.peak_rps},
        "expects": expects,
        "actions": [
            {
                "operation": a.operation,
                "entity": a.entity,
                "key": _clauses(a.key),
                "set": [[k, v] for k, v in a.set],
                "remove": list(a.remove),
                "condition": a.condition,
                "count": a.count,
            }
            for a in row.actions.order_by("position")
        ],
        "uid": _uid(),
    }


def rows_to_revisions(apps, schema_editor):
    Project = apps.get_model("modeler", "Project")
    Table = apps.get_model("modeler", "Table")
    Revision = apps.get_model("modeler", "Revision")
    ItemSet = apps.get_model("modeler", "ItemSet")
    for project in Project.objects.all().iterator():
        table = Table.objects.filter(project=project).first()
        if table is None:  # a project whose creation failed half-way
            continue
        document = {
            "name": project.name,
            "description": project.description,
            "table": _table(table),
            "entities": [_entity(e) for e in project.entities.order_by("position")],
            "access_patterns": [
                _pattern(p) for p in project.access_patterns.order_by("position")
            ],
            "sample_data": {"seed": project.sample_seed},
        }
        items = [i.item for i in project.sample_items.order_by("position")]
        item_set = None
        if items:
            digest = hashlib.sha256(
                json.dumps(items, sort_keys=True, separators=(",", ":")).encode()
            ).hexdigest()
            item_set = ItemSet.objects.create(
                project=project, digest=digest, items=items, count=len(items)
            )
        revision = Revision.objects.create(
            project=project,
            number=project.version,
            document=document,
            items=item_set,
            author=None,
            kind="create",
            summary="the design as it was when revisions started to be kept",
            changed=[],
        )
        project.head = revision
        project.table_name = table.name
        project.save(update_fields=["head", "table_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("modeler", "0003_revisions"),
    ]

    operations = [
        migrations.RunPython(rows_to_revisions, migrations.RunPython.noop),
    ]
