"""Upgrading keeps every design: the rows of 0002 become revisions (0004)
that read back as the design they held, at the version pages had open."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from modeler import selectors
from modeler.design import model as d
from modeler.models import Project, Revision

BEFORE = [("modeler", "0002_review_settings")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes("modeler")


def _rows_of_a_design(apps) -> int:
    """A design in the rows of 0002 that sets most fields; returns its id."""
    User = apps.get_model("auth", "User")
    Project = apps.get_model("modeler", "Project")
    owner = User.objects.create(username="ada")
    project = Project.objects.create(
        name="Shop", description="Orders.", owner=owner, version=7, sample_seed=42
    )
    table = apps.get_model("modeler", "Table").objects.create(
        project=project,
        name="shop",
        partition_key_name="PK",
        sort_key_name="SK",
        billing_mode="PROVISIONED",
        read_capacity=5,
        write_capacity=6,
        ttl_attribute="expiresAt",
        tags=[["team", "orders"]],
    )
    index = apps.get_model("modeler", "Index").objects.create(
        table=table,
        position=0,
        name="GSI1",
        kind="global",
        projection_type="INCLUDE",
        projection_attributes=["total"],
    )
    keys = apps.get_model("modeler", "IndexKeyAttribute").objects
    keys.create(index=index, part="partition", position=0, name="GSI1PK")
    keys.create(index=index, part="sort", position=0, name="GSI1SK", type="N")
    entity = apps.get_model("modeler", "Entity").objects.create(
        project=project,
        position=0,
        name="Order",
        count_distribution="zipf",
        count_high=50,
        count_s=1.2,
        sample_per="",
    )
    apps.get_model("modeler", "Attribute").objects.create(
        entity=entity,
        position=0,
        name="orderId",
        type="S",
        generator={"kind": "ulid", "params": {}},
        max_length=26,
    )
    apps.get_model("modeler", "KeyTemplate").objects.create(
        entity=entity, position=0, key_attribute="PK", template="ORDER#{orderId}"
    )
    apps.get_model("modeler", "KeyTemplate").objects.create(
        entity=entity,
        position=1,
        key_attribute="GSI1PK",
        template="OPEN",
        condition="status = OPEN",
    )
    pattern = apps.get_model("modeler", "AccessPattern").objects.create(
        project=project,
        position=0,
        name="Order by id",
        operation="GetItem",
        key=[{"attribute": "PK", "operator": "=", "values": ["ORDER#{orderId}"]}],
        rps=3.5,
        expects_entities=["Order"],
        expects_where=[
            {"attribute": "orderId", "operator": "=", "values": ["{orderId}"]}
        ],
    )
    apps.get_model("modeler", "PatternParameter").objects.create(
        pattern=pattern, position=0, name="orderId", example="01H"
    )
    apps.get_model("modeler", "PatternAction").objects.create(
        pattern=pattern,
        position=0,
        operation="Update",
        entity="Order",
        set=[["status", "SHIPPED"]],
    )
    apps.get_model("modeler", "SampleItem").objects.create(
        project=project, position=0, item={"PK": {"S": "ORDER#1"}}
    )
    return project.pk


@pytest.mark.django_db(transaction=True)
def test_design_rows_become_a_revision_that_reads_back_the_same_design():
    apps = _migrate(BEFORE)
    try:
        project_id = _rows_of_a_design(apps)
    finally:
        _migrate(_latest())

    project = Project.objects.get(pk=project_id)
    design = selectors.project_design(project=project)

    assert (project.version, project.table_name) == (7, "shop")
    revision = Revision.objects.get(project=project)
    assert (revision.number, revision.kind) == (7, "create")
    assert design == d.Design(
        name="Shop",
        description="Orders.",
        table=d.Table(
            name="shop",
            partition_key=d.KeyAttribute("PK"),
            sort_key=d.KeyAttribute("SK"),
            billing_mode="PROVISIONED",
            capacity=d.Capacity(5, 6),
            indexes=(
                d.Index(
                    "GSI1",
                    "global",
                    (d.KeyAttribute("GSI1PK"),),
                    (d.KeyAttribute("GSI1SK", "N"),),
                    d.Projection("INCLUDE", ("total",)),
                ),
            ),
            ttl_attribute="expiresAt",
            tags=(("team", "orders"),),
        ),
        entities=(
            d.Entity(
                "Order",
                attributes=(
                    d.Attribute(
                        "orderId", generator=d.Generator("ulid"), max_length=26
                    ),
                ),
                keys=d.freeze(
                    {
                        "PK": d.KeyTemplate("ORDER#{orderId}"),
                        "GSI1PK": d.KeyTemplate("OPEN", "status = OPEN"),
                    }
                ),
                sample=d.SampleSettings(
                    count=d.Count("zipf", value=10, high=50, s=1.2)
                ),
            ),
        ),
        access_patterns=(
            d.AccessPattern(
                "Order by id",
                "GetItem",
                key=(d.KeyClause("PK", "=", ("ORDER#{orderId}",)),),
                parameters=(d.Parameter("orderId", example="01H"),),
                traffic=d.Traffic(3.5),
                expects=d.Expectation(
                    ("Order",), (d.Predicate("orderId", "=", ("{orderId}",)),)
                ),
                actions=(d.Action("Update", "Order", set=(("status", "SHIPPED"),)),),
            ),
        ),
        sample_data=d.SampleData(seed=42, items=(d.freeze({"PK": {"S": "ORDER#1"}}),)),
    )
    assert all(
        x.uid
        for x in (*design.entities, *design.table.indexes, *design.access_patterns)
    )
