"""The table's settings a migration changes in place (billing mode, TTL,
stream, point-in-time recovery) are each an online change, made by the
plan's first step with the call each needs (UpdateTable changes neither
TTL nor backups), before any GSI is created; the stages set them in one
stage of their own; and with a new table they need no step at all (it is
created with them)."""

from __future__ import annotations

import dataclasses

import pytest

from modeler.design import model as d
from modeler.evolution import changes as c
from modeler.evolution.iac import iac_files, table_stages
from modeler.evolution.plan import DEPLOY, plan_migration
from tests.evolution import revisions
from tests.evolution.revisions import smaller

LOW = d.Capacity(10, 5)


def _with(design: d.Design, **fields) -> d.Design:
    return dataclasses.replace(
        design, table=dataclasses.replace(design.table, **fields)
    )


def _provisioned(design: d.Design) -> d.Design:
    indexes = tuple(dataclasses.replace(i, capacity=LOW) for i in design.table.indexes)
    return _with(
        design,
        billing_mode="PROVISIONED",
        capacity=d.Capacity(50, 20),
        indexes=indexes,
    )


BILLING = [
    "GSI GSI1 capacity: none -> 10 RCU / 5 WCU",
    "GSI GSI2 capacity: none -> 10 RCU / 5 WCU",
    "GSI GSI3 capacity: none -> 10 RCU / 5 WCU",
    "billing mode: PAY_PER_REQUEST -> PROVISIONED (DynamoDB allows one switch "
    "per 24 hours)",
    "provisioned capacity: none -> 50 RCU / 20 WCU",
]

# (before, after, the changes planned, the call that makes them, what the
# Terraform stage sets)
CASES = {
    "billing": (
        lambda o: o,
        _provisioned,
        BILLING,
        "UpdateTable",
        'billing_mode                = "PROVISIONED"',
    ),
    "billing back": (
        _provisioned,
        lambda o: o,
        [
            "GSI GSI1 capacity: 10 RCU / 5 WCU -> none",
            "GSI GSI2 capacity: 10 RCU / 5 WCU -> none",
            "GSI GSI3 capacity: 10 RCU / 5 WCU -> none",
            "billing mode: PROVISIONED -> PAY_PER_REQUEST (DynamoDB allows one "
            "switch per 24 hours)",
            "provisioned capacity: 50 RCU / 20 WCU -> none",
        ],
        "UpdateTable",
        'billing_mode                = "PAY_PER_REQUEST"',
    ),
    "TTL on": (
        lambda o: o,
        lambda o: _with(o, ttl_attribute="expiresAt"),
        ["TTL attribute: off -> expiresAt"],
        "UpdateTimeToLive",
        'attribute_name = "expiresAt"',
    ),
    "TTL moved": (
        lambda o: _with(o, ttl_attribute="expiresAt"),
        lambda o: _with(o, ttl_attribute="ttl"),
        [
            "TTL attribute: expiresAt -> ttl (TTL is turned off, then on: each "
            "once per hour at most)"
        ],
        "UpdateTimeToLive",
        'attribute_name = "ttl"',
    ),
    "stream": (
        lambda o: o,
        lambda o: _with(o, stream_view_type="NEW_AND_OLD_IMAGES"),
        ["stream: off -> NEW_AND_OLD_IMAGES"],
        "UpdateTable",
        'stream_view_type            = "NEW_AND_OLD_IMAGES"',
    ),
    "PITR": (
        lambda o: _with(o, point_in_time_recovery=False),
        lambda o: o,
        ["point-in-time recovery: off -> on"],
        "UpdateContinuousBackups",
        "point_in_time_recovery {\n    enabled = true",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_setting_is_an_online_change_made_by_the_first_step(case):
    make_before, make_after, whats, call, terraform = CASES[case]
    before = make_before(revisions.original())
    after = make_after(revisions.original())
    plan = plan_migration(before, after, proof=False)
    assert [(ch.category, ch.what, ch.setting) for ch in plan.changes] == [
        (c.ONLINE, what, True) for what in whats
    ]
    assert [(s.kind, s.title, s.details) for s in plan.steps] == [
        (c.ONLINE, f"{call}: the table's settings", tuple(whats)),
        (
            DEPLOY,
            "Deploy the application version of the new design (its access "
            "patterns; writes in the new shape only)",
            (),
        ),
    ]
    # Nothing is rewritten: a setting costs no request units.
    assert plan.write_units == plan.read_units == 0
    assert plan.spec["copy"] is False
    # The stages: the table as the new design has it, in one update.
    stages = table_stages(before, after)
    assert [s.title for s in stages] == ["the table's settings"]
    assert stages[0].table == after.table
    ((name, text),) = iac_files(before, after, "terraform")
    assert name == "01-the-table-s-settings.tf"
    assert terraform in text


def test_settings_of_several_calls_come_before_a_new_gsi():
    before = _with(revisions.original(), point_in_time_recovery=False)
    after = _provisioned(
        _with(
            revisions.gsi_added(),
            ttl_attribute="expiresAt",
            stream_view_type="NEW_IMAGE",
        )
    )
    plan = plan_migration(before, after, proof=False)
    settings = BILLING[:3] + ["GSI GSI4 added (GSI4PK / GSI4SK, INCLUDE productId)"]
    online = [ch.what for ch in plan.changes if ch.category == c.ONLINE]
    assert online[:4] == settings
    first = plan.steps[0]
    assert first.title == (
        "UpdateTable, UpdateTimeToLive, UpdateContinuousBackups: the table's settings"
    )
    assert first.details == (
        *BILLING,
        "TTL attribute: off -> expiresAt",
        "stream: off -> NEW_IMAGE",
        "point-in-time recovery: off -> on",
    )
    # The settings first, then the rewrite of the line items' GSI4 keys,
    # then the index over them, then the application that reads it.
    titles = [s.title.split(":")[0] for s in plan.steps]
    assert titles[:5] == [
        "UpdateTable, UpdateTimeToLive, UpdateContinuousBackups",
        "Deploy an application version that writes items in both the old and "
        "the new shape",
        "Run the script",
        "UpdateTable",
        "Deploy the application version of the new design (its access patterns; "
        "writes in the new shape only)",
    ]
    assert plan.steps[3].title.startswith("UpdateTable: create GSI GSI4")
    stages = table_stages(before, after)
    assert [s.title for s in stages] == ["the table's settings", "create GSI GSI4"]
    # The first stage has the settings and not yet the new index.
    assert stages[0].table.stream_view_type == "NEW_IMAGE"
    assert stages[0].table.index("GSI4") is None


def test_with_a_new_table_the_settings_need_no_step():
    before = revisions.original()
    after = _with(
        revisions.partition_key_changed(),
        stream_view_type="NEW_AND_OLD_IMAGES",
        ttl_attribute="expiresAt",
    )
    plan = plan_migration(before, after, proof=False)
    notes = [
        (ch.category, ch.setting)
        for ch in plan.changes
        if ch.what.startswith(("stream:", "TTL attribute:"))
    ]
    assert notes == [(c.NOTHING, False), (c.NOTHING, False)]
    assert not any("the table's settings" in s.title for s in plan.steps)
    (stage,) = table_stages(before, after)
    assert stage.title == "create table order-management-v2"
    assert stage.table.stream_view_type == "NEW_AND_OLD_IMAGES"
    assert stage.table.ttl_attribute == "expiresAt"


def test_a_change_of_settings_alone_is_proven_and_writes_nothing():
    before = smaller(revisions.original(), 3)
    after = _with(before, ttl_attribute="expiresAt", point_in_time_recovery=False)
    plan = plan_migration(before, after)
    assert plan.proven, plan.verdict
    assert plan.proof.tally.counts["written"] == 0
    assert plan.steps[0].title == (
        "UpdateTimeToLive, UpdateContinuousBackups: the table's settings"
    )
