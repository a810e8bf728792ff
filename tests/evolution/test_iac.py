"""The table changes as stages DynamoDB accepts in turn: one GSI created
per update, removals last, a new table for a new key schema."""

from __future__ import annotations

import dataclasses

import yaml

from modeler.design import model as d
from modeler.evolution.iac import iac_files, table_stages
from modeler.evolution.plan import plan_migration
from tests.evolution import revisions


def _gsi(name: str) -> d.Index:
    return d.Index(
        name,
        "global",
        (d.KeyAttribute(f"{name}PK"),),
        (d.KeyAttribute(f"{name}SK"),),
        d.Projection("KEYS_ONLY"),
    )


def _with_indexes(design: d.Design, indexes: tuple[d.Index, ...]) -> d.Design:
    return dataclasses.replace(
        design, table=dataclasses.replace(design.table, indexes=indexes)
    )


def _names(stage) -> list[str]:
    return [i.name for i in stage.table.indexes]


def test_each_new_gsi_is_a_stage_of_its_own_and_removals_come_last():
    before = revisions.original()
    gsi1, gsi2, gsi3 = before.table.indexes
    tags = dataclasses.replace(before.table, tags=(("team", "payments"),))
    after = dataclasses.replace(
        before,
        table=dataclasses.replace(
            tags, indexes=(gsi1, gsi3, _gsi("GSI4"), _gsi("GSI5"))
        ),
    )
    stages = table_stages(before, after)
    assert [s.title for s in stages] == [
        "the table's settings",
        "create GSI GSI4",
        "create GSI GSI5",
        "delete GSI GSI2",
    ]
    assert [_names(s) for s in stages] == [
        ["GSI1", "GSI3", "GSI2"],
        ["GSI1", "GSI3", "GSI4", "GSI2"],
        ["GSI1", "GSI3", "GSI4", "GSI5", "GSI2"],
        ["GSI1", "GSI3", "GSI4", "GSI5"],
    ]
    assert stages[0].table.tags == (("team", "payments"),)
    files = iac_files(before, after, "terraform")
    assert [name for name, _ in files] == [
        "01-the-table-s-settings.tf",
        "02-create-gsi-gsi4.tf",
        "03-create-gsi-gsi5.tf",
        "04-delete-gsi-gsi2.tf",
    ]
    assert "GSI5" not in files[1][1] and "GSI5" in files[2][1]


def test_a_gsi_changed_under_its_name_is_deleted_before_it_is_created_again():
    before = revisions.original()
    gsi1, gsi2, gsi3 = before.table.indexes
    changed = dataclasses.replace(gsi2, projection=d.Projection("ALL"))
    after = _with_indexes(before, (gsi1, changed, gsi3))
    stages = table_stages(before, after)
    assert [s.title for s in stages] == [
        "delete GSI GSI2 (created again next)",
        "create GSI GSI2",
    ]
    assert _names(stages[0]) == ["GSI1", "GSI3"]
    assert stages[1].table.index("GSI2").projection.type == "ALL"


def test_a_new_key_schema_is_a_new_table():
    stages = table_stages(revisions.original(), revisions.partition_key_changed())
    assert [s.title for s in stages] == ["create table order-management-v2"]
    assert stages[0].table.partition_key.name == "pk"
    ((name, text),) = iac_files(
        revisions.original(), revisions.partition_key_changed(), "cloudformation"
    )
    assert "order-management-v2" in text and name.endswith(".yaml")


def _provisioned(design: d.Design, capacities: dict[str, d.Capacity]) -> d.Design:
    """The design on a provisioned table, each GSI with its capacity."""
    table = design.table
    return dataclasses.replace(
        design,
        table=dataclasses.replace(
            table,
            billing_mode="PROVISIONED",
            capacity=d.Capacity(50, 20),
            indexes=tuple(
                dataclasses.replace(i, capacity=capacities[i.name])
                for i in table.indexes
            ),
        ),
    )


def test_a_gsi_whose_capacity_changes_is_updated_in_place():
    before = revisions.original()
    low, high = d.Capacity(10, 5), d.Capacity(20, 10)
    provisioned = _provisioned(before, {"GSI1": low, "GSI2": low, "GSI3": low})
    raised = _provisioned(before, {"GSI1": high, "GSI2": low, "GSI3": low})
    # Its capacity is a setting UpdateTable changes: the index stays (the
    # application reads it throughout), it is not deleted and built again.
    stages = table_stages(provisioned, raised)
    assert [s.title for s in stages] == ["the table's settings"]
    assert stages[0].table.index("GSI1").capacity == high
    # A switch to provisioned capacity gives every GSI its capacity in the
    # same update, as DynamoDB asks.
    stages = table_stages(before, provisioned)
    assert [s.title for s in stages] == ["the table's settings"]
    assert [i.capacity for i in stages[0].table.indexes] == [low, low, low]


def test_the_last_stage_names_only_the_gsis_it_deletes():
    before = revisions.original()
    gsi1, gsi2, gsi3 = before.table.indexes
    changed = dataclasses.replace(gsi2, projection=d.Projection("ALL"))
    stages = table_stages(before, _with_indexes(before, (gsi1, changed)))
    assert [s.title for s in stages] == [
        "delete GSI GSI2 (created again next)",
        "create GSI GSI2",
        "delete GSI GSI3",
    ]
    assert _names(stages[-1]) == ["GSI1", "GSI2"]


def test_each_gsi_removed_is_an_update_of_its_own():
    """UpdateTable deletes one GSI at a time, as it creates one."""
    before = revisions.original()
    gsi1, gsi2, gsi3 = before.table.indexes
    after = _with_indexes(before, (gsi1,))
    stages = table_stages(before, after)
    assert [s.title for s in stages] == ["delete GSI GSI2", "delete GSI GSI3"]
    assert [_names(s) for s in stages] == [["GSI1", "GSI3"], ["GSI1"]]
    assert [name for name, _ in iac_files(before, after, "cloudformation")] == [
        "01-delete-gsi-gsi2.yaml",
        "02-delete-gsi-gsi3.yaml",
    ]


def test_a_gsi_removed_while_the_table_turns_provisioned_has_capacity_until_deleted():
    # The example is on demand; the next revision is provisioned and drops
    # GSI2, which every version still writes until its own stage deletes
    # it. A provisioned table's every GSI needs capacity (CloudFormation
    # and Terraform refuse the stage otherwise), and one short of the
    # table's writes would throttle them.
    before = revisions.smaller(revisions.original(), 3)
    table = before.table
    after = dataclasses.replace(
        before,
        table=dataclasses.replace(
            table,
            billing_mode="PROVISIONED",
            capacity=d.Capacity(20, 10),
            indexes=tuple(
                dataclasses.replace(i, capacity=d.Capacity(10, 5))
                for i in table.indexes
                if i.name != "GSI2"
            ),
        ),
        access_patterns=tuple(p for p in before.access_patterns if p.index != "GSI2"),
    )
    first, last = table_stages(before, after)
    assert (first.title, last.title) == ("the table's settings", "delete GSI GSI2")
    assert {i.name: i.capacity for i in first.table.indexes}["GSI2"] == d.Capacity(
        20, 10
    )
    for _, text in iac_files(before, after, "cloudformation"):
        properties = yaml.safe_load(text)["Resources"]["Table"]["Properties"]
        assert properties["BillingMode"] == "PROVISIONED"
        for index in properties["GlobalSecondaryIndexes"]:
            assert "ProvisionedThroughput" in index, index["IndexName"]
    for _, text in iac_files(before, after, "terraform"):
        blocks = text.split("global_secondary_index {")[1:]
        assert blocks and all("read_capacity" in block for block in blocks)
    settings = next(
        s
        for s in plan_migration(before, after, proof=False).steps
        if "settings" in s.title
    )
    assert (
        "GSI GSI2, removed later: 20 RCU / 10 WCU, the table's, until its deletion"
        in " ".join(settings.details)
    )
